import App from '../index';
import { data, ITEM_INPUT, ORDER_INPUT, replay, reply, sent, WATER_INPUT } from './fixtures';
import { call } from './support/call';
import { given } from './support/recorder';
import {
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  clinicApi,
  clinicPath,
  messageOf,
  recordedPatientRead,
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

// Record mode: the repeat is recorded after the same booking was made once (the body Book Appointment sends).
given('book-appointment-repeat', {
  setup: async (sb) => {
    await call(`${sb.clinicBaseUrl}/appointments`, {
      body: sent('book-appointment'),
      token: sb.tokens.clinicOwner,
    });
  },
});

describe('book_appointment', () => {
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
  });

  it('keeps the booking when the token lacks patients:read: empty patient fields, no second booking', async () => {
    clinicApi().post(clinicPath('/appointments')).reply(replay('book-appointment'));
    clinicApi()
      .get(clinicPath(`/patients/${String(data('book-appointment').patient_id)}`))
      .reply(...reply('find-patient-insufficient-ability')); // a 403 body, reused for the patient read
    const result = await run('book_appointment', booking);
    expect(result).toMatchObject({ id: data('book-appointment').id, duplicate: false });
    expect(result.patient).toEqual({ name_ar: null, name_en: null, phone: null, email: null, file_no: null });
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
      /Patient: choose the Patient or give the Patient Phone/,
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
    ['a branch that is not a number', { ...booking, branch_id: 'Olaya' }, /Branch: must be a whole number/],
  ])('refuses %s before any request', async (_name, input, message) => {
    const error = await failure(run('book_appointment', input));
    expect(messageOf(error)).toMatch(message);
  });
});

describe('messages in the connection’s language', () => {
  it('names what to fix in Arabic, before any request', async () => {
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
    expect(messageOf(error)).toMatch(/^يرجى تصحيح ما يلي: /);
    expect(messageOf(error)).toMatch(/Branch: يجب أن يكون عددًا صحيحًا/);
    expect(messageOf(error)).toMatch(/Order Lines #1, Quantity: يجب أن يكون أكبر من 0/);
    expect(messageOf(error)).toMatch(/فيه أكثر من منزلتين عشريتين/);
    // …then the same in English, which Zapier's publishing rules want in every message.
    expect(messageOf(error)).toMatch(/ — Please fix: .*Branch: must be a whole number/);
    expect(messageOf(error)).toMatch(/Order Lines #1, Quantity: must be more than 0/);
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
    expect(messageOf(error)).toMatch(
      new RegExp(`can no longer cancel order ${REJECTED_ORDER} \\(${escape(refusal.message)}\\)`),
    );
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

  it('refuses an update that changes nothing, before any request', async () => {
    const error = await failure(run('update_item', { item_id: 311 }));
    expect(messageOf(error)).toMatch(/give at least one field to change/);
  });
});
