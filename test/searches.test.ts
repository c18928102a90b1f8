import { readableTimes } from '../lib/readable-time';
import nock from 'nock';
import App from '../index';
import { halalasToSar } from '../lib/money';
import { SEARCH } from '../lib/keys';
import { body, data, definition, queryOf, replay, reply, type Json } from './fixtures';
import { call } from '../harness/call';
import { given, RECORD_SANDBOX } from './support/recorder';
import { seedRefs } from '../sandbox';
import {
  appTester,
  AUTH,
  CASHIER,
  cashierApi,
  cashierPath,
  CLINIC,
  clinicApi,
  clinicPath,
  contactOf,
  recordedPatientRead,
  useNock,
} from './helpers';

/*
 * Every search of CONTRACT §4, called through the app definition so core's middleware and the app's error
 * mapper run as on Zapier: each request asserted exactly, each result checked against the recorded answer
 * (test/fixtures), bad input refused before any call.
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

/** A result without the app's `_sar` siblings: what is left must be what the interface sent. */
const withoutSar = (value: object): Record<string, unknown> =>
  JSON.parse(JSON.stringify(value, (k, v) => (k.endsWith('_sar') ? undefined : (v as unknown)))) as Record<
    string,
    unknown
  >;

/** How many *_halalas amounts an answer carries, at any depth. */
const halalasIn = (value: unknown): number =>
  Array.isArray(value)
    ? value.reduce((n: number, v) => n + halalasIn(v), 0)
    : value && typeof value === 'object'
      ? Object.entries(value).reduce(
          (n: number, [k, v]) => n + (k.endsWith('_halalas') && typeof v === 'number' ? 1 : 0) + halalasIn(v),
          0,
        )
      : 0;

/** Halalas as the SAR text the app shows beside them. */
const sar = (halalas: number) => (halalas / 100).toFixed(2);

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
  // hand-built: traps that must never answer.
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

/** The sandbox's appointment and order the by-id answers were recorded for. */
const APPOINTMENT_ID: string = data('find-appointment-by-id').id;
const ORDER_ID: string = data('find-order-by-id').id;
/**
 * The seeded till sessions and receipts, from the recordings' sandbox seed rather than written in or read from a
 * recording: their ids follow the seed's times, so a record run after a change of those asks for the new ones.
 */
const SEEDED = seedRefs(RECORD_SANDBOX).cashier;
const CLOSED_SESSION = SEEDED.closedSession;

/** Ids the sandbox has no object for (recorded 404s). */
const MISSING = {
  patient: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
  appointment: '01JDA3F7Q9B2C4D6E8G0H1J3K5',
  invoice: '01JDA5N2P8R4S6T8V0W2X4Y6Z8',
  order: '01JDAD4E5F6G7H8J9K0M1N2P3Q',
  session: '01JDA9Z8Y7X6W5V4T3S2R1Q0P9',
};

/** What each scenario needs of the sandbox when it is recorded (RECORD=1): the token the unit token stands for. */
given('find-patient-insufficient-ability', { tokens: { clinic: 'clinicWebhooksOnly' } });
given('find-appointment-insufficient-ability', { tokens: { clinic: 'clinicWebhooksOnly' } });
given('find-order-insufficient-ability', { tokens: { cashier: 'cashierReadOnly' } });
given('find-z-report-insufficient-ability', {
  // A cashier token of its own that may read orders only.
  setup: async (sb) => ({
    cashier: (
      await call(`${sb.controlUrl}/tokens`, {
        body: { interface: 'cashier', abilities: ['pos:orders'], name: 'Orders only' },
      })
    ).body.data.token as string,
  }),
});

