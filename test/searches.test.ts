import nock from 'nock';
import App from '../index';
import { halalasToSar } from '../lib/money';
import { appointment, invoice, patient } from '../lib/resources/clinic';
import { item, order, receipt, creditNote, stockLevel, zReport } from '../lib/resources/cashier';
import { SEARCH } from '../lib/keys';
import {
  appTester,
  AUTH,
  CASHIER,
  cashierApi,
  cashierPath,
  CLINIC,
  clinicApi,
  clinicPath,
  useNock,
} from './helpers';

/*
 * Every search of CONTRACT §4, called through the app definition so core's middleware and the app's error
 * mapper run as on Zapier: each request asserted exactly, each result checked, bad input refused before any call.
 */

useNock();

type Result = Array<Record<string, unknown>>;
interface SearchDef {
  key: string;
  display: { label: string; description: string };
  operation: {
    perform: unknown;
    inputFields: Array<{ key: string; label?: string; helpText?: string; dynamic?: string; search?: string }>;
    sample: Record<string, unknown>;
  };
}

const searches = App.searches as unknown as Record<string, SearchDef>;
const triggers = App.triggers as unknown as Record<string, unknown>;

const find = (key: string, inputData: Record<string, unknown>, authData: Record<string, string> = AUTH) =>
  appTester(searches[key]!.operation.perform as never, { authData, inputData } as never) as Promise<Result>;

/** What the interface sends: a resource sample without the app's own additions (`_sar` siblings, composite ids). */
const raw = (sample: object, drop: string[] = []): Record<string, unknown> =>
  JSON.parse(
    JSON.stringify(sample, (k, v) => (k.endsWith('_sar') || drop.includes(k) ? undefined : (v as unknown))),
  ) as Record<string, unknown>;

/** Every *_halalas at any depth has its *_sar sibling with two decimals; answers how many were checked. */
const sarSiblings = (value: unknown): number => {
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + sarSiblings(v), 0);
  if (!value || typeof value !== 'object') return 0;
  let count = 0;
  for (const [k, v] of Object.entries(value)) {
    if (k.endsWith('_halalas') && typeof v === 'number') {
      expect((value as Record<string, unknown>)[k.replace(/_halalas$/, '_sar')]).toBe(halalasToSar(v));
      count += 1;
    }
    count += sarSiblings(v);
  }
  return count;
};

/** z.errors.Error carries JSON; HaltedError and plain errors carry text. */
const messageOf = (err: unknown): string => {
  const message = (err as Error).message;
  try {
    return (JSON.parse(message) as { message: string }).message;
  } catch {
    return message;
  }
};

const failure = async (run: Promise<unknown>): Promise<Error> => {
  try {
    const result = await run;
    throw new Error(`expected the search to fail, it returned ${JSON.stringify(result)}`);
  } catch (err) {
    return err as Error;
  }
};

/** Bad input: one clear message naming the field, and not a single request to either interface. */
const expectRefused = async (key: string, inputData: Record<string, unknown>, says: RegExp) => {
  const traps = [nock(new URL(CLINIC).origin), nock(new URL(CASHIER).origin)].map((s) =>
    s.get(/.*/).reply(500, {}),
  );
  const err = await failure(find(key, inputData));
  expect(err.name).toBe('AppError');
  expect(messageOf(err)).toMatch(/^Please fix: /);
  expect(messageOf(err)).toMatch(says);
  expect(traps.map((t) => t.isDone())).toEqual([false, false]);
  nock.cleanAll();
};

const PATIENT = patient.sample.id;
const APPOINTMENT = appointment.sample.id;
const INVOICE = invoice.sample.id;
const NOT_FOUND = { error: 'not_found', message: 'Resource not found', details: {} };

