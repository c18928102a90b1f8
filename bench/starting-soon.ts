/**
 * Appointment Starting Soon polled ten times over one window as Zapier polls it: dedupe by primary keys, each new
 * item's patient pointer hydrated after a connection test. Counted at the sandbox.
 */
import { createAppTester } from 'zapier-platform-core';
import App from '../index';
import type { Sandbox } from '../sandbox';
import { table, type Fn } from './shared';

export const PATIENT_GET = /^GET \/partner\/v1\/patients\/[0-9A-Z]{26}$/;
export const CUSTOMERS_GET = /^GET \/api\/partner\/v1\/customers$/;
const APPOINTMENTS_GET = /^GET \/partner\/v1\/appointments$/;
const PING_GET = /^GET (\/api)?\/partner\/v1\/ping$/;

/** What z.dehydrate leaves in an item: `hydrate|||{"type":"method","method":"hydrators.x","bundle":{…}}|||hydrate`. */
const POINTER = /^hydrate\|\|\|(.+)\|\|\|hydrate$/;
interface Pointer {
  method: string;
  bundle: Record<string, unknown>;
}
const pointersIn = (item: Record<string, unknown>): Pointer[] =>
  Object.values(item).flatMap((v) => {
    const m = typeof v === 'string' ? POINTER.exec(v) : null;
    return m ? [JSON.parse(m[1]!) as Pointer] : [];
  });

type Step = 'poll' | 'connection test' | 'hydration';
interface PollingTrigger {
  operation: { perform: Fn; outputFields: Array<{ key: string; primary?: boolean }> };
}

/**
 * One poll as Zapier runs it (PLATFORM-NOTES, dehydration): the trigger's perform; items whose primary keys the Zap
 * has seen before are dropped (`seen` is the Zap's dedupe store); each pointer of each new item is hydrated at
 * once, after a connection test. Zapier's 5-minute cache of hydrations is left out, so counts are an upper bound.
 * `run` runs one function of the app with the connection and the given inputData.
 */
const pollAsZapier = async (
  run: (step: Step, fn: Fn, inputData: object) => Promise<unknown>,
  trigger: PollingTrigger,
  inputData: object,
  seen: Set<string>,
) => {
  const marked = trigger.operation.outputFields.filter((f) => f.primary).map((f) => f.key);
  const primary = marked.length ? marked : ['id'];
  const items = (await run('poll', trigger.operation.perform, inputData)) as Array<Record<string, unknown>>;
  const fresh = items.filter((item) => {
    const key = JSON.stringify(primary.map((k) => item[k]));
    if (seen.has(key)) return false;
    seen.add(key);
    return true;
  });
  const hydrators = App.hydrators as unknown as Record<string, Fn>;
  for (const item of fresh) {
    for (const { method, bundle } of pointersIn(item)) {
      await run('connection test', App.authentication!.test as Fn, {});
      await run('hydration', hydrators[method.replace(/^hydrators\./, '')]!, bundle);
    }
  }
  return { listed: items.length, fresh };
};

/** The front desk moves an appointment 30 minutes later (earlier near the window's end), inside the window. */
const rescheduleInWindow = async (sb: Sandbox, appointment: Record<string, unknown> | undefined) => {
  if (!appointment) return 'nothing (no appointment was listed)';
  const from = Date.parse(String(appointment.starts_at));
  const later = from + 30 * 60_000;
  const to = new Date(later < Date.now() + 1440 * 60_000 ? later : from - 30 * 60_000);
  const res = await fetch(`${sb.controlUrl}/clinic/appointments/${String(appointment.id)}`, {
    method: 'PATCH',
    headers: { 'Content-Type': 'application/json' },
    body: JSON.stringify({ starts_at: to.toISOString(), force: true }),
  });
  if (res.status !== 200) throw new Error(`the reschedule answered ${res.status}: ${await res.text()}`);
  const { data } = (await res.json()) as { data: { starts_at: string } };
  return `${String(appointment.id)} from ${String(appointment.starts_at)} to ${data.starts_at}`;
};

/**
 * Appointment Starting Soon with patient details, polled ten times over one day's window; before poll 6 the front
 * desk moves one appointment to a new time inside the window (a new primary key: it fires again, rightly). Answers
 * summary rows for the calls table and a printer of each poll's requests.
 */
