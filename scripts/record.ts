/**
 * `npm run record`: the fixtures no unit test's request can record (the tests record the rest themselves:
 * `RECORD=1 npx jest <file>`, test/support/recorder.ts).
 *
 * Each scenario below runs on a fresh sandbox (in-process, fixed port, seed and start time, clock standing still)
 * and makes real calls through the app (its perform functions in core's app tester, or its interface client)
 * while nock's recorder listens. The requests to the two partner interfaces are kept, rewritten to the unit
 * suites' base addresses, stripped of volatile headers and written to test/fixtures/recorded/<scenario>.json;
 * one genuine delivery per event goes to test/fixtures/recorded/deliveries/<event>.json. The same sandbox, seed
 * and calls give the same files, so re-recording without a change leaves git clean.
 *
 * `npm run record` records every scenario below; `npm run record -- clinic-errors-en deliveries` only those named.
 */
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, relative } from 'node:path';
import nock from 'nock';
import { startSandbox, type Sandbox, type SandboxOptions, type TokenName } from '../sandbox';
import { call as sandboxCall } from '../test/support/call';
import {
  CONSENTING_CUSTOMER,
  DELIVERIES_DIR,
  HOOK_TARGET_URL,
  RECORDED_DIR,
  type Definition,
  type Json,
} from '../test/fixtures';
import {
  RECORD_SANDBOX,
  toDefinition,
  writeJsonFiles,
  type Api,
  type RawExchange,
} from '../test/support/recorder';

// Core reads this when it loads (quiet memory lines, no .env): set it before the app is required in main().
process.env.NODE_ENV ??= 'test';

/** The sandbox's port while recording (the fixtures do not depend on it: they are rewritten). */
const PORT = Number(process.env.RECORD_PORT ?? 4091);
const ROOT = join(__dirname, '..');

type AuthData = Record<string, string>;
type Fn = (z: unknown, bundle: unknown) => unknown;
type Operations = Record<string, { operation: Record<string, unknown> }>;

interface AppModules {
  tester: (fn: Fn, bundle: object) => Promise<Json>;
  app: { triggers: Operations; creates: Operations; searches: Operations; authentication: { test: Fn } };
  clientFor: typeof import('../lib/http').clientFor;
  events: typeof import('../lib/hooks/events').EVENTS;
}

interface Ctx {
  sb: Sandbox;
  refs: Sandbox['refs'];
  /** Connection data: the named (or literal) tokens, the sandbox's base addresses, the language. */
  auth(o?: {
    clinic?: TokenName | string | null;
    cashier?: TokenName | string | null;
    lang?: string;
  }): AuthData;
  /** The connection test (GET /ping on each interface with a token). */
  testAuth(authData: AuthData): Promise<Json>;
  /** Runs an operation's function of the app as Zapier does. */
  op(kind: 'triggers' | 'creates' | 'searches', key: string, fn: string, bundle: object): Promise<Json>;
  perform(kind: 'creates' | 'searches', key: string, inputData: object, authData?: AuthData): Promise<Json>;
  /** Runs `fn` with the app's client of an interface, inside the app (middleware and error mapper included). */
  client(
    api: Api,
    fn: (c: import('../lib/http').ApiClient) => Promise<unknown>,
    authData?: AuthData,
  ): Promise<Json>;
  /** A request of a sandbox-only endpoint (not recorded as a partner answer). */
  control(path: string, body?: unknown, method?: string): Promise<Json>;
  /** A plain request, for what the app never sends (no token). */
  fetch(url: string, o?: { method?: string; lang?: string; body?: unknown; token?: string }): Promise<Json>;
  /** The local receiver: 204 under /ok/, 410 under /gone/, 500 under /fail/. */
  receiver: string;
  events: AppModules['events'];
  /** Calls whose requests are not part of the scenario (getting ready, looking up ids). */
  unrecorded<T>(fn: () => Promise<T>): Promise<T>;
  /** An expected failure: the error is swallowed (its answer is what is recorded). */
  fails(p: Promise<unknown>): Promise<void>;
}

interface Scenario {
  name: string;
  /**
   * The recorded answers, in order: a status, or "status what" where what is the error code, `rows` (a non-empty
   * list), `empty` (an empty list) or `object`. A recording that differs is refused. A function of the context
   * for answers that follow the app's event table (one per event), so adding an event does not stale it.
   */
  expect: Array<number | string> | ((ctx: Ctx) => Array<number | string>);
  sandbox?: SandboxOptions;
  /** Keeps answers of the sandbox's stand-in for an endpoint the specs do not show (see `note`). */
  standIn?: string;
  run(ctx: Ctx): Promise<unknown>;
}

