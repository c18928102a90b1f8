/**
 * docs/recipes.md end to end: for each of the eight Zaps, the app's step runs against the sandbox as the Zap would
 * run it, and every field the recipe maps is checked against what the sandbox holds (names, E.164 phones, the
 * start time in words, the Hijri date, SAR amounts, line items). Expected values are read from the sandbox or
 * computed here with Intl, never copied from the app. What each recipe shows under "What arrives" is what its
 * test received (`RECORD=1` writes it there), so the day it shows is the one run here: the recordings' Tuesday,
 * from 10:00 in Riyadh, on the sandbox's and the app's clocks alike, standing still unless a recipe moves both.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DROPDOWN } from '../../lib/keys';
import { CLOCK } from '../../lib/retry';
import { docSample, expectDocSample } from '../support/doc-samples';
import { clockAtRecording, RECORD_SANDBOX } from '../support/recorder';
import { offHours } from '../support/working-day';
import { failure, freeSlot, frontDeskBooking, sar, startWorld, type Json, type World } from './app-helpers';

const RECIPES = join(__dirname, '../../docs/recipes.md');
const RECIPE_COUNT = 8;

const E164 = /^\+9665\d{8}$/;
const ARABIC = /[\u0600-\u06FF]/;
const OFFSET = /T\d\d:\d\d:\d\d(?:\.\d+)?([+-])(\d\d):(\d\d)$/;

let w: World;

beforeAll(async () => {
  // The app checks a delivery's timestamp against its own clock: both stand at the same time.
  clockAtRecording();
  w = await startWorld({
    startTime: RECORD_SANDBOX.startTime,
    timeScale: 0,
    randomSeed: RECORD_SANDBOX.randomSeed,
  });
});
afterAll(async () => {
  await w?.close();
  jest.useRealTimers();
});

/** Time passes at the clinic or the shop: on the sandbox's clock and the app's. */
const later = async (minutes: number) => {
  await w.sb.clock.advance(minutes * 60_000);
  jest.setSystemTime(w.sb.clock.now());
};

const patientOf = async (id: string) => (await w.clinic(`/patients/${id}`)).body.data;
const appointmentOf = async (id: string) => (await w.clinic(`/appointments/${id}`)).body.data;

/** A Zap maps the patient's names, phone and file number: as the clinic holds them, the phone in E.164. */
const expectPatient = (got: Json, held: Json) => {
  expect(held.name_en).toMatch(/\S/);
  expect(held.phone).toMatch(E164);
  expect(got).toMatchObject({
    name_en: held.name_en,
    name_ar: held.name_ar,
    phone: held.phone,
    file_no: held.file_no,
  });
  expect(got.name_ar).toMatch(ARABIC);
};

/** Parts of Intl's rendering of an instant, read in UTC. */
const partsOf = (locale: string, options: Intl.DateTimeFormatOptions, at: Date) =>
  Object.fromEntries(
    new Intl.DateTimeFormat(locale, { timeZone: 'UTC', ...options })
      .formatToParts(at)
      .map((p) => [p.type, p.value]),
  );

/**
 * The readable start fields, computed here from `starts_at` with Intl: the wall clock in the offset the
 * appointment carries (the branch's), in English and Arabic words, and the Umm al-Qura date.
 */
const expectReadableTimes = (item: Json) => {
  const m = OFFSET.exec(item.starts_at);
  expect(m).not.toBeNull();
  const offsetMinutes = (m![1] === '-' ? -1 : 1) * (Number(m![2]) * 60 + Number(m![3]));
  const wall = new Date(Date.parse(item.starts_at) + offsetMinutes * 60_000);
  const date = { weekday: 'long', day: 'numeric', month: 'long', year: 'numeric' } as const;
  const en = partsOf('en-GB', date, wall);
  const clock = partsOf('en-US', { hour: 'numeric', minute: '2-digit', hour12: true }, wall);
  const ar = partsOf('ar-u-ca-gregory-nu-latn', date, wall);
  const hijri = partsOf(
    'ar-SA-u-ca-islamic-umalqura-nu-latn',
    { day: 'numeric', month: 'long', year: 'numeric' },
    wall,
  );
  const time = `${clock.hour}:${clock.minute}`;
  expect(item.starts_at_text_en).toMatch(/^[A-Z][a-z]+day \d{1,2} [A-Z][a-z]+ \d{4}, \d{1,2}:\d\d [AP]M$/);
  expect(item.starts_at_text_en).toBe(
    `${en.weekday} ${en.day} ${en.month} ${en.year}, ${time} ${clock.dayPeriod}`,
  );
  expect(item.starts_at_text_ar).toMatch(ARABIC);
  expect(item.starts_at_text_ar).toBe(
    `${ar.weekday} ${ar.day} ${ar.month} ${ar.year}، ${time} ${wall.getUTCHours() < 12 ? 'ص' : 'م'}`,
  );
  expect(item.starts_at_hijri).toBe(`${hijri.day} ${hijri.month} ${hijri.year} هـ`);
  expect(item.starts_at_date).toBe(wall.toISOString().slice(0, 10));
  expect(item.starts_at_time).toBe(wall.toISOString().slice(11, 16));
};

