/**
 * The app's actions, searches, connection test and dropdowns end to end, over real HTTP against the sandbox:
 * each result is checked against what the sandbox holds afterwards.
 */
import { createAppTester } from 'zapier-platform-core';
import { DROPDOWN } from '../../lib/keys';
import { saudiTime } from '../../lib/time';
import { App, expectSarSiblings, failure, freeSlot, startWorld, type Json, type World } from './app-helpers';
import { frontDeskBooking } from './app-helpers';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;
/** A well-formed ULID no sandbox object has. */
const UNKNOWN_ULID = '01ARZ3NDEKTSV4RRFFQ69G5FAV';

let w: World;

beforeAll(async () => {
  w = await startWorld();
});
afterAll(async () => {
  await w?.close();
});

/** Appointments the sandbox holds for the seeded patient (one page is all of them). */
const appointmentsOfPatient = async () =>
  (await w.clinic(`/appointments?patient_id=${w.sb.refs.clinic.patient}&per_page=100`)).body.data as Json[];

/** The patient's five fields an item carries (CONTRACT §8), as the sandbox holds the patient, read: `found`. */
const patientContact = async (id: string) => {
  const p = (await w.clinic(`/patients/${id}`)).body.data;
  // A field the patient's record leaves out arrives empty (null), so a mapped field is never missing.
  return {
    ...Object.fromEntries(['name_ar', 'name_en', 'phone', 'email', 'file_no'].map((k) => [k, p[k] ?? null])),
    status: 'found',
  };
};

describe('app: connection test and label against the sandbox', () => {
  it('pings both interfaces and names both accounts in the label', async () => {
    const { result, label } = await w.testConnection();
    expect(result).toEqual({
      clinic: { account: 'Smile Dental Clinics', client: expect.any(String) },
      cashier: { account: 'Olaya Café', client: expect.any(String) },
    });
    expect(label).toBe('Clinic: Smile Dental Clinics · Cashier: Olaya Café');
    expect(w.sb.requestCount({ path: '/partner/v1/ping' })).toBeGreaterThan(0);
    expect(w.sb.requestCount({ path: '/api/partner/v1/ping' })).toBeGreaterThan(0);
  });

  it('names only the interface that has a token, and refuses a revoked token as expired', async () => {
    const { cashier_api_token: _cashier, ...clinicOnly } = w.authData;
    const { label } = await w.testConnection(clinicOnly);
    expect(label).toBe('Clinic: Smile Dental Clinics');
    const error = await failure(
      w.testConnection({ ...w.authData, cashier_api_token: w.sb.tokens.cashierRevokedToken }),
    );
    expect(error.name).toBe('ExpiredAuthError');
    expect(error.message).toMatch(/cashier/i);
  });
});

