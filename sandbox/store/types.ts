/** The records the sandbox keeps in memory, one store per running sandbox. */

import type { buildReceipt, newInvoice, newSession } from './money';

export type Api = 'clinic' | 'cashier';

/* Reference data: the types of data/seed.json's rows, narrowed where a member takes a few values. */

type Seed = typeof import('../data/seed.json');

/** `entitled`: whether the plan includes the partner interface. */
export type Tenant = Omit<Seed['tenants'][number], 'api' | 'status'> & {
  api: Api;
  status: 'active' | 'suspended' | 'closed';
};
export type ClinicBranch = Seed['clinic']['branches'][number];
export type Practitioner = { id: string } & Seed['clinic']['practitioners'][number];
/** `field`: booking without a practitioner picks a free one of this field. */
export type AppointmentType = Omit<Seed['clinic']['appointmentTypes'][number], 'field'> & {
  field: 'dental' | 'dermatology';
};
export type Room = Seed['clinic']['rooms'][number];
export type Payer = Seed['clinic']['payers'][number];
export type CashierBranch = Seed['cashier']['branches'][number];
export type Category = Seed['cashier']['categories'][number];
/** `markup_percent`: percent added to catalogue prices, rounded to 50 halalas. */
export type PriceList = Seed['cashier']['priceLists'][number];

export interface ApiClientRecord {
  id: number;
  tenantId: number;
  api: Api;
  /** The name tests and the README use for its token (e.g. clinicOwner). */
  key: string;
  name: string;
  token: string;
  abilities: string[];
  /** Created by the account owner: the clinic's webhooks endpoints are theirs only. */
  owner: boolean;
  /** The token alone was revoked (401 token_invalid). */
  tokenRevoked: boolean;
  /** The whole client was revoked (409 client_revoked). */
  clientRevoked: boolean;
  /** The cashier's order records name the client that sent them. */
  provider: string;
  note: string;
}

/* Clinic */

/* Invoices, receipts and till sessions are what money.ts's builders make. */
export type Invoice = ReturnType<typeof newInvoice>;
export type InvoiceLine = Invoice['lines'][number];
export type { InvoicePayment } from './money';
export type Receipt = ReturnType<typeof buildReceipt>;
export type ReceiptLine = Receipt['lines'][number];
export type ReceiptPayment = Receipt['payments'][number];
export type TillSession = ReturnType<typeof newSession>;

export interface Patient {
  id: string;
  file_no: string;
  name_ar: string;
  name_en: string;
  /** A file opened from a booking by phone knows only the name and phone: the rest is null. */
  sex: 'male' | 'female' | null;
  birth_date: string | null;
  nationality: string | null;
  national_id_type: 'national_id' | 'iqama' | 'passport' | 'border' | 'gcc' | null;
  national_id_last4: string | null;
  phone: string | null;
  email: string | null;
  /** Contact fields travel only with the patient's consent (clinic spec §2). */
  contact_consent: boolean;
  branch_id: number;
  payer_id: number | null;
  created_at: string;
  updated_at: string;
  erased_at: string | null;
}

export type AppointmentStatus =
  'booked' | 'confirmed' | 'arrived' | 'in_progress' | 'completed' | 'cancelled' | 'no_show';

export interface Appointment {
  id: string;
  patient_id: string;
  branch_id: number;
  practitioner_id: string;
  appointment_type_id: number;
  room_id: number;
  status: AppointmentStatus;
  starts_at: string;
  ends_at: string;
  source: string;
  external_ref: string | null;
  note: string | null;
  cancel_reason: string | null;
  cancelled_at: string | null;
  created_at: string;
  updated_at: string;
  /** The API client that booked it: external_ref is unique per client. */
  client_id: number | null;
  /** The last appointment.updated: its `changes` and when, for the recent list. */
  last_changes: Record<string, [unknown, unknown]> | null;
  last_changed_at: string | null;
}

export interface Claim {
  id: string;
  invoice_id: string;
  patient_id: string;
  payer_id: number;
  status: string;
  previous_status: string | null;
  outcome: 'approved' | 'partial' | 'rejected' | 'pending';
  claimed_halalas: number;
  approved_halalas: number;
  patient_share_halalas: number;
  claims_exchange_ref: string;
  updated_at: string;
}

