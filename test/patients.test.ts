import type { ZObject } from 'zapier-platform-core';
import type nock from 'nock';
import { EVENTS } from '../lib/hooks/events';
import { NO_PATIENT, wantsPatient, withPatients } from '../lib/patients';
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
import { nxCache } from './support/nx-cache';
import { clockAtRecording } from './support/recorder';

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
      ['b', NO_PATIENT],
      ['c', contactOf(NOURA)],
      ['d', NO_PATIENT],
      ['e', NO_PATIENT],
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
 * A patient read that fails for now (429, 5xx, time-out, network) fails the call: Zapier keeps what a trigger or a
 * step returns, and a reminder must not go out without the patient's name and phone. Only what the interface says
 * for good stays empty: 403 insufficient_ability (no patients:read) and 404 (erased or unknown).
 */
type Fn = (z: unknown, bundle: unknown) => unknown;

describe('a patient read that fails for now fails the call, everywhere Zapier would keep its answer', () => {
  type Failure = 'a 429' | 'a 500' | 'a time-out' | 'a connection reset';
  const FAILURES: Failure[] = ['a 429', 'a 500', 'a time-out', 'a connection reset'];

  /** The patient read of `id` answered with the failure (the 429 and 500 as recorded from the sandbox). */
  const failing = (id: string, failure: Failure) => {
    const read = clinicApi().get(clinicPath(`/patients/${id}`));
    if (failure === 'a 429') return read.reply(...reply('clinic-errors-en', { status: 429 }));
    if (failure === 'a 500') return read.reply(...reply('server-error'));
    if (failure === 'a time-out') {
      process.env.PARTNER_REQUEST_TIMEOUT_MS = '100';
      return read.delay(1000).reply(...reply('find-patient-by-id'));
    }
    return read.replyWithError(Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }));
  };
  afterEach(() => {
    delete process.env.PARTNER_REQUEST_TIMEOUT_MS;
    jest.useRealTimers();
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

  const NOURA_ID = String(NOURA.id);

  it.each(FAILURES)('withPatients (searches, Transfer pages): %s', async (failure) => {
    const scope = failing(NOURA_ID, failure);
    expectFailed(await caught(run([{ id: 'a', patient_id: NOURA_ID }])), failure);
    expect(scope.isDone()).toBe(true);
  });

  it.each(FAILURES)('the patient hydrator of Appointment Starting Soon: %s', async (failure) => {
    const scope = failing(NOURA_ID, failure);
    const hydrated = caught(
      appTester(App.hydrators!.patient!, { authData: AUTH, inputData: { patient_id: NOURA_ID } }),
    );
    expectFailed(await hydrated, failure);
    expect(scope.isDone()).toBe(true);
  });

  it.each([
    ['403 insufficient_ability (no patients:read)', 'find-patient-insufficient-ability'],
    ['404 (erased or unknown)', 'find-patient-not-found'],
  ])('the hydrator keeps the fields empty on %s', async (_what, answer) => {
    const scope = clinicApi()
      .get(clinicPath(`/patients/${NOURA_ID}`))
      .reply(...reply(answer));
    await expect(
      appTester(App.hydrators!.patient!, { authData: AUTH, inputData: { patient_id: NOURA_ID } }),
    ).resolves.toEqual(NO_PATIENT);
    expect(scope.isDone()).toBe(true);
  });

  it('the hydrator keeps the fields empty, asking nothing, for a connection without a clinic token', async () => {
    const stop = strays();
    const cashierOnly = { cashier_api_token: AUTH.cashier_api_token, language: 'en' };
    await expect(
      appTester(App.hydrators!.patient!, { authData: cashierOnly, inputData: { patient_id: NOURA_ID } }),
    ).resolves.toEqual(NO_PATIENT);
    expect(stop()).toEqual([]);
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

  describe('a live delivery (New Appointment) is never lost', () => {
    const def = EVENTS.find((e) => e.key === 'appointment_created')!;
    const SECRET = 'whsec_patients';
    const TARGET_PATH = new URL(HOOK_TARGET_URL).pathname;
    const envelope = delivered(def.event);
    const patientId = String(envelope.data.patient_id);
    const perform = (App.triggers as Record<string, { operation: { perform: unknown } }>)[def.key]!.operation
      .perform;
    const deliver = (cache: ReturnType<typeof nxCache>) =>
      appTester(
        cache.around(perform as Fn) as never,
        {
          authData: AUTH,
          inputData: {},
          subscribeData: { id: 41, secret: SECRET, target_path: TARGET_PATH, event: def.event, api: def.api },
          ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
        } as never,
      ) as Promise<Array<Record<string, unknown>>>;
    const patientRead = () =>
      clinicApi()
        .get(clinicPath(`/patients/${patientId}`))
        .reply(...reply('find-patient-by-id'));

    it.each(FAILURES)(
      '%s on its patient read errors the run, and the delivery is not remembered: delivered again, it fires with the patient, once',
      async (failure) => {
        // One z.cache that honours nx, as Zapier keeps it between a delivery and the next copy of it.
        const cache = nxCache();
        const failed = failing(patientId, failure);
        expectFailed(await caught(deliver(cache)), failure);
        expect(failed.isDone()).toBe(true);
        expect([...cache.store.keys()]).toEqual([]); // not remembered
        delete process.env.PARTNER_REQUEST_TIMEOUT_MS;

        const read = patientRead();
        const items = await deliver(cache);
        expect(read.isDone()).toBe(true);
        expect(items.map((i) => i.event_id)).toEqual([envelope.id]);
        expect(items[0]!.patient).toEqual(contactOf(data('find-patient-by-id')));
        expect([...cache.store.keys()]).toEqual([`delivery:clinic:41:${envelope.id}`]);
        // Remembered now: a third copy (its item made first, as every delivery's) is a repeat and fires nothing.
        patientRead();
        await expect(deliver(cache)).resolves.toEqual([]);
      },
    );
  });
});