/** A `*_sar` field is its `*_halalas` sibling in riyals, and that amount is the sandbox's. */
const expectSar = (got: Json, held: Json, keys: string[]) => {
  for (const key of keys) {
    const base = key.replace(/_halalas$/, '');
    expect([key, got[key]]).toEqual([key, held[key]]);
    expect([key, got[`${base}_sar`]]).toEqual([key, sar(held[key])]);
  }
};

/** A front-desk booking that starts within the next hour, in whichever branch and type still has the slot. */
const bookingStartingSoon = async () => {
  const at = new Date(Math.ceil((Date.now() + 40 * 60_000) / 300_000) * 300_000).toISOString();
  for (const branch_id of [1, 2])
    for (const appointment_type_id of [1, 4, 2, 5, 6]) {
      const res = await w.control('/clinic/appointments', {
        body: { branch_id, appointment_type_id, starts_at: at, patient_id: w.sb.refs.clinic.patient },
      });
      if (res.status === 201) return res.body.data;
    }
  throw new Error(`no free slot at ${at}`);
};

describe('recipe 1: Appointment Starting Soon → WhatsApp or SMS reminder', () => {
  it('gives the patient’s names and E.164 phone (through the patient pointer), the time in words and the Hijri date', async () => {
    const booked = await bookingStartingSoon();
    const items = await w.run<Json[]>('triggers', 'appointment_starting_soon', { minutes_before: '60' });
    const item = items.find((i) => i.id === booked.id);
    expect(item).toBeDefined();
    const held = await appointmentOf(booked.id);
    expect(item).toMatchObject({ starts_at: held.starts_at, patient_id: held.patient_id });
    expectReadableTimes(item);
    // Zapier resolves the pointer when the trigger fires; the Zap then maps patient__name_en, patient__phone…
    const patient = await w.hydrate(item.patient);
    expectPatient(patient, await patientOf(held.patient_id));
    expectDocSample(RECIPES, 1, { ...item, patient });
  });
});

describe('recipe 2: New Appointment → calendar event', () => {
  it('gives the patient’s name and the start and end with their offset', async () => {
    let booked: Json;
    const [item, ...more] = await w.fire('appointment_created', async () => {
      booked = await frontDeskBooking(w, { appointment_type_id: 2 });
    });
    expect(more).toEqual([]);
    const held = await appointmentOf(booked.id);
    expect(item).toMatchObject({ id: held.id, starts_at: held.starts_at, ends_at: held.ends_at });
    expect(item.starts_at).toMatch(OFFSET);
    expect(item.ends_at).toMatch(OFFSET);
    expect(Date.parse(item.ends_at)).toBeGreaterThan(Date.parse(item.starts_at));
    expectReadableTimes(item);
    expectPatient(item.patient, await patientOf(held.patient_id));
    expectDocSample(RECIPES, 2, item);
  });
});