const NO_PATIENT = '01JD8ZK6M4Q2W7R9T3V5X8Y1AB';

/** An AppointmentWrite body as the app sends it (numbers, not input strings), for calls made with the client. */
const bookingBody = (c: Ctx) => ({
  patient_id: c.refs.clinic.patient,
  branch_id: c.refs.clinic.branchRiyadh,
  appointment_type_id: c.refs.clinic.appointmentType,
  starts_at: '2026-11-26T12:30:00+03:00',
  practitioner_id: c.refs.clinic.practitioner,
  note: 'First visit',
  external_ref: 'web-5501',
});

/** A clinic request that fails with each error code of the clinic spec §7, in the connection's language. */
const clinicErrors = (lang: 'en' | 'ar') => async (c: Ctx) => {
  const patient = `/patients/${c.refs.clinic.patient}`;
  const as = (token: TokenName) => c.auth({ clinic: token, cashier: null, lang });
  const owner = as('clinicOwner');
  const get = (token: TokenName, path = patient) =>
    c.fails(c.client('clinic', (cl) => cl.get(path), as(token)));
  const post = (path: string, body?: unknown, auth = owner) =>
    c.fails(c.client('clinic', (cl) => cl.post(path, body), auth));
  const subscribe = (target: string) =>
    c.unrecorded(() =>
      c.client('clinic', (cl) => cl.post('/webhooks', { target_url: target, event: 'appointment.created' })),
    );

  await c.fetch(`${c.sb.clinicBaseUrl}${patient}`, { lang }); // unauthenticated
  await get('clinicRevokedToken'); // token_invalid
  await get('clinicSuspended'); // tenant_inactive
  await get('clinicNotEntitled'); // not_entitled
  await post('/appointments', bookingBody(c), as('clinicReadOnly')); // insufficient_ability
  await c.fails(c.client('clinic', (cl) => cl.raw('GET', '/webhooks'), as('clinicNonOwner'))); // forbidden
  await get('clinicOwner', `/patients/${NO_PATIENT}`); // not_found
  await get('clinicRevokedClient'); // client_revoked

  // webhook_disabled: a receiver that answered 410 switched the subscription off.
  const gone = (await subscribe(`${c.receiver}/gone/1`)) as { body: { id: number } };
  await c.unrecorded(() => c.fails(c.client('clinic', (cl) => cl.post(`/webhooks/${gone.body.id}/test`))));
  await post(`/webhooks/${gone.body.id}/test`);

  // delivery_sent and payload_redacted: the clinic shows no re-send endpoint; the sandbox's stand-in answers.
  const testDelivery = async (target: string) => {
    const sub = (await subscribe(target)) as { body: { id: number } };
    await c.unrecorded(() => c.fails(c.client('clinic', (cl) => cl.post(`/webhooks/${sub.body.id}/test`))));
    return c.sb.deliveries({ subscriptionId: sub.body.id }).at(-1)!.id;
  };
  const sent = await testDelivery(`${c.receiver}/ok/1`);
  await c.fetch(`${c.sb.controlUrl}/deliveries/${sent}/resend`, { method: 'POST', lang });
  // A failed delivery whose body was then removed (as retention or an erasure does).
  const redacted = await testDelivery(`${c.receiver}/fail/1`);
  await c.unrecorded(() => c.control(`/deliveries/${redacted}/redact`, {}));
  await c.fetch(`${c.sb.controlUrl}/deliveries/${redacted}/resend`, { method: 'POST', lang });

  await post(`/appointments/${c.refs.clinic.appointmentInProgress}/cancel`, {}); // appointment_locked
  await post('/appointments', { ...bookingBody(c), starts_at: '2026-11-26T12:30:00' }); // validation_failed
  await get('clinicOwner', '/webhooks/events/nope/recent'); // event_unknown
  await post('/webhooks', { target_url: 'https://10.0.0.5/x', event: 'appointment.created' }); // url_not_allowed

  const { webhookLimit, rateLimitPerMinute } = c.sb.config;
  c.sb.config.webhookLimit = 0; // webhook_limit
  await post('/webhooks', { target_url: HOOK_TARGET_URL, event: 'appointment.created' });
  c.sb.config.webhookLimit = webhookLimit;

  c.sb.config.rateLimitPerMinute = 1; // rate_limited (the owner is far past one request this minute)
  await get('clinicOwner');
  c.sb.config.rateLimitPerMinute = rateLimitPerMinute;

  c.sb.config.planned.add('GET /patients/{id}'); // not_implemented
  await get('clinicOwner');
  c.sb.config.planned.delete('GET /patients/{id}');
};
const CLINIC_ERRORS = [
  '401 unauthenticated',
  '401 token_invalid',
  '403 tenant_inactive',
  '403 not_entitled',
  '403 insufficient_ability',
  '403 forbidden',
  '404 not_found',
  '409 client_revoked',
  '409 webhook_disabled',
  '409 delivery_sent',
  '409 payload_redacted',
  '409 appointment_locked',
  '422 validation_failed',
  '422 event_unknown',
  '422 url_not_allowed',
  '422 webhook_limit',
  '429 rate_limited',
  '501 not_implemented',
];

