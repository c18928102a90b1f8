/**
 * Seed data that looks like a real Saudi clinic group and café chain: Riyadh and Jeddah branches, Arabic and
 * English names, insurance payers, VAT-inclusive till prices. Reference data has fixed ids; business data is
 * placed around the sandbox clock's start (appointments today, receipts in today's till sessions…).
 */
import { dateLocal, isoLocal, type Random } from '../ids';
import type {
  ApiClientRecord,
  Appointment,
  AppointmentStatus,
  AppointmentType,
  CashierData,
  Claim,
  ClinicData,
  Customer,
  Invoice,
  Order,
  OrderLine,
  Patient,
  Receipt,
  StockLevel,
  Tenant,
  TillSession,
} from './types';
import SEED from '../data/seed.json';
import {
  buildReceipt,
  computeInvoice,
  nextFileNo,
  nextInvoiceNumber,
  type LineInput,
  type SaleLine,
} from './money';

export const CLINIC_TENANT = 1001;
export const CASHIER_TENANT = 2001;

export const seedTenants = (): Tenant[] => structuredClone(SEED.tenants) as Tenant[];

export const TOKEN_NAMES = [
  'clinicOwner',
  'clinicReadOnly',
  'clinicNoWebhooks',
  'clinicNonOwner',
  'clinicWebhooksOnly',
  'clinicRevokedToken',
  'clinicRevokedClient',
  'clinicSuspended',
  'clinicNotEntitled',
  'cashierOwner',
  'cashierReadOnly',
  'cashierNoWebhooks',
  'cashierRevokedToken',
  'cashierRevokedClient',
  'cashierSuspended',
  'cashierNotEntitled',
] as const;

export type TokenName = (typeof TOKEN_NAMES)[number];

interface ClientSeed {
  key: TokenName;
  api: 'clinic' | 'cashier';
  tenantId: number;
  name: string;
  abilities: string[];
  owner?: boolean;
  tokenRevoked?: boolean;
  clientRevoked?: boolean;
  provider?: string;
  note: string;
}

/** The named tokens (sandbox/README.md lists them). Tokens are fixed so a developer can keep them in .env. */
const CLIENTS = SEED.clients as ClientSeed[];

