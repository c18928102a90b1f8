import type { ZObject } from 'zapier-platform-core';
import type nock from 'nock';
import { EVENTS } from '../lib/hooks/events';
import { SETTINGS } from '../lib/config';
import { noPatient, wantsPatient, withPatients } from '../lib/patients';
import { CLOCK } from '../lib/retry';
import { SEARCH, CREATE } from '../lib/keys';
import { data, delivered, HOOK_TARGET_URL, replay, reply } from './fixtures';
import {
  App,
  appTester,
  AUTH,
  clinicApi,
  clinicPath,
  contactOf,
  delivery,
  messageOf,
  recordedPatientRead,
  strays,
  useNock,
} from './helpers';
import { recentLimit, recentPath, recentPick } from './support/hooks';
import { nxCache } from './support/nx-cache';
import { clockAtRecording } from './support/recorder';
import { N8N } from '../n8n-nodes-clinic-cashier/src/host';

useNock();

/** withPatients run inside core, as an operation would run it. */
const run = (items: Array<Record<string, unknown>>) =>
  appTester(
    (async (z: ZObject, bundle: { authData: Record<string, string> }) =>
      withPatients(z, bundle, items)) as never,
    { authData: AUTH } as never,
  ) as Promise<Array<Record<string, unknown>>>;

const NOURA = data('find-patient-by-id');
const OTHER = '01J3ACFXN83NABTX949F2SRE0A';

describe('withPatients', () => {
  it('reads each distinct patient once, in item order, and leaves items without one empty', async () => {
    const noura = clinicApi()
      .get(clinicPath(`/patients/${String(NOURA.id)}`))
      .once()
      .reply(replay('find-patient-by-id'));
    const other = clinicApi()
      .get(clinicPath(`/patients/${OTHER}`))
      .once()
      .reply(...reply('find-patient-not-found')); // the 404 of another id: the answer only
    const items = [
      { id: 'a', patient_id: NOURA.id },
      { id: 'b', patient_id: OTHER },
      { id: 'c', patient_id: NOURA.id },
      { id: 'd', patient_id: null },
      { id: 'e', patient_id: '../../admin' },
    ];
    const result = await run(items);
    expect(noura.isDone() && other.isDone()).toBe(true);
    expect(result.map((i) => [i.id, i.patient])).toEqual([
      ['a', contactOf(NOURA)],
      ['b', noPatient('not_found')],
      ['c', contactOf(NOURA)],
      ['d', noPatient('not_found')],
      ['e', noPatient('not_found')],
    ]);
  });

  it('makes no request for an empty list', async () => {
    await expect(run([])).resolves.toEqual([]);
  });
});

describe('wantsPatient', () => {
  it.each([
    [undefined, true],
    [{}, true],
    [{ include_patient: true }, true],
    [{ include_patient: 'yes' }, true],
    [{ include_patient: '' }, true],
    [{ include_patient: false }, false],
    [{ include_patient: 'false' }, false],
    [{ include_patient: ' No ' }, false],
    [{ include_patient: '0' }, false],
  ])('%j → %s', (input, wanted) => {
    expect(wantsPatient(input as Record<string, unknown> | undefined)).toBe(wanted);
  });
});

/*
 * A patient read that fails for now (429, 5xx, time-out, network). Who tries again decides (lib/patients.ts, Reading;
 * lib/host.ts): a call Zapier runs again (an action, a search, a Transfer page) fails, and so does every call on n8n,
 * whose node answers the interface; the read of a trigger's event on Zapier, which nothing would bring back, is
 * retried within the step and then fires with the patient `unavailable`. Only what the interface says for good is
 * final at once: 403 insufficient_ability (no_access) and 404 (not_found).
 */
type Fn = (z: unknown, bundle: unknown) => unknown;
type Failure = 'a 429' | 'a 500' | 'a time-out' | 'a connection reset';
const FAILURES: Failure[] = ['a 429', 'a 500', 'a time-out', 'a connection reset'];
const NOURA_ID = String(NOURA.id);
const ON_N8N = { host: N8N };

/** The patient read of `id` answered `times` times with the failure (the 429 and 500 as recorded from the sandbox). */
const failing = (id: string, failure: Failure, times = 1) => {
  const read = clinicApi()
    .get(clinicPath(`/patients/${id}`))
    .times(times);
  if (failure === 'a 429') return read.reply(...reply('clinic-errors-en', { status: 429 }));
  if (failure === 'a 500') return read.reply(...reply('server-error'));
  if (failure === 'a time-out') {
    process.env.PARTNER_REQUEST_TIMEOUT_MS = '100';
    return read.delay(1000).reply(...reply('find-patient-by-id'));
  }
  return read.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
};

