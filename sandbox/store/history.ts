/** Past business before the seed's own days, for Zapier Transfer (sandbox/README.md, History). */
import { dateLocal, isoLocal, type Random } from '../ids';
import type { AppointmentStatus, CashierData, ClinicData, Receipt, TillSession } from './types';
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

/** What `history: true` adds; about one receipt in 60 is refunded as well. */
export const DEFAULT_HISTORY = SEED.history.counts;
export type HistoryCounts = typeof DEFAULT_HISTORY;

/** The branch-local time `minutesIntoDay` after midnight, `daysAgo` days before the seed's own week. */
const dayAt = (now: number, daysAgo: number, minutesIntoDay: number) =>
  Date.parse(`${dateLocal(now - (8 + daysAgo) * DAY)}T00:00:00+03:00`) + minutesIntoDay * MIN;

/** The history came first: each series, numbered from 1 on counters of its own, ends just below the seed's first. */
const numberBefore = <T extends { number: string }>(
  made: T[],
  seriesOf: (x: T) => string,
  counted: Record<string, number>,
  first: Record<string, number>,
) => {
  for (const x of made) {
    const n = first[seriesOf(x)]! - counted[seriesOf(x)]! + Number(x.number.slice(-6));
    x.number = `${x.number.slice(0, -6)}${String(n).padStart(6, '0')}`;
  }
};

/** Eight sales a day on each register in turn, in a closed till session per register and day. */
const historyReceipts = (cashier: CashierData, now: number, random: Random, count: number) => {
  const registers = cashier.branches.flatMap((b) =>
    b.registers.map((register) => ({ branch: b.id, register })),
  );
  const baskets = SEED.history.baskets as Array<Array<[number, number]>>;
  const days = Math.ceil(count / 8);
  const sessions = new Map<string, TillSession>();
  const made: Receipt[] = [];
  const receiptNo: Record<string, number> = {};
  const till = { ...cashier, counters: { receiptSeq: 0, receiptNo } };
  for (let i = 0; i < count; i += 1) {
    const day = days - Math.floor(i / 8);
    // 08:00 to 22:00, an hour and three quarters apart, with a few minutes' jitter.
    const at = dayAt(now, day, 8 * 60 + (i % 8) * 105 + random.int(30)) + random.int(60) * 1000;
    const { branch, register } = registers[(i + Math.floor(i / 8)) % registers.length]!;
    const key = `${day}:${register}`;
    const opened = dayAt(now, day, 7 * 60 + 30);
    const session = sessions.get(key) ?? newSession(random, branch, register, opened, opened + 15 * 60 * MIN);
    sessions.set(key, session);
    const basket = baskets[random.int(baskets.length)]!;
    const receipt = sellBasket(till, random, session, basket, at, random.int(4) === 0 ? 'cash' : 'card');
    made.push(receipt);
    if (i % 60 === 59) made.push(giveBack(till, random, session, receipt, receipt.lines[0]!, at + 20 * MIN));
  }
  numberBefore(made, (r) => r.number.slice(0, -7), receiptNo, SEED.cashier.counters.receiptNo);
  for (const s of sessions.values()) s.counted_cash_halalas = s.opening_float_halalas + cashTaken(made, s);
  cashier.sessions.unshift(...sessions.values());
  cashier.receipts.unshift(...made);
  numberByArrival(cashier);
};

/** Customers of the last year and a half; ids below the seed's first, so the ids of new ones do not move. */
const historyCustomers = (cashier: CashierData, now: number, random: Random, count: number) => {
  const first = Math.min(...cashier.customers.map((c) => c.id), cashier.counters.customer + 1) - count;
  const names = SEED.history.customerNames;
  const made = Array.from({ length: count }, (_, i) => {
    const created = isoLocal(dayAt(now, 492 - Math.floor((i * 360) / count), 9 * 60 + random.int(12 * 60)));
    const consent = random.int(3) !== 0;
    return newCustomer({
      id: first + i,
      name: names[i % names.length]!,
      phone: `+9665${String(10_000_000 + random.int(89_999_999)).slice(0, 8)}`,
      email: i % 2 === 0 ? `customer${first + i}@example.com` : null,
      consents: [{ granted: consent, channels: consent ? ['sms', 'email'] : [], at: created }],
      created_at: created,
      updated_at: created,
    });
  });
  cashier.customers.unshift(...made);
};