const tokenFor = (key: string) => `sbx_${key.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`)}`;

export const seedClients = (): ApiClientRecord[] =>
  CLIENTS.map((c, i) => ({
    id: i + 1,
    tenantId: c.tenantId,
    api: c.api,
    key: c.key,
    name: c.name,
    token: tokenFor(c.key),
    abilities: [...c.abilities],
    owner: c.owner ?? false,
    tokenRevoked: c.tokenRevoked ?? false,
    clientRevoked: c.clientRevoked ?? false,
    provider: c.provider ?? 'partner',
    note: c.note,
  }));

/* Time helpers around the clock's start. */

const MIN = 60_000;
const DAY = 24 * 60 * MIN;

const times = (now: number) => {
  const round5 = Math.floor(now / (5 * MIN)) * 5 * MIN;
  return {
    /** `minutes` from now, on a 5-minute mark. */
    rel: (minutes: number) => round5 + minutes * MIN,
    /** A branch-local wall time on the day `days` from today. */
    day: (days: number, hhmm: string) => Date.parse(`${dateLocal(now + days * DAY)}T${hhmm}:00+03:00`),
  };
};

/** A date some years back, for records made long before the sandbox started. */
const past = (iso: string) => Date.parse(iso);

/* Clinic */

export interface ClinicRefs {
  tenantId: number;
  branchRiyadh: number;
  branchJeddah: number;
  practitioner: string;
  appointmentType: number;
  /** The patient most examples use (consented contact fields, insured). */
  patient: string;
  patientWithoutConsent: string;
  erasedPatient: string;
  appointmentBooked: string;
  appointmentConfirmed: string;
  appointmentArrived: string;
  appointmentInProgress: string;
  appointmentCompleted: string;
  appointmentCancelled: string;
  invoiceIssued: string;
  invoicePartiallyPaid: string;
  invoicePaid: string;
  claimPending: string;
}

export const seedClinic = (
  now: number,
  random: Random,
  full: boolean,
): { data: ClinicData; refs: ClinicRefs } => {
  const fixed = past('2024-03-01T09:00:00+03:00');
  const data: ClinicData = {
    tenantId: CLINIC_TENANT,
    branches: structuredClone(SEED.clinic.branches),
    practitioners: SEED.clinic.practitioners.map((p) => ({ id: random.ulid(fixed), ...p })),
    appointmentTypes: structuredClone(SEED.clinic.appointmentTypes) as AppointmentType[],
    rooms: structuredClone(SEED.clinic.rooms),
    payers: structuredClone(SEED.clinic.payers),
    patients: [],
    appointments: [],
    invoices: [],
    claims: [],
    counters: { fileNo: { 1: 4500, 2: 1870 }, invoiceNo: { 1: 18330, 2: 7410 } },
  };
  const [sara, faisal, rania, ahmed, lama] = data.practitioners.map((p) => p.id) as [
    string,
    string,
    string,
    string,
    string,
  ];
  const refs: ClinicRefs = {
    tenantId: CLINIC_TENANT,
    branchRiyadh: 1,
    branchJeddah: 2,
    practitioner: sara,
    appointmentType: 4,
    patient: '',
    patientWithoutConsent: '',
    erasedPatient: '',
    appointmentBooked: '',
    appointmentConfirmed: '',
    appointmentArrived: '',
    appointmentInProgress: '',
    appointmentCompleted: '',
    appointmentCancelled: '',
    invoiceIssued: '',
    invoicePartiallyPaid: '',
    invoicePaid: '',
    claimPending: '',
  };
  if (!full) return { data, refs };

  for (const [i, p] of SEED.clinic.patients.entries()) {
    const created = past(`${p.created}+03:00`);
    const updated = Math.min(now - DAY * (3 + i), created + 400 * DAY);
    const { created: _created, ...person } = p;
    data.patients.push({
      id: random.ulid(created),
      file_no: nextFileNo(data, p.branch_id),
      ...(person as Omit<Patient, 'id' | 'file_no'>),
      created_at: isoLocal(created),
      updated_at: isoLocal(Math.max(created, updated)),
      erased_at: null,
    });
  }
  const erased = data.patients[12] as Patient;
  erased.erased_at = isoLocal(now - 20 * DAY);
  erased.updated_at = erased.erased_at;
  erased.contact_consent = false;
  const pid = (i: number) => (data.patients[i] as Patient).id;
  refs.patient = pid(0);
  refs.patientWithoutConsent = pid(7);
  refs.erasedPatient = erased.id;

  const t = times(now);
  const previous: Partial<Record<AppointmentStatus, AppointmentStatus>> = {
    confirmed: 'booked',
    arrived: 'confirmed',
    in_progress: 'arrived',
    completed: 'in_progress',
    no_show: 'booked',
  };
  const sources = ['front_desk', 'online', 'phone', 'walk_in'];
  type A = [number, string, number, number, AppointmentStatus, string | null];
  const plan: A[] = [
    [t.day(-7, '10:00'), sara, 2, 0, 'completed', null],
    [t.day(-6, '17:30'), faisal, 1, 1, 'completed', null],
    [t.day(-5, '11:00'), ahmed, 3, 3, 'completed', null],
    [t.day(-4, '19:00'), rania, 5, 2, 'no_show', null],
    [t.day(-3, '12:00'), lama, 6, 4, 'completed', 'بشرة حساسة'],
    [t.day(-2, '16:00'), sara, 4, 5, 'cancelled', null],
    [t.day(-1, '10:30'), rania, 5, 9, 'completed', null],
    [t.day(-1, '18:00'), faisal, 3, 10, 'completed', null],
    [t.rel(-90), sara, 2, 6, 'completed', 'طفل - أول تنظيف'],
    [t.rel(-20), ahmed, 3, 8, 'in_progress', null],
    [t.rel(-5), lama, 5, 7, 'arrived', null],
    [t.rel(40), sara, 4, 0, 'confirmed', 'أول زيارة - فحص أسنان'],
    [t.rel(75), ahmed, 2, 11, 'booked', null],
    [t.rel(180), faisal, 1, 1, 'booked', 'متابعة تقويم'],
    [t.day(1, '10:00'), rania, 6, 2, 'confirmed', null],
    [t.day(2, '17:00'), ahmed, 4, 3, 'booked', null],
    [t.day(3, '11:30'), rania, 5, 9, 'booked', null],
    [t.day(5, '19:30'), faisal, 1, 10, 'booked', null],
    [t.day(6, '09:30'), lama, 5, 4, 'cancelled', null],
    [t.day(7, '12:00'), sara, 2, 5, 'booked', null],
  ];
  const roomFor = new Map([
    [sara, 11],
    [faisal, 12],
    [rania, 13],
    [ahmed, 21],
    [lama, 22],
  ]);
  for (const [i, [start, practitioner, typeId, patientIndex, status, note]] of plan.entries()) {
    const type = data.appointmentTypes.find((x) => x.id === typeId);
    const end = start + (type?.duration_min ?? 30) * MIN;
    const created = Math.min(start - (2 + (i % 5)) * DAY, now - 2 * 60 * MIN);
    const cancelledAt = status === 'cancelled' ? Math.min(start - DAY, now - 30 * MIN) : null;
    const before = previous[status];
    const changedAt =
      status === 'completed'
        ? Math.min(end, now)
        : before
          ? Math.min(Math.max(start - 10 * MIN, created + MIN), now)
          : null;
    const patient = data.patients[patientIndex] as Patient;
    const a: Appointment = {
      id: random.ulid(created),
      patient_id: patient.id,
      branch_id: patient.branch_id,
      practitioner_id: practitioner,
      appointment_type_id: typeId,
      room_id: roomFor.get(practitioner) ?? 11,
      status,
      starts_at: isoLocal(start),
      ends_at: isoLocal(end),
      source: sources[i % sources.length] ?? 'front_desk',
      external_ref: i === 19 ? 'crm-88213' : null,
      note,
      cancel_reason: status === 'cancelled' ? (i === 5 ? 'patient_request' : 'clinic') : null,
      cancelled_at: cancelledAt === null ? null : isoLocal(cancelledAt),
      created_at: isoLocal(created),
      updated_at: isoLocal(cancelledAt ?? changedAt ?? created),
      client_id: null,
      last_changes: before ? { status: [before, status] } : null,
      last_changed_at: before && changedAt !== null ? isoLocal(changedAt) : null,
    };
    // The front desk books in the branch of the practitioner.
    a.branch_id = data.practitioners.find((p) => p.id === practitioner)?.branch_id ?? a.branch_id;
    data.appointments.push(a);
  }
  const appt = (i: number) => data.appointments[i] as Appointment;
  refs.appointmentCompleted = appt(0).id;
  refs.appointmentCancelled = appt(5).id;
  refs.appointmentInProgress = appt(9).id;
  refs.appointmentArrived = appt(10).id;
  refs.appointmentConfirmed = appt(11).id;
  refs.appointmentBooked = appt(12).id;

  const line = (
    nature: LineInput['nature'],
    unit: number,
    code: string,
    description: string,
    tooth: string | null = null,
    surfaces: string[] = [],
    tax: LineInput['tax_category'] = 'standard',
    qty = 1,
  ): LineInput => ({
    nature,
    qty,
    unit_halalas: unit,
    tax_category: tax,
    code,
    description,
    tooth,
    surfaces,
  });
  type I = [
    number,
    LineInput[],
    number,
    Invoice['buyer_kind'],
    Array<[string, string | null, number | 'due']>,
  ];
  const bills: I[] = [
    [
      0,
      [line('medical', 35000, 'D1110', 'Prophylaxis - adult', null, [], 'state_borne')],
      0,
      'citizen',
      [['card', 'mada', 'due']],
    ],
    [
      1,
      [line('medical', 20000, 'D0150', 'Comprehensive oral evaluation', null, [], 'state_borne')],
      0,
      'citizen',
      [['cash', null, 10000]],
    ],
    [
      2,
      [line('medical', 45000, 'D2391', 'Resin-based composite - one surface, posterior', '36', ['O'])],
      5000,
      'resident',
      [],
    ],
    [
      4,
      [
        line('cosmetic', 80000, 'LSR-02', 'Laser hair removal - face'),
        line('product', 9500, 'PRD-SPF50', 'Sunscreen SPF 50'),
      ],
      0,
      'citizen',
      [
        ['card', 'visa', 50000],
        ['cash', null, 'due'],
      ],
    ],
    [
      6,
      [line('medical', 25000, '99213', 'Dermatology follow-up visit')],
      0,
      'resident',
      [['card', 'mada', 'due']],
    ],
    [
      7,
      [
        line(
          'medical',
          42000,
          'D2392',
          'Resin-based composite - two surfaces, posterior',
          '14',
          ['M', 'O'],
          'state_borne',
        ),
        line(
          'medical',
          38000,
          'D2391',
          'Resin-based composite - one surface, posterior',
          '25',
          ['O'],
          'state_borne',
        ),
      ],
      0,
      'citizen',
      [],
    ],
    [8, [line('medical', 30000, 'D1120', 'Prophylaxis - child', null, [], 'state_borne')], 0, 'citizen', []],
    [3, [line('fee', 10000, 'FEE-NS', 'Missed appointment fee')], 0, 'citizen', []],
  ];
  for (const [appointmentIndex, lines, discount, buyer, payments] of bills) {
    const a = appt(appointmentIndex);
    const issued = Math.min(Date.parse(a.ends_at) + 15 * MIN, now - 5 * MIN);
    const totals = computeInvoice(lines, discount);
    const inv: Invoice = {
      id: random.ulid(issued),
      number: nextInvoiceNumber(data, a.branch_id, issued),
      kind: 'simplified',
      status: 'issued',
      patient_id: a.patient_id,
      branch_id: a.branch_id,
      buyer_kind: buyer,
      currency: 'SAR',
      issued_at: isoLocal(issued),
      ...totals,
      paid_halalas: 0,
      due_halalas: totals.total_halalas,
      payments: [],
      paid_at: null,
    };
    for (const [method, scheme, amount] of payments) {
      const paid = amount === 'due' ? inv.due_halalas : amount;
      inv.payments.push({
        method,
        scheme,
        last4: method === 'card' ? String(1000 + random.int(9000)) : null,
        amount_halalas: paid,
      });
      inv.paid_halalas += paid;
      inv.due_halalas -= paid;
    }
    if (inv.payments.length) {
      inv.status = inv.due_halalas === 0 ? 'paid' : 'partially_paid';
      if (inv.status === 'paid') inv.paid_at = isoLocal(issued + 4 * MIN);
    }
    data.invoices.push(inv);
  }
  const noShowFee = data.invoices[7] as Invoice;
  noShowFee.status = 'void';
  const inv = (i: number) => data.invoices[i] as Invoice;
  refs.invoicePaid = inv(0).id;
  refs.invoicePartiallyPaid = inv(1).id;
  refs.invoiceIssued = inv(2).id;

  type C = [number, number, string, string | null, Claim['outcome'], number];
  const claims: C[] = [
    [0, 3, 'paid', 'adjudicated', 'approved', 1],
    [1, 1, 'submitted', null, 'pending', 0],
    [2, 2, 'adjudicated', 'submitted', 'partial', 0.8],
    [4, 2, 'rejected', 'under_review', 'rejected', 0],
  ];
  for (const [invoiceIndex, payer, status, previousStatus, outcome, share] of claims) {
    const i = inv(invoiceIndex);
    const updated = Math.min(Date.parse(i.issued_at) + 2 * DAY, now - 60 * MIN);
    const approved = Math.round(i.total_halalas * share);
    data.claims.push({
      id: random.ulid(updated),
      invoice_id: i.id,
      patient_id: i.patient_id,
      payer_id: payer,
      status,
      previous_status: previousStatus,
      outcome,
      claimed_halalas: i.total_halalas,
      approved_halalas: approved,
      patient_share_halalas: i.total_halalas - approved,
      claims_exchange_ref: `CX-${dateLocal(updated).slice(0, 7)}-${String(random.int(10_000_000)).padStart(7, '0')}`,
      updated_at: isoLocal(updated),
    });
  }
  refs.claimPending = (data.claims[1] as Claim).id;
  return { data, refs };
};

/* Cashier */

export interface CashierRefs {
  tenantId: number;
  branchRiyadh: number;
  branchJeddah: number;
  /** Arabic coffee: two variants (117 small, 118 large). */
  item: number;
  variant: number;
  variantSku: string;
  variantBarcode: string;
  category: number;
  /** A level at or below its reorder point, and one well above. */
  lowStock: { branch_id: number; variant_id: number };
  okStock: { branch_id: number; variant_id: number };
  openSession: string;
  closedSession: string;
  receipt: string;
  creditNote: string;
  /** Received from the web shop client, not yet accepted. */
  orderReceived: string;
  customerConsented: number;
  customerNoConsent: number;
  customerWithdrawn: number;
  customerErased: number;
}

export const seedCashier = (
  now: number,
  random: Random,
  full: boolean,
  clients: ApiClientRecord[],
): { data: CashierData; refs: CashierRefs } => {
  const fixed = past('2023-05-14T08:00:00+03:00');
  const data: CashierData = {
    tenantId: CASHIER_TENANT,
    branches: structuredClone(SEED.cashier.branches),
    categories: structuredClone(SEED.cashier.categories),
    items: [],
    priceLists: structuredClone(SEED.cashier.priceLists),
    receipts: [],
    sessions: [],
    stock: [],
    customers: [],
    orders: [],
    counters: {
      item: 400,
      variant: 300,
      comboSlot: 10,
      customer: 5600,
      receiptSeq: 0,
      receiptNo: {
        'RYD-01': 1240,
        'JED-02': 730,
        'RYD-03': 415,
        'RYD-01-CN': 18,
        'JED-02-CN': 41,
        'RYD-03-CN': 7,
      },
    },
  };
  const at = isoLocal(fixed);
  for (const { id, name_ar, name_en, category_id, variants, modifier_group_ids } of SEED.cashier.catalogue) {
    data.items.push({
      id,
      name_ar,
      name_en,
      category_id,
      default_price_halalas: variants[0]?.price_halalas ?? 0,
      variants: variants.map((v, i) => ({ ...v, is_default: i === 0 })),
      modifier_group_ids,
      combo_slots: [],
      created_at: at,
      updated_at: isoLocal(Math.min(now - 7 * DAY, fixed + 500 * DAY)),
    });
  }
  for (const branch of data.branches) {
    for (const item of data.items) {
      for (const v of item.variants) {
        const packaged = item.category_id >= 6;
        const level: StockLevel = {
          branch_id: branch.id,
          variant_id: v.id,
          qty: 20 + random.int(60),
          reorder_point: packaged ? 6 : 10,
          par_level: packaged ? 24 : 40,
          updated_at: isoLocal(now - (1 + random.int(48)) * 60 * MIN),
        };
        data.stock.push(level);
      }
    }
  }
  const level = (branch: number, variant: number) =>
    data.stock.find((s) => s.branch_id === branch && s.variant_id === variant) as StockLevel;
  level(1, 251).qty = 3;
  level(2, 241).qty = 4;
  level(3, 261).qty = 0;
  level(1, 118).qty = 62;

  const t = times(now);
  const sessionFor = (
    branch: number,
    register: number,
    opened: number,
    closed: number | null,
  ): TillSession => ({
    id: random.ulid(opened),
    branch_id: branch,
    register_id: register,
    status: closed === null ? 'open' : 'closed',
    business_date: dateLocal(opened),
    opened_at: isoLocal(opened),
    closed_at: closed === null ? null : isoLocal(closed),
    opening_float_halalas: 50_000,
    counted_cash_halalas: null,
  });
  for (const branch of data.branches) {
    for (const register of branch.registers) {
      if (full) data.sessions.push(sessionFor(branch.id, register, t.rel(-29 * 60), t.rel(-19 * 60)));
      data.sessions.push(sessionFor(branch.id, register, t.rel(-5 * 60), null));
    }
  }
  const refs: CashierRefs = {
    tenantId: CASHIER_TENANT,
    branchRiyadh: 1,
    branchJeddah: 2,
    item: 311,
    variant: 118,
    variantSku: 'COF-AR-L',
    variantBarcode: '6281000001187',
    category: 4,
    lowStock: { branch_id: 1, variant_id: 251 },
    okStock: { branch_id: 1, variant_id: 118 },
    openSession: (data.sessions.find((s) => s.status === 'open' && s.branch_id === 2) as TillSession).id,
    closedSession: '',
    receipt: '',
    creditNote: '',
    orderReceived: '',
    customerConsented: 0,
    customerNoConsent: 0,
    customerWithdrawn: 0,
    customerErased: 0,
  };
  if (!full) return { data, refs };

  const variantById = new Map(
    data.items.flatMap((i) => i.variants.map((v) => [v.id, { item: i, v }] as const)),
  );
  const sale = (variantId: number, qty: number): SaleLine => {
    const found = variantById.get(variantId);
    const name = found
      ? found.item.variants.length > 1
        ? `${found.item.name_ar} - ${found.v.name_ar}`
        : found.item.name_ar
      : 'صنف';
    return { variantId, name, qty, unitPrice: found?.v.price_halalas ?? 1000 };
  };
  const baskets: Array<Array<[number, number]>> = [
    [
      [118, 2],
      [241, 1],
    ],
    [[119, 1]],
    [
      [117, 3],
      [242, 2],
    ],
    [[131, 2]],
    [
      [122, 4],
      [241, 2],
    ],
    [[251, 1]],
    [
      [120, 1],
      [121, 1],
    ],
    [
      [261, 1],
      [118, 1],
    ],
  ];
  const sell = (
    session: TillSession,
    minutesAfterOpen: number,
    basket: Array<[number, number]>,
    tender?: string,
    arrivedAt?: number,
  ) => {
    const issued = Date.parse(session.opened_at) + minutesAfterOpen * MIN;
    const receipt = buildReceipt(data, random, {
      session,
      lines: basket.map(([v, q]) => sale(v, q)),
      tender,
      issuedAt: issued,
      arrivedAt: arrivedAt ?? issued + 2000,
    });
    data.receipts.push(receipt);
    return receipt;
  };
  // Receipts arrive in the order the tills sync: by issue time, except the offline one below.
  const sales: Array<[TillSession, number, Array<[number, number]>, string | undefined]> = [];
  for (const [si, s] of data.sessions.entries()) {
    const count = s.status === 'closed' ? 3 : 2 + (si % 3);
    for (let k = 0; k < count; k += 1) {
      sales.push([
        s,
        20 + k * 55 + si * 3,
        baskets[(si + k) % baskets.length] ?? [[118, 1]],
        k % 3 === 2 ? 'cash' : undefined,
      ]);
    }
  }
  sales.sort((a, b) => Date.parse(a[0].opened_at) + a[1] * MIN - (Date.parse(b[0].opened_at) + b[1] * MIN));
  for (const [s, minutes, basket, tender] of sales) sell(s, minutes, basket, tender);
  const jeddahOpen = data.sessions.find((s) => s.status === 'open' && s.branch_id === 2) as TillSession;
  const firstJeddah = data.receipts.find((r) => r.session_id === jeddahOpen.id) as Receipt;
  const refundLine = firstJeddah.lines[firstJeddah.lines.length - 1];
  const issuedNote = Date.parse(firstJeddah.issued_at) + 25 * MIN;
  const note = buildReceipt(data, random, {
    session: jeddahOpen,
    lines: refundLine
      ? [
          {
            variantId: refundLine.variant_id,
            name: refundLine.name,
            qty: Number(refundLine.qty),
            unitPrice: refundLine.unit_price_halalas,
          },
        ]
      : [],
    issuedAt: issuedNote,
    arrivedAt: issuedNote + 2000,
    kind: 'credit_note',
    refundOf: firstJeddah.id,
    tender: firstJeddah.payments[0]?.tender ?? 'card',
  });
  data.receipts.push(note);
  // A till in Al Nakheel sold offline four hours ago and synced ten minutes ago: it arrives last.
  const nakheel = data.sessions.find((s) => s.status === 'open' && s.branch_id === 3) as TillSession;
  sell(
    nakheel,
    60,
    [
      [314, 1],
      [242, 1],
    ],
    'cash',
    now - 10 * MIN,
  );
  // Arrival order decides the cursor; renumber seq by arrival time.
  data.receipts.sort((a, b) => a.arrived_at_ms - b.arrived_at_ms);
  data.receipts.forEach((r, i) => (r.seq = i + 1));
  data.counters.receiptSeq = data.receipts.length;
  for (const s of data.sessions.filter((x) => x.status === 'closed')) {
    const cash = data.receipts
      .filter((r) => r.session_id === s.id)
      .flatMap((r) => r.payments)
      .filter((p) => p.tender === 'cash')
      .reduce((n, p) => n + p.amount_halalas, 0);
    s.counted_cash_halalas = s.opening_float_halalas + cash - (s.register_id === 1 ? 250 : 0);
  }
  refs.closedSession = (
    data.sessions.find((s) => s.status === 'closed' && s.branch_id === 1) as TillSession
  ).id;
  refs.receipt = firstJeddah.id;
  refs.creditNote = note.id;

  for (const [i, customer] of SEED.cashier.customers.entries()) {
    const created = now - (120 - i * 17) * DAY;
    const { consents } = customer;
    data.customers.push({
      id: 5521 + i,
      ...customer,
      consents: consents.map((c, k) => ({ ...c, at: isoLocal(created + k * 30 * DAY) })),
      created_at: isoLocal(created),
      updated_at: isoLocal(created + (consents.length - 1) * 30 * DAY),
    });
  }
  data.counters.customer = Math.max(...data.customers.map((c) => c.id));
  const cust = (i: number) => (data.customers[i] as Customer).id;
  refs.customerConsented = cust(0);
  refs.customerNoConsent = cust(2);
  refs.customerWithdrawn = cust(3);
  refs.customerErased = cust(5);

  const shop = clients.find((c) => c.key === 'cashierNoWebhooks') as ApiClientRecord;
  type O = [string, Order['status'], Array<[number, number]>, boolean, number];
  const orders: O[] = [
    [
      'SHOP-100480',
      'accepted',
      [
        [118, 2],
        [241, 1],
      ],
      true,
      -150,
    ],
    ['SHOP-100481', 'cancelled', [[251, 2]], false, -95],
    [
      'SHOP-100482',
      'received',
      [
        [118, 2],
        [242, 1],
      ],
      false,
      -12,
    ],
  ];
  for (const [externalId, status, basket, prepaid, minutes] of orders) {
    const created = t.rel(minutes);
    const lines: OrderLine[] = basket.map(([v, q], i) => {
      const s = sale(v, q);
      return {
        line_no: i + 1,
        variant_id: v,
        plu: `V${v}`,
        name: s.name,
        qty: String(q),
        unit_price_halalas: s.unitPrice,
        total_halalas: s.unitPrice * q,
        open_item: false,
      };
    });
    if (externalId === 'SHOP-100482') {
      lines.push({
        line_no: lines.length + 1,
        variant_id: null,
        plu: null,
        name: 'تغليف هدية',
        qty: '1',
        unit_price_halalas: 500,
        total_halalas: 500,
        open_item: true,
      });
    }
    data.orders.push({
      id: random.ulid(created),
      external_id: externalId,
      provider: shop.provider,
      client_id: shop.id,
      branch_id: 1,
      order_type: 'pickup',
      prepaid,
      customer: { name: 'خالد الغامدي', phone: '+966555012345' },
      status,
      lines,
      total_halalas: lines.reduce((n, l) => n + l.total_halalas, 0),
      receipt_id: null,
      refund_decision: null,
      created_at: isoLocal(created),
      updated_at: isoLocal(created + 4 * MIN),
    });
  }
  refs.orderReceived = (data.orders[2] as Order).id;
  return { data, refs };
};

/** Ids of seeded objects, for tests and the README (empty strings and zeros when started without seed data). */
export interface SeedRefs {
  clinic: ClinicRefs;
  cashier: CashierRefs;
}
