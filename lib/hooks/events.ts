/** The event table: one row per instant trigger (CONTRACT §2, §8); the shape of a row is HookEvent (types.ts). */
import { TRIGGER } from '../keys';
import { appointment, claim, invoice, patientErasure } from '../resources/clinic';
import { creditNote, customer, orderStatusChange, receipt, session, stockLevel } from '../resources/cashier';
import { WITH_CHANGES, moved, statusBecame } from './changes';
import { CONSENT_CHANNEL } from './consent';
import { WITH_PATIENT, unknownInTransfer } from './extensions';
import {
  APPOINTMENT_FILTERS,
  CASHIER_BRANCH,
  CLAIM_OUTCOME,
  CLINIC_BRANCH,
  NEW_STATUS,
  TO_STATUS,
} from './filters';
import type { Order } from './paging';
import type { HookEvent, SampleSource, TransferSource } from './types';

const recent: SampleSource = { kind: 'recent' };
const catalogue: SampleSource = { kind: 'catalogue' };

/** The appointment statuses a clinic reschedules: the ones that have not begun. */
const RESCHEDULABLE = ['booked', 'confirmed'];

/**
 * Appointments by start, then id. One that has not begun can still be rescheduled later, after it was moved: its id
 * is remembered so it does not come twice.
 */
const BY_START: Order = {
  fields: [{ field: 'starts_at', time: true }, { field: 'id' }],
  movable: (a) => RESCHEDULABLE.includes(String(a.status)),
};
/** Invoices by issue time, then id: an invoice's issue time never changes. */
const BY_ISSUE: Order = { fields: [{ field: 'issued_at', time: true }, { field: 'id' }] };
const BY_ID: Order = { fields: [{ field: 'id' }] };
/**
 * Stock levels by branch, then variant: the cashier spec shows no order for the list, so it is read whole each call
 * and sorted by the app (the levels low now are few).
 */
const BY_BRANCH_AND_VARIANT: Order = {
  fields: [{ field: 'branch_id' }, { field: 'variant_id' }],
  unordered: true,
};

/** Appointments of the past: GET /appointments by start time, `status` where the trigger implies one. */
const appointments = (at: string[], status?: string): TransferSource => ({
  path: '/appointments',
  paging: BY_START,
  ...(status ? { query: { status } } : {}),
  at,
  range: { from: 'from', to: 'to', by: 'start date' },
  // One rescheduled from ahead of the place to behind it while the transfer ran is found again at the end.
  recheck: { statuses: RESCHEDULABLE, changed: 'updated_at', created: 'created_at' },
});

/** Invoices of the past: GET /invoices by issue date. */
const invoices = (status?: string): TransferSource => ({
  path: '/invoices',
  paging: BY_ISSUE,
  ...(status ? { query: { status } } : {}),
  at: status ? ['paid_at', 'issued_at'] : ['issued_at'],
  range: { from: 'issued_from', to: 'issued_to', by: 'issue date' },
});

/** An appointment.updated whose status became `status`: a trigger of its own (Zapier prefers them to "updated"). */
const became = (
  key: HookEvent['key'],
  status: string,
  from: string,
  label: string,
  description: string,
  at: string,
): HookEvent => ({
  key,
  event: 'appointment.updated',
  api: 'clinic',
  resource: appointment,
  noun: 'Appointment',
  label,
  description,
  filters: APPOINTMENT_FILTERS,
  sample: recent,
  sampleData: { ...appointment.sample, status, updated_at: at, changes: { status: [from, status] } },
  when: statusBecame(status),
  // The list holds appointments in the status now, without the change that led there: no previous status.
  extensions: [WITH_CHANGES, WITH_PATIENT, unknownInTransfer({ previous_status: null })],
  transfer: appointments(['updated_at'], status),
});