/** A by-id search whose object the interface does not have: its recorded 404 answers nothing found, not an error. */
describe.each([
  [SEARCH.findPatient, 'clinic', '/patients/{}', 'patient_id', MISSING.patient, 'find-patient-not-found'],
  [
    SEARCH.findAppointment,
    'clinic',
    '/appointments/{}',
    'appointment_id',
    MISSING.appointment,
    'find-appointment-not-found',
  ],
  [SEARCH.findInvoice, 'clinic', '/invoices/{}', 'invoice_id', MISSING.invoice, 'find-invoice-not-found'],
  [SEARCH.findItem, 'cashier', '/items/{}', 'item_id', '999', 'find-item-not-found'],
  [SEARCH.findOrder, 'cashier', '/orders/{}', 'order_id', MISSING.order, 'find-order-not-found'],
  [SEARCH.findReceipt, 'cashier', '/receipts/{}', 'receipt_id', MISSING.order, 'find-receipt-not-found'],
  [
    SEARCH.findZReport,
    'cashier',
    '/sessions/{}/z-report',
    'session_id',
    MISSING.session,
    'find-z-report-not-found',
  ],
] as const)('%s', (key, api, path, input, id, fixture) => {
  it(`answers [] when the ${api} answers 404`, async () => {
    const at = path.replace('{}', id);
    (api === 'clinic' ? clinicApi().get(clinicPath(at)) : cashierApi().get(cashierPath(at))).reply(
      replay(fixture),
    );
    await expect(find(key, { [input]: id })).resolves.toEqual([]);
  });
});

/** A token without the ability still fails the step (not [], not a halt), naming the ability it lacks. */
describe.each([
  [
    SEARCH.findPatient,
    'patients:read',
    { phone: '+966 50 123 4567' },
    clinicPath('/patients'),
    'find-patient-insufficient-ability',
  ],
  [
    SEARCH.findAppointment,
    'appointments:read',
    { appointment_id: APPOINTMENT_ID },
    clinicPath(`/appointments/${APPOINTMENT_ID}`),
    'find-appointment-insufficient-ability',
  ],
  [
    SEARCH.findOrder,
    'pos:orders',
    { order_id: ORDER_ID },
    cashierPath(`/orders/${ORDER_ID}`),
    'find-order-insufficient-ability',
  ],
  [
    SEARCH.findZReport,
    'pos:read',
    { session_id: CLOSED_SESSION },
    cashierPath(`/sessions/${CLOSED_SESSION}/z-report`),
    'find-z-report-insufficient-ability',
  ],
] as const)('%s', (key, ability, inputData, path, fixture) => {
  it(`still throws on insufficient_ability, naming ${ability}`, async () => {
    const refusal = body(fixture);
    const asked = definition(fixture);
    (asked.scope === new URL(CLINIC).origin ? clinicApi() : cashierApi())
      .get(path)
      .query(queryOf(asked))
      .reply(replay(fixture));
    const err = await failure(find(key, inputData));
    expect(err.name).toBe('AppError');
    expect(refusal.details.required_ability).toBe(ability);
    expect(messageOf(err)).toMatch(new RegExp(`"${ability}"`));
    expect(messageOf(err)).toMatch(/back office/);
    expect(messageOf(err)).toContain(refusal.message);
  });
});

// The sandbox's objects the recorded answers are about.
const PATIENT: string = data('find-patient-by-id').id;
const APPOINTMENT: string = data('find-appointment-by-id').id;
const INVOICE: string = data('find-invoice-by-id').id;

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
    const [status, answer] = reply('find-patient-by-id');
    // hand-built addition to the recorded patient: a clinical field no answer should carry.
    answer.data.diagnosis = 'never leaves the clinic';
    clinicApi()
      .get(clinicPath(`/patients/${PATIENT}`))
      .reply(status, answer);
    const result = await find(SEARCH.findPatient, { patient_id: PATIENT.toLowerCase() });
    expect(result).toEqual([data('find-patient-by-id')]);
    expect(result[0]).not.toHaveProperty('diagnosis');
  });

  it('sends a local phone as E.164: 0501234567 → +966501234567', async () => {
    clinicApi()
      .get(clinicPath('/patients'))
      .query({ phone: '+966501234567', per_page: '10' })
      .reply(replay('find-patient-by-phone'));
    const result = await find(SEARCH.findPatient, { phone: '0501234567' });
    expect(result.map((p) => p.id)).toEqual(data('find-patient-by-phone').map((p: Json) => p.id));
    expect(result.map((p) => p.phone)).toContain('+966501234567');
  });

  it('finds by file number', async () => {
    const [found] = data('find-patient-by-file');
    clinicApi()
      .get(clinicPath('/patients'))
      .query({ file_no: found.file_no, per_page: '10' })
      .reply(replay('find-patient-by-file'));
    await expect(find(SEARCH.findPatient, { file_no: ` ${found.file_no} ` })).resolves.toEqual([found]);
  });

  it('finds none by a file number no patient has', async () => {
    clinicApi()
      .get(clinicPath('/patients'))
      .query({ file_no: 'RYD-999999', per_page: '10' })
      .reply(replay('find-patient-by-file-none'));
    await expect(find(SEARCH.findPatient, { file_no: 'RYD-999999' })).resolves.toEqual([]);
    expect(data('find-patient-by-file-none')).toEqual([]);
  });

  it.each([
    ['nothing given', {}, /Patient: give the Patient, a File Number or a Phone/],
    ['blanks only', { patient_id: '', file_no: '  ', phone: '' }, /give the Patient/],
    ['a patient id that is not a ULID', { patient_id: '12345' }, /Patient: is not a valid id/],
    ['a phone that cannot be one', { phone: '12' }, /^Please fix: Phone: /],
  ])('refuses %s before any request', async (_name, inputData, says) => {
    await expectRefused(SEARCH.findPatient, inputData, says);
  });
});

