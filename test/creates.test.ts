import App from '../index';
import {
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  clinicApi,
  clinicPath,
  messageOf,
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

const PATIENT = '01JD8ZK6M4Q2W7R9T3V5X8Y1AB';
const APPT = '01JDA3F7Q9B2C4D6E8G0H1J3K5';
const appointmentAnswer = (over: object = {}) => ({
  id: APPT,
  patient_id: PATIENT,
  branch_id: 1,
  appointment_type_id: 4,
  status: 'booked',
  starts_at: '2026-11-24T10:30:00+03:00',
  external_ref: 'web-5501',
  ...over,
});

describe('book_appointment', () => {
  const booking = {
    patient_id: PATIENT,
    branch_id: '1',
    appointment_type_id: '4',
    starts_at: '2026-11-24T10:30:00+03:00',
    practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D0',
    note: 'First visit',
    external_ref: 'web-5501',
  };

  it('posts the AppointmentWrite body and shows a new booking as not duplicate', async () => {
    clinicApi()
      .post(clinicPath('/appointments'), {
        branch_id: 1,
        appointment_type_id: 4,
        starts_at: '2026-11-24T10:30:00+03:00',
        practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D0',
        patient_id: PATIENT,
        note: 'First visit',
        external_ref: 'web-5501',
      })
      .matchHeader('content-type', 'application/json')
      .reply(201, { data: appointmentAnswer() });
    const result = await run('book_appointment', booking);
    expect(result).toMatchObject({ id: APPT, status: 'booked', duplicate: false });
  });

  it('shows a repeated booking reference as duplicate, whether the flag is beside or inside data', async () => {
    clinicApi().post(clinicPath('/appointments')).reply(200, { data: appointmentAnswer(), duplicate: true });
    clinicApi()
      .post(clinicPath('/appointments'))
      .reply(200, { data: { ...appointmentAnswer(), duplicate: true } });
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
      .reply(201, { data: appointmentAnswer({ patient_id: PATIENT }) });
    await run('book_appointment', {
      patient_phone: '050 123 4567',
      patient_name: 'سارة الشهري',
      branch_id: 1,
      appointment_type_id: 4,
      starts_at: '2026-11-24T10:30:00+03:00',
    });
  });

  it('derives the same booking reference for a replayed step, and another for another booking', async () => {
    const refs: string[] = [];
    clinicApi()
      .post(clinicPath('/appointments'), (b: { external_ref: string }) => !!refs.push(b.external_ref))
      .times(4)
      .reply(201, { data: appointmentAnswer() });
    const blank = { ...booking, external_ref: '' };
    await run('book_appointment', blank);
    await run('book_appointment', { ...blank, starts_at: '2026-11-24T07:30:00Z' }); // the same instant
    await run('book_appointment', { ...blank, starts_at: '2026-11-24T11:00:00+03:00' });
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

describe('cancel_appointment', () => {
  it('posts the reason and returns the cancelled appointment', async () => {
    clinicApi()
      .post(clinicPath(`/appointments/${APPT}/cancel`), { reason: 'no_show' })
      .reply(200, {
        data: appointmentAnswer({
          status: 'cancelled',
          cancel_reason: 'no_show',
          cancelled_at: '2026-11-24T11:00:00+03:00',
        }),
      });
    const result = await run('cancel_appointment', { appointment_id: APPT.toLowerCase(), reason: 'no_show' });
    expect(result).toMatchObject({ id: APPT, status: 'cancelled', cancel_reason: 'no_show' });
  });

  it('ends as HaltedError when the appointment is in progress or completed', async () => {
    clinicApi()
      .post(clinicPath(`/appointments/${APPT}/cancel`), {})
      .reply(409, { error: 'appointment_locked', message: 'Appointment is completed', details: {} });
    const error = await failure(run('cancel_appointment', { appointment_id: APPT }));
    expect(error.name).toBe('HaltedError');
    expect(messageOf(error)).toMatch(/cannot be cancelled/);
  });

  it('refuses an unknown reason before any request', async () => {
    const error = await failure(run('cancel_appointment', { appointment_id: APPT, reason: 'bored' }));
    expect(messageOf(error)).toMatch(/Reason: must be one of: patient_request, clinic, no_show, other/);
  });
});

describe('create_order', () => {
  const orderInput = {
    external_id: 'SHOP-100482',
    branch_id: '2',
    customer_name: 'خالد الغامدي',
    customer_phone: '0555012345',
    prepaid: 'true',
    order_type: 'pickup',
    lines: [
      { variant_id: '118', qty: '2', unit_price_sar: '12.5' },
      { sku: 'DATE-CAKE', qty: '1' },
      { name: 'Gift wrap', qty: '1', unit_price_sar: '5' },
    ],
  };
  const orderAnswer = {
    id: '01JDAD4E5F6G7H8J9K0M1N2P3Q',
    external_id: 'SHOP-100482',
    provider: 'zapier',
    status: 'received',
    total_halalas: 8650,
  };

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
          { sku: 'DATE-CAKE', qty: 1 },
          { name: 'Gift wrap', qty: 1, unit_price_halalas: 500 },
        ],
      })
      .reply(201, orderAnswer);
    const result = await run('create_order', orderInput);
    expect(result).toMatchObject({
      id: orderAnswer.id,
      total_halalas: 8650,
      total_sar: '86.50',
      duplicate: false,
    });
  });

  it('shows a repeated order reference as duplicate instead of a second order', async () => {
    cashierApi().post(cashierPath('/orders')).reply(200, { data: orderAnswer, duplicate: true });
    expect((await run('create_order', orderInput)).duplicate).toBe(true);
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

describe('cancel_order', () => {
  it('posts an empty body and returns the cancelled order', async () => {
    cashierApi()
      .post(
        cashierPath('/orders/01JDAD4E5F6G7H8J9K0M1N2P3Q/cancel'),
        (body) => body === '' || body === undefined,
      )
      .reply(200, { id: '01JDAD4E5F6G7H8J9K0M1N2P3Q', status: 'cancelled', total_halalas: 8650 });
    const result = await run('cancel_order', { order_id: '01JDAD4E5F6G7H8J9K0M1N2P3Q' });
    expect(result).toMatchObject({ status: 'cancelled', total_sar: '86.50' });
  });

  it('ends as HaltedError with the plain reason when the till cannot cancel it', async () => {
    cashierApi()
      .post(cashierPath('/orders/ORD-9/cancel'))
      .reply(409, { error: 'order_not_cancellable', message: 'Order already completed', details: {} });
    const error = await failure(run('cancel_order', { order_id: 'ORD-9' }));
    expect(error.name).toBe('HaltedError');
    expect(messageOf(error)).toMatch(/can no longer cancel order ORD-9 \(Order already completed\)/);
  });
});

describe('create_item', () => {
  const answer = {
    id: 311,
    name_ar: 'قهوة عربية',
    variants: [{ id: 117, plu: 'V117', sku: 'COF-AR-S', price_halalas: 900 }],
  };

  it('posts prices in halalas with the variants given', async () => {
    cashierApi()
      .post(cashierPath('/items'), {
        name_ar: 'قهوة عربية',
        name_en: 'Arabic Coffee',
        category_id: 4,
        variants: [
          {
            name_ar: 'صغير',
            sku: 'COF-AR-S',
            barcode: '6281000001170',
            price_halalas: 900,
            is_default: true,
          },
          { name_ar: 'كبير', sku: 'COF-AR-L', price_halalas: 1200 },
        ],
      })
      .reply(201, { data: answer });
    const result = await run('create_item', {
      name_ar: 'قهوة عربية',
      name_en: 'Arabic Coffee',
      category_id: '4',
      variants: [
        {
          variant_name_ar: 'صغير',
          sku: 'COF-AR-S',
          barcode: '6281000001170',
          price_sar: '9',
          is_default: 'true',
        },
        { variant_name_ar: 'كبير', sku: 'COF-AR-L', price_sar: '12.00' },
      ],
    });
    expect(result).toMatchObject({ id: 311, variants: [{ id: 117, price_sar: '9.00' }] });
  });

  it('sends only the default price when no variants are given', async () => {
    cashierApi()
      .post(cashierPath('/items'), { name_ar: 'ماء', default_price_halalas: 150 })
      .reply(201, answer);
    await run('create_item', { name_ar: 'ماء', default_price_sar: '1.50', variants: [] });
  });

  it('refuses an item without any price before any request', async () => {
    const error = await failure(run('create_item', { name_ar: 'ماء' }));
    expect(messageOf(error)).toMatch(/Default Price \(SAR\): give a Default Price/);
  });
});

describe('update_item', () => {
  const stored = {
    id: 311,
    name_ar: 'قهوة عربية',
    variants: [
      {
        id: 117,
        plu: 'V117',
        name_ar: 'صغير',
        sku: 'COF-AR-S',
        barcode: '6281000001170',
        price_halalas: 900,
        is_default: true,
      },
      {
        id: 118,
        plu: 'V118',
        name_ar: 'كبير',
        sku: 'COF-AR-L',
        barcode: '6281000001187',
        price_halalas: 1200,
        is_default: false,
      },
    ],
  };

  it('a name-only update is one PUT without arrays, so the variants stay', async () => {
    cashierApi()
      .put(cashierPath('/items/311'), { name_en: 'Saudi Coffee' })
      .reply(200, { ...stored, name_en: 'Saudi Coffee' });
    const result = await run('update_item', { item_id: '311', name_en: 'Saudi Coffee', variants: [] });
    expect(result).toMatchObject({ name_en: 'Saudi Coffee', variants: [{ id: 117 }, { id: 118 }] });
  });

  it('reads the item first when variants are given, keeps stored ids and the variants not mentioned', async () => {
    cashierApi().get(cashierPath('/items/311')).reply(200, { data: stored });
    cashierApi()
      .put(cashierPath('/items/311'), {
        variants: [
          {
            id: 117,
            name_ar: 'صغير',
            sku: 'COF-AR-S',
            barcode: '6281000001170',
            price_halalas: 900,
            is_default: true,
          },
          { id: 118, sku: 'COF-AR-L', price_halalas: 1300 },
          { name_ar: 'وسط', sku: 'COF-AR-M', price_halalas: 1100 },
        ],
      })
      .reply(200, stored);
    await run('update_item', {
      item_id: 311,
      variants: [
        { sku: 'COF-AR-L', price_sar: '13' },
        { variant_name_ar: 'وسط', sku: 'COF-AR-M', price_sar: '11' },
      ],
    });
  });

  it('removes the variants not listed only when asked to', async () => {
    cashierApi().get(cashierPath('/items/311')).reply(200, stored);
    cashierApi()
      .put(cashierPath('/items/311'), { variants: [{ id: 118, price_halalas: 1300 }] })
      .reply(200, stored);
    await run('update_item', {
      item_id: 311,
      variants_mode: 'replace',
      variants: [{ variant_id: '118', price_sar: '13' }],
    });
  });

  it('refuses an update that changes nothing, before any request', async () => {
    const error = await failure(run('update_item', { item_id: 311 }));
    expect(messageOf(error)).toMatch(/give at least one field to change/);
  });
});
