/**
 * `npm run record`: the deliveries, which no unit test's request can record (the tests record their answers
 * themselves: `RECORD=1 npx jest <file>`, test/support/recorder.ts; what both share is in harness/recording.ts). The app receives deliveries; it does not
 * request them.
 *
 * On a fresh sandbox (in-process, fixed port, seed and start time, clock standing still), the app subscribes a
 * loopback receiver to every event of its event table (its performSubscribe, as turning a Zap on does); each event
 * is caused with the sandbox's control endpoints, and one test delivery (event "ping") is asked. For each event,
 * test/fixtures/deliveries/<event>.json holds what the sandbox sent and what it sent it from:
 *
 * - `recorded_from`: the event, the delivery's id and the subscription as the sandbox signed for it (its id,
 *   interface, secret and the target's path, which the signature covers);
 * - `headers`: the partner headers the receiver got, the sandbox's own signature and timestamp among them;
 * - `envelope`: the body. The raw body is `JSON.stringify(envelope)`: a recording for which that is not the bytes
 *   the sandbox sent is refused, so the unit tests verify the sandbox's signature over it.
 *
 * The same sandbox, seed and calls give the same files, so re-recording without a change leaves git clean.
 * `npm run record` and `npm run record -- deliveries` do the same; another name lists what there is.
 */
import { join, relative } from 'node:path';
import { startSandbox } from '../sandbox';
import { call, type Json } from '../harness/call';
import {
  closeReceiver,
  CONSENTING_CUSTOMER,
  DELIVERIES_DIR,
  received,
  receiverUrl,
  RECORD_SANDBOX,
  writeJsonFiles,
  type RecordedDelivery,
} from '../harness/recording';

// Core reads this when it loads (quiet memory lines, no .env): set it before the app is required in main().
process.env.NODE_ENV ??= 'test';

/** The sandbox's port while recording (the fixtures do not depend on it). */
const PORT = Number(process.env.RECORD_PORT ?? 4091);
const ROOT = join(__dirname, '..');
const SCENARIOS = ['deliveries'];

type Fn = (z: unknown, bundle: unknown) => unknown;

/** The app's clock stands still at the sandbox's start, as the sandbox's does. */
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

const HELP = `npm run record: records one genuine signed delivery per event of the event table, from a fresh sandbox,
into test/fixtures/deliveries/<event>.json (existing files rewritten, new events added).

  npm run record                 the deliveries (the only scenario: npm run record -- deliveries)

The unit suites' answers are recorded by the suites themselves: RECORD=1 npx jest <test file>
(npm run record:tests for every file). Then git diff shows what changed. docs/maintaining.md, "Recorded fixtures".
`;

