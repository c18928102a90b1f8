import fc from 'fast-check';
import App from '../index';
import { data, ITEM_INPUT, ORDER_INPUT, replay, reply, sent, WATER_INPUT } from './fixtures';
import { call } from '../harness/call';
import { clockAtRecording, given } from './support/recorder';
import {
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  clinicApi,
  clinicPath,
  messageOf,
  recordedPatientRead,
  START_AHEAD,
  strays,
  useNock,
} from './helpers';

useNock();

type Fn = (z: unknown, bundle: unknown) => unknown;
const perform = (key: string) =>
  (App.creates as Record<string, { operation: { perform: unknown } }>)[key]!.operation.perform as Fn;
const run = <T = Record<string, unknown>>(
  key: string,
  inputData: object,
  meta: object = { zap: { id: '98765' } },
) => appTester(perform(key) as never, { authData: AUTH, inputData, meta } as never) as Promise<T>;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => new Error('expected a failure'),
    (e: Error) => e,
  );

/** The sandbox's patient, practitioner and appointment in progress, as the recordings have them. */
const PATIENT = '01EY5943V0CH77X783RTRD9GRE';
const PRACTITIONER = '01HQW9J6R0PBHZJ7SBXFA5ZN7T';
const IN_PROGRESS = '01M7PP4EG01MNH1GY6N5CSR13S';
/** Halalas as the SAR text the app shows beside them. */
const sar = (halalas: number) => (halalas / 100).toFixed(2);
const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