describe('recipe 3: Invoice Paid → accounting invoice', () => {
  it('gives the buyer, each line’s SAR amounts and VAT, the totals and the payments', async () => {
    const issued = await w.control('/clinic/invoices', {
      body: {
        patient_id: w.sb.refs.clinic.patient,
        lines: [
          { nature: 'medical', unit_halalas: 35_000 },
          { nature: 'cosmetic', unit_halalas: 12_050, qty: 2 },
        ],
      },
    });
    expect(issued.status).toBe(201);
    const id = issued.body.data.id as string;
    const [item, ...more] = await w.fire('invoice_paid', async () => {
      // The patient pays at the desk after the visit's paperwork: cash first, then the rest by card.
      await later(18);
      await w.control(`/clinic/invoices/${id}/payments`, {
        body: { method: 'cash', amount_halalas: 10_000 },
      });
      await later(2);
      const paid = await w.control(`/clinic/invoices/${id}/payments`, {
        body: { method: 'card', scheme: 'mada', last4: '4417' },
      });
      expect(paid.body.data.status).toBe('paid');
    });
    expect(more).toEqual([]);
    const held = (await w.clinic(`/invoices/${id}`)).body.data;
    expect(item).toMatchObject({ id, number: held.number, status: 'paid', issued_at: held.issued_at });
    // The interface's invoice has no paid_at (only the invoice.paid event does).
    expect(item.paid_at).toMatch(OFFSET);
    expect(item.number).toMatch(/\S/);
    expectSar(item, held, [
      'subtotal_halalas',
      'vat_halalas',
      'total_halalas',
      'paid_halalas',
      'due_halalas',
    ]);
    expect(held.vat_halalas).toBeGreaterThan(0);

    expect(item.lines).toHaveLength(2);
    held.lines.forEach((line: Json, i: number) => {
      expect(item.lines[i]).toMatchObject({
        nature: line.nature,
        qty: line.qty,
        tax_category: line.tax_category,
      });
      expectSar(item.lines[i], line, ['unit_halalas', 'net_halalas', 'vat_halalas', 'total_halalas']);
    });
    expect(item.lines.map((l: Json) => l.qty)).toEqual([1, 2]);

    expect(held.payments).toHaveLength(2);
    expect(item.payments).toHaveLength(2);
    held.payments.forEach((p: Json, i: number) => {
      expect(item.payments[i]).toMatchObject({ method: p.method });
      expectSar(item.payments[i], p, ['amount_halalas']);
    });
    expect(item.payments[1]).toMatchObject({ method: 'card', scheme: 'mada', last4: '4417' });
    // Paid 20 minutes after it was issued, as the sandbox's clock moved.
    expect(Date.parse(item.paid_at) - Date.parse(item.issued_at)).toBe(20 * 60_000);

    expectPatient(item.patient, await patientOf(held.patient_id));
    expectDocSample(RECIPES, 3, item);
  });
});

describe('recipe 4: New Receipt → one spreadsheet row per line', () => {
  it('gives each line’s name, quantity and SAR amounts, and the receipt’s totals', async () => {
    // Two products of the catalogue: the seeded coffee, and a variant of another item.
    const items = (await w.cashier('/items?per_page=10')).body.data as Json[];
    const other = items.find((i) => i.id !== w.sb.refs.cashier.item)!.variants[0];
    let id = '';
    const [item, ...more] = await w.fire('receipt_issued', async () => {
      const res = await w.control('/cashier/receipts', {
        body: {
          branch_id: 2,
          lines: [
            { variant_id: w.sb.refs.cashier.variant, qty: 2 },
            { sku: other.sku, qty: 1 },
          ],
          tender: 'card',
        },
      });
      expect(res.status).toBe(201);
      id = res.body.data.id;
    });
    expect(more).toEqual([]);
    const held = (await w.cashier(`/receipts/${id}`)).body.data;
    expect(item).toMatchObject({
      id,
      number: held.number,
      issued_at: held.issued_at,
      business_date: held.business_date,
      branch_id: 2,
    });
    expect(item.business_date).toMatch(/^\d{4}-\d\d-\d\d$/);
    expectSar(item, held, ['subtotal_halalas', 'tax_halalas', 'total_halalas']);
    expect(item.lines).toHaveLength(2);
    held.lines.forEach((line: Json, i: number) => {
      expect(line.name).toMatch(/\S/);
      expect(item.lines[i]).toMatchObject({ name: line.name, qty: line.qty });
      expectSar(item.lines[i], line, ['unit_price_halalas', 'total_halalas']);
    });
    expect(item.lines.map((l: Json) => [l.variant_id, l.qty])).toEqual([
      [w.sb.refs.cashier.variant, '2'],
      [other.id, '1'],
    ]);
    expectDocSample(RECIPES, 4, item);
  });
});

