/**
 * The event catalogues of both interfaces: who may receive each event, and its static sample (the sample a
 * client sees for an account with no data yet). Samples are delivery envelopes; invoice samples carry the line
 * fields code, description, tooth and surfaces, as the clinic spec's samples do (§6).
 */
import type { Api } from './store/types';

export interface EventInfo {
  api: Api;
  /** The ability a client needs to receive the event (null: ping, sent by the test endpoint to anyone). */
  ability: string | null;
  sample: Record<string, unknown>;
}

const SAMPLE_AT = '2026-11-21T14:05:12+03:00';

const appointment = {
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
  note: 'أول زيارة - فحص أسنان',
  cancel_reason: null,
  cancelled_at: null,
  created_at: '2026-11-21T14:05:11+03:00',
  updated_at: '2026-11-21T14:05:11+03:00',
};

const invoice = {
  id: '01JDA5N2P8R4S6T8V0W2X4Y6Z8',
  number: 'INV-RYD-2026-018342',
  kind: 'simplified',
  status: 'issued',
  patient_id: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
  branch_id: 1,
  buyer_kind: 'resident',
  currency: 'SAR',
  issued_at: '2026-11-21T11:20:45+03:00',
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
      code: 'D2391',
      description: 'Resin-based composite - one surface, posterior',
      tooth: '36',
      surfaces: ['O'],
    },
  ],
  payments: [] as Array<Record<string, unknown>>,
};

const receipt = {
  id: '01JDAB1C2D3E4F5G6H7J8K9M0N',
  number: 'JED-02-000731',
  kind: 'simplified',
  refund_of: null,
  branch_id: 2,
  register_id: 5,
  session_id: '01JDA9Z8Y7X6W5V4T3S2R1Q0P9',
  issued_at: '2026-11-21T19:44:03+03:00',
  business_date: '2026-11-21',
  currency: 'SAR',
  subtotal_halalas: 3043,
  tax_halalas: 457,
  total_halalas: 3500,
  amount_due_halalas: 0,
  prepaid_applied: null,
  lines: [
    {
      line_no: 1,
      variant_id: 118,
      name: 'قهوة عربية - كبير',
      qty: '2',
      unit_price_halalas: 1200,
      total_halalas: 2400,
    },
    {
      line_no: 2,
      variant_id: 241,
      name: 'كعكة التمر',
      qty: '1',
      unit_price_halalas: 1100,
      total_halalas: 1100,
    },
  ],
  payments: [{ tender: 'card', amount_halalas: 3500, scheme: 'mada', last4: '4417' }],
};

const envelope = (event: string, data: Record<string, unknown>) => ({
  id: `${event}:sample`,
  event,
  tenant_id: 0,
  occurred_at: SAMPLE_AT,
  api_version: 'v1',
  data,
});

export const CLINIC_EVENTS: Record<string, EventInfo> = {
  'appointment.created': {
    api: 'clinic',
    ability: 'appointments:read',
    sample: envelope('appointment.created', appointment),
  },
  'appointment.updated': {
    api: 'clinic',
    ability: 'appointments:read',
    sample: envelope('appointment.updated', {
      ...appointment,
      status: 'confirmed',
      updated_at: '2026-11-22T09:15:40+03:00',
      changes: { status: ['booked', 'confirmed'] },
    }),
  },
  'appointment.cancelled': {
    api: 'clinic',
    ability: 'appointments:read',
    sample: envelope('appointment.cancelled', {
      ...appointment,
      status: 'cancelled',
      cancel_reason: 'patient_request',
      cancelled_at: '2026-11-23T18:02:09+03:00',
      updated_at: '2026-11-23T18:02:09+03:00',
    }),
  },
  'invoice.issued': { api: 'clinic', ability: 'invoices:read', sample: envelope('invoice.issued', invoice) },
  'invoice.paid': {
    api: 'clinic',
    ability: 'invoices:read',
    sample: envelope('invoice.paid', {
      ...invoice,
      status: 'paid',
      paid_at: '2026-11-21T11:24:10+03:00',
      paid_halalas: 46000,
      due_halalas: 0,
      payments: [{ method: 'card', scheme: 'mada', last4: '4417', amount_halalas: 46000 }],
    }),
  },
  'claim.updated': {
    api: 'clinic',
    ability: 'invoices:read',
    sample: envelope('claim.updated', {
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
    }),
  },
  'patient.erased': {
    api: 'clinic',
    ability: 'patients:read',
    sample: envelope('patient.erased', {
      id: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
      erased_at: '2026-11-21T12:00:00+03:00',
    }),
  },
  ping: {
    api: 'clinic',
    ability: null,
    sample: envelope('ping', { subscription_id: 1, message: 'Test delivery from the partner interface.' }),
  },
};

