/** The records the sandbox keeps in memory, one store per running sandbox. */
import SEED from '../data/seed.json';
import type { buildReceipt, newClaim, newInvoice, newSession } from './money';
import type { Appointment, Customer, Item, Order, Patient, StockLevel } from './records';

export type * from './records';

export type Api = 'clinic' | 'cashier';

/* Reference data: the types of data/seed.json's rows, narrowed where a member takes a few values. */
type Seed = typeof SEED;
type Counts = Record<string, number>;

/** `entitled`: whether the plan includes the partner interface. */
export type Tenant = Omit<Seed['tenants'][number], 'api' | 'status'> & {
  api: Api;
  status: 'active' | 'suspended' | 'closed';
};
/** `field`: booking without a practitioner picks a free one of this field. */
export type AppointmentType = Omit<Seed['clinic']['appointmentTypes'][number], 'field'> & {
  field: 'dental' | 'dermatology';
};

/* Invoices, claims, receipts and till sessions are what money.ts's builders make. */
export type Invoice = ReturnType<typeof newInvoice>;
export type Receipt = ReturnType<typeof buildReceipt>;
export type TillSession = ReturnType<typeof newSession>;

export type Claim = ReturnType<typeof newClaim>;

/** The clinic's data as every sandbox starts it: reference data and counters from data/seed.json, no business. */
export const newClinicData = (
  tenantId: number,
  practitioners: Array<{ id: string } & Seed['clinic']['practitioners'][number]>,
) => ({
  tenantId,
  branches: structuredClone(SEED.clinic.branches),
  practitioners,
  appointmentTypes: structuredClone(SEED.clinic.appointmentTypes) as AppointmentType[],
  rooms: structuredClone(SEED.clinic.rooms),
  payers: structuredClone(SEED.clinic.payers),
  patients: [] as Patient[],
  appointments: [] as Appointment[],
  invoices: [] as Invoice[],
  claims: [] as Claim[],
  counters: structuredClone(SEED.clinic.counters) as { fileNo: Counts; invoiceNo: Counts },
});
export type ClinicData = ReturnType<typeof newClinicData>;

/** The café chain's data as every sandbox starts it: reference data and counters from data/seed.json, no business. */
export const newCashierData = (tenantId: number) => ({
  tenantId,
  branches: structuredClone(SEED.cashier.branches),
  categories: structuredClone(SEED.cashier.categories),
  items: [] as Item[],
  receipts: [] as Receipt[],
  sessions: [] as TillSession[],
  stock: [] as StockLevel[],
  customers: [] as Customer[],
  orders: [] as Order[],
  counters: structuredClone(SEED.cashier.counters) as Omit<Seed['cashier']['counters'], 'receiptNo'> & {
    receiptNo: Counts;
  },
});
export type CashierData = ReturnType<typeof newCashierData>;