export interface ClinicData {
  tenantId: number;
  branches: ClinicBranch[];
  practitioners: Practitioner[];
  appointmentTypes: AppointmentType[];
  rooms: Room[];
  payers: Payer[];
  patients: Patient[];
  appointments: Appointment[];
  invoices: Invoice[];
  claims: Claim[];
  counters: { fileNo: Record<number, number>; invoiceNo: Record<number, number> };
}

/* Cashier */

export interface Variant {
  id: number;
  name_ar: string;
  sku: string | null;
  barcode: string | null;
  price_halalas: number;
  is_default: boolean;
}

export interface ComboSlot {
  id: number;
  [field: string]: unknown;
}

export interface Item {
  id: number;
  name_ar: string;
  name_en: string | null;
  category_id: number;
  default_price_halalas: number;
  variants: Variant[];
  modifier_group_ids: number[];
  combo_slots: ComboSlot[];
  created_at: string;
  updated_at: string;
}

export interface StockLevel {
  branch_id: number;
  variant_id: number;
  qty: number;
  reorder_point: number;
  par_level: number;
  updated_at: string;
}

export interface ConsentEntry {
  granted: boolean;
  channels: string[];
  at: string;
}

export interface Customer {
  id: number;
  name: string | null;
  phone: string | null;
  email: string | null;
  address: string | null;
  vat_number: string | null;
  cr_number: string | null;
  /** The consent ledger, oldest first; the latest entry decides. */
  consents: ConsentEntry[];
  erased: boolean;
  created_at: string;
  updated_at: string;
}

export type OrderStatus = 'received' | 'accepted' | 'rejected' | 'completed' | 'cancelled';

export interface OrderLine {
  line_no: number;
  variant_id: number | null;
  plu: string | null;
  name: string;
  qty: string;
  unit_price_halalas: number;
  total_halalas: number;
  open_item: boolean;
}

export interface Order {
  id: string;
  external_id: string;
  provider: string;
  client_id: number;
  branch_id: number;
  order_type: string | null;
  prepaid: boolean;
  customer: { name: string | null; phone: string | null } | null;
  status: OrderStatus;
  lines: OrderLine[];
  total_halalas: number;
  receipt_id: string | null;
  refund_decision: 'pending' | null;
  created_at: string;
  updated_at: string;
}

export interface CashierData {
  tenantId: number;
  branches: CashierBranch[];
  categories: Category[];
  items: Item[];
  priceLists: PriceList[];
  receipts: Receipt[];
  sessions: TillSession[];
  stock: StockLevel[];
  customers: Customer[];
  orders: Order[];
  counters: {
    item: number;
    variant: number;
    comboSlot: number;
    customer: number;
    receiptSeq: number;
    receiptNo: Record<string, number>;
  };
}

/* Webhooks */

export interface Subscription {
  id: number;
  api: Api;
  tenantId: number;
  clientId: number;
  /** The subscribed events; ['*'] for all. */
  events: string[];
  target_url: string;
  description: string | null;
  status: 'active' | 'disabled';
  disabled_reason: 'gone' | 'failures' | 'client' | null;
  consecutive_failures: number;
  secret: string;
  created_at: string;
  updated_at: string;
}

export type DeliveryStatus = 'pending' | 'sent' | 'failed' | 'dead';

export interface Attempt {
  attempt: number;
  at: string;
  target_url: string;
  timestamp: string;
  http: number | null;
  error_code: string | null;
  duration_ms: number;
}

export interface Delivery {
  id: number;
  api: Api;
  tenantId: number;
  subscription_id: number;
  event: string;
  event_id: string;
  status: DeliveryStatus;
  attempts: number;
  last_http: number | null;
  last_error_code: string | null;
  duration_ms: number | null;
  delivered_at: string | null;
  payload_redacted: boolean;
  created_at: string;
  next_attempt_at: string | null;
  /** The raw body as sent; null once redacted. */
  body: string | null;
  /** Patient ids the body concerns, so an erasure can redact it. */
  subjects: string[];
  log: Attempt[];
}