describe('every search', () => {
  const all = Object.values(searches);

  it('has the eight keys of CONTRACT §4', () => {
    expect(Object.keys(searches).sort()).toEqual(Object.values(SEARCH).sort());
  });

  it.each(all.map((s) => [s.key, s] as const))('%s reads well in the Zap editor', (_key, s) => {
    expect(s.display.label).toMatch(/^Find [A-Z]/);
    expect(s.display.description).toMatch(/^Finds an? /);
    for (const field of s.operation.inputFields) {
      expect(field.label).toBeDefined();
      expect(field.label).not.toMatch(/\bID\b/i);
      for (const word of field.label!.split(/\s+/)) expect(word).toMatch(/^[A-Z0-9]/);
      expect(field.helpText?.length).toBeGreaterThan(20);
    }
  });

  it.each(all.map((s) => [s.key, s] as const))(
    '%s points its dropdowns and searches at real operations',
    (_key, s) => {
      for (const field of s.operation.inputFields) {
        if (field.dynamic) expect(triggers[field.dynamic.split('.')[0]!]).toBeDefined();
        if (field.search) expect(searches[field.search.split('.')[0]!]).toBeDefined();
      }
    },
  );
});

describe('find_patient', () => {
  it('finds by id with GET /patients/{id} (a lower-case id is accepted)', async () => {
    clinicApi()
      .get(clinicPath(`/patients/${PATIENT}`))
      .reply(200, { data: { ...raw(patient.sample), diagnosis: 'never leaves the clinic' } });
    const result = await find(SEARCH.findPatient, { patient_id: PATIENT.toLowerCase() });
    expect(result).toEqual([patient.sample]);
    expect(result[0]).not.toHaveProperty('diagnosis');
  });

  it('answers [] when the clinic answers 404', async () => {
    clinicApi()
      .get(clinicPath(`/patients/${PATIENT}`))
      .reply(404, NOT_FOUND);
    await expect(find(SEARCH.findPatient, { patient_id: PATIENT })).resolves.toEqual([]);
  });

  it('sends a local phone as E.164: 0501234567 → +966501234567', async () => {
    clinicApi()
      .get(clinicPath('/patients'))
      .query({ phone: '+966501234567', per_page: '10' })
      .reply(200, { data: [raw(patient.sample)], meta: { total: 1 } });
    const result = await find(SEARCH.findPatient, { phone: '0501234567' });
    expect(result.map((p) => p.id)).toEqual([PATIENT]);
  });

  it('finds by file number', async () => {
    clinicApi()
      .get(clinicPath('/patients'))
      .query({ file_no: 'RYD-004512', per_page: '10' })
      .reply(200, { data: [], meta: { total: 0 } });
    await expect(find(SEARCH.findPatient, { file_no: ' RYD-004512 ' })).resolves.toEqual([]);
  });

  it.each([
    ['nothing given', {}, /Patient: give the Patient, a File Number or a Phone/],
    ['blanks only', { patient_id: '', file_no: '  ', phone: '' }, /give the Patient/],
    ['a patient id that is not a ULID', { patient_id: '12345' }, /Patient: is not a valid id/],
    ['a phone that cannot be one', { phone: '12' }, /^Please fix: Phone: /],
  ])('refuses %s before any request', async (_name, inputData, says) => {
    await expectRefused(SEARCH.findPatient, inputData, says);
  });

  it('still throws on insufficient_ability, naming the ability (not [])', async () => {
    clinicApi()
      .get(clinicPath('/patients'))
      .query({ phone: '+966501234567', per_page: '10' })
      .reply(403, {
        error: 'insufficient_ability',
        message: 'This client lacks an ability.',
        details: { required_ability: 'patients:read' },
      });
    const err = await failure(find(SEARCH.findPatient, { phone: '+966 50 123 4567' }));
    expect(err.name).toBe('AppError');
    expect(messageOf(err)).toMatch(/"patients:read"/);
    expect(messageOf(err)).toMatch(/back office/);
  });
});