/** Who receives cashier events is not shown: pos:read for all but order.status_changed (pos:orders). */
export const CASHIER_EVENTS: Record<string, EventInfo> = {
  'receipt.issued': { api: 'cashier', ability: 'pos:read', sample: envelope('receipt.issued', receipt) },
  'credit_note.issued': {
    api: 'cashier',
    ability: 'pos:read',
    sample: envelope('credit_note.issued', {
      ...receipt,
      id: '01JDABX2Y3Z4A5B6C7D8E9F0G1',
      number: 'JED-02-CN-000042',
      kind: 'credit_note',
      refund_of: receipt.id,
      subtotal_halalas: 957,
      tax_halalas: 143,
      total_halalas: 1100,
      lines: [receipt.lines[1]],
      payments: [{ tender: 'card', amount_halalas: 1100, scheme: 'mada', last4: '4417' }],
    }),
  },
  'session.closed': {
    api: 'cashier',
    ability: 'pos:read',
    sample: envelope('session.closed', {
      id: '01JDA9Z8Y7X6W5V4T3S2R1Q0P9',
      branch_id: 2,
      register_id: 5,
      status: 'closed',
      business_date: '2026-11-21',
      opened_at: '2026-11-21T06:58:12+03:00',
      closed_at: '2026-11-21T23:41:37+03:00',
      receipts: 184,
      total_halalas: 1284550,
      net_sales_halalas: 1117000,
      variance_halalas: -250,
      z_report: {
        sales: { count: 184, total_halalas: 1284550, tax_halalas: 167550 },
        refunds: { count: 0, total_halalas: 0 },
        tenders: [
          { tender: 'card', amount_halalas: 922250 },
          { tender: 'cash', amount_halalas: 362300 },
        ],
        prepayments_applied: { count: 3, total_halalas: 15000 },
      },
    }),
  },
  'stock.low': {
    api: 'cashier',
    ability: 'pos:read',
    sample: envelope('stock.low', {
      branch_id: 1,
      variant_id: 118,
      item_id: 311,
      sku: 'COF-AR-L',
      name_ar: 'قهوة عربية - كبير',
      qty: '4',
      reorder_point: '10',
      suggested_qty: '30',
      updated_at: '2026-11-21T16:12:00+03:00',
    }),
  },
  'order.status_changed': {
    api: 'cashier',
    ability: 'pos:orders',
    sample: envelope('order.status_changed', {
      from: 'received',
      to: 'accepted',
      id: '01JDAD4E5F6G7H8J9K0M1N2P3Q',
      external_id: 'SHOP-100482',
      provider: 'zapier',
      status: 'accepted',
      total_halalas: 8650,
    }),
  },
  'customer.created': {
    api: 'cashier',
    ability: 'pos:read',
    sample: envelope('customer.created', {
      id: 5521,
      marketing_consent: true,
      name: 'خالد الغامدي',
      phone: '+966555012345',
      email: 'khalid.g@example.com',
      vat_number: null,
    }),
  },
};

export const catalogueOf = (api: Api): Record<string, EventInfo> =>
  api === 'clinic' ? CLINIC_EVENTS : CASHIER_EVENTS;

/** Events a client can subscribe to (ping is sent by the test endpoint only). */
export const subscribableEvents = (api: Api): string[] =>
  Object.keys(catalogueOf(api)).filter((e) => e !== 'ping');

/** A sample with this account's tenant id. */
export const sampleFor = (api: Api, event: string, tenantId: number): Record<string, unknown> | null => {
  const info = catalogueOf(api)[event];
  return info ? { ...info.sample, tenant_id: tenantId } : null;
};