/** Three visits a day of the seed's patients, one practitioner per slot, so no two overlap. */
const historyAppointments = (clinic: ClinicData, now: number, random: Random, count: number) => {
  const patients = clinic.patients.filter((p) => !p.erased_at);
  const statuses = SEED.history.appointmentStatuses as AppointmentStatus[];
  const made = Array.from({ length: count }, (_, i) => {
    const practitioner = clinic.practitioners[i % clinic.practitioners.length]!;
    const dermatology = practitioner.specialty === 'dermatology';
    const types = clinic.appointmentTypes.filter((t) => (t.field === 'dermatology') === dermatology);
    const type = types[random.int(types.length)]!;
    const start = dayAt(now, Math.ceil(count / 3) - Math.floor(i / 3), 9 * 60 + (i % 3) * 150);
    const end = start + type.duration_min * MIN;
    const patient = patients[random.int(patients.length)]!;
    const status = statuses[random.int(statuses.length)]!;
    const created = start - (2 + random.int(10)) * DAY;
    const cancelled = status === 'cancelled' ? start - DAY : null;
    return newAppointment({
      id: random.ulid(created),
      patient_id: patient.id,
      branch_id: practitioner.branch_id,
      practitioner_id: practitioner.id,
      appointment_type_id: type.id,
      room_id: clinic.rooms.find((r) => r.branch_id === practitioner.branch_id)?.id ?? 11,
      status,
      starts_at: isoLocal(start),
      ends_at: isoLocal(end),
      source: SEED.clinic.bookingSources[random.int(4)]!,
      cancel_reason: cancelled === null ? null : random.int(2) ? 'patient_request' : 'clinic',
      cancelled_at: cancelled === null ? null : isoLocal(cancelled),
      created_at: isoLocal(created),
      updated_at: isoLocal(cancelled ?? end),
    });
  });
  clinic.appointments.unshift(...made);
};

/** A treatment or two (now and then the sunscreen too) over 400 days: eight in ten paid, one half paid, one not yet. */
const historyInvoices = (clinic: ClinicData, now: number, random: Random, count: number) => {
  const patients = clinic.patients.filter((p) => !p.erased_at);
  const treatments = SEED.treatments.map(treatment);
  const invoiceNo: Record<number, number> = {};
  const books = { branches: clinic.branches, counters: { fileNo: {}, invoiceNo } };
  const made = Array.from({ length: count }, (_, i) => {
    const patient = patients[random.int(patients.length)]!;
    const issued = dayAt(now, 400 - Math.floor((i * 400) / count), 10 * 60 + random.int(9 * 60));
    const lines = [treatments[random.int(treatments.length)]!];
    if (random.int(3) === 0) lines.push(treatments[5]!);
    const discount = random.int(5) === 0 ? 5000 : 0;
    const roll = random.int(10);
    const card = random.int(3) !== 0;
    const inv = newInvoice(books, random, issued, {
      patient_id: patient.id,
      branch_id: patient.branch_id,
      buyer_kind: patient.nationality === 'SA' ? 'citizen' : 'resident',
      lines,
      discount,
    });
    const paid = roll < 8 ? inv.total_halalas : roll === 8 ? Math.floor(inv.total_halalas / 2) : 0;
    if (paid) {
      const method = card ? 'card' : 'cash';
      const scheme = card ? random.pick(['mada', 'visa', 'mastercard']) : null;
      const last4 = card ? String(1000 + random.int(9000)) : null;
      addPayment(inv, { method, scheme, last4, amount_halalas: paid }, issued + 6 * MIN);
    }
    return inv;
  });
  numberBefore(made, (inv) => String(inv.branch_id), invoiceNo, SEED.clinic.counters.invoiceNo);
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