describe('find_appointment', () => {
  it('finds by id with GET /appointments/{id}', async () => {
    clinicApi()
      .get(clinicPath(`/appointments/${APPOINTMENT}`))
      .reply(200, { data: raw(appointment.sample) });
    await expect(find(SEARCH.findAppointment, { appointment_id: APPOINTMENT })).resolves.toEqual([
      appointment.sample,
    ]);
  });

  it('answers [] when the clinic answers 404', async () => {
    clinicApi()
      .get(clinicPath(`/appointments/${APPOINTMENT}`))
      .reply(404, NOT_FOUND);
    await expect(find(SEARCH.findAppointment, { appointment_id: APPOINTMENT })).resolves.toEqual([]);
  });

  it("lists a patient's appointments with every filter as the spec names it", async () => {
    const second = { ...raw(appointment.sample), id: '01JDA3F7Q9B2C4D6E8G0H1J3K6', status: 'confirmed' };
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({
        patient_id: PATIENT,
        status: 'confirmed',
        from: '2026-11-24',
        to: '2026-12-01T00:00:00+03:00',
        branch_id: '1',
        practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D0',
        per_page: '25',
      })
      .reply(200, { data: [raw(appointment.sample), second], meta: { total: 2 } });
    const result = await find(SEARCH.findAppointment, {
      patient_id: PATIENT,
      status: 'confirmed',
      from: '2026-11-24',
      to: '2026-12-01T00:00:00+03:00',
      branch_id: '1',
      practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D0',
    });
    expect(result.map((a) => [a.id, a.status])).toEqual([
      [APPOINTMENT, 'booked'],
      ['01JDA3F7Q9B2C4D6E8G0H1J3K6', 'confirmed'],
    ]);
  });

  it('sends only the patient when no filter is given', async () => {
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({ patient_id: PATIENT, per_page: '25' })
      .reply(200, { data: [], meta: { total: 0 } });
    await expect(
      find(SEARCH.findAppointment, { patient_id: PATIENT, status: '', from: '' }),
    ).resolves.toEqual([]);
  });

  it.each([
    ['neither appointment nor patient', {}, /Appointment: choose the Appointment, or the Patient/],
    ['an appointment id that is not a ULID', { appointment_id: 'APT-1' }, /Appointment: is not a valid id/],
    [
      'a status the clinic does not know',
      { patient_id: PATIENT, status: 'done' },
      /Status: must be one of: booked/,
    ],
    [
      'a start without its offset',
      { patient_id: PATIENT, from: '2026-11-24T10:30' },
      /Starts From: must be a date/,
    ],
    [
      'a range that ends before it starts',
      { patient_id: PATIENT, from: '2026-12-01', to: '2026-11-01' },
      /Starts Before: must be later than Starts From/,
    ],
    [
      'a branch that is not a number',
      { patient_id: PATIENT, branch_id: 'Olaya' },
      /Branch: must be a whole number/,
    ],
  ])('refuses %s before any request', async (_name, inputData, says) => {
    await expectRefused(SEARCH.findAppointment, inputData, says);
  });

  it('still throws on insufficient_ability (not [])', async () => {
    clinicApi()
      .get(clinicPath(`/appointments/${APPOINTMENT}`))
      .reply(403, {
        error: 'insufficient_ability',
        message: 'This client lacks an ability.',
        details: { required_ability: 'appointments:read' },
      });
    const err = await failure(find(SEARCH.findAppointment, { appointment_id: APPOINTMENT }));
    expect(err.name).toBe('AppError');
    expect(messageOf(err)).toMatch(/"appointments:read"/);
  });
});