describe('app: clinic actions against the sandbox', () => {
  it('book_appointment books once per Booking Reference: the same inputs again answer the same appointment', async () => {
    const inputs = {
      patient_id: w.sb.refs.clinic.patient,
      branch_id: '1',
      appointment_type_id: '4',
      starts_at: freeSlot(),
      note: 'E2E booking',
      external_ref: 'E2E-BOOK-1',
    };
    const first = await w.run('creates', 'book_appointment', inputs);
    expect(first).toMatchObject({
      duplicate: false,
      id: expect.stringMatching(ULID),
      status: 'booked',
      external_ref: 'E2E-BOOK-1',
      source: 'api',
    });
    const held = (await w.clinic(`/appointments/${first.id}`)).body.data;
    expect(first).toMatchObject(held);
    expect(first.patient).toEqual(await patientContact(w.sb.refs.clinic.patient));
    expect(first.patient.phone).toMatch(/^\+9665\d{8}$/);
    const again = await w.run('creates', 'book_appointment', inputs);
    expect(again).toMatchObject({ duplicate: true, id: first.id });
    expect((await appointmentsOfPatient()).filter((a) => a.external_ref === 'E2E-BOOK-1')).toHaveLength(1);
  });

  it('book_appointment without a Booking Reference derives one: a replayed step books once', async () => {
    const startsAt = freeSlot();
    const inputs = {
      patient_id: w.sb.refs.clinic.patient,
      branch_id: '1',
      appointment_type_id: '1',
      starts_at: startsAt,
    };
    const meta = { meta: { zap: { id: 'e2e-zap-42' } } };
    const first = await w.run('creates', 'book_appointment', inputs, meta);
    expect(first).toMatchObject({
      duplicate: false,
      external_ref: expect.stringMatching(/^zap-[0-9a-f]{32}$/),
    });
    const again = await w.run('creates', 'book_appointment', inputs, meta);
    expect(again).toMatchObject({ duplicate: true, id: first.id, external_ref: first.external_ref });
    const atThatTime = (await appointmentsOfPatient()).filter(
      (a) => Date.parse(a.starts_at) === Date.parse(startsAt),
    );
    expect(atThatTime.map((a) => a.id)).toEqual([first.id]);
  });

  it('book_appointment by phone opens a patient file for an unknown number, sent as E.164', async () => {
    const booked = await w.run('creates', 'book_appointment', {
      patient_phone: '050 000 0456',
      patient_name: 'E2E Phone',
      branch_id: '1',
      appointment_type_id: '1',
      starts_at: freeSlot(),
      external_ref: 'E2E-BOOK-PHONE',
    });
    expect(booked).toMatchObject({ duplicate: false, patient_id: expect.stringMatching(ULID) });
    expect(booked.patient).toEqual(await patientContact(booked.patient_id));
    expect(booked.patient.phone).toBe('+966500000456');
    const found = await w.run<Json[]>('searches', 'find_patient', { phone: '+966 50 000 0456' });
    expect(found.map((p) => p.id)).toEqual([booked.patient_id]);
  });

  it('book_appointment and find_appointment send a "+0300" offset as ISO-8601 "+03:00"', async () => {
    const at = new Date(Date.parse(freeSlot()) + 3 * 3600_000).toISOString().slice(0, 19);
    const booked = await w.run('creates', 'book_appointment', {
      patient_id: w.sb.refs.clinic.patient,
      branch_id: '1',
      appointment_type_id: '1',
      starts_at: `${at}+0300`,
      external_ref: 'E2E-BOOK-OFFSET',
    });
    expect(booked).toMatchObject({ duplicate: false, starts_at: `${at}+03:00` });
    const found = await w.run<Json[]>('searches', 'find_appointment', {
      patient_id: w.sb.refs.clinic.patient,
      from: `${at}+0300`,
      to: `${at.slice(0, 10)}T23:59:59+0300`,
    });
    expect(found.map((a) => a.id)).toContain(booked.id);
  });

  it('cancel_appointment cancels with the reason; cancelling again is harmless', async () => {
    const { id } = await frontDeskBooking(w);
    const cancelled = await w.run('creates', 'cancel_appointment', { appointment_id: id, reason: 'clinic' });
    expect(cancelled).toMatchObject({ id, status: 'cancelled', cancel_reason: 'clinic' });
    expect(cancelled.patient).toEqual(await patientContact(w.sb.refs.clinic.patient));
    expect((await w.clinic(`/appointments/${id}`)).body.data).toMatchObject({
      status: 'cancelled',
      cancel_reason: 'clinic',
      cancelled_at: cancelled.cancelled_at,
    });
    const again = await w.run('creates', 'cancel_appointment', { appointment_id: id, reason: 'clinic' });
    expect(again).toMatchObject({ id, status: 'cancelled', cancelled_at: cancelled.cancelled_at });
  });

  it('cancel_appointment of the appointment in progress stops with a HaltedError and changes nothing', async () => {
    const id = w.sb.refs.clinic.appointmentInProgress;
    const error = await failure(w.run('creates', 'cancel_appointment', { appointment_id: id }));
    expect(error.name).toBe('HaltedError');
    expect((await w.clinic(`/appointments/${id}`)).body.data.status).toBe('in_progress');
  });
});