describe('recipe 5: New Customer (Consent Channel email) → email marketing list', () => {
  it('gives the name, email and E.164 phone of a customer who agreed to email, and skips one who did not', async () => {
    let id = 0;
    const [item, ...more] = await w.fire(
      'customer_created',
      async () => {
        const res = await w.control('/cashier/customers', {
          body: {
            name: 'ريم العتيبي',
            phone: '+966501112244',
            email: 'reem.o@example.com',
            marketing_consent: true,
            consent_channels: ['email'],
          },
        });
        expect(res.status).toBe(201);
        id = res.body.data.id;
      },
      { consent_channel: 'email' },
    );
    expect(more).toEqual([]);
    const held = ((await w.cashier('/customers?per_page=100')).body.data as Json[]).find((c) => c.id === id);
    expect(held).toMatchObject({ name: expect.stringMatching(/\S/), email: expect.stringMatching(/@/) });
    expect(item).toMatchObject({ id, name: held.name, email: held.email, phone: held.phone });
    expect(item.phone).toMatch(E164);
    expectDocSample(RECIPES, 5, item);

    const skipped = await w.fire(
      'customer_created',
      async () => {
        const res = await w.control('/cashier/customers', {
          body: {
            name: 'سلطان الحربي',
            phone: '+966501112255',
            email: 'sultan.h@example.com',
            marketing_consent: true,
            consent_channels: ['sms'],
          },
        });
        expect(res.status).toBe(201);
      },
      { consent_channel: 'email' },
    );
    expect(skipped).toEqual([]);
  });
});

describe('recipe 6: web form → Book Appointment', () => {
  type Option = { id: string; label: string };

  it('books from a form’s phone in any Saudi form, date-time and dropdown values; the patient’s phone is E.164', async () => {
    const branches = await w.run<Option[]>('triggers', DROPDOWN.clinicBranches, {}, { meta: { page: 0 } });
    const types = await w.run<Option[]>('triggers', DROPDOWN.appointmentTypes, {}, { meta: { page: 0 } });
    // The builder picks a value from each dropdown; the step gets the option's id.
    const [branch, type] = [branches[0]!, types[0]!];
    expect([branch.label, type.label]).toEqual([expect.stringMatching(/\S/), expect.stringMatching(/\S/)]);

    const forms = [
      { phone: '0500000789', name: 'Huda Alotaibi', e164: '+966500000789' },
      { phone: '+966 50 000 0790', name: 'Omar Alsaleh', e164: '+966500000790' },
    ];
    for (const form of forms) {
      // Zapier hands a datetime input over as ISO-8601 with the Zap's offset.
      const startsAt = new Date(Date.parse(freeSlot()) + 3 * 3600_000).toISOString().slice(0, 19) + '+03:00';
      const booked = await w.run('creates', 'book_appointment', {
        patient_phone: form.phone,
        patient_name: form.name,
        branch_id: branch.id,
        appointment_type_id: type.id,
        starts_at: startsAt,
        note: 'Web form',
        external_ref: `form-response-${form.e164}`,
      });
      const held = await appointmentOf(booked.id);
      expect(booked).toMatchObject({
        duplicate: false,
        id: held.id,
        patient_id: held.patient_id,
        status: 'booked',
        note: 'Web form',
        external_ref: `form-response-${form.e164}`,
        starts_at: startsAt,
        branch_id: Number(branch.id),
        appointment_type_id: Number(type.id),
      });
      expect(held).toMatchObject({ starts_at: startsAt, branch_id: Number(branch.id) });
      expectReadableTimes(booked);
      // The result carries the patient the clinic opened from the form, the phone in E.164, for the confirmation.
      const patient = await patientOf(booked.patient_id);
      expect(patient).toMatchObject({ name_en: form.name, phone: form.e164 });
      expect(booked.patient).toEqual({
        name_en: form.name,
        name_ar: patient.name_ar,
        phone: form.e164,
        email: patient.email ?? null,
        file_no: patient.file_no,
        status: 'found',
      });
      expect(booked.patient.phone).toMatch(E164);
      if (form === forms[0]) expectDocSample(RECIPES, 6, booked);
    }
  });

  it('names a bad form value by its field label, and books nothing', async () => {
    const before = (await w.clinic('/appointments?per_page=1')).body.meta.total;
    const error = await failure(
      w.run('creates', 'book_appointment', {
        patient_phone: '12345',
        patient_name: 'Bad Number',
        branch_id: '1',
        appointment_type_id: '1',
        starts_at: freeSlot(),
      }),
    );
    expect(error.message).toMatch(/Patient Phone/);
    expect(error.message).not.toMatch(/patient_phone/);
    expect((await w.clinic('/appointments?per_page=1')).body.meta.total).toBe(before);
  });
});

