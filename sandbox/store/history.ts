/**
 * Past business, for Zapier Transfer (moving history through a Zap) and its benchmark: months of receipts and
 * credit notes, invoices, appointments and customers that happened before the seed's own days. Only with the
 * `history` option, so every other recording sees the seed alone. Drawn from its own generator: the same seed
 * gives the same history, and the seed's objects and the ids of later calls do not move.
 */
import { dateLocal, isoLocal, type Random } from '../ids';
import type {
  Appointment,
  AppointmentStatus,
  CashierData,
  ClinicData,
  Customer,
  Invoice,
  Receipt,
  TillSession,
} from './types';
import SEED from '../data/seed.json';
import {
  addPayment,
  cashTaken,
  giveBack,
  newInvoice,
  newSession,
  numberByArrival,
  sellBasket,
} from './money';
import { newAppointment, newCustomer } from './records';
import { DAY, MIN, treatment } from './seed';

/** What `history: true` adds (sandbox/README.md, History); about one receipt in 60 is refunded as well. */
export const DEFAULT_HISTORY = SEED.history.counts;
export type HistoryCounts = typeof DEFAULT_HISTORY;

/** History ends where the seed's own days begin (its oldest objects are a week old). */
const HISTORY_ENDS_DAYS_AGO = 8;

/** The branch-local time `minutesIntoDay` after midnight, on the day `daysAgo` days before `now`. */
const dayAt = (now: number, daysAgo: number, minutesIntoDay: number) =>
  Date.parse(`${dateLocal(now - daysAgo * DAY)}T00:00:00+03:00`) + minutesIntoDay * MIN;

/** The first number used with `prefix` (the lowest `<prefix>-<digits>` among `numbers`), else the counter's next. */
const firstNumber = (numbers: string[], prefix: string, counter = 0): number => {
  const used = numbers
    .filter((n) => n.startsWith(`${prefix}-`) && /^\d+$/.test(n.slice(prefix.length + 1)))
    .map((n) => Number(n.slice(prefix.length + 1)));
  return used.length ? Math.min(...used) : counter + 1;
};

/* Cashier: receipts and credit notes, in closed till sessions, arriving before the seed's. */

const BASKETS = SEED.history.baskets as Array<Array<[number, number]>>;

const historyReceipts = (cashier: CashierData, now: number, random: Random, count: number) => {
  const registers = cashier.branches.flatMap((b) => b.registers.map((r) => ({ branch: b, register: r })));
  const perDay = 8;
  const days = Math.ceil(count / perDay);
  interface Planned {
    at: number;
    register: (typeof registers)[number];
    basket: Array<[number, number]>;
    tender: string;
    refund: boolean;
  }
  const plan: Planned[] = [];
  for (let i = 0; i < count; i += 1) {
    const daysAgo = HISTORY_ENDS_DAYS_AGO + days - Math.floor(i / perDay);
    const slot = i % perDay;
    plan.push({
      // 08:00 to 22:00, an hour and three quarters apart, with a few minutes' jitter.
      at: dayAt(now, daysAgo, 8 * 60 + slot * 105 + random.int(30)) + random.int(60) * 1000,
      register: registers[(i + Math.floor(i / perDay)) % registers.length]!,
      basket: BASKETS[random.int(BASKETS.length)]!,
      tender: random.int(4) === 0 ? 'cash' : 'card',
      refund: i % 60 === 59,
    });
  }
  // Numbers below the seed's first for each branch (and its credit notes): the history came first.
  const codeOf = (p: Planned) => p.register.branch.code;
  const keys = new Map<string, number>();
  const bump = (key: string) => keys.set(key, (keys.get(key) ?? 0) + 1);
  for (const p of plan) bump(codeOf(p));
  const existing = cashier.receipts.map((r) => r.number);
  const saved = { ...cashier.counters.receiptNo };
  for (const p of plan.filter((x) => x.refund)) {
    // A credit note only where numbers below the branch's first are free.
    const key = `${codeOf(p)}-CN`;
    const first = firstNumber(existing, key, saved[key]);
    if ((keys.get(key) ?? 0) + 1 < first) bump(key);
    else p.refund = false;
  }
  for (const [key, n] of keys) {
    const first = firstNumber(existing, key, saved[key]);
    cashier.counters.receiptNo[key] = first - 1 - n;
  }

  const sessions = new Map<string, TillSession>();
  const sessionOf = (p: Planned): TillSession => {
    const day = dateLocal(p.at);
    const key = `${day}:${p.register.register}`;
    let s = sessions.get(key);
    if (!s) {
      const opened = Date.parse(`${day}T07:30:00+03:00`);
      s = newSession(random, p.register.branch.id, p.register.register, opened, opened + 15 * 60 * MIN);
      sessions.set(key, s);
    }
    return s;
  };
  const made: Receipt[] = [];
  for (const p of plan) {
    const session = sessionOf(p);
    const receipt = sellBasket(cashier, random, session, p.basket, p.at, p.tender);
    made.push(receipt);
    if (p.refund) made.push(giveBack(cashier, random, session, receipt, receipt.lines[0]!, p.at + 20 * MIN));
  }
  cashier.counters.receiptNo = saved;
  for (const s of sessions.values()) {
    s.counted_cash_halalas = s.opening_float_halalas + cashTaken(made, s);
  }
  cashier.sessions.unshift(...[...sessions.values()].sort((a, b) => a.opened_at.localeCompare(b.opened_at)));
  cashier.receipts.unshift(...made);
  numberByArrival(cashier);
};