/** The retries' clock, moved only by their waits: no test sleeps, and each wait is seen. */
const fakeClock = () => {
  let now = 0;
  const waits: number[] = [];
  jest.spyOn(CLOCK, 'now').mockImplementation(() => now);
  jest.spyOn(CLOCK, 'sleep').mockImplementation(async (ms) => {
    waits.push(ms);
    now += ms;
  });
  return waits;
};

afterEach(() => {
  delete process.env.PARTNER_REQUEST_TIMEOUT_MS;
  jest.restoreAllMocks();
});

/** The error as Zapier gets it: core's ThrottledError with the interface's Retry-After for a 429. */
const expectFailed = (err: unknown, failure: Failure) => {
  expect(err).toBeInstanceOf(Error);
  if (failure === 'a 429') {
    const [, , headers] = reply('clinic-errors-en', { status: 429 });
    expect((err as Error).name).toBe('ThrottledError');
    expect((JSON.parse((err as Error).message) as { delay: number }).delay).toBe(
      Number(headers['retry-after']),
    );
  } else {
    expect((err as Error).name).not.toBe('ThrottledError');
    expect(messageOf(err)).toMatch(
      failure === 'a 500'
        ? /500/
        : failure === 'a time-out'
          ? /did not answer within/
          : /closed the connection/,
    );
  }
};
const caught = (p: Promise<unknown>) =>
  p.then(
    (v) => ({ resolved: v }),
    (e: unknown) => e,
  );

const hydrate = (meta: Record<string, unknown> = {}, authData: Record<string, string> = AUTH) =>
  appTester(App.hydrators!.patient!, { authData, inputData: { patient_id: NOURA_ID }, meta } as never);

describe('a call Zapier runs again fails when its patient read fails for now, asking once', () => {
  it.each(FAILURES)('withPatients (searches, Transfer pages): %s', async (failure) => {
    const waits = fakeClock();
    const scope = failing(NOURA_ID, failure);
    expectFailed(await caught(run([{ id: 'a', patient_id: NOURA_ID }])), failure);
    expect(scope.isDone()).toBe(true);
    expect(waits).toEqual([]);
  });

  it.each(FAILURES)('Find Appointment: %s', async (failure) => {
    const held = data('find-appointment-by-id');
    let scope: nock.Scope | undefined;
    clinicApi()
      .get(clinicPath(`/appointments/${String(held.id)}`))
      .reply(function (uri, body) {
        // Armed once the appointment read is answered, so a time-out is the patient read's alone, however busy
        // the machine is.
        scope = failing(String(held.patient_id), failure);
        return replay('find-appointment-by-id').call(this, uri, body);
      });
    const search = (App.searches as Record<string, { operation: { perform: unknown } }>)[
      SEARCH.findAppointment
    ]!;
    const found = caught(
      appTester(
        search.operation.perform as never,
        { authData: AUTH, inputData: { appointment_id: held.id } } as never,
      ),
    );
    expectFailed(await found, failure);
    expect(scope?.isDone()).toBe(true);
  });

  it('New Appointment’s samples in the Zap editor (performList), which the Zap builder asks for again', async () => {
    const waits = fakeClock();
    const def = EVENTS.find((e) => e.key === 'appointment_created')!;
    const pick = recentPick(def);
    const first = data('recent-events', pick)[0] as { data: { patient_id: string } };
    clinicApi()
      .get(clinicPath(recentPath(def)))
      .query({ limit: recentLimit(def) })
      .reply(replay('recent-events', pick));
    const scope = failing(first.data.patient_id, 'a 500');
    const performList = (App.triggers as Record<string, { operation: { performList: unknown } }>)[def.key]!
      .operation.performList;
    const sampled = caught(appTester(performList as never, { authData: AUTH, inputData: {} } as never));
    expectFailed(await sampled, 'a 500');
    expect(scope.isDone()).toBe(true);
    expect(waits).toEqual([]);
  });

  it('Book Appointment: the step fails after the booking, and its replay books nothing twice (same booking reference)', async () => {
    // The booking's start is ahead of the recordings' clock, as Book Appointment requires.
    clockAtRecording();
    const book = (App.creates as Record<string, { operation: { perform: unknown } }>)[
      CREATE.bookAppointment
    ]!;
    const booking = {
      branch_id: '1',
      appointment_type_id: '4',
      starts_at: '2026-11-26T12:30:00+03:00',
      practitioner_id: '01HQW9J6R0PBHZJ7SBXFA5ZN7T',
      patient_id: '01EY5943V0CH77X783RTRD9GRE',
      note: 'First visit',
      external_ref: 'web-5501',
    };
    const step = () =>
      appTester(
        book.operation.perform as never,
        {
          authData: AUTH,
          inputData: booking,
          meta: { zap: { id: '98765' } },
        } as never,
      ) as Promise<Record<string, unknown>>;
    const first = clinicApi().post(clinicPath('/appointments')).reply(replay('book-appointment'));
    const failed = failing(booking.patient_id, 'a 500');
    expectFailed(await caught(step()), 'a 500');
    expect(first.isDone() && failed.isDone()).toBe(true);
    // Zapier's replay: the same reference answers the booking already made, now with its patient.
    clinicApi().post(clinicPath('/appointments')).reply(replay('book-appointment-repeat'));
    const patient = recordedPatientRead('book-appointment-repeat');
    const replayed = await step();
    expect(replayed).toMatchObject({ id: data('book-appointment').id, duplicate: true });
    expect(replayed.patient).toEqual(patient.contact);
  });
});

