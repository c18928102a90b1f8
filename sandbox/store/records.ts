/**
 * The stored records, each declared once as a template of its members in stored order with their defaults; a
 * builder lays the members a caller names (undefined ones keep the default) over it.
 */
import type SEED from '../data/seed.json';

const builder =
  <T extends object>(template: T) =>
  (given: Partial<T>): T => ({
    // A copy: no two records share a default list.
    ...structuredClone(template),
    ...Object.fromEntries(Object.entries(given).filter(([, v]) => v !== undefined)),
  });

const CLIENT = {
  id: 0,
  tenantId: 0,
  api: 'clinic' as 'clinic' | 'cashier',
  /** The name tests and the README use for its token (e.g. clinicOwner). */
  key: '',
  name: '',
  token: '',
  abilities: [] as string[],
  /** Created by the account owner: the clinic's webhooks endpoints are theirs only. */
  owner: false,
  /** The token alone was revoked (401 token_invalid). */
  tokenRevoked: false,
  /** The whole client was revoked (409 client_revoked). */
  clientRevoked: false,
  /** The cashier's order records name the client that sent them. */
  provider: 'partner',
  note: '',
};
export type ApiClientRecord = typeof CLIENT;
const client = builder(CLIENT);

/** An API client, its token named after its key unless given (clinicOwner: sbx_clinic_owner). */
export const newClient = (id: number, c: Partial<ApiClientRecord> & { key: string; abilities: string[] }) =>
  client({
    ...c,
    id,
    token: c.token ?? `sbx_${c.key.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`)}`,
    abilities: [...c.abilities],
  });

const PATIENT = {
  id: '',
  file_no: '',
  name_ar: '',
  name_en: '',
  /** A file opened from a booking by phone knows only the name and phone: the rest is null. */
  sex: null as 'male' | 'female' | null,
  birth_date: null as string | null,
  nationality: null as string | null,
  national_id_type: null as 'national_id' | 'iqama' | 'passport' | 'border' | 'gcc' | null,
  national_id_last4: null as string | null,
  phone: null as string | null,
  email: null as string | null,
  /** Contact fields travel only with the patient's consent (clinic spec §2). */
  contact_consent: false,
  branch_id: 0,
  payer_id: null as number | null,
  created_at: '',
  updated_at: '',
  erased_at: null as string | null,
};
export type Patient = typeof PATIENT;
export const newPatient = builder(PATIENT);

export type AppointmentStatus =
  'booked' | 'confirmed' | 'arrived' | 'in_progress' | 'completed' | 'cancelled' | 'no_show';

const APPOINTMENT = {
  id: '',
  patient_id: '',
  branch_id: 0,
  practitioner_id: '',
  appointment_type_id: 0,
  room_id: 0,
  status: 'booked' as AppointmentStatus,
  starts_at: '',
  ends_at: '',
  source: '',
  external_ref: null as string | null,
  note: null as string | null,
  cancel_reason: null as string | null,
  cancelled_at: null as string | null,
  created_at: '',
  updated_at: '',
  /** The API client that booked it: external_ref is unique per client. */
  client_id: null as number | null,
  /** The last appointment.updated: its `changes` and when, for the recent list. */
  last_changes: null as Record<string, [unknown, unknown]> | null,
  last_changed_at: null as string | null,
};
export type Appointment = typeof APPOINTMENT;
export const newAppointment = builder(APPOINTMENT);

const CUSTOMER = {
  id: 0,
  name: null as string | null,
  phone: null as string | null,
  email: null as string | null,
  address: null as string | null,
  vat_number: null as string | null,
  cr_number: null as string | null,
  /** The consent ledger, oldest first; the latest entry decides. */
  consents: [] as Array<{ granted: boolean; channels: string[]; at: string }>,
  erased: false,
  created_at: '',
  updated_at: '',
};
export type Customer = typeof CUSTOMER;
export const newCustomer = builder(CUSTOMER);

const STOCK_LEVEL = { branch_id: 0, variant_id: 0, qty: 0, reorder_point: 5, par_level: 20, updated_at: '' };
export type StockLevel = typeof STOCK_LEVEL;
export const newStockLevel = builder(STOCK_LEVEL);

/** A line of `qty` at `unit`: of a catalogue variant (with its PLU), or an open item (`variantId` null). */
export const orderLine = (
  lineNo: number,
  variantId: number | null,
  name: string,
  qty: number,
  unit: number,
) => ({
  line_no: lineNo,
  variant_id: variantId,
  plu: variantId === null ? null : `V${variantId}`,
  name,
  qty: String(qty),
  unit_price_halalas: unit,
  total_halalas: Math.round(qty * unit),
  open_item: variantId === null,
});
export type OrderLine = ReturnType<typeof orderLine>;

export type OrderStatus = 'received' | 'accepted' | 'rejected' | 'completed' | 'cancelled';

const ORDER = {
  id: '',
  external_id: '',
  provider: '',
  client_id: 0,
  branch_id: 0,
  order_type: null as string | null,
  prepaid: false,
  customer: null as { name: string | null; phone: string | null } | null,
  status: 'received' as OrderStatus,
  lines: [] as OrderLine[],
  total_halalas: 0,
  receipt_id: null as string | null,
  refund_decision: null as 'pending' | null,
  created_at: '',
  updated_at: '',
};
export type Order = typeof ORDER;
export const newOrder = builder(ORDER);

const SUBSCRIPTION = {
  id: 0,
  api: 'clinic' as 'clinic' | 'cashier',
  tenantId: 0,
  clientId: 0,
  /** The subscribed events; ['*'] for all. */
  events: [] as string[],
  target_url: '',
  description: null as string | null,
  status: 'active' as 'active' | 'disabled',
  disabled_reason: null as 'gone' | 'failures' | 'client' | null,
  consecutive_failures: 0,
  secret: '',
  created_at: '',
  updated_at: '',
};
export type Subscription = typeof SUBSCRIPTION;
export const newSubscription = builder(SUBSCRIPTION);

export type DeliveryStatus = 'pending' | 'sent' | 'failed' | 'dead';

const DELIVERY = {
  id: 0,
  api: 'clinic' as 'clinic' | 'cashier',
  tenantId: 0,
  subscription_id: 0,
  event: '',
  event_id: '',
  status: 'pending' as DeliveryStatus,
  attempts: 0,
  last_http: null as number | null,
  last_error_code: null as string | null,
  duration_ms: null as number | null,
  delivered_at: null as string | null,
  payload_redacted: false,
  created_at: '',
  next_attempt_at: null as string | null,
  /** The raw body as sent; null once redacted. */
  body: null as string | null,
  /** Patient ids the body concerns, so an erasure can redact it. */
  subjects: [] as string[],
  log: [] as Array<{
    attempt: number;
    at: string;
    target_url: string;
    timestamp: string;
    http: number | null;
    error_code: string | null;
    duration_ms: number;
  }>,
};
export type Delivery = typeof DELIVERY;
export const newDelivery = builder(DELIVERY);

/* Catalogue items have no template: the seed and item writes give every member. */
type CatalogueRow = (typeof SEED)['cashier']['catalogue'][number];
export type Variant = Omit<CatalogueRow['variants'][number], 'sku' | 'barcode'> & {
  sku: string | null;
  barcode: string | null;
  is_default: boolean;
};
export type Item = Omit<CatalogueRow, 'name_en' | 'variants'> & {
  name_en: string | null;
  default_price_halalas: number;
  variants: Variant[];
  combo_slots: Array<{ id: number; [field: string]: unknown }>;
  created_at: string;
  updated_at: string;
};