describe('recipe 7: online-shop order → Create Order', () => {
  it('sends the shop’s lines with their names, quantities and SAR prices to the till', async () => {
    const shopLines = [
      { sku: w.sb.refs.cashier.variantSku, title: 'Arabic coffee (large)', quantity: '2', price: '13.80' },
      { sku: '', title: 'Gift box', quantity: '1', price: '25' },
    ];
    const created = await w.run('creates', 'create_order', {
      external_id: 'SHOP-200731',
      branch_id: '1',
      customer_name: 'Lulwa Alqahtani',
      customer_phone: '055 123 4001',
      prepaid: 'true',
      lines: shopLines.map((l) => ({
        sku: l.sku || undefined,
        name: l.title,
        qty: l.quantity,
        unit_price_sar: l.price,
      })),
    });
    const held = (await w.cashier(`/orders/${created.id}`)).body.data;
    expect(created).toMatchObject({ duplicate: false, id: held.id, external_id: 'SHOP-200731' });
    expectSar(created, held, ['total_halalas']);
    expect(held).toMatchObject({
      prepaid: true,
      customer: { name: 'Lulwa Alqahtani', phone: '+966551234001' },
    });
    expect(held.lines).toHaveLength(shopLines.length);
    shopLines.forEach((l, i) => {
      const unit = Math.round(Number(l.price) * 100);
      expect(held.lines[i]).toMatchObject({
        qty: l.quantity,
        unit_price_halalas: unit,
        total_halalas: unit * Number(l.quantity),
        open_item: !l.sku,
      });
      expect(held.lines[i].name).toMatch(/\S/);
    });
    expect(held.lines[1].name).toBe('Gift box');
    expect(held.total_halalas).toBe(2 * 1380 + 2500);
    expectDocSample(RECIPES, 7, created);
  });
});

describe('recipe 8: Appointment Completed → review request by WhatsApp or SMS', () => {
  it('gives the patient’s names and E.164 phone', async () => {
    const booked = await frontDeskBooking(w);
    for (const status of ['arrived', 'in_progress'])
      expect(
        (await w.control(`/clinic/appointments/${booked.id}`, { method: 'PATCH', body: { status } })).status,
      ).toBe(200);
    const [item, ...more] = await w.fire('appointment_completed', async () => {
      const res = await w.control(`/clinic/appointments/${booked.id}`, {
        method: 'PATCH',
        body: { status: 'completed' },
      });
      expect(res.status).toBe(200);
    });
    expect(more).toEqual([]);
    expect(item).toMatchObject({ id: booked.id, status: 'completed', previous_status: 'in_progress' });
    expectPatient(item.patient, await patientOf(booked.patient_id));
    expectDocSample(RECIPES, 8, item);
  });
});

/**
 * The Filter a recipe shows (its "App field | Key | Filter condition | Value" table), as a predicate over an item:
 * the conditions Zapier's Filter offers that the recipes use, all of them to pass (AND).
 */
