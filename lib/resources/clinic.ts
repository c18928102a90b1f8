import { readableTimeOutputFields, readableTimes } from '../readable-time';
import { defineResource, f } from './define';

/*
 * Clinic resources (clinic spec §2). Clinical objects are whitelists: only the fields listed here reach a Zap
 * (CONTRACT §7), whatever a delivery or sample carries.
 */

export const patient = defineResource({
  noun: 'Patient',
  fields: {
    id: f.id('Patient ID'),
    file_no: f.text('File Number', true),
    name_ar: f.text('Name (Arabic)', true),
    name_en: f.text('Name (English)', true),
    sex: f.text('Sex'),
    birth_date: f.date('Birth Date'),
    nationality: f.text('Nationality'),
    national_id_type: f.text('National ID Type'),
    national_id_last4: f.text('National ID (Last 4 Digits)'),
    phone: f.text('Phone', true),
    email: f.text('Email'),
    branch_id: f.int('Branch ID'),
    payer_id: f.int('Insurance Payer ID'),
    created_at: f.datetime('Created At'),
    updated_at: f.datetime('Updated At'),
  },
  sample: {
    id: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
    file_no: 'RYD-004512',
    name_ar: 'نورة عبدالله القحطاني',
    name_en: 'Noura Abdullah Alqahtani',
    sex: 'female',
    birth_date: '1991-04-17',
    nationality: 'SA',
    national_id_type: 'national_id',
    national_id_last4: '4821',
    phone: '+966501234567',
    email: 'noura.q@example.com',
    branch_id: 1,
    payer_id: 3,
    created_at: '2025-02-10T09:12:44+03:00',
    updated_at: '2026-11-18T16:40:02+03:00',
  },
});

export const appointment = defineResource({
  noun: 'Appointment',
  fields: {
    id: f.id('Appointment ID'),
    patient_id: f.text('Patient ID', true),
    branch_id: f.int('Branch ID', true),
    practitioner_id: f.text('Practitioner ID'),
    appointment_type_id: f.int('Appointment Type ID'),
    room_id: f.int('Room ID'),
    status: f.text('Status', true),
    starts_at: f.datetime('Starts At', true),
    ends_at: f.datetime('Ends At'),
    source: f.text('Source'),
    external_ref: f.text('External Reference'),
    note: f.text('Note'),
    cancel_reason: f.text('Cancellation Reason'),
    cancelled_at: f.datetime('Cancelled At'),
    created_at: f.datetime('Created At'),
    updated_at: f.datetime('Updated At'),
  },
  // The start time in words, in the branch's own offset, for reminders without a Formatter step (CONTRACT §8).
  decorate: (a) => readableTimes(a.starts_at),
  decoratedFields: readableTimeOutputFields,
  sample: {
    id: '01JDA3F7Q9B2C4D6E8G0H1J3K5',
    patient_id: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
    branch_id: 1,
    practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D0',
    appointment_type_id: 4,
    room_id: 12,
    status: 'booked',
    starts_at: '2026-11-24T10:30:00+03:00',
    ends_at: '2026-11-24T11:00:00+03:00',
    source: 'online',
    external_ref: 'zap-7f3c9a1e',
    note: 'أول زيارة - تنظيف أسنان',
    cancel_reason: null,
    cancelled_at: null,
    created_at: '2026-11-21T14:05:11+03:00',
    updated_at: '2026-11-21T14:05:11+03:00',
  },
});

const invoiceLine = {
  line_no: f.int('Line Number'),
  nature: f.text('Nature'),
  qty: f.int('Quantity'),
  unit_halalas: f.halalas('Unit Price'),
  net_halalas: f.halalas('Net'),
  vat_halalas: f.halalas('VAT'),
  total_halalas: f.halalas('Total'),
  tax_category: f.text('Tax Category'),
};

const invoiceFields = {
  id: f.id('Invoice ID'),
  number: f.text('Invoice Number', true),
  kind: f.text('Kind'),
  status: f.text('Status', true),
  patient_id: f.text('Patient ID', true),
  branch_id: f.int('Branch ID'),
  buyer_kind: f.text('Buyer Kind'),
  currency: f.text('Currency'),
  issued_at: f.datetime('Issued At', true),
  paid_at: f.datetime('Paid At'),
  subtotal_halalas: f.halalas('Subtotal'),
  discount_halalas: f.halalas('Discount'),
  vat_halalas: f.halalas('VAT'),
  total_halalas: f.halalas('Total', true),
  paid_halalas: f.halalas('Paid'),
  due_halalas: f.halalas('Due'),
  tax_breakdown: f.rows('Tax Breakdown', {
    tax_category: f.text('Tax Category'),
    net_halalas: f.halalas('Net'),
    vat_halalas: f.halalas('VAT'),
  }),
  lines: f.rows('Lines', invoiceLine),
  payments: f.rows('Payments', {
    method: f.text('Method'),
    scheme: f.text('Card Scheme'),
    last4: f.text('Card Last 4 Digits'),
    amount_halalas: f.halalas('Amount'),
  }),
};

export const invoice = defineResource({
  noun: 'Invoice',
  fields: invoiceFields,
  sample: {
    id: '01JDA5N2P8R4S6T8V0W2X4Y6Z8',
    number: 'INV-RYD-2026-018342',
    kind: 'simplified',
    status: 'issued',
    patient_id: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
    branch_id: 1,
    buyer_kind: 'citizen',
    currency: 'SAR',
    issued_at: '2026-11-21T11:20:45+03:00',
    paid_at: null,
    subtotal_halalas: 45000,
    discount_halalas: 5000,
    vat_halalas: 6000,
    total_halalas: 46000,
    paid_halalas: 0,
    due_halalas: 46000,
    tax_breakdown: [{ tax_category: 'standard', net_halalas: 40000, vat_halalas: 6000 }],
    lines: [
      {
        line_no: 1,
        nature: 'medical',
        qty: 1,
        unit_halalas: 45000,
        net_halalas: 40000,
        vat_halalas: 6000,
        total_halalas: 46000,
        tax_category: 'standard',
      },
    ],
    payments: [],
  },
});

export const claim = defineResource({
  noun: 'Claim',
  fields: {
    id: f.id('Claim ID'),
    invoice_id: f.text('Invoice ID', true),
    patient_id: f.text('Patient ID'),
    payer_id: f.int('Insurance Payer ID'),
    status: f.text('Status', true),
    previous_status: f.text('Previous Status'),
    outcome: f.text('Outcome', true),
    claimed_halalas: f.halalas('Claimed', true),
    approved_halalas: f.halalas('Approved', true),
    patient_share_halalas: f.halalas('Patient Share'),
    claims_exchange_ref: f.text('Claims Exchange Reference'),
    updated_at: f.datetime('Updated At'),
  },
  sample: {
    id: '01JDA7C3D5E7F9G1H3J5K7M9N1',
    invoice_id: '01JDA5N2P8R4S6T8V0W2X4Y6Z8',
    patient_id: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
    payer_id: 3,
    status: 'adjudicated',
    previous_status: 'submitted',
    outcome: 'partial',
    claimed_halalas: 46000,
    approved_halalas: 36800,
    patient_share_halalas: 9200,
    claims_exchange_ref: 'CX-2026-11-0098812',
    updated_at: '2026-11-21T15:02:19+03:00',
  },
});

export const patientErasure = defineResource({
  noun: 'Patient',
  fields: {
    id: f.id('Patient ID'),
    erased_at: f.datetime('Erased At', true),
  },
  sample: { id: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB', erased_at: '2026-11-21T12:00:00+03:00' },
});