describe('find_appointment', () => {
  it('finds by id with GET /appointments/{id}', async () => {
    clinicApi()
      .get(clinicPath(`/appointments/${APPOINTMENT}`))
      .reply(replay('find-appointment-by-id'));
    const patient = recordedPatientRead('find-appointment-by-id');
    const held = data('find-appointment-by-id');
    // The appointment as held, with its start time in words (checked in test/readable-time.test.ts) and its
    // patient's name and contact (one GET /patients/{id}).
    await expect(find(SEARCH.findAppointment, { appointment_id: APPOINTMENT })).resolves.toEqual([
      {
        ...held,
        ...readableTimes(held.starts_at),
        patient: patient.contact,
        found_total: 1,
        found_complete: true,
      },
    ]);
  });

  it('searches a range in the past as given: only an impossible date is refused there', async () => {
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({
        patient_id: PATIENT,
        from: '2020-01-01',
        to: '2020-02-01T00:00:00+03:00',
        page: '1',
        per_page: '100',
      })
      .reply(...reply('find-appointment-by-patient')); // recorded for another range
    recordedPatientRead('find-appointment-by-patient');
    const result = await find(SEARCH.findAppointment, {
      patient_id: PATIENT,
      from: '2020-01-01',
      to: '2020-02-01T00:00:00+03:00',
    });
    expect(result.length).toBeGreaterThan(0);
  });

  it("lists a patient's appointments with every filter as the spec names it", async () => {
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({
        patient_id: PATIENT,
        status: 'confirmed',
        from: '2026-11-24',
        to: '2026-12-01T00:00:00+03:00',
        branch_id: '1',
        practitioner_id: '01HQW9J6R0PBHZJ7SBXFA5ZN7T',
        page: '1',
        per_page: '100',
      })
      .reply(replay('find-appointment-by-patient'));
    const patient = recordedPatientRead('find-appointment-by-patient');
    const result = await find(SEARCH.findAppointment, {
      patient_id: PATIENT,
      status: 'confirmed',
      from: '2026-11-24',
      to: '2026-12-01T00:00:00+03:00',
      branch_id: '1',
      practitioner_id: '01HQW9J6R0PBHZJ7SBXFA5ZN7T',
    });
    expect(result.map((a) => [a.id, a.status])).toEqual(
      data('find-appointment-by-patient').map((a: Json) => [a.id, a.status]),
    );
    expect(result.length).toBeGreaterThan(0);
    // One patient read for the page (nock's single interceptor would refuse a second; test/patients.test.ts
    // shows a page of many appointments of one patient costs one read).
    for (const a of result) expect(a.patient).toEqual(patient.contact);
  });

  it("finds a time range's appointments without a patient (a day at one branch): in start order, each with its patient", async () => {
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({ from: '2026-11-24', to: '2026-11-25', branch_id: '1', page: '1', per_page: '100' })
      // The day as recorded, handed to the app last first: the spec does not show the list's order.
      .reply(replay('find-appointments-of-a-day', 0, (a) => ({ ...a, data: [...a.data].reverse() })));
    // Every patient of the day answered with one recorded patient: what is tested is that each is read once.
    const read: string[] = [];
    const patient = definition('find-patient-by-id');
    clinicApi()
      .get(/\/partner\/v1\/patients\/[0-9A-Z]{26}$/)
      .reply((uri) => {
        read.push(uri.split('/').pop()!);
        return [200, patient.response];
      })
      .persist();
    const result = await find(SEARCH.findAppointment, {
      from: '2026-11-24',
      to: '2026-11-25',
      branch_id: '1',
    });
    const held = data('find-appointments-of-a-day') as Json[];
    expect(held.length).toBeGreaterThan(1);
    expect(new Set(held.map((a) => a.patient_id)).size).toBeGreaterThan(1);
    const inStartOrder = [...held].sort(
      (a, b) => Date.parse(a.starts_at) - Date.parse(b.starts_at) || String(a.id).localeCompare(String(b.id)),
    );
    expect(result.map((a) => a.id)).toEqual(inStartOrder.map((a) => a.id));
    expect(result.every((a) => a.found_total === held.length && a.found_complete === true)).toBe(true);
    expect(result.every((a) => a.branch_id === 1 && String(a.starts_at).startsWith('2026-11-24'))).toBe(true);
    expect(read.sort()).toEqual([...new Set(held.map((a) => String(a.patient_id)))].sort());
    for (const a of result) expect(a.patient).toEqual(contactOf(patient.response.data));
  });

  it('sends only the filters given (empty ones are not sent)', async () => {
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({ patient_id: PATIENT, status: 'no_show', page: '1', per_page: '100' })
      .reply(replay('find-appointment-by-patient-none'));
    await expect(
      find(SEARCH.findAppointment, { patient_id: PATIENT, status: 'no_show', from: '' }),
    ).resolves.toEqual([]);
  });

  describe('a range of more than one page', () => {
    // hand-built: a range of `n` appointments (the recorded day's first, one every 5 minutes), listed newest first
    // and paged as the interface pages (meta total, page, per_page), to show the whole range is read and the
    // earliest comes first; only the interface's order and the count are made up.
    const template: Json = (data('find-appointments-of-a-day') as Json[])[0];
    const range = (n: number) =>
      Array.from({ length: n }, (_, i) => ({
        ...template,
        id: `01K${'0'.repeat(16)}${String(i).padStart(7, '0')}`,
        // Written in the branch's offset, as the clinic writes times.
        starts_at: `${new Date(Date.parse('2026-11-24T08:00:00Z') + i * 300_000).toISOString().slice(0, 19)}+03:00`,
      })).reverse();
    const listed = (all: Json[], pages: number) => {
      const asked: string[] = [];
      clinicApi()
        .get(clinicPath('/appointments'))
        .query(true)
        .times(pages)
        .reply((uri) => {
          const q = new URL(uri, 'http://x').searchParams;
          asked.push(q.toString());
          const page = Number(q.get('page'));
          const perPage = Number(q.get('per_page'));
          return [
            200,
            {
              data: all.slice((page - 1) * perPage, page * perPage),
              meta: { total: all.length, page, per_page: perPage },
            },
          ];
        });
      const patient = definition('find-patient-by-id');
      clinicApi()
        .get(/\/partner\/v1\/patients\/[0-9A-Z]{26}$/)
        .reply(200, patient.response)
        .persist();
      return asked;
    };
    const query = { from: '2026-11-24', to: '2026-11-25', branch_id: '1' };

    it('reads every page and gives the earliest 25 first, with how many match', async () => {
      const all = range(230);
      const asked = listed(all, 3);
      const result = await find(SEARCH.findAppointment, query);
      expect(asked).toEqual(
        [1, 2, 3].map((page) => `from=2026-11-24&to=2026-11-25&branch_id=1&page=${page}&per_page=100`),
      );
      const earliest = [...all].reverse().slice(0, 25);
      expect(result.map((a) => a.id)).toEqual(earliest.map((a) => a.id));
      expect(result[0]!.starts_at_time).toBe('08:00');
      expect(result.every((a) => a.found_total === 230 && a.found_complete === true)).toBe(true);
    });

    it('says when the range holds more than it reads (5 pages of 100)', async () => {
      const all = range(620);
      const asked = listed(all, 5);
      const result = await find(SEARCH.findAppointment, query);
      expect(asked).toHaveLength(5);
      expect(result).toHaveLength(25);
      expect(result.every((a) => a.found_total === 620 && a.found_complete === false)).toBe(true);
    });
  });

  it.each([
    [
      'neither appointment, patient nor a range',
      {},
      /Appointment: choose the Appointment, the Patient whose appointments to find, or the time range/,
    ],
    [
      'only the end of a range',
      { to: '2026-11-25', branch_id: '1' },
      /Appointment: choose the Appointment, the Patient whose appointments to find, or the time range/,
    ],
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
      /Branch: is not an id: choose from the list or map an id from an earlier step/,
    ],
  ])('refuses %s before any request', async (_name, inputData, says) => {
    await expectRefused(SEARCH.findAppointment, inputData, says);
  });
});