const recipeFilter = (n: number) => {
  const page = readFileSync(RECIPES, 'utf8');
  const section = page.split(/\n## /).find((part) => part.startsWith(`${n}. `))!;
  const table = section.split(/\n\n/).find((block) => /^\|[^\n]*\| Filter condition +\|/.test(block))!;
  const rows = table
    .split('\n')
    .slice(2)
    .map((line) => line.split('|').map((cell) => cell.trim()))
    .map(([, , key, condition, value]) => ({
      path: key!.replace(/`/g, '').split('__'),
      condition: condition!,
      value: value!.replace(/`/g, ''),
    }));
  expect(rows.length).toBeGreaterThan(0);
  return (item: Json): boolean =>
    rows.every(({ path, condition, value }) => {
      const got = path.reduce((o: Json, k) => (o === null || o === undefined ? undefined : o[k]), item);
      if (condition === 'Exists') return got !== undefined && got !== null && got !== '';
      if (condition === '(Text) Exactly matches') return String(got) === value;
      throw new Error(`recipe ${n}: a Filter condition this test does not know: ${condition}`);
    });
};

describe('recipes 1 and 8: the Filter lets through only a patient read with a phone, and every event still arrives', () => {
  afterEach(() => jest.restoreAllMocks());

  /** The retries within the step wait on the app's clock, which a test moves itself: nothing sleeps. */
  const noSleeping = () => {
    let now = Date.now();
    jest.spyOn(CLOCK, 'now').mockImplementation(() => now);
    jest.spyOn(CLOCK, 'sleep').mockImplementation(async (ms) => {
      now += ms;
    });
  };

  /** Appointment Completed for a front-desk booking of `patientId`, as recipe 8's Zap receives it. */
  const completed = async (patientId: string, before?: () => void) => {
    const booked = await frontDeskBooking(w, { patient_id: patientId });
    for (const status of ['arrived', 'in_progress'])
      await w.control(`/clinic/appointments/${booked.id}`, { method: 'PATCH', body: { status } });
    const items = await w.fire('appointment_completed', async () => {
      before?.();
      await w.control(`/clinic/appointments/${booked.id}`, {
        method: 'PATCH',
        body: { status: 'completed' },
      });
    });
    expect(items.map((i) => i.id)).toEqual([booked.id]);
    return items[0];
  };

  it('recipe 8: a patient with consent passes; one without (found, no phone) is filtered', async () => {
    const passes = recipeFilter(8);
    const withPhone = await completed(w.sb.refs.clinic.patient);
    expect(withPhone.patient.status).toBe('found');
    expect(passes(withPhone)).toBe(true);
    const noConsent = await completed(w.sb.refs.clinic.patientWithoutConsent);
    expect(noConsent.patient).toMatchObject({ status: 'found', phone: null });
    expect(noConsent.patient.name_en).toMatch(/\S/);
    expect(passes(noConsent)).toBe(false);
  });

  it('recipe 8: a patient the clinic cannot return (503 on every try) still fires, unavailable, and is filtered', async () => {
    noSleeping();
    const passes = recipeFilter(8);
    const fault = (times: number) =>
      w.sb.injectFault({ pathPrefix: '/partner/v1/patients/', status: 503, times });
    // As many 503s as the budget allows reads: a sixth read would find the patient.
    const item = await completed(w.sb.refs.clinic.patient, () => fault(5));
    expect(item.patient).toEqual({
      name_ar: null,
      name_en: null,
      phone: null,
      email: null,
      file_no: null,
      status: 'unavailable',
    });
    expect(passes(item)).toBe(false);
    // Tried again within the step: five reads in all, each answered 503.
    expect(w.sb.faults().at(-1)!.times).toBe(0);
  });

  it('recipe 1: a reminder whose patient cannot be read is filtered, and one that can passes', async () => {
    noSleeping();
    const passes = recipeFilter(1);
    const booked = await bookingStartingSoon();
    const items = await w.run<Json[]>('triggers', 'appointment_starting_soon', { minutes_before: '60' });
    const item = items.find((i) => i.id === booked.id);
    w.sb.injectFault({ pathPrefix: '/partner/v1/patients/', status: 502, times: 5 });
    const unavailable = { ...item, patient: await w.hydrate(item.patient) };
    expect(unavailable.patient.status).toBe('unavailable');
    expect(passes(unavailable)).toBe(false);
    const found = { ...item, patient: await w.hydrate(item.patient) };
    expect(found.patient.status).toBe('found');
    expect(passes(found)).toBe(true);
  });
});

describe('docs/recipes.md shows a working day', () => {
  it('every time it shows is in +03:00, between 08:00 and 23:00, not on a Friday', () => {
    const samples = Array.from({ length: RECIPE_COUNT }, (_, i) => docSample(RECIPES, i + 1));
    expect(offHours(samples)).toEqual([]);
  });
});