const historyCustomers = (cashier: CashierData, now: number, random: Random, count: number) => {
  // Ids below the seed's first: older customers were added first, and the ids of new ones do not move.
  const first = Math.min(...cashier.customers.map((c) => c.id), cashier.counters.customer + 1);
  const made: Customer[] = [];
  for (let i = 0; i < count; i += 1) {
    const created = dayAt(now, 500 - Math.floor((i * 360) / count), 9 * 60 + random.int(12 * 60));
    const consent = random.int(3) !== 0;
    const name = SEED.history.customerNames[i % SEED.history.customerNames.length]!;
    made.push(
      newCustomer({
        id: first - count + i,
        name,
        phone: `+9665${String(10_000_000 + random.int(89_999_999)).slice(0, 8)}`,
        email: i % 2 === 0 ? `customer${first - count + i}@example.com` : null,
        consents: [{ granted: consent, channels: consent ? ['sms', 'email'] : [], at: isoLocal(created) }],
        created_at: isoLocal(created),
        updated_at: isoLocal(created),
      }),
    );
  }
  cashier.customers.unshift(...made);
};

/* Clinic: appointments and invoices of the seed's patients and practitioners, before the seed's own week. */

const PAST_STATUSES = SEED.history.appointmentStatuses as AppointmentStatus[];

const historyAppointments = (clinic: ClinicData, now: number, random: Random, count: number) => {
  const patients = clinic.patients.filter((p) => !p.erased_at);
  const perDay = 3;
  const days = Math.ceil(count / perDay);
  const made: Appointment[] = [];
  for (let i = 0; i < count; i += 1) {
    const practitioner = clinic.practitioners[i % clinic.practitioners.length]!;
    const types = clinic.appointmentTypes.filter((t) =>
      practitioner.specialty === 'dermatology' ? t.field === 'dermatology' : t.field === 'dental',
    );
    const type = types[random.int(types.length)]!;
    const daysAgo = HISTORY_ENDS_DAYS_AGO + days - Math.floor(i / perDay);
    // One practitioner per slot of the day: no two history appointments overlap.
    const start = dayAt(now, daysAgo, 9 * 60 + (i % perDay) * 150);
    const end = start + type.duration_min * MIN;
    const patient = patients[random.int(patients.length)]!;
    const status = PAST_STATUSES[random.int(PAST_STATUSES.length)]!;
    const created = start - (2 + random.int(10)) * DAY;
    const cancelled = status === 'cancelled' ? start - DAY : null;
    const changed = status === 'completed' ? end : status === 'no_show' ? start + 30 * MIN : null;
    const room = clinic.rooms.find((r) => r.branch_id === practitioner.branch_id);
    made.push(
      newAppointment({
        id: random.ulid(created),
        patient_id: patient.id,
        branch_id: practitioner.branch_id,
        practitioner_id: practitioner.id,
        appointment_type_id: type.id,
        room_id: room?.id ?? 11,
        status,
        starts_at: isoLocal(start),
        ends_at: isoLocal(end),
        source: SEED.clinic.bookingSources[random.int(4)]!,
        cancel_reason: cancelled === null ? null : random.int(2) ? 'patient_request' : 'clinic',
        cancelled_at: cancelled === null ? null : isoLocal(cancelled),
        created_at: isoLocal(created),
        updated_at: isoLocal(cancelled ?? changed ?? created),
      }),
    );
  }
  clinic.appointments.unshift(...made);
};