const SCENARIOS: Scenario[] = [
  /* The clinic's error catalogue, in both languages: the errors suite maps each answer onto its own request. */
  { name: 'clinic-errors-en', expect: CLINIC_ERRORS, standIn: 'resend', run: clinicErrors('en') },
  { name: 'clinic-errors-ar', expect: CLINIC_ERRORS, standIn: 'resend', run: clinicErrors('ar') },
];

/* ------------------------------------------------------------------------------------------------------ */

/** The app's clock stands still at the sandbox's start, so time-based queries are the same on every run. */
const freezeDate = (at: number) => {
  const RealDate = Date;
  class FrozenDate extends RealDate {
    constructor(...args: unknown[]) {
      if (args.length) super(...(args as [number]));
      else super(at);
    }
    static override now() {
      return at;
    }
  }
  globalThis.Date = FrozenDate as DateConstructor;
};

const receiverOf = async (): Promise<{ url: string; server: Server }> => {
  const server = createServer((req, res) => {
    req.resume();
    const status = req.url?.startsWith('/gone/') ? 410 : req.url?.startsWith('/fail/') ? 500 : 204;
    req.on('end', () => res.writeHead(status).end());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server };
};

const kindOf = (response: Json): string =>
  response?.error
    ? String(response.error)
    : Array.isArray(response?.data)
      ? response.data.length
        ? 'rows'
        : 'empty'
      : 'object';

/** Lets nock's recorder finish writing down the answers it has seen (it reads their bodies asynchronously). */
const flush = () => new Promise((resolve) => setTimeout(resolve, 20));

const main = async () => {
  const started = performance.now();
  const only = process.argv.slice(2);
  freezeDate(Date.parse(String(RECORD_SANDBOX.startTime)));
  // Required only now: core reads NODE_ENV when it loads.
  const { createAppTester } = await import('zapier-platform-core');
  const App = (await import('../index')).default;
  const { clientFor } = await import('../lib/http');
  const { EVENTS } = await import('../lib/hooks/events');
  const tester = createAppTester(App) as unknown as AppModules['tester'];
  const app = App as unknown as AppModules['app'];
  const receiver = await receiverOf();

  nock.recorder.rec({ output_objects: true, dont_print: true });
  const outputs = () => nock.recorder.play() as unknown as Json[];

  const withSandbox = async <T>(options: SandboxOptions, fn: (ctx: Ctx, skip: Set<number>) => Promise<T>) => {
    // A fresh z.cache too, as a fresh sandbox: what one scenario's steps remember must not reach another's.
    (tester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
    const sb = await startSandbox({ ...RECORD_SANDBOX, port: PORT, ...options });
    const skip = new Set<number>();
    const auth: Ctx['auth'] = (o = {}) => {
      const token = (v: string | null | undefined, fallback: TokenName) =>
        v === null ? undefined : v === undefined ? sb.tokens[fallback] : (sb.tokens[v as TokenName] ?? v);
      const out: AuthData = {
        clinic_base_url: sb.clinicBaseUrl,
        cashier_base_url: sb.cashierBaseUrl,
        language: o.lang ?? 'en',
      };
      const clinic = token(o.clinic, 'clinicOwner');
      const cashier = token(o.cashier, 'cashierOwner');
      if (clinic) out.clinic_api_token = clinic;
      if (cashier) out.cashier_api_token = cashier;
      return out;
    };
    const call = async (
      url: string,
      { lang = 'en', ...o }: { method?: string; lang?: string; body?: unknown; token?: string } = {},
    ) => (await sandboxCall(url, { ...o, headers: { 'Accept-Language': lang } })).body;
    const ctx: Ctx = {
      sb,
      refs: sb.refs,
      auth,
      testAuth: (authData) => tester(app.authentication.test, { authData }),
      op: (kind, key, fn, bundle) => {
        const target = app[kind][key]?.operation[fn] as Fn | undefined;
        if (typeof target !== 'function') throw new Error(`the app has no ${kind}.${key}.${fn}`);
        return tester(target, bundle);
      },
      perform: (kind, key, inputData, authData = auth()) =>
        ctx.op(kind, key, 'perform', { authData, inputData, meta: { zap: { id: 'record' } } }),
      client: (api, fn, authData = auth()) =>
        tester(((z: never, bundle: never) => fn(clientFor(z, bundle, api))) as Fn, { authData }),
      control: async (path, body, method) => {
        const answer = await call(`${sb.controlUrl}${path}`, { body, method });
        if (answer?.error) throw new Error(`${path}: ${String(answer.error)} ${String(answer.message)}`);
        return answer;
      },
      fetch: call,
      receiver: receiver.url,
      events: EVENTS,
      unrecorded: async (fn) => {
        await flush();
        const before = outputs().length;
        const result = await fn();
        await sb.settle();
        await flush();
        for (let i = before; i < outputs().length; i += 1) skip.add(i);
        return result;
      },
      fails: (p) =>
        p.then(
          () => undefined,
          () => undefined,
        ),
    };
    try {
      return await fn(ctx, skip);
    } finally {
      await sb.close();
    }
  };

  const written = new Map<string, unknown>();
  const unknown = only.filter((n) => n !== 'deliveries' && !SCENARIOS.some((s) => s.name === n));
  if (unknown.length) {
    // A list to choose from, not a stack trace.
    console.error(
      `No scenario named ${unknown.join(', ')}. The scenarios:\n  ${[...SCENARIOS.map((s) => s.name), 'deliveries'].join('\n  ')}`,
    );
    process.exit(2);
  }
  const selected = SCENARIOS.filter((s) => !only.length || only.includes(s.name));
  for (const scenario of selected) {
    await withSandbox(scenario.sandbox ?? {}, async (ctx, skip) => {
      await flush();
      nock.recorder.clear();
      await scenario.run(ctx);
      await ctx.sb.settle();
      await flush();
      const defs = outputs()
        .filter((_, i) => !skip.has(i))
        .map((raw) => toDefinition(raw as RawExchange, ctx.sb, scenario.standIn))
        .filter((d): d is Definition => !!d);
      const expected = typeof scenario.expect === 'function' ? scenario.expect(ctx) : scenario.expect;
      const got = defs.map((d, i) =>
        typeof expected[i] === 'string' ? `${d.status} ${kindOf(d.response)}` : d.status,
      );
      if (JSON.stringify(got) !== JSON.stringify(expected)) {
        throw new Error(
          `${scenario.name}: recorded ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}\n${JSON.stringify(defs, null, 2).slice(0, 4000)}`,
        );
      }
      written.set(join(RECORDED_DIR, `${scenario.name}.json`), defs);
    });
  }

  const withDeliveries = !only.length || only.includes('deliveries');
  if (withDeliveries) {
    await withSandbox({}, (ctx) =>
      recordDeliveries(ctx).then((files) => files.forEach(([f, v]) => written.set(f, v))),
    );
  }
  nock.restore();
  await new Promise((resolve) => receiver.server.close(resolve));

  writeJsonFiles([...written]);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(
    `Wrote ${written.size} files (${selected.length} scenarios${withDeliveries ? ' and the deliveries' : ''}) to ${relative(ROOT, RECORDED_DIR)} in ${seconds} s.`,
  );
};

/**
 * One genuine delivery per event: a local receiver subscribed to every event through the app, each event caused
 * with the sandbox's control endpoints, and the raw body the sandbox sent, as it sent it.
 */
const recordDeliveries = async (c: Ctx): Promise<Array<[string, unknown]>> => {
  const subs = new Map<string, Json>();
  for (const def of c.events) {
    subs.set(
      def.event,
      await c.op('triggers', def.key, 'performSubscribe', {
        authData: c.auth(),
        targetUrl: `${c.receiver}/ok/${def.key}`,
        inputData: {},
      }),
    );
  }
  const { clinic, cashier } = c.refs;
  const eventIds = new Map<string, string>();
  const cause = async (path: string, body: unknown, event: string, method?: string) => {
    const answer = await c.control(`${path}?wait=true`, body, method);
    const found = (answer.events as Array<{ event: string; event_id: string }>).find(
      (e) => e.event === event,
    );
    if (!found) throw new Error(`${path} caused no ${event}: ${JSON.stringify(answer.events)}`);
    eventIds.set(event, found.event_id);
    return answer;
  };

  const booked = await cause(
    '/clinic/appointments',
    {
      patient_id: clinic.patient,
      branch_id: clinic.branchRiyadh,
      appointment_type_id: clinic.appointmentType,
      practitioner_id: clinic.practitioner,
      starts_at: '2026-11-26T12:30:00+03:00',
      source: 'online',
      note: 'أول زيارة - فحص أسنان',
    },
    'appointment.created',
  );
  const appointment = String(booked.data.id);
  await cause(
    `/clinic/appointments/${appointment}`,
    { status: 'confirmed', starts_at: '2026-11-26T13:00:00+03:00' },
    'appointment.updated',
    'PATCH',
  );
  await cause(
    `/clinic/appointments/${appointment}`,
    { status: 'cancelled', cancel_reason: 'patient_request' },
    'appointment.cancelled',
    'PATCH',
  );
  const issued = await cause(
    '/clinic/invoices',
    {
      patient_id: clinic.patient,
      branch_id: clinic.branchRiyadh,
      lines: [
        {
          nature: 'medical',
          qty: 1,
          unit_halalas: 40000,
          code: 'D1110',
          description: 'Scaling',
          tooth: '16',
          surfaces: ['M', 'O'],
        },
        {
          nature: 'medical',
          qty: 2,
          unit_halalas: 2500,
          code: 'D0220',
          description: 'Periapical X-ray',
          tooth: '26',
        },
      ],
    },
    'invoice.issued',
  );
  await cause(
    `/clinic/invoices/${String(issued.data.id)}/payments`,
    { method: 'card', scheme: 'mada', last4: '4417' },
    'invoice.paid',
  );
  await cause(
    `/clinic/claims/${clinic.claimPending}`,
    { status: 'adjudicated', outcome: 'partial' },
    'claim.updated',
    'PATCH',
  );

  const receipt = await cause(
    '/cashier/receipts',
    {
      branch_id: cashier.branchJeddah,
      lines: [
        { sku: 'COF-AR-L', qty: 2 },
        { sku: 'BAK-DATE', qty: 1 },
      ],
      tender: 'card',
    },
    'receipt.issued',
  );
  await cause(
    `/cashier/receipts/${String(receipt.data.id)}/credit-note`,
    { lines: [{ line_no: 2 }] },
    'credit_note.issued',
  );
  await cause(`/cashier/sessions/${cashier.openSession}/close`, {}, 'session.closed');
  await cause(
    '/cashier/stock',
    { branch_id: cashier.branchRiyadh, variant_id: cashier.variant },
    'stock.low',
  );
  await cause(`/cashier/orders/${cashier.orderReceived}/accept`, {}, 'order.status_changed');
  await cause('/cashier/customers', CONSENTING_CUSTOMER, 'customer.created');
  // Last: erasing removes the bodies of earlier deliveries about the patient.
  await cause(`/clinic/patients/${clinic.patientWithoutConsent}/erase`, {}, 'patient.erased');

  // A test delivery (event "ping") of the clinic.
  const pingSub = subs.get('appointment.created');
  await c.client('clinic', (cl) => cl.post(`/webhooks/${String(pingSub.id)}/test`));
  await c.sb.settle();
  const ping = c.sb.deliveries({ event: 'ping' }).at(-1);
  if (ping) eventIds.set('ping', ping.event_id);

  const files: Array<[string, unknown]> = [];
  for (const [event, eventId] of [...eventIds.entries()].sort(([a], [b]) => a.localeCompare(b))) {
    const record = c.sb
      .deliveries({ event })
      .find(
        (d) =>
          d.event_id === eventId &&
          d.status === 'sent' &&
          d.subscription_id === subs.get(event === 'ping' ? 'appointment.created' : event)?.id,
      );
    if (!record?.body) throw new Error(`no sent delivery of ${event} (${eventId})`);
    files.push([join(DELIVERIES_DIR, `${event}.json`), JSON.parse(record.body)]);
  }
  const missing = c.events.filter((e) => !eventIds.has(e.event)).map((e) => e.event);
  if (missing.length) throw new Error(`no delivery recorded for ${missing.join(', ')}`);
  return files;
};

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
