/** Operation keys (CONTRACT §2–§4). Permanent once published: never rename. */
export const TRIGGER = {
  appointmentCreated: 'appointment_created',
  appointmentUpdated: 'appointment_updated',
  appointmentCancelled: 'appointment_cancelled',
  invoiceIssued: 'invoice_issued',
  invoicePaid: 'invoice_paid',
  claimUpdated: 'claim_updated',
  patientErased: 'patient_erased',
  receiptIssued: 'receipt_issued',
  creditNoteIssued: 'credit_note_issued',
  sessionClosed: 'session_closed',
  stockLow: 'stock_low',
  orderStatusChanged: 'order_status_changed',
  customerCreated: 'customer_created',
  appointmentStartingSoon: 'appointment_starting_soon',
} as const;

/** Hidden triggers that fill dynamic dropdowns. */
export const DROPDOWN = {
  branches: 'branch_list',
} as const;

/** `dynamic` reference of a dropdown: `<trigger>.<value field>.<label field>`. */
export const dynamicRef = (
  key: (typeof DROPDOWN)[keyof typeof DROPDOWN],
  value = 'id',
  label = 'label',
): string => `${key}.${value}.${label}`;