describe('the patient of Appointment Starting Soon (hydrated as the trigger fires)', () => {
  it.each(FAILURES)(
    'on Zapier, %s for good: tried again within the budget, then the item fires with the patient unavailable',
    async (failure) => {
      const waits = fakeClock();
      // A 429's Retry-After as recorded (60 s) is longer than the budget: one read, no wait.
      const tries = failure === 'a 429' ? 1 : 5;
      const scope = failing(NOURA_ID, failure, tries);
      await expect(hydrate()).resolves.toEqual(noPatient('unavailable'));
      expect(scope.isDone()).toBe(true);
      expect(waits).toEqual(failure === 'a 429' ? [] : [1000, 2000, 4000, 8000]);
      expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(SETTINGS.triggerReadBudgetMs);
    },
  );

  it('on Zapier, a 429 whose Retry-After fits the budget is waited out, and the patient is found', async () => {
    const waits = fakeClock();
    const [status, body, headers] = reply('clinic-errors-en', { status: 429 });
    const limited = clinicApi()
      .get(clinicPath(`/patients/${NOURA_ID}`))
      .reply(status, body, { ...headers, 'retry-after': '7' });
    const read = clinicApi()
      .get(clinicPath(`/patients/${NOURA_ID}`))
      .reply(...reply('find-patient-by-id'));
    await expect(hydrate()).resolves.toEqual(contactOf(NOURA));
    expect(limited.isDone() && read.isDone()).toBe(true);
    expect(waits).toEqual([7000]);
  });

  it.each(FAILURES)('on n8n, %s fails the poll, asking once: n8n polls again', async (failure) => {
    const waits = fakeClock();
    const scope = failing(NOURA_ID, failure);
    expectFailed(await caught(hydrate(ON_N8N)), failure);
    expect(scope.isDone()).toBe(true);
    expect(waits).toEqual([]);
  });

  it.each([
    ['403 insufficient_ability (no patients:read)', 'find-patient-insufficient-ability', 'no_access'],
    ['404 (erased or unknown)', 'find-patient-not-found', 'not_found'],
  ] as const)('keeps the fields empty on %s, asking once, with its status', async (_what, answer, status) => {
    const waits = fakeClock();
    const scope = clinicApi()
      .get(clinicPath(`/patients/${NOURA_ID}`))
      .reply(...reply(answer));
    await expect(hydrate()).resolves.toEqual(noPatient(status));
    expect(scope.isDone()).toBe(true);
    expect(waits).toEqual([]);
  });

  it('keeps the fields empty (no_access), asking nothing, for a connection without a clinic token', async () => {
    const stop = strays();
    const cashierOnly = { cashier_api_token: AUTH.cashier_api_token, language: 'en' };
    await expect(hydrate({}, cashierOnly)).resolves.toEqual(noPatient('no_access'));
    expect(stop()).toEqual([]);
  });
});