describe('find_invoice', () => {
  /** An invoice as a careless server might send it: clinical details that must never reach a Zap. */
  const leaky = () => {
    const body = raw(invoice.sample) as Record<string, unknown> & { lines: Array<Record<string, unknown>> };
    body.lines = body.lines.map((l) => ({
      ...l,
      code: 'D1110',
      description: 'Scaling',
      tooth: '16',
      surfaces: 'MO',
    }));
    return { ...body, diagnosis_code: 'K05.1', notes: 'clinical note' };
  };

  it('finds by id with GET /invoices/{id}, through the privacy whitelist, with SAR siblings', async () => {
    clinicApi()
      .get(clinicPath(`/invoices/${INVOICE}`))
      .reply(200, { data: leaky() });
    const [found, ...rest] = await find(SEARCH.findInvoice, { invoice_id: INVOICE });
    expect(rest).toEqual([]);
    expect(found).toEqual(invoice.sample);
    expect(found).not.toHaveProperty('diagnosis_code');
    expect(found).not.toHaveProperty('notes');
    for (const line of found!.lines as Array<Record<string, unknown>>) {
      for (const secret of ['code', 'description', 'tooth', 'surfaces'])
        expect(line).not.toHaveProperty(secret);
    }
    expect(found!.total_sar).toBe('460.00');
    expect(sarSiblings(found)).toBe(12);
  });

  it('answers [] when the clinic answers 404', async () => {
    clinicApi()
      .get(clinicPath(`/invoices/${INVOICE}`))
      .reply(404, NOT_FOUND);
    await expect(find(SEARCH.findInvoice, { invoice_id: INVOICE })).resolves.toEqual([]);
  });

  it("lists a patient's invoices by status and issue dates, each through the whitelist", async () => {
    clinicApi()
      .get(clinicPath('/invoices'))
      .query({
        patient_id: PATIENT,
        status: 'partially_paid',
        issued_from: '2026-11-01',
        issued_to: '2026-12-01',
        per_page: '25',
      })
      .reply(200, { data: [leaky()], meta: { total: 1 } });
    const result = await find(SEARCH.findInvoice, {
      patient_id: PATIENT,
      status: 'partially_paid',
      issued_from: '2026-11-01',
      issued_to: '2026-12-01',
    });
    expect(result).toEqual([invoice.sample]);
  });

  it.each([
    ['neither invoice nor patient', { status: 'paid' }, /Invoice: give the Invoice, or the Patient/],
    ['an invoice id that is not a ULID', { invoice_id: 'INV-RYD-2026-018342' }, /Invoice: is not a valid id/],
    [
      'a status the clinic does not know',
      { patient_id: PATIENT, status: 'open' },
      /Status: must be one of: issued/,
    ],
    [
      'a date and time where a date is taken',
      { patient_id: PATIENT, issued_from: '2026-11-01T00:00:00+03:00' },
      /Issued From: must be a date like/,
    ],
    [
      'a range that ends before it starts',
      { patient_id: PATIENT, issued_from: '2026-12-01', issued_to: '2026-12-01' },
      /Issued Before: must be later than Issued From/,
    ],
  ])('refuses %s before any request', async (_name, inputData, says) => {
    await expectRefused(SEARCH.findInvoice, inputData, says);
  });
});

describe('find_item', () => {
  it('finds by id with GET /items/{id}; a bare item is accepted', async () => {
    cashierApi().get(cashierPath('/items/311')).reply(200, raw(item.sample));
    const result = await find(SEARCH.findItem, { item_id: '311' });
    expect(result).toEqual([item.sample]);
    expect((result[0]!.variants as Array<Record<string, unknown>>).map((v) => v.price_sar)).toEqual([
      '9.00',
      '12.00',
    ]);
  });

  it('accepts an item wrapped in {data}', async () => {
    cashierApi()
      .get(cashierPath('/items/311'))
      .reply(200, { data: raw(item.sample) });
    await expect(find(SEARCH.findItem, { item_id: 311 })).resolves.toEqual([item.sample]);
  });

  it('answers [] when the cashier answers 404', async () => {
    cashierApi().get(cashierPath('/items/311')).reply(404, NOT_FOUND);
    await expect(find(SEARCH.findItem, { item_id: '311' })).resolves.toEqual([]);
  });

  it('finds by SKU with GET /items?sku=', async () => {
    cashierApi()
      .get(cashierPath('/items'))
      .query({ sku: 'COF-AR-L', per_page: '10' })
      .reply(200, { data: [raw(item.sample)], meta: {} });
    const result = await find(SEARCH.findItem, { sku: 'COF-AR-L' });
    expect(result.map((i) => i.id)).toEqual([311]);
  });

  it('finds by barcode with GET /items?barcode=', async () => {
    cashierApi()
      .get(cashierPath('/items'))
      .query({ barcode: '6281000001187', per_page: '10' })
      .reply(200, { data: [], meta: {} });
    await expect(find(SEARCH.findItem, { barcode: '6281000001187' })).resolves.toEqual([]);
  });

  it.each([
    ['nothing given', {}, /Item: choose the Item, or give a SKU or a Barcode/],
    ['an item id that is not a number', { item_id: 'abc' }, /Item: must be a whole number/],
    ['an item id of 0', { item_id: '0' }, /Item: must be 1 or more/],
  ])('refuses %s before any request', async (_name, inputData, says) => {
    await expectRefused(SEARCH.findItem, inputData, says);
  });
});

