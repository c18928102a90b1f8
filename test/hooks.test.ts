import fc from 'fast-check';
import nock from 'nock';
import App from '../index';
import { EVENTS, type HookEvent } from '../lib/hooks/events';
import { WITH_PATIENT } from '../lib/hooks/extensions';
import { partnerHeaders, type SubscribeData } from '../lib/hooks/factory';
import {
  body,
  data,
  definition,
  delivered,
  deliveredAsSent,
  HOOK_TARGET_URL,
  type Json,
  replay,
  reply,
} from './fixtures';
import { call } from './support/call';
import { zapierHeaderName } from './support/intake';
import { clockAtRecording, given } from './support/recorder';
import { expectSarSiblings } from './support/money';
import {
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  CASHIER_TOKEN,
  clinicApi,
  clinicPath,
  contactOf,
  delivery,
  nowSeconds,
  useNock,
} from './helpers';

useNock();
// sandboxSigned sets the app's clock at a recorded delivery's timestamp.
afterEach(() => jest.useRealTimers());

/** An empty z.cache: a delivery sent again after this is not taken for a repeat. */
const forgetDeliveries = () => {
  (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
};
// Each test starts with an empty z.cache, so the recorded deliveries reused across tests are not repeats.
beforeEach(forgetDeliveries);

type Fn = (z: unknown, bundle: unknown) => unknown;
interface HookOp {
  perform: Fn;
  performList: Fn;
  performSubscribe: Fn;
  performUnsubscribe: Fn;
}
const op = (key: string) =>
  (App.triggers as Record<string, { operation: unknown }>)[key]!.operation as HookOp;
const run = <T>(fn: Fn, bundle: object) => appTester(fn as never, bundle as never) as Promise<T>;

/** The recordings subscribed with this hook address; the deliveries are signed here with the test's own secret. */
const TARGET = HOOK_TARGET_URL;
const TARGET_PATH = new URL(TARGET).pathname;
const SECRET = 'whsec_9d2c1e7b4a6f8e0d3c5b7a9e1f2d4c6b';

const apiOf = (def: HookEvent) => (def.api === 'clinic' ? clinicApi() : cashierApi());
const pathOf = (def: HookEvent, p: string) => (def.api === 'clinic' ? clinicPath(p) : cashierPath(p));

/**
 * A genuine delivery of the event, recorded from the sandbox (test/fixtures/recorded/deliveries). A status trigger
 * (Patient Arrived…) gets the recorded appointment.updated with its status moved to the trigger's: the recorded
 * one is a booked → confirmed update, which only Appointment Confirmed fires on.
 */
const envelopeOf = (def: HookEvent) => {
  const envelope = delivered(def.event);
  const moved = def.sampleData?.changes as { status?: [string, string] } | undefined;
  if (def.when && moved?.status) {
    envelope.data.status = moved.status[1];
    envelope.data.changes = { ...envelope.data.changes, status: moved.status };
  }
  return envelope;
};

/**
 * The event's recorded delivery as Zapier hands it to perform, signed by the sandbox, not by the test: the partner
 * headers it sent (`Http-` prefixed, Camel-Case), its body, and the subscription it signed for (id, secret, the
 * target's path); the app's clock at the delivery's timestamp. `rawBody` changes the body sent, not the signature.
 */
const sandboxSigned = (def: HookEvent, event = def.event, rawBody?: string) => {
  const sent = deliveredAsSent(event);
  const { subscription } = sent.recorded_from;
  clockAtRecording(Number(sent.headers['x-partner-timestamp']) * 1000);
  const content = rawBody ?? JSON.stringify(sent.envelope);
  return {
    subscribeData: {
      id: subscription.id,
      secret: subscription.secret,
      target_path: subscription.target_path,
      event: def.event,
      api: subscription.interface,
    },
    rawRequest: {
      method: 'POST',
      querystring: '',
      headers: {
        'Content-Type': 'application/json',
        ...Object.fromEntries(Object.entries(sent.headers).map(([k, v]) => [zapierHeaderName(k), v])),
      },
      content,
    },
    cleanedRequest: JSON.parse(content) as unknown,
  };
};
/** Whether the trigger is tested on the recorded body as it is (a status trigger's may be moved, see envelopeOf). */
const asRecorded = (def: HookEvent) =>
  JSON.stringify(envelopeOf(def)) === JSON.stringify(delivered(def.event));

/** Rows whose items carry the patient: each item costs one GET /patients/{id}, answered as recorded. */
const withPatient = (def: HookEvent) => (def.extensions ?? []).some((x) => x === WITH_PATIENT);
const patientAnswer = () => reply('find-patient-by-id');
const expectPatientCall = (patientId: string) =>
  clinicApi()
    .get(clinicPath(`/patients/${patientId}`))
    .reply(...patientAnswer());
const recordedContact = () => contactOf(data('find-patient-by-id'));
/** The recent-list limit performList asks: status triggers read more, as few updates are their status. */
const recentLimit = (def: HookEvent) => (def.when ? 25 : 3);

/** The recorded list a `list` sample reads (the cashier's lists that hold real objects of the event). */
const LIST_FIXTURE: Record<string, string> = {
  '/stock/levels': 'stock-low-list',
  '/customers': 'customers-list',
};
/** The recorded cursor a `cursor` sample walks (the cashier's receipts), with its seed, and without any sales. */
const CURSOR_FIXTURE: Record<string, { latest: string; empty: string }> = {
  receipt_issued: { latest: 'receipts-latest', empty: 'receipts-empty' },
  credit_note_issued: { latest: 'credit-notes-latest', empty: 'credit-notes-empty' },
};
const cursorQuery = (def: HookEvent) =>
  def.sample.kind === 'cursor' ? { ...def.sample.query, per_page: 100 } : {};
const recentPath = (def: HookEvent) => `/webhooks/events/${def.event}/recent`;
/** The recorded read of a trigger's recent events: its path and limit (a status trigger asks more). */
const recentPick = (def: HookEvent) => ({
  path: recentPath(def),
  query: { limit: String(recentLimit(def)) },
});

const subscribeData = (def: HookEvent, id = 41): SubscribeData => ({
  id,
  secret: SECRET,
  target_path: TARGET_PATH,
  event: def.event,
  api: def.api,
});
const expectedId = (def: HookEvent, data: Record<string, unknown>) =>
  def.key === 'stock_low' ? `${data.branch_id}:${data.variant_id}` : data.id;

/*
 * What the scenarios need of the sandbox when they are recorded (RECORD=1). The subscriptions are made one after
 * another on one sandbox, in the order of the event table; an unsubscription removes a subscription made first
 * (the clinic's, then the cashier's); the empty lists come from a sandbox without business data, its low stock
 * levels restocked (New Customer's consent check: test/consent.test.ts).
 */
given('webhook-subscribe', { shared: true });
// Record mode: the look before subscribing, on an account without subscriptions (a Zap's first subscribe).
given('webhook-list-empty', {});
given('webhook-unsubscribe', {
  setup: async (sb) => {
    for (const [base, token, event] of [
      [sb.clinicBaseUrl, sb.tokens.clinicOwner, 'appointment.created'],
      [sb.cashierBaseUrl, sb.tokens.cashierOwner, 'receipt.issued'],
    ]) {
      await call(`${base}/webhooks`, { token, body: { target_url: HOOK_TARGET_URL, event } });
    }
  },
});
given('recent-events-empty', { sandbox: { seed: false } });
given('receipts-empty', { sandbox: { seed: false } });
given('credit-notes-empty', { sandbox: { seed: false } });
given('lists-empty', {
  sandbox: { seed: false },
  setup: async (sb) => {
    const low = await call(`${sb.cashierBaseUrl}/stock/levels?low_only=true`, {
      token: sb.tokens.cashierOwner,
    });
    for (const level of low.body.data as Array<{ branch_id: number; variant_id: number }>) {
      await call(`${sb.controlUrl}/cashier/stock`, {
        body: { branch_id: level.branch_id, variant_id: level.variant_id, qty: 50 },
      });
    }
  },
});

describe.each(EVENTS.map((def) => [def.key, def] as const))('%s', (_key, def) => {
  it('subscribes with POST /webhooks {target_url, event} and keeps what perform needs', async () => {
    // The recording subscribed each trigger in the order of the event table (status triggers share an event).
    const pick = EVENTS.indexOf(def);
    const answer = body('webhook-subscribe', pick);
    const scope = apiOf(def)
      .get(pathOf(def, '/webhooks'))
      .query({ page: '1', per_page: '100' })
      .reply(replay('webhook-list-empty', { api: def.api }))
      .post(pathOf(def, '/webhooks'), { target_url: TARGET, event: def.event })
      .matchHeader('content-type', 'application/json')
      .reply(replay('webhook-subscribe', pick));
    const result = await run(op(def.key).performSubscribe, {
      authData: AUTH,
      targetUrl: TARGET,
      inputData: {},
    });
    expect(answer.data).toMatchObject({ event: def.event, target_url: TARGET });
    expect(result).toEqual({ ...subscribeData(def, answer.id), secret: answer.secret });
    expect(scope.isDone()).toBe(true);
  });

  it('unsubscribes with DELETE /webhooks/{id}, and takes a 404 as already gone', async () => {
    // The subscription the recording removed (and then found gone).
    const removed = definition('webhook-unsubscribe', { api: def.api, status: 204 });
    const id = Number(removed.path.split('/').pop());
    apiOf(def)
      .delete(removed.path)
      .reply(replay('webhook-unsubscribe', { api: def.api, status: 204 }));
    await expect(
      run(op(def.key).performUnsubscribe, {
        authData: AUTH,
        subscribeData: subscribeData(def, id),
        inputData: {},
      }),
    ).resolves.toEqual({ removed: true });
    apiOf(def)
      .delete(removed.path)
      .reply(replay('webhook-unsubscribe', { api: def.api, status: 404 }));
    await expect(
      run(op(def.key).performUnsubscribe, {
        authData: AUTH,
        subscribeData: subscribeData(def, id),
        inputData: {},
      }),
    ).resolves.toEqual({ removed: false });
  });

  it('verifies the sandbox’s own signature on its recorded delivery, and refuses it with one byte changed', async () => {
    const envelope = delivered(def.event);
    if (withPatient(def) && (!def.when || def.when(envelope.data))) {
      expectPatientCall(String(envelope.data.patient_id));
    }
    const bundle = { authData: AUTH, inputData: {}, ...sandboxSigned(def) };
    // A status trigger whose status the recorded update is not: verified, then not its event (no item).
    await expect(run<unknown[]>(op(def.key).perform, bundle)).resolves.toHaveLength(
      !def.when || def.when(envelope.data) ? 1 : 0,
    );
    forgetDeliveries();
    const raw = bundle.rawRequest.content;
    const at = raw.indexOf(String(envelope.id)) + 4;
    const changed = `${raw.slice(0, at)}${raw[at] === 'A' ? 'B' : 'A'}${raw.slice(at + 1)}`;
    const error = await run(op(def.key).perform, {
      authData: AUTH,
      inputData: {},
      ...sandboxSigned(def, def.event, changed),
    }).catch((e: Error) => e);
    expect(changed).not.toBe(raw);
    expect((error as Error).name).toBe('HaltedError');
    expect((error as Error).message).toMatch(/does not match/);
  });

  it('turns a signed delivery into one item with the object, event_id, occurred_at and SAR siblings', async () => {
    const envelope = envelopeOf(def);
    const data = envelope.data as Record<string, unknown>;
    const patientCall = withPatient(def) ? expectPatientCall(String(data.patient_id)) : undefined;
    const bundle = {
      authData: AUTH,
      inputData: {},
      // The sandbox's delivery as it signed it; a status trigger's moved body is signed here (the sandbox never
      // sent it).
      ...(asRecorded(def)
        ? sandboxSigned(def)
        : {
            subscribeData: subscribeData(def),
            ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
          }),
    };
    const items = await run<Array<Record<string, unknown>>>(op(def.key).perform, bundle);
    expect(items).toHaveLength(1);
    const item = items[0]!;
    expect(envelope.event).toBe(def.event);
    expect(item.id).toBe(expectedId(def, data));
    expect(item.event_id).toBe(envelope.id);
    expect(item.occurred_at).toBe(envelope.occurred_at);
    for (const [k, v] of Object.entries(data)) {
      if (k !== 'changes')
        expect(item[k]).toEqual(expect.anything() === v ? v : item[k] === undefined ? v : item[k]);
      if (k !== 'changes' && (typeof v !== 'object' || v === null)) expect(item[k]).toEqual(v);
    }
    const money = Object.keys(data).some((k) => k.endsWith('_halalas'));
    expect(expectSarSiblings(item) > 0).toBe(money);
    if (patientCall) {
      // One request per delivery (CONTRACT §8), and only the patient's name, contact and file number.
      expect(patientCall.isDone()).toBe(true);
      expect(item.patient).toEqual(recordedContact());
    } else {
      expect(item).not.toHaveProperty('patient');
    }
  });

  if (withPatient(def)) {
    it('reads no patient when Include Patient Details is off, and still fires without patients:read', async () => {
      const envelope = envelopeOf(def);
      const signed = () => delivery({ secret: SECRET, path: TARGET_PATH, envelope });
      const off = await run<Array<Record<string, unknown>>>(op(def.key).perform, {
        authData: AUTH,
        inputData: { include_patient: false },
        subscribeData: subscribeData(def),
        ...signed(),
      });
      expect(off).toHaveLength(1);
      expect(off[0]!.patient).toEqual({
        name_ar: null,
        name_en: null,
        phone: null,
        email: null,
        file_no: null,
      });
      forgetDeliveries();
      clinicApi()
        .get(clinicPath(`/patients/${String(envelope.data.patient_id)}`))
        // The 403 a token without patients:read gets (recorded on a patient search): the answer only.
        .reply(...reply('find-patient-insufficient-ability'));
      const noAbility = await run<Array<Record<string, unknown>>>(op(def.key).perform, {
        authData: AUTH,
        inputData: {},
        subscribeData: subscribeData(def),
        ...signed(),
      });
      expect(noAbility).toHaveLength(1);
      expect(noAbility[0]!.patient).toEqual(off[0]!.patient);
      expect(noAbility[0]!.id).toBe(envelope.data.id);
    });
  }

  // appTester's z.cache ignores nx (a set always succeeds), so the repeat itself is tested with a cache that honours
  // it (test/dedupe.test.ts, test/hostile.test.ts); here, that each Zap's subscription remembers the id apart.
  it('remembers the event id per subscription, so another Zap gets the same event', async () => {
    const env = envelopeOf(def);
    const bundleFor = (subId: number) => ({
      authData: AUTH,
      inputData: {},
      subscribeData: subscribeData(def, subId),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: env }),
    });
    if (withPatient(def)) for (const _ of [1, 2]) expectPatientCall(String(env.data.patient_id));
    const first = await run<unknown[]>(op(def.key).perform, bundleFor(41));
    const otherZap = await run<unknown[]>(op(def.key).perform, bundleFor(42));
    expect([first.length, otherZap.length]).toEqual([1, 1]);
    const remembered = Object.keys((appTester as unknown as { zcacheTestObj: object }).zcacheTestObj);
    expect(remembered).toHaveLength(2);
    for (const sub of [41, 42]) {
      expect(remembered.some((k) => k.includes(`delivery:${def.api}:${sub}:${env.id}`))).toBe(true);
    }
  });

  it('samples from the interface (performList)', async () => {
    // What the recorded answer holds: [raw object, its event id] for each sample the app should show.
    let expected: Array<[Json, string | undefined]>;
    if (def.sample.kind === 'recent') {
      const pick = recentPick(def);
      // A status trigger keeps the first three recent updates whose status became its own (of up to 25 read).
      expected = data('recent-events', pick)
        .filter((e: Json) => !def.when || def.when(e.data))
        .slice(0, 3)
        .map((e: Json) => [e.data, e.id]);
      clinicApi()
        .get(clinicPath(recentPath(def)))
        .query({ limit: recentLimit(def) })
        .reply(replay('recent-events', pick));
      if (withPatient(def)) for (const [o] of expected) expectPatientCall(String(o.patient_id));
    } else if (def.sample.kind === 'list') {
      const fixture = LIST_FIXTURE[def.sample.path]!;
      expected = data(fixture).map((o: Json) => [o, undefined]);
      cashierApi()
        .get(cashierPath(def.sample.path))
        .query({ ...def.sample.query, per_page: 3 })
        .reply(replay(fixture));
    } else if (def.sample.kind === 'cursor') {
      // The last arrived of the cursor, last first (a till's offline sale synced late counts by its arrival): the
      // seed's fit one page, so one read reaches the end. Read back after the run, which records the page.
      const source = def.sample;
      const fixture = CURSOR_FIXTURE[def.key]!.latest;
      cashierApi().get(cashierPath(source.path)).query(cursorQuery(def)).reply(replay(fixture));
      const items = await run<Array<Record<string, unknown>>>(op(def.key).performList, {
        authData: AUTH,
        inputData: {},
      });
      const page = body(fixture);
      expect(page.meta.has_more).toBe(false);
      const newest = (page.data as Json[])
        .filter((o) => !source.keeps || source.keeps(o))
        .slice(-3)
        .reverse();
      expect(newest.length).toBeGreaterThan(0);
      expect(items.map((i) => [i.id, i.event_id, i.occurred_at, i.kind])).toEqual(
        newest.map((o) => [o.id, `${def.event}:${o.id}`, o[source.at], o.kind]),
      );
      return;
    } else {
      const catalogue = data('webhook-catalogue', { api: 'cashier' });
      const entry = catalogue.find((e: Json) => e.event === def.event);
      expect(catalogue.length).toBeGreaterThan(1);
      expected = [[entry.sample.data, entry.sample.id]];
      cashierApi()
        .get(cashierPath('/webhooks/events'))
        .reply(replay('webhook-catalogue', { api: 'cashier' }));
    }
    if (!expected.length) {
      // Nothing recent of this status: the static sample, which is the trigger's own status.
      const items = await run<Array<Record<string, unknown>>>(op(def.key).performList, {
        authData: AUTH,
        inputData: {},
      });
      expect(items).toHaveLength(1);
      expect(items[0]!.status).toBe((def.sampleData as { status: string }).status);
      return;
    }
    const items = await run<Array<Record<string, unknown>>>(op(def.key).performList, {
      authData: AUTH,
      inputData: {},
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(items.map((i) => i.id)).toEqual(expected.map(([o]) => expectedId(def, o)));
    for (const [i, [, eventId]] of expected.entries()) {
      expect(typeof items[i]!.event_id).toBe('string');
      if (eventId) expect(items[i]!.event_id).toBe(eventId);
    }
    if (def.key === 'appointment_created') {
      // A New Appointment sample is the appointment as it was booked, however it went on.
      for (const item of items) expect(item).toMatchObject({ status: 'booked', cancelled_at: null });
    }
  });

  it('falls back to the interface’s sample, else the static one, when the interface has nothing yet', async () => {
    const definition = (App.triggers as Record<string, { operation: { sample: Record<string, unknown> } }>)[
      def.key
    ]!;
    const list = () =>
      run<Array<Record<string, unknown>>>(op(def.key).performList, { authData: AUTH, inputData: {} });
    if (def.sample.kind === 'recent') {
      // Nothing recent: the clinic's empty list still carries its sample (meta.sample) of the event, shown when it
      // is one this trigger fires on.
      const pick = recentPick(def);
      const empty = body('recent-events-empty', pick);
      expect(empty.data).toEqual([]);
      clinicApi()
        .get(clinicPath(recentPath(def)))
        .query({ limit: recentLimit(def) })
        .reply(replay('recent-events-empty', pick));
      const sampleFires = !def.when || def.when(empty.meta.sample.data);
      if (sampleFires && withPatient(def)) expectPatientCall(String(empty.meta.sample.data.patient_id));
      const [fromSample] = await list();
      if (sampleFires) {
        expect(fromSample!.event_id).toBe(empty.meta.sample.id);
        expect(fromSample!.id).toBe(expectedId(def, empty.meta.sample.data));
      } else {
        expect(fromSample).toEqual(definition.operation.sample);
      }
      // hand-built: an empty list without meta.sample, which the sandbox always sends.
      clinicApi()
        .get(clinicPath(recentPath(def)))
        .query({ limit: recentLimit(def) })
        .reply(200, { data: [], meta: { event: def.event, count: 0 } });
    } else if (def.sample.kind === 'list') {
      const pick = { path: def.sample.path };
      expect(data('lists-empty', pick)).toEqual([]);
      cashierApi()
        .get(cashierPath(def.sample.path))
        .query({ ...def.sample.query, per_page: 3 })
        .reply(replay('lists-empty', pick));
    } else if (def.sample.kind === 'cursor') {
      // No sales yet: the account's sample of the event, from the catalogue.
      const source = def.sample;
      const fixture = CURSOR_FIXTURE[def.key]!.empty;
      const cursor = () =>
        cashierApi().get(cashierPath(source.path)).query(cursorQuery(def)).reply(replay(fixture));
      cursor();
      cashierApi()
        .get(cashierPath('/webhooks/events'))
        .reply(replay('webhook-catalogue', { api: 'cashier' }));
      const [fromCatalogue, ...more] = await list();
      expect(data(fixture)).toEqual([]);
      const entry = data('webhook-catalogue', { api: 'cashier' }).find((e: Json) => e.event === def.event);
      expect(more).toEqual([]);
      expect(fromCatalogue).toMatchObject({ id: entry.sample.data.id, event_id: entry.sample.id });
      // hand-built: an empty catalogue; the sandbox always lists a sample for every event.
      cursor();
      cashierApi().get(cashierPath('/webhooks/events')).reply(200, { data: [] });
    } else {
      // hand-built: an empty catalogue; the sandbox always lists a sample for every event.
      cashierApi().get(cashierPath('/webhooks/events')).reply(200, { data: [] });
    }
    expect(await list()).toEqual([definition.operation.sample]);
  });
});

describe('partnerHeaders', () => {
  // The rule, written plainly: each own header in order, its name lower-cased and `http-` dropped; the first wins.
  const NAMES: Record<string, 'timestamp' | 'signature' | 'eventId'> = {
    'x-partner-timestamp': 'timestamp',
    'x-partner-signature': 'signature',
    'x-partner-event-id': 'eventId',
  };
  const reference = (headers: Record<string, string | string[]>) => {
    const found: Record<string, string | undefined> = {};
    for (const k of Object.keys(headers)) {
      const lower = k.toLowerCase();
      const name = NAMES[lower.startsWith('http-') ? lower.slice(5) : lower];
      const v = headers[k];
      if (name && found[name] === undefined) found[name] = Array.isArray(v) ? v[0] : v;
    }
    return found;
  };
  const partnerName = fc
    .tuple(
      fc.constantFrom(
        'X-Partner-Timestamp',
        'X-Partner-Signature',
        'X-Partner-Event-Id',
        'X-Partner-Event',
        'X-Partner-Delivery',
      ),
      fc.constantFrom('', 'Http-', 'http-', 'HTTP-'),
      fc.array(fc.boolean(), { minLength: 24, maxLength: 24 }),
    )
    .map(([name, prefix, upper]) =>
      [...`${prefix}${name}`].map((c, i) => (upper[i] ? c.toUpperCase() : c.toLowerCase())).join(''),
    );
  const value = fc.oneof(fc.string(), fc.array(fc.string(), { maxLength: 2 }));

  it('reads the partner headers in any case, with or without Http-, the first of a repeated one (property)', () => {
    fc.assert(
      fc.property(
        fc.array(
          fc.tuple(
            // As Zapier passes them (Http-, Camel-Case), in another case, or any other name.
            fc.oneof(
              fc.constantFrom(
                'Http-X-Partner-Timestamp',
                'Http-X-Partner-Signature',
                'Http-X-Partner-Event-Id',
                'Http-X-Partner-Delivery',
              ),
              partnerName,
              fc.string(),
            ),
            value,
          ),
          { maxLength: 8 },
        ),
        (pairs) => {
          const headers = Object.fromEntries(pairs);
          const found = partnerHeaders(headers);
          const expected = reference(headers);
          for (const name of ['timestamp', 'signature', 'eventId'] as const)
            expect(found[name]).toBe(expected[name]);
        },
      ),
      { numRuns: 2000 },
    );
  });

  it('ignores inherited members and a missing header list', () => {
    const headers = Object.create({ 'Http-X-Partner-Timestamp': '1' }) as Record<string, string>;
    headers['x-partner-signature'] = 'sha256=x';
    expect(partnerHeaders(headers)).toEqual({ signature: 'sha256=x' });
    expect(partnerHeaders(undefined)).toEqual({});
  });
});

describe('delivery checks (appointment_created)', () => {
  const def = EVENTS.find((e) => e.key === 'appointment_created')!;
  const perform = op(def.key).perform;
  const genuine = (over: Partial<Parameters<typeof delivery>[0]> = {}) => ({
    authData: AUTH,
    // The checks come before any request; a delivery that passes them reads no patient here.
    inputData: { include_patient: false },
    subscribeData: subscribeData(def),
    ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: envelopeOf(def), ...over }),
  });
  const tamper = (bundle: ReturnType<typeof genuine>, content: string) => ({
    ...bundle,
    rawRequest: { ...bundle.rawRequest, content },
  });
  const envelope = envelopeOf(def);

  it.each([
    [
      'a tampered body',
      () => tamper(genuine(), JSON.stringify({ ...envelope, tenant_id: envelope.tenant_id + 1 })),
      /does not match/,
    ],
    ['a wrong secret', () => genuine({ secret: 'whsec_not_this_one' }), /does not match/],
    [
      'a stale timestamp',
      () => genuine({ timestamp: String(nowSeconds() - 301) }),
      /more than 5 minutes old/,
    ],
    ['a future timestamp', () => genuine({ timestamp: String(nowSeconds() + 360) }), /in the future/],
    ['a non-digit timestamp', () => genuine({ timestamp: `${nowSeconds()}.0` }), /not a number of seconds/],
    ['no signature header', () => genuine({ signature: null }), /no X-Partner-Signature/],
    ['a malformed signature', () => genuine({ signature: 'md5=abc' }), /sha256=<64 hex digits>/],
    [
      'an event id header that differs from the body',
      () => genuine({ eventIdHeader: 'evt_other' }),
      /differs/,
    ],
    [
      'a signed body that is not an envelope',
      () => genuine({ rawBody: 'not json', envelope: { id: 'x', event: def.event } }),
      /not a JSON event envelope/,
    ],
  ])('refuses %s with HaltedError saying why', async (_name, make, message) => {
    const error = await run(perform, make()).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('HaltedError');
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/turn the Zap off and on/);
  });

  it('refuses a delivery when the Zap holds no signing secret', async () => {
    const error = await run(perform, { ...genuine(), subscribeData: { id: 41 } }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/holds no signing secret/);
  });

  it('reads headers whatever their case', async () => {
    const bundle = genuine();
    const lower = Object.fromEntries(
      Object.entries(bundle.rawRequest.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const items = await run<unknown[]>(perform, {
      ...bundle,
      rawRequest: { ...bundle.rawRequest, headers: lower },
    });
    expect(items).toHaveLength(1);
  });

  it('says the refusal in English, then Arabic, when the connection is in Arabic', async () => {
    const error = await run(perform, {
      ...genuine({ secret: 'whsec_x' }),
      authData: { ...AUTH, language: 'ar' },
    }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/refused.* — .*رُفض التسليم/i);
  });

  it('ignores a ping (test delivery)', async () => {
    // The sandbox's test delivery (POST /webhooks/{id}/test), recorded, with the sandbox's signature.
    expect(delivered('ping').event).toBe('ping');
    const bundle = { ...genuine(), ...sandboxSigned(def, 'ping') };
    await expect(run(perform, bundle)).resolves.toEqual([]);
  });

  it('does not let a forged delivery block the genuine one with the same event id', async () => {
    const forged = await run(perform, genuine({ secret: 'whsec_attacker' })).catch((e: Error) => e);
    expect((forged as Error).name).toBe('HaltedError');
    await expect(run<unknown[]>(perform, genuine())).resolves.toHaveLength(1);
  });
});