export const startingSoonPolledTenTimes = async (
  sb: Sandbox,
  tester: ReturnType<typeof createAppTester>,
  authData: Record<string, string>,
) => {
  const inputData = { minutes_before: 1440, include_patient: true };
  const trigger = App.triggers!.appointment_starting_soon as unknown as PollingTrigger;
  const seen = new Set<string>();
  /** The requests the sandbox received during the current poll, each with the step that made it. */
  let made: Array<{ step: Step; request: string }> = [];
  const run = async (step: Step, fn: Fn, input: object) => {
    const before = sb.requestCount();
    const out = await tester(fn as never, { authData, inputData: input } as never);
    for (const q of sb.requests().slice(before)) made.push({ step, request: `${q.method} ${q.path}` });
    return out;
  };
  const polls: Array<{ listed: number; fresh: number; made: typeof made }> = [];
  let firstListed: Array<Record<string, unknown>> = [];
  let moved = '';
  for (let n = 1; n <= 10; n += 1) {
    if (n === 6) moved = await rescheduleInWindow(sb, firstListed[0]);
    made = [];
    const { listed, fresh } = await pollAsZapier(run, trigger, inputData, seen);
    if (n === 1) firstListed = fresh;
    polls.push({ listed, fresh: fresh.length, made });
  }

  const of = (p: (typeof polls)[number], kind: RegExp) => p.made.filter((m) => kind.test(m.request)).length;
  const perPoll = polls.map((p, i) => [
    i === 5 ? '6 (after the reschedule)' : i + 1,
    p.listed,
    p.fresh,
    of(p, APPOINTMENTS_GET),
    of(p, PING_GET),
    of(p, PATIENT_GET),
    p.made.length,
  ]);
  const sum = (col: number) => perPoll.reduce((n, row) => n + Number(row[col]), 0);
  const all = polls.flatMap((p, i) => p.made.map((m) => ({ ...m, poll: i + 1 })));
  const listCalls = all.filter((m) => m.step === 'poll');
  const strayInPolls = listCalls.filter((m) => !APPOINTMENTS_GET.test(m.request)).length;
  const tests = all.filter((m) => m.step === 'connection test' && PING_GET.test(m.request)).length;
  const patientGets = all.filter((m) => PATIENT_GET.test(m.request));
  const firstSightings = patientGets.filter((m) => m.poll < 6);
  const afterMove = patientGets.filter((m) => m.poll >= 6);
  const perPatient = new Map<string, number>();
  for (const m of firstSightings) perPatient.set(m.request, (perPatient.get(m.request) ?? 0) + 1);
  const most = Math.max(0, ...perPatient.values());
  const patients = new Set(firstListed.map((a) => String(a.patient_id))).size;

  const print = () => {
    table(
      'Appointment Starting Soon polled 10 times over one window, as Zapier polls (Include Patient Details on)',
      [
        'poll',
        'listed',
        'new to the Zap',
        'list calls',
        'connection test calls',
        'patient calls',
        'all calls',
      ],
      [...perPoll, ['total', '', sum(2), sum(3), sum(4), sum(5), sum(6)]],
    );
    console.log(`
Counted at the sandbox: every request its partner interfaces received, by path (GET /appointments, GET /ping,
GET /patients/{id}) and by the step that made it (the poll, the connection test, the hydration; they run one after
another). Zapier's side, emulated: dedupe by the trigger's primary keys (id, starts_at); each pointer of a new item
hydrated at once by App.hydrators.patient with the pointer's inputData, after authentication.test (2 calls: the
connection has both tokens); Zapier's 5-minute hydration cache not used, so the counts are an upper bound.
Patients of the ${firstListed.length} appointments first listed: ${patients}; GET /patients/{id} for them over the 10 polls: ${firstSightings.length}
(at most ${most} for one patient); requests other than GET /appointments during the polls: ${strayInPolls}.
Rescheduled before poll 6: ${moved}; it fired again, with ${afterMove.length} patient call(s).`);
  };
  const ok = (good: boolean) => (good ? 'ok' : 'OVER');
  const name = 'appointment_starting_soon ×10 polls';
  const rows: Array<Array<string | number>> = [
    [`${name}: list calls`, listCalls.length, 10, ok(listCalls.length === 10 && !strayInPolls)],
    [
      `${name}: patient calls, first sightings`,
      firstSightings.length,
      `≤ ${patients} (patients)`,
      ok(firstSightings.length <= patients && most <= 1),
    ],
    [`${name}: patient calls, the reschedule`, afterMove.length, 1, ok(afterMove.length <= 1)],
    [`${name}: connection test calls`, tests, '2 a hydration', ok(tests === 2 * patientGets.length)],
  ];
  return { rows, print };
};