describe('find_order', () => {
  const ORDER = order.sample.id;

  it('finds by id with GET /orders/{id}', async () => {
    cashierApi()
      .get(cashierPath(`/orders/${ORDER}`))
      .reply(200, raw(order.sample));
    const result = await find(SEARCH.findOrder, { order_id: ORDER });
    expect(result).toEqual([order.sample]);
    expect(result[0]!.total_sar).toBe('86.50');
  });

  it('answers [] when the cashier answers 404', async () => {
    cashierApi()
      .get(cashierPath(`/orders/${ORDER}`))
      .reply(404, NOT_FOUND);
    await expect(find(SEARCH.findOrder, { order_id: ORDER })).resolves.toEqual([]);
  });

  it('refuses a blank order before any request', async () => {
    await expectRefused(SEARCH.findOrder, { order_id: ' ' }, /Order: is required/);
  });

  it('still throws on insufficient_ability (not [])', async () => {
    cashierApi()
      .get(cashierPath(`/orders/${ORDER}`))
      .reply(403, {
        error: 'insufficient_ability',
        message: 'Missing ability.',
        details: { required_ability: 'pos:orders' },
      });
    const err = await failure(find(SEARCH.findOrder, { order_id: ORDER }));
    expect(err.name).toBe('AppError');
    expect(messageOf(err)).toMatch(/"pos:orders"/);
  });
});

describe('find_receipt', () => {
  const RECEIPT = receipt.sample.id;

  it('finds by id with GET /receipts/{id}, with SAR siblings on lines and payments', async () => {
    cashierApi()
      .get(cashierPath(`/receipts/${RECEIPT}`))
      .reply(200, { data: raw(receipt.sample) });
    const [found] = await find(SEARCH.findReceipt, { receipt_id: RECEIPT });
    expect(found).toEqual(receipt.sample);
    expect(sarSiblings(found)).toBe(9);
  });

  it('finds a credit note the same way', async () => {
    const CREDIT_NOTE = creditNote.sample.id;
    cashierApi()
      .get(cashierPath(`/receipts/${CREDIT_NOTE}`))
      .reply(200, raw(creditNote.sample));
    const [found] = await find(SEARCH.findReceipt, { receipt_id: CREDIT_NOTE });
    expect(found).toMatchObject({
      id: CREDIT_NOTE,
      kind: 'credit_note',
      refund_of: RECEIPT,
      total_sar: '11.00',
    });
  });

  it('answers [] when the cashier answers 404', async () => {
    cashierApi()
      .get(cashierPath(`/receipts/${RECEIPT}`))
      .reply(404, NOT_FOUND);
    await expect(find(SEARCH.findReceipt, { receipt_id: RECEIPT })).resolves.toEqual([]);
  });

  it('refuses a missing receipt before any request', async () => {
    await expectRefused(SEARCH.findReceipt, {}, /Receipt: is required/);
  });
});