describe('trigger filters', () => {
  const created = EVENTS.find((e) => e.key === 'appointment_created')!;
  /** The event's recorded delivery, as a new delivery each time (the dedupe would drop a repeat). */
  const deliver = (def: HookEvent, inputData: object) => {
    forgetDeliveries();
    return run<unknown[]>(op(def.key).perform, {
      authData: AUTH,
      inputData: { include_patient: false, ...inputData },
      subscribeData: subscribeData(def),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: envelopeOf(def) }),
    });
  };

  it('fires only for the chosen branch, practitioner and appointment type', async () => {
    const data = envelopeOf(created).data;
    const branch = Number(data.branch_id);
    const type = Number(data.appointment_type_id);
    expect(await deliver(created, { branch_id: String(branch) })).toHaveLength(1);
    expect(await deliver(created, { branch_id: String(branch + 1) })).toHaveLength(0);
    expect(await deliver(created, { practitioner_id: data.practitioner_id })).toHaveLength(1);
    expect(data.practitioner_id).not.toBe('01J9X4T2R7N5P3M1K8H6G4F2D1');
    expect(await deliver(created, { practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D1' })).toHaveLength(0);
    expect(await deliver(created, { appointment_type_id: type })).toHaveLength(1);
    expect(await deliver(created, { appointment_type_id: type + 1, branch_id: '' })).toHaveLength(0);
  });

  it('filters the cashier receipts by branch', async () => {
    const receipt = EVENTS.find((e) => e.key === 'receipt_issued')!;
    const branch = Number(envelopeOf(receipt).data.branch_id);
    expect(await deliver(receipt, { branch_id: branch })).toHaveLength(1);
    expect(await deliver(receipt, { branch_id: branch + 1 })).toHaveLength(0);
  });

  it('applies the filters to the samples too', async () => {
    const pick = { path: '/webhooks/events/appointment.created/recent', query: { limit: '3' } };
    const recent: Json[] = data('recent-events', pick);
    // The recorded list holds appointments of both clinic branches.
    expect(new Set(recent.map((e) => e.data.branch_id)).size).toBeGreaterThan(1);
    clinicApi()
      .get(clinicPath('/webhooks/events/appointment.created/recent'))
      .query({ limit: 3 })
      .reply(replay('recent-events', pick));
    const items = await run<Array<{ id: string }>>(op('appointment_created').performList, {
      authData: AUTH,
      inputData: { branch_id: '2', include_patient: false },
    });
    expect(items.map((i) => i.id)).toEqual(
      recent.filter((e) => e.data.branch_id === 2).map((e) => e.data.id),
    );
  });
});

describe('appointment_updated changes', () => {
  const def = EVENTS.find((e) => e.key === 'appointment_updated')!;
  it('lists the changed fields and their previous values, and nothing outside the whitelist', async () => {
    const envelope = envelopeOf(def);
    const recorded = envelope.data.changes as Record<string, [unknown, unknown]>;
    expect(Object.keys(recorded)).toEqual(expect.arrayContaining(['status', 'starts_at']));
    // hand-built addition to the recorded delivery: a clinical field and its change, which must not leak.
    envelope.data = {
      ...envelope.data,
      changes: { ...recorded, diagnosis: ['', 'secret'], note: [{ diagnosis: 'secret' }, 'Follow-up'] },
      diagnosis: 'secret',
    };
    const [item] = await run<Array<Record<string, unknown>>>(op(def.key).perform, {
      authData: AUTH,
      inputData: { include_patient: false },
      subscribeData: subscribeData(def),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
    });
    expect([...(item!.changed_fields as string[])].sort()).toEqual([...Object.keys(recorded), 'note'].sort());
    expect(item).not.toHaveProperty('previous_note'); // an old value that is not a plain value is not passed on
    expect(item!.previous_status).toBe(recorded.status![0]);
    expect(item!.previous_starts_at).toBe(recorded.starts_at![0]);
    expect(item!.status).toBe(recorded.status![1]);
    expect(JSON.stringify(item)).not.toMatch(/diagnosis|secret/);
    expect(item).not.toHaveProperty('changes');
  });
});

describe('privacy (CONTRACT §7)', () => {
  const def = EVENTS.find((e) => e.key === 'invoice_paid')!;
  it('strips procedure codes, descriptions, teeth and surfaces from invoice lines, and unknown fields', async () => {
    // The recorded delivery's lines carry code, description, tooth and surfaces, as the clinic's do.
    const envelope = envelopeOf(def);
    const lines = envelope.data.lines as Json[];
    expect(lines.every((l) => 'code' in l && 'description' in l && 'tooth' in l && 'surfaces' in l)).toBe(
      true,
    );
    // hand-built addition: an unknown clinical field beside them.
    envelope.data.clinical_note = 'pain upper left';
    // The patient read's answer carries more of the patient (birth date, sex, id digits): none of it passes.
    const patient = data('find-patient-by-id');
    expectPatientCall(String(envelope.data.patient_id));
    const [item] = await run<Array<Record<string, unknown>>>(op(def.key).perform, {
      authData: AUTH,
      inputData: {},
      subscribeData: subscribeData(def),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
    });
    const text = JSON.stringify(item);
    const values = lines.flatMap((l) => [l.code, l.description]).filter((v) => typeof v === 'string' && v);
    for (const word of [...values, '"tooth"', 'surfaces', 'clinical_note', '"code"', '"description"']) {
      expect(text).not.toContain(word);
    }
    for (const held of [patient.birth_date, patient.national_id_last4, '"sex"', 'nationality'])
      expect(text).not.toContain(held);
    expect(item!.patient).toEqual(recordedContact());
    expect(item!.paid_at).toBe(envelope.data.paid_at);
    expect((item!.lines as Json[]).map((l) => l.line_no)).toEqual(lines.map((l) => l.line_no));
  });

  it('strips the same fields from samples taken from the recent list', async () => {
    const pick = { path: '/webhooks/events/invoice.paid/recent', query: { limit: '3' } };
    // The recorded recent list carries the procedure details too.
    expect(JSON.stringify(body('recent-events', pick))).toMatch(/"tooth"/);
    clinicApi()
      .get(clinicPath('/webhooks/events/invoice.paid/recent'))
      .query({ limit: 3 })
      .reply(replay('recent-events', pick));
    const items = await run<unknown[]>(op(def.key).performList, {
      authData: AUTH,
      inputData: { include_patient: false },
    });
    expect(items.length).toBeGreaterThan(0);
    expect(JSON.stringify(items)).not.toMatch(/tooth|"code"|"description"|surfaces/);
  });
});

describe('Accept-Language', () => {
  it('asks the interface for Arabic messages when the connection is in Arabic', async () => {
    const def = EVENTS.find((e) => e.key === 'stock_low')!;
    nock(new URL(process.env.CASHIER_BASE_URL!).origin, {
      reqheaders: { authorization: `Bearer ${CASHIER_TOKEN}`, 'accept-language': 'ar' },
    })
      .get(cashierPath('/webhooks'))
      .query({ page: '1', per_page: '100' })
      .reply(...reply('webhook-list-empty', { api: 'cashier' }))
      .post(cashierPath('/webhooks'), { target_url: TARGET, event: 'stock.low' })
      .reply(replay('webhook-subscribe', { sent: { event: 'stock.low' } }));
    await run(op(def.key).performSubscribe, {
      authData: { ...AUTH, language: 'ar' },
      targetUrl: TARGET,
      inputData: {},
    });
  });

  it('subscribing without the interface token fails before any request, naming the token', async () => {
    const def = EVENTS.find((e) => e.key === 'receipt_issued')!;
    const error = await run(op(def.key).performSubscribe, {
      authData: { clinic_api_token: 'x' },
      targetUrl: TARGET,
      inputData: {},
    }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/Cashier API Token/);
  });
});