describe('find_invoice', () => {
  /**
   * hand-built from a recorded invoice: the clinical details a careless server might add, which must never reach
   * a Zap. The interface's own invoice answers carry none (the sandbox puts procedure lines only in deliveries).
   */
  const leaky = (invoice: Json) => ({
    ...invoice,
    lines: invoice.lines.map((l: Json) => ({
      ...l,
      code: 'D1110',
      description: 'Scaling',
      tooth: '16',
      surfaces: 'MO',
    })),
    diagnosis_code: 'K05.1',
    notes: 'clinical note',
  });

  it('finds by id with GET /invoices/{id}, through the privacy whitelist, with SAR siblings', async () => {
    const invoice = data('find-invoice-by-id');
    clinicApi()
      .get(clinicPath(`/invoices/${INVOICE}`))
      .reply(replay('find-invoice-by-id', 0, (answer) => ({ ...answer, data: leaky(answer.data) })));
    const patient = recordedPatientRead('find-invoice-by-id');
    const [found, ...rest] = await find(SEARCH.findInvoice, { invoice_id: INVOICE });
    expect(rest).toEqual([]);
    const { patient: buyer, ...held } = found!;
    expect(buyer).toEqual(patient.contact);
    expect(withoutSar(held)).toEqual(invoice);
    expect(found).not.toHaveProperty('diagnosis_code');
    expect(found).not.toHaveProperty('notes');
    for (const line of found!.lines as Array<Record<string, unknown>>) {
      for (const secret of ['code', 'description', 'tooth', 'surfaces'])
        expect(line).not.toHaveProperty(secret);
    }
    expect(found!.total_sar).toBe(sar(invoice.total_halalas));
    expect(sarSiblings(found)).toBe(halalasIn(invoice));
  });

  it("lists a patient's invoices by status and issue dates, each through the whitelist", async () => {
    // The patient of the partly paid invoice (the recording asks for that patient's invoices).
    const payer: string = data('find-invoice-by-id').patient_id;
    const page = body('find-invoice-by-patient', 0);
    clinicApi()
      .get(clinicPath('/invoices'))
      .query({
        patient_id: payer,
        status: 'partially_paid',
        issued_from: '2026-11-01',
        issued_to: '2026-12-01',
        per_page: '25',
      })
      .reply(replay('find-invoice-by-patient', 0, (answer) => ({ ...answer, data: answer.data.map(leaky) })));
    const patient = recordedPatientRead('find-invoice-by-patient');
    const result = await find(SEARCH.findInvoice, {
      patient_id: payer,
      status: 'partially_paid',
      issued_from: '2026-11-01',
      issued_to: '2026-12-01',
    });
    expect(result.map(({ patient: _, ...held }) => withoutSar(held))).toEqual(page.data);
    expect(result.map((i) => i.patient)).toEqual(page.data.map(() => patient.contact));
    expect(result.length).toBeGreaterThan(0);
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
  const item = data('find-item-by-id');
  const ITEM = item.id as number;

  it('finds by id with GET /items/{id}; a bare item is accepted', async () => {
    // hand-built: the recorded item without its {data} envelope (the sandbox always wraps).
    cashierApi()
      .get(cashierPath(`/items/${ITEM}`))
      .reply(200, item);
    const result = await find(SEARCH.findItem, { item_id: String(ITEM) });
    // Found by id, no variant was named: no matched variant (CONTRACT §8).
    expect(result.map(withoutSar)).toEqual([{ ...item, matched_variant: null }]);
    expect((result[0]!.variants as Array<Record<string, unknown>>).map((v) => v.price_sar)).toEqual(
      item.variants.map((v: Json) => sar(v.price_halalas)),
    );
  });

  it('accepts an item wrapped in {data}', async () => {
    cashierApi()
      .get(cashierPath(`/items/${ITEM}`))
      .reply(replay('find-item-by-id'));
    const result = await find(SEARCH.findItem, { item_id: ITEM });
    expect(result.map(withoutSar)).toEqual([{ ...item, matched_variant: null }]);
  });

  /** The six fields of CONTRACT §8 of the one variant of a recorded answer whose `by` is `wanted`. */
  const variantOf = (scenario: string, by: 'sku' | 'barcode', wanted: string) => {
    const variants = (data(scenario) as Json[]).flatMap((i) => i.variants as Json[]);
    const named = variants.filter((v) => v[by] === wanted);
    // Meaningful only if the item has other variants and the one named is not simply the default or the first.
    expect(named).toHaveLength(1);
    expect(variants.length).toBeGreaterThan(1);
    expect(named[0].is_default).toBe(false);
    expect(variants.indexOf(named[0])).toBeGreaterThan(0);
    const { id, plu, sku, barcode, name_ar, price_halalas } = named[0];
    return { id, plu, sku, barcode, name_ar, price_halalas, price_sar: sar(price_halalas) };
  };

  it.each([
    ['SKU', 'sku', 'COF-AR-L', 'find-item-by-sku'],
    ['barcode', 'barcode', '6281000001187', 'find-item-by-barcode'],
  ] as const)(
    'finds by %s with GET /items?%s=, and says which variant matched',
    async (_name, by, wanted, fixture) => {
      cashierApi()
        .get(cashierPath('/items'))
        .query({ [by]: wanted, per_page: '10' })
        .reply(replay(fixture));
      const result = await find(SEARCH.findItem, { [by]: ` ${wanted} ` });
      expect(result.length).toBeGreaterThan(0);
      expect(result.map(({ matched_variant: _, ...rest }) => withoutSar(rest))).toEqual(data(fixture));
      expect(result.map((i) => i.matched_variant)).toEqual([variantOf(fixture, by, wanted)]);
    },
  );

  it('finds none by a barcode no item has', async () => {
    cashierApi()
      .get(cashierPath('/items'))
      .query({ barcode: '6280000000009', per_page: '10' })
      .reply(replay('find-item-by-barcode-none'));
    await expect(find(SEARCH.findItem, { barcode: '6280000000009' })).resolves.toEqual([]);
    expect(data('find-item-by-barcode-none')).toEqual([]);
  });

  it('finds no item when none of its variants has exactly the SKU searched (a server matching without case)', async () => {
    // hand-built: the recorded item as the answer to the same SKU in small letters; the sandbox compares exactly
    // and finds nothing, a server comparing without case would send this. Find or Create then creates the item.
    cashierApi()
      .get(cashierPath('/items'))
      .query({ sku: 'cof-ar-l', per_page: '10' })
      .reply(...reply('find-item-by-sku'));
    await expect(find(SEARCH.findItem, { sku: 'cof-ar-l' })).resolves.toEqual([]);
  });

  /** A copy of `item` whose variants are near matches of `wanted` only, under another item id. */
  const nearMatch = (found: Json, by: 'sku' | 'barcode', wanted: string, id: number): Json => ({
    ...found,
    id,
    variants: [`${wanted}0`, wanted.toLowerCase(), ` ${wanted}`, `${wanted} `, wanted.slice(0, -1)]
      .filter((near) => near !== wanted)
      .map((near, i) => ({
        ...found.variants[0],
        id: id * 10 + i,
        plu: `V${id * 10 + i}`,
        [by]: near,
      })),
  });

  it.each([
    ['SKU', 'sku', 'COF-AR-L', 'find-item-by-sku'],
    ['barcode', 'barcode', '6281000001187', 'find-item-by-barcode'],
  ] as const)(
    'returns only the item with exactly the %s among near matches, and that variant as matched',
    async (_name, by, wanted, fixture) => {
      const exact = data(fixture)[0];
      cashierApi()
        .get(cashierPath('/items'))
        .query({ [by]: wanted, per_page: '10' })
        .reply(
          replay(fixture, 0, (answer: Json) => {
            // hand-built: a server matching loosely (prefixes, case, spaces) lists near matches around the item,
            // and the item itself carries a near variant before the exact one.
            const [item] = answer.data;
            item.variants.unshift({ ...item.variants[1], id: 901, plu: 'V901', [by]: `${wanted}0` });
            answer.data = [nearMatch(item, by, wanted, 77), item, nearMatch(item, by, wanted, 78)];
            return answer;
          }),
        );
      const result = await find(SEARCH.findItem, { [by]: `  ${wanted}\t` });
      expect(result.map((i) => i.id)).toEqual([exact.id]);
      expect(result[0]!.matched_variant).toEqual(variantOf(fixture, by, wanted));
    },
  );

  it('shows a matched variant in its sample and lists its fields with their own labels', () => {
    const { sample, outputFields } = searches[SEARCH.findItem]!.operation as unknown as {
      sample: Record<string, Json>;
      outputFields: Array<{ key: string; label: string }>;
    };
    const matched = sample.matched_variant;
    const named = (sample.variants as Json[]).filter((v) => v.sku === matched.sku);
    expect(named).toHaveLength(1);
    expect(matched).toEqual({
      id: named[0].id,
      plu: named[0].plu,
      sku: named[0].sku,
      barcode: named[0].barcode,
      name_ar: named[0].name_ar,
      price_halalas: named[0].price_halalas,
      price_sar: sar(named[0].price_halalas),
    });
    const labels = Object.fromEntries(
      outputFields.filter((o) => o.key.startsWith('matched_variant__')).map((o) => [o.key, o.label]),
    );
    expect(labels).toEqual({
      matched_variant__id: 'Matched Variant ID',
      matched_variant__plu: 'Matched Variant PLU',
      matched_variant__sku: 'Matched Variant SKU',
      matched_variant__barcode: 'Matched Variant Barcode',
      matched_variant__name_ar: 'Matched Variant Name (Arabic)',
      matched_variant__price_sar: 'Matched Variant Price (SAR)',
      matched_variant__price_halalas: 'Matched Variant Price (Halalas)',
    });
  });

  it.each([
    ['nothing given', {}, /Item: choose the Item, or give a SKU or a Barcode/],
    [
      'an item id that is not a number',
      { item_id: 'abc' },
      /Item: is not an id: choose from the list or map an id from an earlier step/,
    ],
    ['an item id of 0', { item_id: '0' }, /Item: must be 1 or more/],
  ])('refuses %s before any request', async (_name, inputData, says) => {
    await expectRefused(SEARCH.findItem, inputData, says);
  });
});

describe('find_order', () => {
  const order = data('find-order-by-id');
  const ORDER: string = order.id;

  it('finds by id with GET /orders/{id}', async () => {
    cashierApi()
      .get(cashierPath(`/orders/${ORDER}`))
      .reply(replay('find-order-by-id'));
    const result = await find(SEARCH.findOrder, { order_id: ORDER });
    expect(result.map(withoutSar)).toEqual([order]);
    expect(result[0]!.total_sar).toBe(sar(order.total_halalas));
  });

  it('refuses a blank order before any request', async () => {
    await expectRefused(SEARCH.findOrder, { order_id: ' ' }, /Order: is required/);
  });
});

describe('find_receipt', () => {
  const receipt = data('find-receipt-by-id');
  const RECEIPT = SEEDED.receipt;

  it('finds by id with GET /receipts/{id}, with SAR siblings on lines and payments', async () => {
    cashierApi()
      .get(cashierPath(`/receipts/${RECEIPT}`))
      .reply(replay('find-receipt-by-id'));
    const [found] = await find(SEARCH.findReceipt, { receipt_id: RECEIPT });
    expect(withoutSar(found!)).toEqual(receipt);
    expect(sarSiblings(found)).toBe(halalasIn(receipt));
    expect(halalasIn(receipt.lines)).toBeGreaterThan(0);
    expect(halalasIn(receipt.payments)).toBeGreaterThan(0);
  });

  it('finds a credit note the same way', async () => {
    const creditNote = data('find-receipt-credit-note');
    cashierApi()
      .get(cashierPath(`/receipts/${SEEDED.creditNote}`))
      .reply(replay('find-receipt-credit-note'));
    const [found] = await find(SEARCH.findReceipt, { receipt_id: SEEDED.creditNote });
    expect(creditNote).toMatchObject({ kind: 'credit_note', refund_of: RECEIPT });
    expect(found).toMatchObject({
      id: SEEDED.creditNote,
      kind: 'credit_note',
      refund_of: RECEIPT,
      total_sar: sar(creditNote.total_halalas),
    });
  });

  it('refuses a missing receipt before any request', async () => {
    await expectRefused(SEARCH.findReceipt, {}, /Receipt: is required/);
  });
});

describe('find_stock_level', () => {
  /** A stock level has no id of its own: the app names it <branch_id>:<variant_id>. */
  const idOf = (level: Json) => `${level.branch_id}:${level.variant_id}`;

  it('finds by branch, each level named <branch_id>:<variant_id>', async () => {
    const levels = data('find-stock-level-by-branch');
    cashierApi()
      .get(cashierPath('/stock/levels'))
      .query({ branch_id: '1', per_page: '25' })
      .reply(replay('find-stock-level-by-branch'));
    const result = await find(SEARCH.findStockLevel, { branch_id: '1' });
    expect(result.map((s) => s.id)).toEqual(levels.map(idOf));
    expect(levels.length).toBeGreaterThan(1);
    expect(result[0]).toEqual({ id: idOf(levels[0]), ...levels[0] });
  });

  it('finds by variant, low levels only', async () => {
    const [low] = data('find-stock-level-low');
    cashierApi()
      .get(cashierPath('/stock/levels'))
      .query({ variant_id: String(low.variant_id), low_only: 'true', per_page: '25' })
      .reply(replay('find-stock-level-low'));
    const result = await find(SEARCH.findStockLevel, { variant_id: String(low.variant_id), low_only: 'yes' });
    expect(result.map((s) => s.id)).toEqual([idOf(low)]);
  });

  it('sends branch, variant and low only given as numbers and a flag; a level above its minimum is none', async () => {
    cashierApi()
      .get(cashierPath('/stock/levels'))
      .query({ branch_id: '1', variant_id: '118', low_only: 'true', per_page: '25' })
      .reply(replay('find-stock-level-none'));
    await expect(
      find(SEARCH.findStockLevel, { branch_id: 1, variant_id: 118, low_only: true }),
    ).resolves.toEqual([]);
  });

  it.each([
    ['neither branch nor variant', { low_only: 'true' }, /Branch: choose the Branch, the Variant or both/],
    [
      'a branch that is not a number',
      { branch_id: 'Olaya' },
      /Branch: is not an id: choose from the list or map an id from an earlier step/,
    ],
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
  const report = data('find-z-report-closed');
  const SESSION = CLOSED_SESSION;

  it('reads GET /sessions/{id}/z-report, SAR siblings nested too', async () => {
    cashierApi()
      .get(cashierPath(`/sessions/${SESSION}/z-report`))
      .reply(replay('find-z-report-closed'));
    const [found] = await find(SEARCH.findZReport, { session_id: SESSION });
    expect(withoutSar(found!)).toEqual(report);
    expect(found).toMatchObject({
      variance_sar: sar(report.variance_halalas),
      z_report: {
        sales: { total_sar: sar(report.z_report.sales.total_halalas) },
        prepayments_applied: { total_sar: sar(report.z_report.prepayments_applied.total_halalas) },
      },
      expected: { cash_sar: sar(report.expected.cash_halalas) },
      counted: { cash_sar: sar(report.counted.cash_halalas) },
    });
    expect(sarSiblings(found)).toBe(halalasIn(report));
  });

  /** The till session still open at the recordings' start. */
  const OPEN_SESSION = SEEDED.openSession;

  it('halts on 409: the session is not closed yet', async () => {
    const [status, refusal] = reply('find-z-report-open', 0);
    cashierApi()
      .get(cashierPath(`/sessions/${OPEN_SESSION}/z-report`))
      .reply(replay('find-z-report-open', 0));
    const err = await failure(find(SEARCH.findZReport, { session_id: OPEN_SESSION }));
    expect([status, refusal.error]).toEqual([409, 'session_open']);
    expect(err.name).toBe('HaltedError');
    expect(err.message).toMatch(/till session is not closed yet/);
    expect(err.message).toMatch(/once the cashier closes/);
    expect(err.message).toContain(refusal.message);
  });

  it('halts in Arabic for an Arabic connection', async () => {
    const refusal = body('find-z-report-open', 1);
    cashierApi('ar')
      .get(cashierPath(`/sessions/${OPEN_SESSION}/z-report`))
      .reply(replay('find-z-report-open', 1));
    const err = await failure(
      find(SEARCH.findZReport, { session_id: OPEN_SESSION }, { ...AUTH, language: 'ar' }),
    );
    expect(err.name).toBe('HaltedError');
    expect(err.message).toMatch(/لم تُغلق بعد/);
    expect(err.message).toMatch(/once the cashier closes/);
    expect(refusal.message).toMatch(/[\u0600-\u06FF]{3,}/);
    expect(err.message).toContain(refusal.message);
  });

  it('refuses a missing session before any request', async () => {
    await expectRefused(SEARCH.findZReport, { session_id: '' }, /Till Session: is required/);
  });
});