describe('find_stock_level', () => {
  const level = raw(stockLevel.sample, ['id']);

  it('finds by branch, each level named <branch_id>:<variant_id>', async () => {
    cashierApi()
      .get(cashierPath('/stock/levels'))
      .query({ branch_id: '1', per_page: '25' })
      .reply(200, { data: [level, { ...level, variant_id: 241, sku: 'CAKE-DT' }], meta: {} });
    const result = await find(SEARCH.findStockLevel, { branch_id: '1' });
    expect(result.map((s) => s.id)).toEqual(['1:118', '1:241']);
    expect(result[0]).toEqual(stockLevel.sample);
  });

  it('finds by variant, low levels only', async () => {
    cashierApi()
      .get(cashierPath('/stock/levels'))
      .query({ variant_id: '118', low_only: 'true', per_page: '25' })
      .reply(200, { data: [level], meta: {} });
    const result = await find(SEARCH.findStockLevel, { variant_id: '118', low_only: 'yes' });
    expect(result.map((s) => s.id)).toEqual(['1:118']);
  });

  it('sends branch, variant and a "no" for low only', async () => {
    cashierApi()
      .get(cashierPath('/stock/levels'))
      .query({ branch_id: '2', variant_id: '118', low_only: 'false', per_page: '25' })
      .reply(200, { data: [], meta: {} });
    await expect(
      find(SEARCH.findStockLevel, { branch_id: 2, variant_id: 118, low_only: false }),
    ).resolves.toEqual([]);
  });

  it.each([
    ['neither branch nor variant', { low_only: 'true' }, /Branch: choose the Branch, the Variant or both/],
    ['a branch that is not a number', { branch_id: 'Olaya' }, /Branch: must be a whole number/],
    [
      'a low-only answer that is not yes or no',
      { variant_id: '118', low_only: 'maybe' },
      /Low Stock Only: must be yes or no/,
    ],
  ])('refuses %s before any request', async (_name, inputData, says) => {
    await expectRefused(SEARCH.findStockLevel, inputData, says);
  });
});

describe('find_z_report', () => {
  const SESSION = zReport.sample.id;

  it('reads GET /sessions/{id}/z-report, SAR siblings nested too', async () => {
    cashierApi()
      .get(cashierPath(`/sessions/${SESSION}/z-report`))
      .reply(200, { data: raw(zReport.sample) });
    const [found] = await find(SEARCH.findZReport, { session_id: SESSION });
    expect(found).toEqual(zReport.sample);
    expect(found).toMatchObject({
      variance_sar: '-2.50',
      z_report: { sales: { total_sar: '12845.50' }, prepayments_applied: { total_sar: '150.00' } },
      expected: { cash_sar: '4123.00' },
      counted: { cash_sar: '4120.50' },
    });
  });

  it('answers [] when the cashier answers 404', async () => {
    cashierApi()
      .get(cashierPath(`/sessions/${SESSION}/z-report`))
      .reply(404, NOT_FOUND);
    await expect(find(SEARCH.findZReport, { session_id: SESSION })).resolves.toEqual([]);
  });

  it('halts on 409: the session is not closed yet', async () => {
    cashierApi()
      .get(cashierPath(`/sessions/${SESSION}/z-report`))
      .reply(409, { error: 'session_open', message: 'Session is still open.', details: {} });
    const err = await failure(find(SEARCH.findZReport, { session_id: SESSION }));
    expect(err.name).toBe('HaltedError');
    expect(err.message).toMatch(/till session is not closed yet/);
    expect(err.message).toMatch(/once the cashier closes/);
    expect(err.message).toMatch(/Session is still open\./);
  });

  it('halts in Arabic for an Arabic connection', async () => {
    cashierApi('ar')
      .get(cashierPath(`/sessions/${SESSION}/z-report`))
      .reply(409, { error: 'session_open', message: 'الجلسة مفتوحة', details: {} });
    const err = await failure(find(SEARCH.findZReport, { session_id: SESSION }, { ...AUTH, language: 'ar' }));
    expect(err.name).toBe('HaltedError');
    expect(err.message).toMatch(/لم تُغلق بعد/);
    expect(err.message).toMatch(/الجلسة مفتوحة/);
  });

  it('still throws other errors (insufficient_ability), not [] or a halt', async () => {
    cashierApi()
      .get(cashierPath(`/sessions/${SESSION}/z-report`))
      .reply(403, {
        error: 'insufficient_ability',
        message: 'Missing ability.',
        details: { required_ability: 'pos:read' },
      });
    const err = await failure(find(SEARCH.findZReport, { session_id: SESSION }));
    expect(err.name).toBe('AppError');
    expect(messageOf(err)).toMatch(/"pos:read"/);
  });

  it('refuses a missing session before any request', async () => {
    await expectRefused(SEARCH.findZReport, { session_id: '' }, /Till Session: is required/);
  });
});
