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
  // appointment.updated whose status became confirmed, arrived, completed or no_show (CONTRACT §8)
  appointmentConfirmed: 'appointment_confirmed',
  patientArrived: 'patient_arrived',
  appointmentCompleted: 'appointment_completed',
  appointmentNoShow: 'appointment_no_show',
  // appointment.updated whose start time moved (CONTRACT §8)
  appointmentRescheduled: 'appointment_rescheduled',
} as const;

export const CREATE = {
  bookAppointment: 'book_appointment',
  cancelAppointment: 'cancel_appointment',
  createOrder: 'create_order',
  cancelOrder: 'cancel_order',
  createItem: 'create_item',
  updateItem: 'update_item',
} as const;

export const SEARCH = {
  findPatient: 'find_patient',
  findAppointment: 'find_appointment',
  findInvoice: 'find_invoice',
  findItem: 'find_item',
  findOrder: 'find_order',
  findReceipt: 'find_receipt',
  findStockLevel: 'find_stock_level',
  findZReport: 'find_z_report',
} as const;

/** Hidden triggers that fill dynamic dropdowns. */
export const DROPDOWN = {
  branches: 'branch_list',
  categories: 'category_list',
  items: 'item_list',
  variants: 'variant_list',
  patients: 'patient_list',
  upcomingAppointments: 'upcoming_appointment_list',
  clinicBranches: 'clinic_branch_list',
  practitioners: 'practitioner_list',
  appointmentTypes: 'appointment_type_list',
  invoices: 'invoice_list',
  // The cashier interface lists none of these: their dropdowns stay empty (lib/dropdowns.ts).
  orders: 'order_list',
  receipts: 'receipt_list',
  tillSessions: 'till_session_list',
} as const;

type DropdownKey = (typeof DROPDOWN)[keyof typeof DROPDOWN];
type SearchKey = (typeof SEARCH)[keyof typeof SEARCH];

/**
 * The field `meta` member under which a `choices.perform` dropdown declares the inputs it reads, space-separated:
 * the serialized definition keeps no trace of what a function reads, and the offline checks (APP-CHOICES-DEPENDS)
 * need to see it.
 */
export const CHOICES_READ = 'choices_read';

/** `dynamic` reference of a dropdown: `<trigger>.<value field>.<label field>`. */
export const dynamicRef = (key: DropdownKey, value = 'id', label = 'label'): string =>
  `${key}.${value}.${label}`;

/** `search` reference of a search-connected field: `<search>.<result field>`. */
export const searchRef = (key: SearchKey, field = 'id'): string => `${key}.${field}`;