describe('a live delivery (New Appointment) is never lost', () => {
  const def = EVENTS.find((e) => e.key === 'appointment_created')!;
  const SECRET = 'whsec_patients';
  const TARGET_PATH = new URL(HOOK_TARGET_URL).pathname;
  const envelope = delivered(def.event);
  const patientId = String(envelope.data.patient_id);
  const perform = (App.triggers as Record<string, { operation: { perform: unknown } }>)[def.key]!.operation
    .perform;
  const deliver = (cache: ReturnType<typeof nxCache>, meta: Record<string, unknown> = {}) =>
    appTester(
      cache.around(perform as Fn) as never,
      {
        authData: AUTH,
        inputData: {},
        meta,
        subscribeData: { id: 41, secret: SECRET, target_path: TARGET_PATH, event: def.event, api: def.api },
        ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
      } as never,
    ) as Promise<Array<Record<string, unknown>>>;
  const patientRead = () =>
    clinicApi()
      .get(clinicPath(`/patients/${patientId}`))
      .reply(...reply('find-patient-by-id'));
  const KEY = `delivery:clinic:41:${envelope.id}`;

  it.each(FAILURES)(
    'on Zapier, %s then an answer: the read is tried again within the step and the item fires with the patient, once',
    async (failure) => {
      const waits = fakeClock();
      const cache = nxCache();
      const [status, body, headers] = reply('clinic-errors-en', { status: 429 });
      const failed =
        failure === 'a 429'
          ? clinicApi()
              .get(clinicPath(`/patients/${patientId}`))
              .reply(status, body, { ...headers, 'retry-after': '3' })
          : failing(patientId, failure);
      const read = patientRead();
      const items = await deliver(cache);
      expect(failed.isDone() && read.isDone()).toBe(true);
      expect(waits).toEqual([failure === 'a 429' ? 3000 : 1000]);
      expect(items.map((i) => [i.event_id, i.patient])).toEqual([
        [envelope.id, contactOf(data('find-patient-by-id'))],
      ]);
      expect([...cache.store.keys()]).toEqual([KEY]);
    },
  );

  it.each(FAILURES)(
    'on Zapier, %s for good: the item fires with the patient unavailable and its fields empty, once',
    async (failure) => {
      const waits = fakeClock();
      const cache = nxCache();
      const scope = failing(patientId, failure, failure === 'a 429' ? 1 : 5);
      const items = await deliver(cache);
      expect(scope.isDone()).toBe(true);
      expect(waits.reduce((a, b) => a + b, 0)).toBeLessThanOrEqual(SETTINGS.triggerReadBudgetMs);
      expect(items.map((i) => [i.event_id, i.patient])).toEqual([[envelope.id, noPatient('unavailable')]]);
      // Remembered: a copy the interface sends again is a repeat (its item made first, as every delivery's).
      expect([...cache.store.keys()]).toEqual([KEY]);
      patientRead();
      await expect(deliver(cache)).resolves.toEqual([]);
    },
  );

  it.each(FAILURES)(
    'on n8n, %s errors the run, asking once, and the delivery is not remembered: delivered again, it fires with the patient, once',
    async (failure) => {
      const waits = fakeClock();
      // One z.cache that honours nx, as the node keeps it between a delivery and the next copy of it.
      const cache = nxCache();
      const failed = failing(patientId, failure);
      expectFailed(await caught(deliver(cache, ON_N8N)), failure);
      expect(failed.isDone()).toBe(true);
      expect(waits).toEqual([]);
      expect([...cache.store.keys()]).toEqual([]); // not remembered
      delete process.env.PARTNER_REQUEST_TIMEOUT_MS;

      const read = patientRead();
      const items = await deliver(cache, ON_N8N);
      expect(read.isDone()).toBe(true);
      expect(items.map((i) => i.event_id)).toEqual([envelope.id]);
      expect(items[0]!.patient).toEqual(contactOf(data('find-patient-by-id')));
      expect([...cache.store.keys()]).toEqual([KEY]);
      patientRead();
      await expect(deliver(cache, ON_N8N)).resolves.toEqual([]);
    },
  );

  it('with Include Patient Details off, fires with the patient off, asking nothing', async () => {
    const stop = strays();
    const items = await appTester(
      nxCache().around(perform as Fn) as never,
      {
        authData: AUTH,
        inputData: { include_patient: 'false' },
        subscribeData: { id: 41, secret: SECRET, target_path: TARGET_PATH, event: def.event, api: def.api },
        ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
      } as never,
    );
    expect((items as Array<Record<string, unknown>>).map((i) => i.patient)).toEqual([noPatient('off')]);
    expect(stop()).toEqual([]);
  });
});