describe('book_appointment', () => {
  // The recordings' instant (10:00 in Riyadh on 24 November 2026): the bookings below are ahead of it.
  beforeEach(() => clockAtRecording());
  afterEach(() => jest.useRealTimers());
  const booking = {
    patient_id: PATIENT,
    branch_id: '1',
    appointment_type_id: '4',
    starts_at: '2026-11-26T12:30:00+03:00',
    practitioner_id: PRACTITIONER,
    note: 'First visit',
    external_ref: 'web-5501',
  };

  it('posts the AppointmentWrite body and shows a new booking as not duplicate', async () => {
    clinicApi()
      .post(clinicPath('/appointments'), {
        branch_id: 1,
        appointment_type_id: 4,
        starts_at: '2026-11-26T12:30:00+03:00',
        practitioner_id: PRACTITIONER,
        patient_id: PATIENT,
        note: 'First visit',
        external_ref: 'web-5501',
      })
      .matchHeader('content-type', 'application/json')
      .reply(replay('book-appointment'));
    const patient = recordedPatientRead('book-appointment');
    const booked = data('book-appointment');
    const result = await run('book_appointment', booking);
    expect(result).toMatchObject({ id: booked.id, status: booked.status, duplicate: false });
    // The booked patient's name and phone for a confirmation message: one read, after the booking.
    expect(patient.scope.isDone()).toBe(true);
    expect(result.patient).toEqual(patient.contact);
    expect(result.patient).toMatchObject({
      name_en: expect.any(String),
      phone: expect.stringMatching(/^\+966/),
    });
    // The booked time in local words, so a wrong hour shows at a glance in the Zap history.
    expect(booked.starts_at).toBe('2026-11-26T12:30:00+03:00');
    expect(result).toMatchObject({
      starts_at_date: '2026-11-26',
      starts_at_time: '12:30',
      starts_at_text_en: 'Thursday 26 November 2026, 12:30 PM',
      starts_at_text_ar: 'الخميس 26 نوفمبر 2026، 12:30 م',
    });
  });

  it('keeps the booking when the token lacks patients:read: empty patient fields, no second booking', async () => {
    clinicApi().post(clinicPath('/appointments')).reply(replay('book-appointment'));
    clinicApi()
      .get(clinicPath(`/patients/${String(data('book-appointment').patient_id)}`))
      .reply(...reply('find-patient-insufficient-ability')); // a 403 body, reused for the patient read
    const result = await run('book_appointment', booking);
    expect(result).toMatchObject({ id: data('book-appointment').id, duplicate: false });
    expect(result.patient).toEqual({
      name_ar: null,
      name_en: null,
      phone: null,
      email: null,
      file_no: null,
      status: 'no_access',
    });
  });

  it('shows a repeated booking reference as duplicate, whether the flag is beside or inside data', async () => {
    const [status, repeat] = reply('book-appointment-repeat');
    expect(repeat.duplicate).toBe(true);
    clinicApi().post(clinicPath('/appointments')).reply(replay('book-appointment-repeat'));
    // hand-built: the recorded repeat with the flag moved inside data, where the sandbox never puts it.
    clinicApi()
      .post(clinicPath('/appointments'))
      .reply(status, { data: { ...repeat.data, duplicate: true } });
    recordedPatientRead('book-appointment-repeat', 2);
    expect((await run('book_appointment', booking)).duplicate).toBe(true);
    expect((await run('book_appointment', booking)).duplicate).toBe(true);
  });

  it('books by phone in E.164 with the name for a new patient file', async () => {
    clinicApi()
      .post(clinicPath('/appointments'), (b: Record<string, unknown>) => {
        expect(b).toEqual({
          branch_id: 1,
          appointment_type_id: 4,
          starts_at: '2026-11-24T10:30:00+03:00',
          patient_phone: '+966501234567',
          patient_name: 'سارة الشهري',
          external_ref: expect.stringMatching(/^zap-[0-9a-f]{32}$/),
        });
        return true;
      })
      .reply(replay('book-appointment-by-phone'));
    // The patient the phone names is read back: the name and phone as the clinic holds them (this phone is a
    // known patient's, so the clinic's name wins over the name typed in the form).
    const patient = recordedPatientRead('book-appointment-by-phone');
    const result = await run('book_appointment', {
      patient_phone: '050 123 4567',
      patient_name: 'سارة الشهري',
      branch_id: 1,
      appointment_type_id: 4,
      starts_at: '2026-11-24T10:30:00+03:00',
    });
    expect(result.patient).toEqual(patient.contact);
    expect(patient.contact.phone).toBe('+966501234567');
  });

  it('derives the same booking reference for a replayed step, and another for another booking', async () => {
    const refs: string[] = [];
    clinicApi()
      .post(clinicPath('/appointments'), (b: { external_ref: string }) => !!refs.push(b.external_ref))
      .times(4)
      .reply(...reply('book-appointment')); // one answer for four bookings
    recordedPatientRead('book-appointment', 4);
    const blank = { ...booking, external_ref: '' };
    await run('book_appointment', blank);
    await run('book_appointment', { ...blank, starts_at: '2026-11-26T09:30:00Z' }); // the same instant
    await run('book_appointment', { ...blank, starts_at: '2026-11-26T13:00:00+03:00' });
    await run('book_appointment', blank, { zap: { id: '11111' } });
    expect(refs[0]).toMatch(/^zap-[0-9a-f]{32}$/);
    expect(refs[1]).toBe(refs[0]);
    expect(refs[2]).not.toBe(refs[0]);
    expect(refs[3]).not.toBe(refs[0]);
  });

  it.each([
    [
      'no patient and no phone',
      { ...booking, patient_id: '' },
      /Patient: choose the Patient, or give the Patient Phone and Patient Name/,
    ],
    ['a patient that is not a ULID', { ...booking, patient_id: '12345' }, /Patient: is not a valid id/],
    [
      'a phone that is not one',
      { ...booking, patient_id: '', patient_phone: '12345' },
      /Patient Phone: "12345" is not a phone/,
    ],
    [
      'a time without its offset',
      { ...booking, starts_at: '2026-11-24T10:30:00' },
      /Start Time: must be a date and time with its offset/,
    ],
    ['no branch', { ...booking, branch_id: '' }, /Branch: is required/],
    [
      'a branch that is not a number',
      { ...booking, branch_id: 'Olaya' },
      /Branch: is not an id: choose from the list or map an id from an earlier step/,
    ],
    [
      'a phone without a name (the new patient file would be named after the phone)',
      { ...booking, patient_id: '', patient_phone: '0501234567' },
      /^Please fix: Patient Name: is required when no Patient is chosen \(a phone the clinic does not know opens a new patient file under this name\)\.$/,
    ],
  ])('refuses %s before any request', async (_name, input, message) => {
    const stop = strays();
    const error = await failure(run('book_appointment', input));
    expect(stop()).toEqual([]);
    expect(messageOf(error)).toMatch(message);
  });

  describe('Start Time: a real time, at least 5 minutes ahead', () => {
    /** The fixed clock of these tests (clockAtRecording): Tuesday 24 November 2026, 10:00 in Riyadh. */
    const NOW = Date.parse('2026-11-24T07:00:00Z');
    const iso = (ms: number) => new Date(NOW + ms).toISOString();
    const MINUTE = 60_000;
    const refused = async (starts_at: string) => {
      const stop = strays();
      const error = await failure(run('book_appointment', { ...booking, starts_at }));
      expect(stop()).toEqual([]);
      return messageOf(error);
    };

    it.each([
      [
        'a day ago',
        iso(-24 * 60 * MINUTE),
        /^Please fix: Start Time: is in the past \(read as Monday 23 November 2026, 10:00 AM, Riyadh time\): give a time ahead\. It came with the offset Z, .*set it to Asia\/Riyadh, or write the offset\.$/,
      ],
      ['six minutes ago', iso(-6 * MINUTE), /^Please fix: Start Time: is in the past /],
      [
        'the moment the step runs (what Zapier makes of 2027-02-30T11:00:00)',
        iso(0),
        /^Please fix: Start Time: is within 5 minutes of now \(read as Tuesday 24 November 2026, 10:00 AM, Riyadh time\), too soon to book: Zapier turns a date it cannot read, such as 30 February, into the current time\. Give a real date and time at least 5 minutes ahead\.$/,
      ],
      ['a few seconds before the step runs', iso(-3000), /Start Time: is within 5 minutes of now/],
      ['4 minutes 59 seconds ahead', iso(5 * MINUTE - 1000), /Start Time: is within 5 minutes of now/],
      [
        '30 February with its offset',
        '2027-02-30T11:00:00+03:00',
        /^Please fix: Start Time: is not a real date/,
      ],
      ['30 February without an offset', '2027-02-30T11:00:00', /^Please fix: Start Time: is not a real date/],
      ['hour 24 without an offset', '2027-01-10 24:00', /^Please fix: Start Time: is not a real date/],
      [
        'words, not a date',
        'next Tuesday at 10',
        /^Please fix: Start Time: must be a date and time with its offset/,
      ],
      [
        'a day-first date',
        '24/11/2026 10:30',
        /^Please fix: Start Time: must be a date and time with its offset/,
      ],
      ['a number', '1795000000', /^Please fix: Start Time: must be a date and time with its offset/],
    ])('refuses %s before any request, naming Start Time', async (_name, startsAt, message) => {
      expect(await refused(startsAt)).toMatch(message);
    });

    it('says it in English first, then in Arabic with the time in Arabic words', async () => {
      const stop = strays();
      const error = await failure(
        appTester(
          perform('book_appointment') as never,
          { authData: { ...AUTH, language: 'ar' }, inputData: { ...booking, starts_at: iso(0) } } as never,
        ) as Promise<unknown>,
      );
      expect(stop()).toEqual([]);
      expect(messageOf(error)).toMatch(
        /^Please fix: Start Time: is within 5 minutes of now.* — يرجى تصحيح ما يلي: Start Time: في حدود 5 دقائق من الآن \(قُرئ الثلاثاء 24 نوفمبر 2026، 10:00 ص بتوقيت الرياض\)/,
      );
    });

    it('any time earlier than 5 minutes ahead is refused, and nothing is sent', async () => {
      await fc.assert(
        fc.asyncProperty(
          fc.integer({ min: -400 * 24 * 60 * MINUTE, max: 5 * MINUTE - 1 }),
          fc.constantFrom('Z', '+03:00', '-06:00'),
          async (ahead, offset) => {
            const at = new Date(
              NOW + ahead + (offset === 'Z' ? 0 : offset === '+03:00' ? 3 : -6) * 60 * MINUTE,
            );
            const text = `${at.toISOString().slice(0, 19)}${offset}`;
            const instant = Date.parse(text);
            const message = await refused(text);
            expect(message).toMatch(
              instant < NOW - 5 * MINUTE
                ? /^Please fix: Start Time: is in the past \(read as /
                : /^Please fix: Start Time: is within 5 minutes of now \(read as /,
            );
          },
        ),
        { numRuns: 60 },
      );
    });

    it('any time 5 minutes ahead or later is booked as given', async () => {
      const runs = 12;
      const sentTimes: string[] = [];
      clinicApi()
        .post(clinicPath('/appointments'), (b: { starts_at: string }) => !!sentTimes.push(b.starts_at))
        .times(runs)
        .reply(...reply('book-appointment'));
      recordedPatientRead('book-appointment', runs);
      const given: string[] = [];
      await fc.assert(
        fc.asyncProperty(fc.integer({ min: 5 * MINUTE, max: 2 * 365 * 24 * 60 * MINUTE }), async (ahead) => {
          const startsAt = `${new Date(NOW + ahead + 3 * 60 * MINUTE).toISOString().slice(0, 19)}+03:00`;
          given.push(startsAt);
          await run('book_appointment', { ...booking, starts_at: startsAt });
        }),
        { numRuns: runs, examples: [[5 * MINUTE]] },
      );
      expect(sentTimes).toEqual(given);
    });

    it('a calendar date that does not exist is refused however it is written, and nothing is sent', async () => {
      const daysIn = (y: number, m: number) => new Date(Date.UTC(y, m, 0)).getUTCDate();
      const two = (n: number) => String(n).padStart(2, '0');
      await fc.assert(
        fc.asyncProperty(
          fc
            .record({
              y: fc.integer({ min: 2027, max: 2099 }),
              m: fc.integer({ min: 1, max: 12 }),
              d: fc.integer({ min: 0, max: 31 }),
              h: fc.integer({ min: 0, max: 29 }),
              offset: fc.constantFrom('+03:00', '+0300', 'Z', ''),
            })
            .filter(({ y, m, d, h }) => d === 0 || d > daysIn(y, m) || h > 23),
          async ({ y, m, d, h, offset }) => {
            const text = `${y}-${two(m)}-${two(d)}T${two(h)}:30:00${offset}`;
            expect(await refused(text)).toMatch(/^Please fix: Start Time: is not a real date or time /);
          },
        ),
        { numRuns: 60 },
      );
    });
  });

  describe('a taken slot says what to do next', () => {
    const TAKEN =
      'That time is already taken: pick another time, or use Find Appointment to see the patient’s appointments.';

    it('the clinic’s 409 (the same practitioner already booked at that time)', async () => {
      clinicApi()
        .post(clinicPath('/appointments'), { ...sent('book-appointment'), external_ref: 'web-5502' })
        .reply(replay('book-appointment-slot-taken'));
      const error = await failure(run('book_appointment', { ...booking, external_ref: 'web-5502' }));
      expect(error.name).toBe('AppError');
      expect(JSON.parse(error.message)).toMatchObject({ code: 'slot_taken', status: 409 });
      expect(messageOf(error)).toMatch(new RegExp(`^${escape(TAKEN)} The clinic interface said: ".+"$`));
    });

    it.each([
      ['a 422 whose code names the slot', { error: 'slot_unavailable', message: 'Slot unavailable.' }],
      [
        'a 422 validation_failed naming only the start time as taken',
        {
          error: 'validation_failed',
          message: 'Some fields are not valid.',
          details: { errors: [{ field: 'starts_at', code: 'taken' }] },
        },
      ],
    ])('%s (hand-built: the sandbox answers a taken slot with 409 only)', async (_name, body) => {
      clinicApi().post(clinicPath('/appointments')).reply(422, body);
      const error = await failure(run('book_appointment', booking));
      expect(messageOf(error)).toMatch(new RegExp(`^${escape(TAKEN)}`));
    });

    it.each(['appointment_locked', 'delivery_sent', 'payload_redacted'])(
      'a 409 whose code the spec documents (%s) halts saying why nothing was done, never a taken slot',
      async (code) => {
        const [status, refusal, headers] = reply('clinic-errors-en', { error: code });
        clinicApi().post(clinicPath('/appointments')).reply(status, refusal, headers); // the clinic's recorded 409 of that code, answered to a booking
        const error = await failure(run('book_appointment', booking));
        expect(error.name).toBe('HaltedError');
        expect(messageOf(error)).toMatch(/^Nothing was done: /);
        expect(messageOf(error)).toContain(`The clinic interface said: "${String(refusal.message)}"`);
        expect(messageOf(error)).not.toMatch(/already taken/);
      },
    );

    it('other answers of the booking keep their own words', async () => {
      clinicApi()
        .post(clinicPath('/appointments'))
        .reply(...reply('clinic-errors-en', { error: 'client_revoked' }));
      clinicApi()
        .post(clinicPath('/appointments'))
        .reply(422, {
          error: 'validation_failed',
          message: 'Some fields are not valid.',
          details: { errors: [{ field: 'branch_id', code: 'unknown' }] },
        }); // hand-built: a branch the clinic does not have
      const revoked = await failure(run('book_appointment', booking));
      expect(revoked.name).toBe('ExpiredAuthError');
      const invalid = await failure(run('book_appointment', booking));
      expect(messageOf(invalid)).toMatch(
        /^Some fields are not valid\. Branch: does not exist in the account\./,
      );
      expect(messageOf(revoked) + messageOf(invalid)).not.toMatch(/already taken/);
    });

    it('in English first, then Arabic', async () => {
      clinicApi('ar')
        .post(clinicPath('/appointments'), { ...sent('book-appointment'), external_ref: 'web-5503' })
        .reply(replay('book-appointment-slot-taken-ar'));
      const error = await failure(
        appTester(
          perform('book_appointment') as never,
          {
            authData: { ...AUTH, language: 'ar' },
            inputData: { ...booking, external_ref: 'web-5503' },
          } as never,
        ) as Promise<unknown>,
      );
      expect(messageOf(error)).toMatch(
        new RegExp(
          `^${escape(TAKEN)} — هذا الوقت محجوز: اختر وقتًا آخر، أو استخدم Find Appointment لرؤية مواعيد المريض\\. The clinic interface said — رد واجهة العيادة: ".+"$`,
        ),
      );
    });
  });
});

// Record mode: the slot the test asks for is taken first by the same booking under another reference.
for (const scenario of ['book-appointment-slot-taken', 'book-appointment-slot-taken-ar']) {
  given(scenario, {
    setup: async (sb) => {
      await call(`${sb.clinicBaseUrl}/appointments`, {
        body: sent('book-appointment'),
        token: sb.tokens.clinicOwner,
      });
    },
  });
}

describe('messages in the connection’s language', () => {
  it('names what to fix in English, then Arabic, before any request', async () => {
    const error = await failure(
      appTester(
        perform('create_order') as never,
        {
          authData: { ...AUTH, language: 'ar' },
          inputData: {
            external_id: 'SHOP-1',
            branch_id: 'x',
            lines: [{ sku: 'A', qty: '0', unit_price_sar: '1.005' }],
          },
        } as never,
      ) as Promise<unknown>,
    );
    // English first, which Zapier's publishing rules want in every message…
    expect(messageOf(error)).toMatch(/^Please fix: .*Branch: is not an id: choose from the list/);
    expect(messageOf(error)).toMatch(/Order Lines #1, Quantity: must be more than 0/);
    // …then the same in Arabic.
    expect(messageOf(error)).toMatch(/ — يرجى تصحيح ما يلي: /);
    expect(messageOf(error)).toMatch(/Branch: ليس معرّفًا: اختر من القائمة أو اربط معرّفًا من خطوة سابقة/);
    expect(messageOf(error)).toMatch(/Order Lines #1, Quantity: يجب أن يكون أكبر من 0/);
    expect(messageOf(error)).toMatch(/فيه أكثر من منزلتين عشريتين/);
  });
});

describe('phones in Arabic messages read left to right', () => {
  it('Book Appointment’s phone message wraps the value and the examples in isolate marks', async () => {
    const stop = strays();
    const error = await failure(
      appTester(
        perform('book_appointment') as never,
        {
          authData: { ...AUTH, language: 'ar' },
          inputData: {
            patient_phone: '+966 12',
            patient_name: 'سارة',
            branch_id: '1',
            appointment_type_id: '4',
            starts_at: START_AHEAD,
          },
        } as never,
      ) as Promise<unknown>,
    );
    expect(stop()).toEqual([]);
    const [, arabic] = messageOf(error).split(' — ');
    expect(arabic).toMatch(/^يرجى تصحيح ما يلي: Patient Phone: /);
    expect(arabic).toContain('"\u2066+966 12\u2069" ليس رقم هاتف');
    expect(arabic).toContain('مثل \u20660501234567\u2069 أو \u2066+966501234567\u2069');
    expect(arabic).not.toContain('966501234567+');
  });
});

describe('cancel_appointment', () => {
  it('posts the reason and returns the cancelled appointment', async () => {
    const cancelled = data('cancel-appointment');
    clinicApi()
      .post(clinicPath(`/appointments/${cancelled.id}/cancel`), { reason: 'no_show' })
      .reply(replay('cancel-appointment'));
    const patient = recordedPatientRead('cancel-appointment');
    const result = await run('cancel_appointment', {
      appointment_id: cancelled.id.toLowerCase(),
      reason: 'no_show',
    });
    expect(cancelled).toMatchObject({ status: 'cancelled', cancel_reason: 'no_show' });
    expect(result).toMatchObject({
      id: cancelled.id,
      status: cancelled.status,
      cancel_reason: cancelled.cancel_reason,
      cancelled_at: cancelled.cancelled_at,
      patient: patient.contact,
    });
    expect(patient.scope.isDone()).toBe(true);
  });

  it('ends as HaltedError when the appointment is in progress or completed', async () => {
    clinicApi()
      .post(clinicPath(`/appointments/${IN_PROGRESS}/cancel`), {})
      .reply(replay('cancel-appointment-locked'));
    const error = await failure(run('cancel_appointment', { appointment_id: IN_PROGRESS }));
    expect(error.name).toBe('HaltedError');
    expect(messageOf(error)).toMatch(/cannot be cancelled/);
  });

  it('refuses an unknown reason before any request', async () => {
    const error = await failure(run('cancel_appointment', { appointment_id: IN_PROGRESS, reason: 'bored' }));
    expect(messageOf(error)).toMatch(/Reason: must be one of: patient_request, clinic, no_show, other/);
  });
});

describe('create_order', () => {
  const orderInput = ORDER_INPUT;
  const orderAnswer = data('create-order');

  it('posts halalas, E.164 and typed values, and shows the total in SAR', async () => {
    cashierApi()
      .post(cashierPath('/orders'), {
        external_id: 'SHOP-100482',
        branch_id: 2,
        order_type: 'pickup',
        prepaid: true,
        customer: { name: 'خالد الغامدي', phone: '+966555012345' },
        lines: [
          { variant_id: 118, qty: 2, unit_price_halalas: 1250 },
          { sku: 'BAK-DATE', qty: 1 },
          { name: 'Gift wrap', qty: 1, unit_price_halalas: 500 },
        ],
      })
      .reply(replay('create-order'));
    const result = await run('create_order', orderInput);
    expect(result).toMatchObject({
      id: orderAnswer.id,
      total_halalas: orderAnswer.total_halalas,
      total_sar: sar(orderAnswer.total_halalas),
      duplicate: false,
    });
  });

  it('shows a repeated order reference as duplicate instead of a second order', async () => {
    cashierApi().post(cashierPath('/orders')).reply(replay('create-order-repeat'));
    const result = await run('create_order', orderInput);
    expect(result.duplicate).toBe(true);
    expect(result.id).toBe(data('create-order-repeat').id);
  });

  it.each([
    ['no order reference', { ...orderInput, external_id: ' ' }, /Order Reference: is required/],
    ['no lines', { ...orderInput, lines: [] }, /Order Lines: add at least one line/],
    [
      'a zero quantity',
      { ...orderInput, lines: [{ sku: 'X', qty: '0' }] },
      /Order Lines #1, Quantity: must be more than 0/,
    ],
    [
      'three decimals',
      { ...orderInput, lines: [{ sku: 'X', qty: 1, unit_price_sar: '1.005' }] },
      /more than two decimals/,
    ],
    ['a negative price', { ...orderInput, lines: [{ sku: 'X', qty: 1, unit_price_sar: '-3' }] }, /negative/],
    [
      'a line naming nothing',
      { ...orderInput, lines: [{ qty: 1 }] },
      /name the product by Variant, PLU, SKU, Barcode or Name/,
    ],
    ['a bad phone', { ...orderInput, customer_phone: '999' }, /Customer Phone/],
  ])('refuses %s before any request', async (_name, input, message) => {
    const error = await failure(run('create_order', input));
    expect(messageOf(error)).toMatch(message);
  });
});

/** Record mode: the order the scenario needs, made first as the app makes it (the body of Create Order). */
const orderFirst = async (sb: { cashierBaseUrl: string; tokens: { cashierOwner: string } }) => {
  await call(`${sb.cashierBaseUrl}/orders`, {
    body: sent('create-order'),
    token: sb.tokens.cashierOwner,
  });
};
given('create-order-repeat', { setup: orderFirst });
given('cancel-order', { setup: orderFirst });
/** The order made first and then rejected by the till, which it can no longer cancel. */
const REJECTED_ORDER = '01M865NCC0JEP15JYDPW6XX9W3';
given('cancel-order-not-cancellable', {
  setup: async (sb) => {
    await orderFirst(sb);
    await call(`${sb.controlUrl}/cashier/orders/${REJECTED_ORDER}/status`, { body: { status: 'rejected' } });
  },
});

describe('cancel_order', () => {
  it('posts an empty body and returns the cancelled order', async () => {
    const cancelled = data('cancel-order');
    cashierApi()
      .post(cashierPath(`/orders/${cancelled.id}/cancel`), (body) => body === '' || body === undefined)
      .reply(replay('cancel-order'));
    const result = await run('cancel_order', { order_id: cancelled.id });
    expect(cancelled.status).toBe('cancelled');
    expect(result).toMatchObject({
      id: cancelled.id,
      status: cancelled.status,
      total_sar: sar(cancelled.total_halalas),
    });
  });

  it('ends as HaltedError with the plain reason when the till cannot cancel it', async () => {
    const [status, refusal] = reply('cancel-order-not-cancellable');
    cashierApi()
      .post(cashierPath(`/orders/${REJECTED_ORDER}/cancel`))
      .reply(replay('cancel-order-not-cancellable'));
    const error = await failure(run('cancel_order', { order_id: REJECTED_ORDER }));
    expect([status, refusal.error]).toEqual([409, 'order_not_cancellable']);
    expect(error.name).toBe('HaltedError');
    expect(messageOf(error)).toBe(
      `Nothing was done: the till can no longer cancel order ${REJECTED_ORDER}. If its receipt was already issued, the cashier decides on a refund. The cashier interface said: "${refusal.message}"`,
    );
  });

  it('a 409 whose code the spec documents reads as that code, not as a till that cannot cancel', async () => {
    const [, revoked, headers] = reply('clinic-errors-en', { error: 'client_revoked' });
    cashierApi()
      .post(cashierPath(`/orders/${REJECTED_ORDER}/cancel`))
      .reply(409, revoked, headers); // the clinic's recorded client_revoked, as the cashier shares its envelope
    const error = await failure(run('cancel_order', { order_id: REJECTED_ORDER }));
    expect(error.name).toBe('ExpiredAuthError');
    expect(messageOf(error)).not.toMatch(/can no longer cancel/);
  });
});

describe('create_item', () => {
  const answer = data('create-item', { method: 'POST' });

  it('posts prices in halalas with the variants given, after finding no item with its first SKU', async () => {
    cashierApi()
      .get(cashierPath('/items'))
      .query({ sku: 'COF-TR-S', per_page: '10' })
      .reply(replay('create-item', { method: 'GET' }));
    cashierApi()
      .post(cashierPath('/items'), {
        name_ar: 'قهوة تركية',
        name_en: 'Turkish Coffee',
        category_id: 4,
        variants: [
          {
            name_ar: 'صغير',
            sku: 'COF-TR-S',
            barcode: '6281000009901',
            price_halalas: 900,
            is_default: true,
          },
          { name_ar: 'كبير', sku: 'COF-TR-L', price_halalas: 1200 },
        ],
      })
      .reply(replay('create-item', { method: 'POST' }));
    const result = await run('create_item', ITEM_INPUT);
    expect(result).toMatchObject({
      id: answer.id,
      duplicate: false,
      variants: (answer.variants as Array<{ id: number; price_halalas: number }>).map((v) => ({
        id: v.id,
        price_sar: sar(v.price_halalas),
      })),
    });
  });

  it('sends only the default price when no variants are given', async () => {
    cashierApi()
      .post(cashierPath('/items'), { name_ar: 'ماء', category_id: 5, default_price_halalas: 150 })
      .reply(replay('create-item-default-price'));
    await run('create_item', WATER_INPUT);
  });

  it('refuses an item without any price before any request', async () => {
    const error = await failure(run('create_item', { name_ar: 'ماء' }));
    expect(messageOf(error)).toMatch(/Default Price \(SAR\): give a Default Price/);
  });
});

describe('update_item', () => {
  // The item as the sandbox stores it (read before the recorded variant updates), and its two variants.
  type Variant = {
    id: number;
    name_ar: string;
    sku: string;
    barcode: string;
    price_halalas: number;
    is_default: boolean;
  };
  const stored = data('update-item-variants', { method: 'GET' });
  const ITEM = stored.id as number;
  const small = (stored.variants as Variant[]).find((v) => v.sku === 'COF-AR-S')!;
  const large = (stored.variants as Variant[]).find((v) => v.sku === 'COF-AR-L')!;

  it('a name-only update is one PUT without arrays (after reading the item), so the variants stay', async () => {
    const updated = data('update-item', { method: 'PUT' });
    cashierApi()
      .get(cashierPath(`/items/${ITEM}`))
      .reply(replay('update-item', { method: 'GET' }));
    cashierApi()
      .put(cashierPath(`/items/${ITEM}`), { name_en: 'Saudi Coffee' })
      .reply(replay('update-item', { method: 'PUT' }));
    const result = await run('update_item', { item_id: String(ITEM), name_en: 'Saudi Coffee', variants: [] });
    expect(updated.name_en).toBe('Saudi Coffee');
    expect(result).toMatchObject({
      duplicate: false,
      name_en: updated.name_en,
      variants: (updated.variants as Variant[]).map((v) => ({ id: v.id })),
    });
    expect(result.variants).toHaveLength((stored.variants as Variant[]).length);
  });

  it('reads the item first when variants are given, keeps stored ids and the variants not mentioned', async () => {
    cashierApi()
      .get(cashierPath(`/items/${ITEM}`))
      .reply(replay('update-item-variants', { method: 'GET' }));
    cashierApi()
      .put(cashierPath(`/items/${ITEM}`), {
        variants: [
          {
            id: small.id,
            name_ar: small.name_ar,
            sku: 'COF-AR-S',
            barcode: small.barcode,
            price_halalas: small.price_halalas,
            is_default: true,
          },
          // The matched row goes whole, with the new price: nothing of it is lost if rows are replaced.
          {
            id: large.id,
            name_ar: large.name_ar,
            sku: 'COF-AR-L',
            barcode: large.barcode,
            price_halalas: 1300,
            is_default: large.is_default,
          },
          { name_ar: 'وسط', sku: 'COF-AR-M', price_halalas: 1100 },
        ],
      })
      .reply(replay('update-item-variants', { method: 'PUT' }));
    await run('update_item', {
      item_id: ITEM,
      variants: [
        { sku: 'COF-AR-L', price_sar: '13' },
        { variant_name_ar: 'وسط', sku: 'COF-AR-M', price_sar: '11' },
      ],
    });
  });

  it('adds a variant by name and price alone (no SKU, no barcode) beside the stored ones', async () => {
    const S = 'update-item-add-unnamed';
    cashierApi()
      .get(cashierPath(`/items/${ITEM}`))
      .reply(replay(S, { method: 'GET' }));
    cashierApi()
      .put(cashierPath(`/items/${ITEM}`), {
        // The stored rows whole (without the PLU the interface assigns), then the new one.
        variants: [
          ...(stored.variants as Array<Variant & { plu: string }>).map(({ plu: _, ...v }) => v),
          { name_ar: 'وسط', price_halalas: 1100 },
        ],
      })
      .reply(replay(S, { method: 'PUT' }));
    const result = await run('update_item', {
      item_id: String(ITEM),
      variants: [{ variant_name_ar: 'وسط', price_sar: '11' }],
    });
    expect((result.variants as Variant[]).map((v) => v.name_ar)).toEqual(
      (data(S, { method: 'PUT' }).variants as Variant[]).map((v) => v.name_ar),
    );
    expect((result.variants as Variant[]).filter((v) => v.name_ar === 'وسط')).toHaveLength(1);
  });

  it('removes the variants not listed only when asked to', async () => {
    cashierApi()
      .get(cashierPath(`/items/${ITEM}`))
      .reply(replay('update-item-replace', { method: 'GET' }));
    cashierApi()
      .put(cashierPath(`/items/${ITEM}`), {
        variants: [
          {
            id: large.id,
            name_ar: large.name_ar,
            sku: large.sku,
            barcode: large.barcode,
            price_halalas: 1300,
            is_default: large.is_default,
          },
        ],
      })
      .reply(replay('update-item-replace', { method: 'PUT' }));
    const result = await run('update_item', {
      item_id: ITEM,
      variants_mode: 'replace',
      variants: [{ variant_id: String(large.id), price_sar: '13' }],
    });
    expect((result.variants as Variant[]).map((v) => v.id)).toEqual([large.id]);
  });

  it('a variant made the default takes it from the others (one default)', async () => {
    cashierApi()
      .get(cashierPath(`/items/${ITEM}`))
      .reply(replay('update-item-variants', { method: 'GET' }));
    cashierApi()
      .put(
        cashierPath(`/items/${ITEM}`),
        (b: { variants: Array<{ sku?: string; is_default?: boolean }> }) => {
          expect(b.variants.filter((v) => v.is_default === true).map((v) => v.sku)).toEqual(['COF-AR-XL']);
          expect(b.variants.find((v) => v.sku === 'COF-AR-S')?.is_default).toBe(false);
          return true;
        },
      )
      .reply(...reply('update-item-variants', { method: 'PUT' })); // recorded for other variants
    await run('update_item', {
      item_id: ITEM,
      variants: [{ variant_name_ar: 'كبير جدًا', sku: 'COF-AR-XL', price_sar: '15', is_default: 'true' }],
    });
  });

  it('refuses an update that changes nothing, before any request, blaming the change fields', async () => {
    const stop = strays();
    const error = await failure(run('update_item', { item_id: 311 }));
    expect(stop()).toEqual([]);
    expect(messageOf(error)).toBe(
      'Please fix: Name (Arabic), Name (English), Category, Default Price (SAR) or Variants: give at least one field to change.',
    );
    expect(messageOf(error)).not.toMatch(/Item:/);
  });
});
