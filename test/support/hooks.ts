/**
 * What the hook suites (test/hooks/) share: the triggers' operations, the recorded deliveries as Zapier hands them to
 * perform, and the recorded answers a sample or a patient read gets.
 */
import App from '../../index';
import type { HookEvent, SubscribeData } from '../../lib/hooks/types';
import { WITH_PATIENT } from '../../lib/hooks/extensions';
import { data, delivered, deliveredAsSent, HOOK_TARGET_URL, reply } from '../fixtures';
import { zapierHeaderName } from '../../harness/intake';
import { clockAtRecording } from './recorder';
import { appTester, cashierApi, cashierPath, clinicApi, clinicPath, contactOf } from '../helpers';

/** An empty z.cache: a delivery sent again after this is not taken for a repeat. */
export const forgetDeliveries = () => {
  (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
};

export type Fn = (z: unknown, bundle: unknown) => unknown;
export interface HookOp {
  perform: Fn;
  performList: Fn;
  performSubscribe: Fn;
  performUnsubscribe: Fn;
}
export const op = (key: string) =>
  (App.triggers as Record<string, { operation: unknown }>)[key]!.operation as HookOp;
export const run = <T>(fn: Fn, bundle: object) => appTester(fn as never, bundle as never) as Promise<T>;

/** The recordings subscribed with this hook address; the deliveries are signed here with the test's own secret. */
export const TARGET = HOOK_TARGET_URL;
export const TARGET_PATH = new URL(TARGET).pathname;
export const SECRET = 'whsec_9d2c1e7b4a6f8e0d3c5b7a9e1f2d4c6b';

export const apiOf = (def: HookEvent) => (def.api === 'clinic' ? clinicApi() : cashierApi());
export const pathOf = (def: HookEvent, p: string) => (def.api === 'clinic' ? clinicPath(p) : cashierPath(p));

/**
 * A genuine delivery of the event, recorded from the sandbox (test/fixtures/deliveries). A status trigger
 * (Patient Arrived…) gets the recorded appointment.updated with its status moved to the trigger's: the recorded
 * one is a booked → confirmed update, which only Appointment Confirmed fires on.
 */
export const envelopeOf = (def: HookEvent) => {
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
export const sandboxSigned = (def: HookEvent, event = def.event, rawBody?: string) => {
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
export const asRecorded = (def: HookEvent) =>
  JSON.stringify(envelopeOf(def)) === JSON.stringify(delivered(def.event));

/** Rows whose items carry the patient: each item costs one GET /patients/{id}, answered as recorded. */
export const withPatient = (def: HookEvent) => (def.extensions ?? []).some((x) => x === WITH_PATIENT);
export const patientAnswer = () => reply('find-patient-by-id');
export const expectPatientCall = (patientId: string) =>
  clinicApi()
    .get(clinicPath(`/patients/${patientId}`))
    .reply(...patientAnswer());
export const recordedContact = () => contactOf(data('find-patient-by-id'));
/** The recent-list limit performList asks: status triggers read more, as few updates are their status. */
export const recentLimit = (def: HookEvent) => (def.when ? 25 : 3);

/** The recorded list a `list` sample reads (the cashier's lists that hold real objects of the event). */
export const LIST_FIXTURE: Record<string, string> = {
  '/stock/levels': 'stock-low-list',
  '/customers': 'customers-list',
};
/** The recorded cursor a `cursor` sample walks (the cashier's receipts), with its seed, and without any sales. */
export const CURSOR_FIXTURE: Record<string, { latest: string; empty: string }> = {
  receipt_issued: { latest: 'receipts-latest', empty: 'receipts-empty' },
  credit_note_issued: { latest: 'credit-notes-latest', empty: 'credit-notes-empty' },
};
export const cursorQuery = (def: HookEvent) =>
  def.sample.kind === 'cursor' ? { ...def.sample.query, per_page: 100 } : {};
export const recentPath = (def: HookEvent) => `/webhooks/events/${def.event}/recent`;
/** The recorded read of a trigger's recent events: its path and limit (a status trigger asks more). */
export const recentPick = (def: HookEvent) => ({
  path: recentPath(def),
  query: { limit: String(recentLimit(def)) },
});

export const subscribeData = (def: HookEvent, id = 41): SubscribeData => ({
  id,
  secret: SECRET,
  target_path: TARGET_PATH,
  event: def.event,
  api: def.api,
});
export const expectedId = (def: HookEvent, data: Record<string, unknown>) =>
  def.key === 'stock_low' ? `${data.branch_id}:${data.variant_id}` : data.id;
