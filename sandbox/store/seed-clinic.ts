/**
 * The clinic group's seed: reference data from data/seed.json, and business placed around the clock's start
 * (appointments today and in the coming days, invoices, claims).
 */
import { dateLocal, isoLocal, type Random } from '../ids';
import type {
  Appointment,
  AppointmentStatus,
  AppointmentType,
  Claim,
  ClinicData,
  Invoice,
  Patient,
} from './types';
import SEED from '../data/seed.json';
import { computeInvoice, nextFileNo, nextInvoiceNumber, type LineInput } from './money';

import { CLINIC_TENANT, DAY, MIN, past, times } from './seed';

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