describe('app: cashier actions against the sandbox', () => {
  let orderId = '';

  it('create_order sends once per Order Reference: the second is the same order, duplicate', async () => {
    const inputs = {
      external_id: 'E2E-ORDER-1',
      branch_id: '1',
      order_type: 'pickup',
      prepaid: 'true',
      customer_name: 'خالد',
      customer_phone: '0551234567',
      lines: [
        { variant_id: String(w.sb.refs.cashier.variant), qty: '2' },
        { name: 'Gift wrap', qty: '1', unit_price_sar: '5.50' },
      ],
    };
    const first = await w.run('creates', 'create_order', inputs);
    expect(first).toMatchObject({ duplicate: false, id: expect.stringMatching(ULID), status: 'received' });
    orderId = first.id;
    const held = (await w.cashier(`/orders/${first.id}`)).body.data;
    expect(held).toMatchObject({
      external_id: 'E2E-ORDER-1',
      provider: 'zapier',
      prepaid: true,
      order_type: 'pickup',
      customer: { name: 'خالد', phone: '+966551234567' },
      total_halalas: first.total_halalas,
    });
    expect(held.lines[1]).toMatchObject({ unit_price_halalas: 550, open_item: true });
    expect(first.total_sar).toBe((first.total_halalas / 100).toFixed(2));
    const again = await w.run('creates', 'create_order', inputs);
    expect(again).toMatchObject({ duplicate: true, id: first.id, total_halalas: first.total_halalas });
  });

  it('create_order names an invalid order line by its labels, in English and Arabic; nothing is created', async () => {
    const inputs = {
      external_id: 'E2E-ORDER-INVALID',
      branch_id: '1',
      lines: [{ variant_id: '99999', qty: '1' }],
    };
    const en = await failure(w.run('creates', 'create_order', inputs));
    expect(en.message).toMatch(/Order Lines #1 Unit Price: /);
    expect(en.message).not.toMatch(/halalas/i);
    const ar = await failure(
      w.run('creates', 'create_order', inputs, { authData: { ...w.authData, language: 'ar' } }),
    );
    expect(ar.message).toMatch(/بنود الطلب #1 سعر الوحدة: /);
    expect(ar.message).not.toMatch(/unit_price/);
    const retry = await w.run('creates', 'create_order', {
      ...inputs,
      lines: [{ ...inputs.lines[0], unit_price_sar: '4' }],
    });
    expect(retry).toMatchObject({ duplicate: false, total_halalas: 400 });
  });

  it('cancel_order cancels the order in the sandbox; a rejected order stops with a HaltedError', async () => {
    const cancelled = await w.run('creates', 'cancel_order', { order_id: orderId });
    expect(cancelled).toMatchObject({ id: orderId, status: 'cancelled' });
    expect((await w.cashier(`/orders/${orderId}`)).body.data.status).toBe('cancelled');

    const other = await w.run('creates', 'create_order', {
      external_id: 'E2E-ORDER-REJECTED',
      branch_id: '1',
      lines: [{ sku: w.sb.refs.cashier.variantSku, qty: '1' }],
    });
    await w.control(`/cashier/orders/${other.id}/status`, { body: { status: 'rejected' } });
    const error = await failure(w.run('creates', 'cancel_order', { order_id: other.id }));
    expect(error.name).toBe('HaltedError');
    expect((await w.cashier(`/orders/${other.id}`)).body.data.status).toBe('rejected');
  });

  let itemId = 0;
  let variantsBefore: Json[] = [];

  it('create_item creates the item with its variants, prices converted to halalas', async () => {
    const created = await w.run('creates', 'create_item', {
      name_ar: 'شاي كرك',
      name_en: 'Karak Tea',
      category_id: String(w.sb.refs.cashier.category),
      variants: [
        {
          variant_name_ar: 'صغير',
          sku: 'E2E-KRK-S',
          barcode: '6280000009991',
          price_sar: '7.50',
          is_default: 'true',
        },
        { variant_name_ar: 'كبير', sku: 'E2E-KRK-L', price_sar: '10' },
      ],
    });
    const held = (await w.cashier(`/items/${created.id}`)).body.data;
    expect(created).toMatchObject(held);
    expect(held).toMatchObject({
      name_ar: 'شاي كرك',
      name_en: 'Karak Tea',
      category_id: w.sb.refs.cashier.category,
    });
    expect(held.variants).toEqual([
      expect.objectContaining({ name_ar: 'صغير', sku: 'E2E-KRK-S', price_halalas: 750, is_default: true }),
      expect.objectContaining({ name_ar: 'كبير', sku: 'E2E-KRK-L', price_halalas: 1000, is_default: false }),
    ]);
    expect(created.variants.map((v: Json) => v.price_sar)).toEqual(['7.50', '10.00']);
    itemId = created.id;
    variantsBefore = held.variants;
  });

  it('update_item with a name only leaves every variant as it is', async () => {
    const updated = await w.run('creates', 'update_item', { item_id: String(itemId), name_en: 'Karak Chai' });
    expect(updated).toMatchObject({ id: itemId, name_en: 'Karak Chai', name_ar: 'شاي كرك' });
    const held = (await w.cashier(`/items/${itemId}`)).body.data;
    expect(held.name_en).toBe('Karak Chai');
    expect(held.variants).toEqual(variantsBefore);
  });

  it('update_item changing one variant’s price keeps the other variants', async () => {
    const [small, large] = variantsBefore;
    const updated = await w.run('creates', 'update_item', {
      item_id: String(itemId),
      variants: [{ variant_id: String(large.id), price_sar: '11.25' }],
    });
    const held = (await w.cashier(`/items/${itemId}`)).body.data;
    expect(updated.variants).toEqual(held.variants.map((v: Json) => expect.objectContaining(v)));
    expect(held.variants).toEqual([small, { ...large, price_halalas: 1125 }]);
    // Stock rows of kept variants survive (deleted variants would lose theirs).
    const stock = await w.cashier(`/stock/levels?variant_id=${small.id}`);
    expect(stock.body.data.length).toBeGreaterThan(0);
  });
});

describe('app: searches against the sandbox (found, and [] when not found)', () => {
  it('find_patient by patient, file number or a local phone; [] for nobody', async () => {
    const patient = (await w.clinic(`/patients/${w.sb.refs.clinic.patient}`)).body.data;
    const local = `0${String(patient.phone).slice(4)}`;
    for (const input of [{ patient_id: patient.id }, { file_no: patient.file_no }, { phone: local }]) {
      const found = await w.run<Json[]>('searches', 'find_patient', input);
      expect([input, found]).toEqual([input, [expect.objectContaining(patient)]]);
    }
    expect(await w.run('searches', 'find_patient', { patient_id: UNKNOWN_ULID })).toEqual([]);
    expect(await w.run('searches', 'find_patient', { file_no: 'NOPE-000' })).toEqual([]);
    expect(await w.run('searches', 'find_patient', { phone: '0599999999' })).toEqual([]);
  });

  it('find_appointment by id, or a patient’s filtered by status; [] for none', async () => {
    const id = w.sb.refs.clinic.appointmentConfirmed;
    const held = (await w.clinic(`/appointments/${id}`)).body.data;
    expect(await w.run('searches', 'find_appointment', { appointment_id: id })).toEqual([
      expect.objectContaining({ ...held, patient: await patientContact(held.patient_id) }),
    ]);
    const booked = await w.run<Json[]>('searches', 'find_appointment', {
      patient_id: w.sb.refs.clinic.patient,
      status: 'booked',
    });
    const expected = (await appointmentsOfPatient()).filter((a) => a.status === 'booked');
    expect(booked.map((a) => a.id).sort()).toEqual(expected.map((a) => a.id).sort());
    expect(booked.length).toBeGreaterThan(0);
    const patient = await patientContact(w.sb.refs.clinic.patient);
    for (const a of booked) expect(a.patient).toEqual(patient);
    expect(await w.run('searches', 'find_appointment', { appointment_id: UNKNOWN_ULID })).toEqual([]);
    expect(await w.run('searches', 'find_appointment', { patient_id: UNKNOWN_ULID })).toEqual([]);
  });

  it("find_appointment by time and place: a day's appointments at one branch, in start order, with their patients", async () => {
    const all = (await w.clinic('/appointments?per_page=100')).body.data as Json[];
    const day = String(all[0]!.starts_at).slice(0, 10);
    const next = new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);
    const branch = all[0]!.branch_id as number;
    const found = await w.run<Json[]>('searches', 'find_appointment', {
      from: day,
      to: next,
      branch_id: branch,
    });
    // What the clinic holds for that day and branch, as a receptionist's appointment book reads it.
    const held = all
      .filter((a) => a.branch_id === branch && String(a.starts_at).startsWith(day))
      .sort(
        (a, b) =>
          Date.parse(a.starts_at) - Date.parse(b.starts_at) || String(a.id).localeCompare(String(b.id)),
      );
    expect(held.length).toBeGreaterThan(0);
    expect(found.map((a) => a.id)).toEqual(held.map((a) => a.id));
    for (const a of found) expect(a.patient).toEqual(await patientContact(a.patient_id));
  });

  it('find_invoice by id or patient, with SAR siblings and no line details; [] for none', async () => {
    const id = w.sb.refs.clinic.invoicePaid;
    const held = (await w.clinic(`/invoices/${id}`)).body.data;
    const [found, ...rest] = await w.run<Json[]>('searches', 'find_invoice', { invoice_id: id });
    expect(rest).toEqual([]);
    expect(found).toMatchObject({ ...held, lines: held.lines.map((l: Json) => expect.objectContaining(l)) });
    expect(expectSarSiblings(found)).toBeGreaterThan(0);
    expect(found.patient).toEqual(await patientContact(held.patient_id));
    for (const line of found.lines)
      for (const k of ['code', 'description', 'tooth', 'surfaces']) expect(line).not.toHaveProperty(k);
    const ofPatient = await w.run<Json[]>('searches', 'find_invoice', { patient_id: held.patient_id });
    expect(ofPatient.map((i) => i.id)).toContain(id);
    expect(await w.run('searches', 'find_invoice', { invoice_id: UNKNOWN_ULID })).toEqual([]);
    expect(await w.run('searches', 'find_invoice', { patient_id: UNKNOWN_ULID })).toEqual([]);
  });

  it('find_item by item, SKU or barcode; [] for none', async () => {
    const { item, variantSku, variantBarcode } = w.sb.refs.cashier;
    const held = (await w.cashier(`/items/${item}`)).body.data;
    for (const input of [{ item_id: String(item) }, { sku: variantSku }, { barcode: variantBarcode }]) {
      const found = await w.run<Json[]>('searches', 'find_item', input);
      expect([input, found]).toEqual([input, [expect.objectContaining({ id: item, name_ar: held.name_ar })]]);
      expect(found[0].variants).toEqual(held.variants.map((v: Json) => expect.objectContaining(v)));
    }
    expect(await w.run('searches', 'find_item', { item_id: '999999' })).toEqual([]);
    expect(await w.run('searches', 'find_item', { sku: 'NOPE-SKU' })).toEqual([]);
    expect(await w.run('searches', 'find_item', { barcode: '0000000000000' })).toEqual([]);
  });

  it('find_order by id; [] for none', async () => {
    const id = w.sb.refs.cashier.orderReceived;
    const held = (await w.cashier(`/orders/${id}`)).body.data;
    const found = await w.run<Json[]>('searches', 'find_order', { order_id: id });
    expect(found).toHaveLength(1);
    expect(found[0]).toMatchObject({
      ...held,
      lines: held.lines.map((l: Json) => expect.objectContaining(l)),
      total_sar: (held.total_halalas / 100).toFixed(2),
    });
    expectSarSiblings(found[0]);
    expect(await w.run('searches', 'find_order', { order_id: UNKNOWN_ULID })).toEqual([]);
  });

  it('find_receipt finds a receipt and a credit note; [] for none', async () => {
    for (const id of [w.sb.refs.cashier.receipt, w.sb.refs.cashier.creditNote]) {
      const held = (await w.cashier(`/receipts/${id}`)).body.data;
      const found = await w.run<Json[]>('searches', 'find_receipt', { receipt_id: id });
      expect(found).toHaveLength(1);
      expect(found[0]).toMatchObject({
        ...held,
        lines: held.lines.map((l: Json) => expect.objectContaining(l)),
        payments: held.payments.map((p: Json) => expect.objectContaining(p)),
      });
      expectSarSiblings(found[0]);
    }
    expect(await w.run('searches', 'find_receipt', { receipt_id: UNKNOWN_ULID })).toEqual([]);
  });

  it('find_stock_level by branch and variant, low only; [] for none', async () => {
    const { branch_id, variant_id } = w.sb.refs.cashier.lowStock;
    const held = (await w.cashier(`/stock/levels?branch_id=${branch_id}&variant_id=${variant_id}`)).body.data;
    const found = await w.run<Json[]>('searches', 'find_stock_level', {
      branch_id: String(branch_id),
      variant_id: String(variant_id),
    });
    expect(found).toEqual([expect.objectContaining({ ...held[0], id: `${branch_id}:${variant_id}` })]);
    const low = await w.run<Json[]>('searches', 'find_stock_level', {
      branch_id: String(branch_id),
      low_only: 'true',
    });
    expect(low.length).toBeGreaterThan(0);
    for (const level of low) {
      expect(level.branch_id).toBe(branch_id);
      expect(Number(level.qty)).toBeLessThanOrEqual(Number(level.reorder_point));
    }
    expect(await w.run('searches', 'find_stock_level', { variant_id: '999999' })).toEqual([]);
  });

  it('find_z_report of a closed session; an open one stops with “not closed”; [] for none', async () => {
    const id = w.sb.refs.cashier.closedSession;
    const held = (await w.cashier(`/sessions/${id}/z-report`)).body.data;
    const [report, ...rest] = await w.run<Json[]>('searches', 'find_z_report', { session_id: id });
    expect(rest).toEqual([]);
    expect(report).toMatchObject({
      id,
      status: 'closed',
      total_halalas: held.total_halalas,
      variance_halalas: held.variance_halalas,
      z_report: held.z_report,
      expected: held.expected,
      counted: held.counted,
    });
    expect(report.expected.cash_sar).toBe((held.expected.cash_halalas / 100).toFixed(2));
    expect(expectSarSiblings(report)).toBeGreaterThan(3);
    const error = await failure(
      w.run('searches', 'find_z_report', { session_id: w.sb.refs.cashier.openSession }),
    );
    expect(error.name).toBe('HaltedError');
    expect(error.message).toMatch(/not closed/);
    expect(await w.run('searches', 'find_z_report', { session_id: UNKNOWN_ULID })).toEqual([]);
  });
});

describe('app: dropdowns against the sandbox', () => {
  type Option = { id: string; label: string };
  const page = (key: string, n: number) => w.run<Option[]>('triggers', key, {}, { meta: { page: n } });

  it('fills every dropdown’s first page from the sandbox', async () => {
    const { clinic, cashier } = w.sb.refs;
    const expected: Record<string, string[]> = {
      [DROPDOWN.branches]: ['1', '2', '3'],
      [DROPDOWN.categories]: [String(cashier.category)],
      [DROPDOWN.items]: [String(cashier.item)],
      [DROPDOWN.variants]: [String(cashier.variant)],
      [DROPDOWN.patients]: [clinic.patient],
      [DROPDOWN.upcomingAppointments]: [clinic.appointmentBooked],
      [DROPDOWN.clinicBranches]: [String(clinic.branchRiyadh)],
      [DROPDOWN.practitioners]: [clinic.practitioner],
      [DROPDOWN.appointmentTypes]: [String(clinic.appointmentType)],
      [DROPDOWN.invoices]: [clinic.invoiceIssued],
      // The cashier lists no orders, receipts or till sessions: these offer nothing, without a request.
      [DROPDOWN.orders]: [],
      [DROPDOWN.receipts]: [],
      [DROPDOWN.tillSessions]: [],
    };
    expect(Object.keys(expected).sort()).toEqual(Object.values(DROPDOWN).sort());
    for (const [key, ids] of Object.entries(expected)) {
      const before = w.sb.requestCount();
      const options = await page(key, 0);
      const got = options.map((o) => o.id);
      expect([key, got]).toEqual([key, expect.arrayContaining(ids)]);
      if (!ids.length) {
        expect([key, options, w.sb.requestCount() - before]).toEqual([key, [], 0]);
        continue;
      }
      expect(new Set(got).size).toBe(got.length);
      for (const o of options) expect([key, o.label]).toEqual([key, expect.stringMatching(/\S/)]);
    }
    const branches = await page(DROPDOWN.branches, 0);
    expect(branches[0]?.label).toBe('Riyadh - Olaya (الرياض - العليا)');
  });

  it('asks page 2 for the second page: with over 100 items, page 2 holds the rest', async () => {
    const listed = (await w.cashier('/items?per_page=1')).body.meta.total as number;
    for (let n = listed; n < 105; n += 1) {
      const res = await w.cashier('/items', {
        body: {
          name_ar: `صنف ${n}`,
          category_id: w.sb.refs.cashier.category,
          default_price_halalas: 100 + n,
        },
      });
      expect(res.status).toBe(201);
    }
    const total = (await w.cashier('/items?per_page=1')).body.meta.total as number;
    expect(total).toBeGreaterThan(100);
    const first = await page(DROPDOWN.items, 0);
    const second = await page(DROPDOWN.items, 1);
    expect(first).toHaveLength(100);
    expect(second).toHaveLength(total - 100);
    expect(new Set([...first, ...second].map((o) => o.id)).size).toBe(total);
    const lastPage = (await w.cashier('/items?page=2&per_page=100')).body.data.map((i: Json) => String(i.id));
    expect(second.map((o) => o.id)).toEqual(lastPage);
    expect((await page(DROPDOWN.variants, 1)).length).toBeGreaterThan(0);
    // Lists smaller than a page end on page 2; lists made from recent appointments have one page only.
    for (const key of [DROPDOWN.branches, DROPDOWN.patients, DROPDOWN.invoices, DROPDOWN.practitioners]) {
      expect([key, await page(key, 1)]).toEqual([key, []]);
    }
  });
});

describe('app: Book Appointment’s Branch → Practitioner → Appointment Type against the sandbox', () => {
  type Choices = { results: Array<{ id: string; label: string }>; paging_token: string | null };
  type Field = { key: string; choices?: { perform?: unknown } };
  const fields = (App.creates?.book_appointment?.operation.inputFields ?? []) as Field[];
  const choose = (key: string, inputData: Record<string, string>) => {
    const perform = fields.find((f) => f.key === key)?.choices?.perform;
    if (typeof perform !== 'function') throw new Error(`book_appointment.${key} has no choices.perform`);
    return createAppTester(App)(
      perform as never,
      { authData: w.authData, inputData } as never,
    ) as Promise<Choices>;
  };

  /** What the sandbox holds: the distinct values of `field` in the last 60 days' appointments matching `filter`. */
  const held = async (field: string, filter: Record<string, string>) => {
    const from = saudiTime(new Date(Date.now() - 60 * 24 * 3600 * 1000));
    const query = new URLSearchParams({ ...filter, from, per_page: '100' });
    const rows = (await w.clinic(`/appointments?${query}`)).body.data as Json[];
    return [...new Set(rows.map((a) => String(a[field])))].sort();
  };
  const ids = (c: Choices) => c.results.map((o) => o.id).sort();

  it('each list follows the one above it, as the sandbox holds the appointments', async () => {
    const branches = await choose('branch_id', {});
    expect(ids(branches)).toEqual(await held('branch_id', {}));
    expect(ids(branches)).toEqual(expect.arrayContaining(['1', '2']));

    const practitioners: Record<string, string[]> = {};
    for (const branch of ['1', '2']) {
      const listed = await choose('practitioner_id', { branch_id: branch });
      practitioners[branch] = ids(listed);
      expect([branch, ids(listed)]).toEqual([branch, await held('practitioner_id', { branch_id: branch })]);
      expect(listed.paging_token).toBeNull();
    }
    expect(practitioners['1']).not.toEqual(practitioners['2']);

    const practitioner = practitioners['2']![0]!;
    const atBranch = await choose('appointment_type_id', { branch_id: '2' });
    const withPractitioner = await choose('appointment_type_id', {
      branch_id: '2',
      practitioner_id: practitioner,
    });
    expect(ids(atBranch)).toEqual(await held('appointment_type_id', { branch_id: '2' }));
    expect(ids(withPractitioner)).toEqual(
      await held('appointment_type_id', { branch_id: '2', practitioner_id: practitioner }),
    );
    expect(ids(atBranch)).toEqual(expect.arrayContaining(ids(withPractitioner)));
    for (const o of [...branches.results, ...withPractitioner.results])
      expect(o.label).toMatch(/recent appointment/);
  });
});