const main = async () => {
  const started = performance.now();
  if (process.argv.includes('--help') || process.argv.includes('-h')) {
    process.stdout.write(HELP);
    return;
  }
  const unknown = process.argv.slice(2).filter((n) => !SCENARIOS.includes(n));
  if (unknown.length) {
    // A list to choose from, not a stack trace.
    console.error(`No scenario named ${unknown.join(', ')}. The scenarios:\n  ${SCENARIOS.join('\n  ')}`);
    process.exit(2);
  }
  freezeDate(Date.parse(String(RECORD_SANDBOX.startTime)));
  // Required only now: core reads NODE_ENV when it loads.
  const { createAppTester } = await import('zapier-platform-core');
  const App = (await import('../index')).default;
  const { EVENTS } = await import('../lib/hooks/events');
  const tester = createAppTester(App) as unknown as (fn: Fn, bundle: object) => Promise<Json>;
  const triggers = App.triggers as unknown as Record<string, { operation: { performSubscribe: Fn } }>;

  const sb = await startSandbox({ ...RECORD_SANDBOX, port: PORT });
  const files: Array<[string, RecordedDelivery]> = [];
  try {
    const receiver = await receiverUrl();
    const authData = {
      clinic_base_url: sb.clinicBaseUrl,
      cashier_base_url: sb.cashierBaseUrl,
      clinic_api_token: sb.tokens.clinicOwner,
      cashier_api_token: sb.tokens.cashierOwner,
      language: 'en',
    };
    /** The app's subscription of each event (a status trigger shares its event's). */
    const subs = new Map<string, { id: number; api: 'clinic' | 'cashier' }>();
    for (const def of EVENTS) {
      const sub = (await tester(triggers[def.key]!.operation.performSubscribe, {
        authData,
        targetUrl: `${receiver}/ok/${def.key}`,
        inputData: {},
      })) as { id: number };
      if (!subs.has(def.event)) subs.set(def.event, { id: sub.id, api: def.api });
    }

    const eventIds = new Map<string, string>();
    const cause = async (path: string, body: unknown, event: string, method?: string) => {
      const answer = await call(`${sb.controlUrl}${path}?wait=true`, { body, method });
      if (answer.body?.error) throw new Error(`${path}: ${JSON.stringify(answer.body)}`);
      const found = (answer.body.events as Array<{ event: string; event_id: string }>).find(
        (e) => e.event === event,
      );
      if (!found) throw new Error(`${path} caused no ${event}: ${JSON.stringify(answer.body.events)}`);
      eventIds.set(event, found.event_id);
      return answer.body as Json;
    };
    await causeEvery(cause, sb.refs);

    // A test delivery (event "ping") of the clinic, to the appointment.created subscription.
    const pingSub = subs.get('appointment.created')!;
    subs.set('ping', pingSub);
    await call(`${sb.clinicBaseUrl}/webhooks/${pingSub.id}/test`, {
      token: sb.tokens.clinicOwner,
      method: 'POST',
    });
    await sb.settle();
    const ping = sb.deliveries({ event: 'ping' }).at(-1);
    if (ping) eventIds.set('ping', ping.event_id);

    const missing = EVENTS.filter((e) => !eventIds.has(e.event)).map((e) => e.event);
    if (missing.length) throw new Error(`no delivery recorded for ${missing.join(', ')}`);
    const posts = received();
    for (const [event, eventId] of [...eventIds.entries()].sort(([a], [b]) => a.localeCompare(b))) {
      const sub = subs.get(event)!;
      const subscription = sb.subscriptions().find((s) => s.api === sub.api && s.id === sub.id);
      const record = sb
        .deliveries({ event })
        .find((d) => d.event_id === eventId && d.status === 'sent' && d.subscription_id === sub.id);
      const post = posts.find(
        (p) =>
          p.headers['x-partner-delivery'] === String(record?.id) && p.headers['x-partner-event'] === event,
      );
      if (!subscription || !record?.body || !post)
        throw new Error(`no sent delivery of ${event} (${eventId})`);
      const envelope = JSON.parse(post.body) as Json;
      if (JSON.stringify(envelope) !== post.body) {
        throw new Error(`${event}: the body sent is not JSON.stringify of its envelope; keep it raw`);
      }
      files.push([
        join(DELIVERIES_DIR, `${event}.json`),
        {
          recorded_from: {
            event,
            delivery_id: record.id,
            subscription: {
              id: subscription.id,
              interface: subscription.api,
              secret: subscription.secret,
              target_path: post.path,
            },
          },
          headers: Object.fromEntries(
            Object.entries(post.headers)
              .filter(([k]) => k.startsWith('x-partner-'))
              .sort(([a], [b]) => a.localeCompare(b)),
          ),
          envelope,
        },
      ]);
    }
  } finally {
    await sb.close();
    await closeReceiver();
  }

  writeJsonFiles(files);
  const seconds = ((performance.now() - started) / 1000).toFixed(1);
  console.log(`Wrote ${files.length} deliveries to ${relative(ROOT, DELIVERIES_DIR)} in ${seconds} s.`);
};

/** Causes every event of the event table once, with the sandbox's control endpoints. */
const causeEvery = async (
  cause: (path: string, body: unknown, event: string, method?: string) => Promise<Json>,
  { clinic, cashier }: Awaited<ReturnType<typeof startSandbox>>['refs'],
) => {
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
};

main().catch((e: unknown) => {
  console.error(e instanceof Error ? (e.stack ?? e.message) : e);
  process.exit(1);
});