const TREATMENTS = SEED.treatments.map(treatment);

const historyInvoices = (clinic: ClinicData, now: number, random: Random, count: number) => {
  const patients = clinic.patients.filter((p) => !p.erased_at);
  const span = 400;
  // Numbers below the seed's first for each branch and year.
  const planned = Array.from({ length: count }, (_, i) => {
    const patient = patients[random.int(patients.length)]!;
    const daysAgo = HISTORY_ENDS_DAYS_AGO + span - Math.floor((i * span) / count);
    return { patient, issued: dayAt(now, daysAgo, 10 * 60 + random.int(9 * 60)) };
  });
  const codeOf = (branchId: number) => clinic.branches.find((b) => b.id === branchId)?.code ?? 'CLN';
  const existing = clinic.invoices.map((inv) => inv.number);
  const next = new Map<string, number>();
  const counts = new Map<string, number>();
  const prefixOf = (p: (typeof planned)[number]) =>
    `INV-${codeOf(p.patient.branch_id)}-${dateLocal(p.issued).slice(0, 4)}`;
  for (const p of planned) counts.set(prefixOf(p), (counts.get(prefixOf(p)) ?? 0) + 1);
  for (const [prefix, n] of counts) {
    const branchId = clinic.branches.find((b) => prefix.startsWith(`INV-${b.code}-`))?.id ?? 0;
    const first = firstNumber(existing, prefix, clinic.counters.invoiceNo[branchId]);
    next.set(prefix, Math.max(1, first - n));
  }
  const made: Invoice[] = [];
  for (const p of planned) {
    const prefix = prefixOf(p);
    const n = next.get(prefix)!;
    next.set(prefix, n + 1);
    const lines = [TREATMENTS[random.int(TREATMENTS.length)]!];
    if (random.int(3) === 0) lines.push(TREATMENTS[5]!);
    const discount = random.int(5) === 0 ? 5000 : 0;
    const roll = random.int(10);
    const card = random.int(3) !== 0;
    const inv = newInvoice(clinic, random, p.issued, {
      patient_id: p.patient.id,
      branch_id: p.patient.branch_id,
      buyer_kind: p.patient.nationality === 'SA' ? 'citizen' : 'resident',
      lines,
      discount,
      number: `${prefix}-${String(n).padStart(6, '0')}`,
    });
    // Eight in ten paid, one half paid, one not yet.
    const paid = roll < 8 ? inv.total_halalas : roll === 8 ? Math.floor(inv.total_halalas / 2) : 0;
    if (paid) {
      const payment = {
        method: card ? 'card' : 'cash',
        scheme: card ? random.pick(['mada', 'visa', 'mastercard']) : null,
        last4: card ? String(1000 + random.int(9000)) : null,
        amount_halalas: paid,
      };
      addPayment(inv, payment, p.issued + 6 * MIN);
    }
    made.push(inv);
  }
  clinic.invoices.unshift(...made);
};

/** Adds the history to seeded data (the seed's patients, practitioners, branches and catalogue). */
export const seedHistory = (
  data: { clinic: ClinicData; cashier: CashierData },
  now: number,
  random: Random,
  counts: HistoryCounts,
) => {
  historyAppointments(data.clinic, now, random, counts.appointments);
  historyInvoices(data.clinic, now, random, counts.invoices);
  historyReceipts(data.cashier, now, random, counts.receipts);
  historyCustomers(data.cashier, now, random, counts.customers);
};