/** One row per event (CONTRACT §2). Adding an event is adding a row. */
export const EVENTS: readonly HookEvent[] = [
  {
    key: TRIGGER.appointmentCreated,
    event: 'appointment.created',
    api: 'clinic',
    resource: appointment,
    noun: 'Appointment',
    label: 'New Appointment',
    description:
      'Triggers when an appointment is booked, from the front desk, online booking or another app.',
    filters: APPOINTMENT_FILTERS,
    sample: recent,
    extensions: [WITH_PATIENT],
    transfer: appointments(['created_at']),
  },
  {
    key: TRIGGER.appointmentUpdated,
    event: 'appointment.updated',
    api: 'clinic',
    resource: appointment,
    noun: 'Appointment',
    label: 'Appointment Updated',
    description:
      'Triggers when an appointment changes (rescheduled, moved to another practitioner, its status…); the changed fields and their previous values come with it. For one status, the Appointment Confirmed, Patient Arrived, Appointment Completed and Appointment No-Show triggers are simpler.',
    filters: [...APPOINTMENT_FILTERS, NEW_STATUS],
    sample: recent,
    extensions: [WITH_CHANGES, WITH_PATIENT],
    sampleData: {
      ...appointment.sample,
      status: 'arrived',
      updated_at: '2026-11-24T10:24:37+03:00',
      changes: { status: ['confirmed', 'arrived'] },
    },
    transfer: appointments(['updated_at']),
  },
  {
    key: TRIGGER.appointmentCancelled,
    event: 'appointment.cancelled',
    api: 'clinic',
    resource: appointment,
    noun: 'Appointment',
    label: 'Appointment Cancelled',
    description: 'Triggers when an appointment is cancelled, with the reason and time of the cancellation.',
    filters: APPOINTMENT_FILTERS,
    sample: recent,
    extensions: [WITH_PATIENT],
    sampleData: {
      ...appointment.sample,
      status: 'cancelled',
      cancel_reason: 'patient_request',
      cancelled_at: '2026-11-23T18:12:40+03:00',
      updated_at: '2026-11-23T18:12:40+03:00',
    },
    transfer: appointments(['cancelled_at', 'updated_at'], 'cancelled'),
  },
  became(
    TRIGGER.appointmentConfirmed,
    'confirmed',
    'booked',
    'Appointment Confirmed',
    'Triggers when an appointment’s status becomes confirmed, e.g. the patient confirmed by phone or link.',
    '2026-11-23T09:02:11+03:00',
  ),
  became(
    TRIGGER.patientArrived,
    'arrived',
    'confirmed',
    'Patient Arrived',
    'Triggers when the front desk checks a patient in for an appointment (status becomes arrived).',
    '2026-11-24T10:21:37+03:00',
  ),
  became(
    TRIGGER.appointmentCompleted,
    'completed',
    'in_progress',
    'Appointment Completed',
    'Triggers when an appointment is completed: for a thank-you, a review request or a feedback survey.',
    '2026-11-24T11:04:52+03:00',
  ),
  became(
    TRIGGER.appointmentNoShow,
    'no_show',
    'confirmed',
    'Appointment No-Show',
    'Triggers when an appointment is marked as a no-show: to offer the patient a new time.',
    '2026-11-24T11:15:00+03:00',
  ),
  {
    key: TRIGGER.appointmentRescheduled,
    event: 'appointment.updated',
    api: 'clinic',
    resource: appointment,
    noun: 'Appointment',
    label: 'Appointment Rescheduled',
    description:
      'Triggers when an appointment’s start time moves, with the previous start and the new one in words: for a "your appointment has moved" message.',
    filters: APPOINTMENT_FILTERS,
    sample: recent,
    sampleData: {
      ...appointment.sample,
      starts_at: '2026-11-25T16:00:00+03:00',
      ends_at: '2026-11-25T16:30:00+03:00',
      updated_at: '2026-11-23T11:42:05+03:00',
      changes: {
        starts_at: [appointment.sample.starts_at, '2026-11-25T16:00:00+03:00'],
        ends_at: [appointment.sample.ends_at, '2026-11-25T16:30:00+03:00'],
      },
    },
    when: moved('starts_at'),
    // No transfer: the appointments list shows where an appointment is now, not that it moved.
    extensions: [WITH_CHANGES, WITH_PATIENT],
  },
  {
    key: TRIGGER.invoiceIssued,
    event: 'invoice.issued',
    api: 'clinic',
    resource: invoice,
    noun: 'Invoice',
    label: 'New Invoice',
    description: 'Triggers when the clinic issues an invoice.',
    filters: [CLINIC_BRANCH],
    sample: recent,
    extensions: [WITH_PATIENT],
    transfer: invoices(),
  },
  {
    key: TRIGGER.invoicePaid,
    event: 'invoice.paid',
    api: 'clinic',
    resource: invoice,
    noun: 'Invoice',
    label: 'Invoice Paid',
    description: 'Triggers when an invoice is paid in full, with its payments.',
    filters: [CLINIC_BRANCH],
    sample: recent,
    // The list does not show when an invoice was paid.
    extensions: [WITH_PATIENT, unknownInTransfer({ paid_at: null })],
    sampleData: {
      ...invoice.sample,
      status: 'paid',
      paid_at: '2026-11-21T11:24:10+03:00',
      paid_halalas: 46000,
      due_halalas: 0,
      payments: [{ method: 'card', scheme: 'mada', last4: '4417', amount_halalas: 46000 }],
    },
    transfer: invoices('paid'),
  },
  {
    key: TRIGGER.claimUpdated,
    event: 'claim.updated',
    api: 'clinic',
    resource: claim,
    noun: 'Insurance Claim',
    label: 'Insurance Claim Updated',
    description:
      "Triggers when an insurance claim's status or outcome changes (approved, partial, rejected…).",
    filters: [CLAIM_OUTCOME],
    sample: recent,
    extensions: [WITH_PATIENT],
  },
  {
    key: TRIGGER.patientErased,
    event: 'patient.erased',
    api: 'clinic',
    resource: patientErasure,
    noun: 'Patient Erasure',
    label: 'Patient Erased',
    description:
      "Triggers when a patient's personal data is erased at their request, so you can erase it in other apps too.",
    filters: [],
    sample: recent,
  },
  {
    key: TRIGGER.receiptIssued,
    event: 'receipt.issued',
    api: 'cashier',
    resource: receipt,
    noun: 'Receipt',
    label: 'New Receipt',
    description: 'Triggers when a till issues a sales receipt.',
    filters: [CASHIER_BRANCH],
    // The cursor holds receipts and credit notes in one sequence; New Credit Note has its own trigger.
    sample: {
      kind: 'cursor',
      path: '/receipts',
      query: {},
      keeps: (r) => r.kind !== 'credit_note',
      at: 'issued_at',
    },
    transfer: {
      path: '/receipts',
      paging: 'since_id',
      at: ['issued_at'],
      keeps: (r) => r.kind !== 'credit_note',
    },
  },
  {
    key: TRIGGER.creditNoteIssued,
    event: 'credit_note.issued',
    api: 'cashier',
    resource: creditNote,
    noun: 'Credit Note',
    label: 'New Credit Note',
    description: 'Triggers when a till issues a credit note (a refund of a receipt).',
    filters: [CASHIER_BRANCH],
    sample: { kind: 'cursor', path: '/receipts', query: { kind: 'credit_note' }, at: 'issued_at' },
    transfer: { path: '/receipts', paging: 'since_id', query: { kind: 'credit_note' }, at: ['issued_at'] },
  },
  {
    key: TRIGGER.sessionClosed,
    event: 'session.closed',
    api: 'cashier',
    resource: session,
    noun: 'Till Session',
    label: 'Till Session Closed',
    description: 'Triggers when a till session is closed, with its Z-report totals and cash variance.',
    filters: [CASHIER_BRANCH],
    sample: catalogue,
  },
  {
    key: TRIGGER.stockLow,
    event: 'stock.low',
    api: 'cashier',
    resource: stockLevel,
    noun: 'Stock Level',
    label: 'Stock Low',
    description: "Triggers when an item's stock at a branch falls to or below its reorder point.",
    filters: [CASHIER_BRANCH],
    sample: { kind: 'list', path: '/stock/levels', query: { low_only: true } },
    transfer: {
      path: '/stock/levels',
      paging: BY_BRANCH_AND_VARIANT,
      query: { low_only: true },
      at: ['updated_at'],
    },
  },
  {
    key: TRIGGER.orderStatusChanged,
    event: 'order.status_changed',
    api: 'cashier',
    resource: orderStatusChange,
    noun: 'Order',
    label: 'Order Status Changed',
    description:
      'Triggers when an order sent to a till changes status, for example when the cashier accepts it.',
    filters: [TO_STATUS],
    sample: catalogue,
  },
  {
    key: TRIGGER.customerCreated,
    event: 'customer.created',
    api: 'cashier',
    resource: customer,
    noun: 'Customer',
    label: 'New Customer',
    description:
      'Triggers when a customer is added at a till or in the back office. Name, phone and email come only with marketing consent; choose a Consent Channel to fire only for customers who agreed to that channel.',
    filters: [],
    sample: { kind: 'list', path: '/customers', query: {} },
    extensions: [CONSENT_CHANNEL],
    transfer: { path: '/customers', paging: BY_ID, at: ['created_at'] },
  },
];
