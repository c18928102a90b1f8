/** The cashier's objects as the interface shows them (cashier spec §3): one view per object, nothing else. */
import type { CashierData, Customer, Item, Order, Receipt, StockLevel, TillSession } from './store/types';
import { omit } from './ids';
import { matchVariant, tendersOf, variantName } from './store/money';

export const CONSENT_CHANNELS = ['sms', 'email', 'whatsapp', 'push'] as const;

export const branch = (b: CashierData['branches'][number]) => ({
  ...omit(b, 'code', 'registers'),
  register_ids: [...b.registers],
});

export const category = (c: CashierData['categories'][number]) => ({ ...c });

export const item = (i: Item) => ({
  ...structuredClone(i),
  variants: i.variants.map((v) => ({ id: v.id, plu: `V${v.id}`, ...omit(v, 'id') })),
});

export const consentOf = (c: Customer) =>
  c.erased || !c.consents.at(-1)?.granted ? undefined : c.consents.at(-1);

/** Name, phone, email and address only while marketing consent is granted; VAT and CR numbers always. */
export const customer = (c: Customer) => {
  const consent = !!consentOf(c);
  const hidden = consent ? {} : { name: null, phone: null, email: null, address: null };
  return { id: c.id, marketing_consent: consent, ...omit(c, 'id', 'consents', 'erased'), ...hidden };
};

/** customer.created carries the spec's fields only (cashier spec §6). */
export const customerEvent = (c: Customer) =>
  omit(customer(c), 'address', 'cr_number', 'created_at', 'updated_at');

export const receipt = (r: Receipt) => structuredClone(omit(r, 'seq', 'arrived_at_ms'));

const sum = (rows: Receipt[], of: (r: Receipt) => number) => rows.reduce((n, r) => n + of(r), 0);

/** A session with its receipts' figures as session.closed carries it; `drawer` adds what the Z-report shows. */
export const session = (cashier: CashierData, s: TillSession, drawer = false) => {
  const own = cashier.receipts.filter((r) => r.session_id === s.id);
  const sales = own.filter((r) => r.kind !== 'credit_note');
  const refunds = own.filter((r) => r.kind === 'credit_note');
  const prepaid = sales.filter((r) => r.prepaid_applied);
  const tenders = tendersOf(own);
  const salesTotal = sum(sales, (r) => r.total_halalas);
  const salesTax = sum(sales, (r) => r.tax_halalas);
  const total = salesTotal - sum(refunds, (r) => r.total_halalas);
  const card = tenders.get('card') ?? 0;
  const expectedCash = s.opening_float_halalas + (tenders.get('cash') ?? 0);
  const counted = s.counted_cash_halalas;
  const zReport = {
    sales: { count: sales.length, total_halalas: salesTotal, tax_halalas: salesTax },
    refunds: { count: refunds.length, total_halalas: salesTotal - total },
    tenders: [...tenders].map(([tender, amount]) => ({ tender, amount_halalas: amount })),
    prepayments_applied: {
      count: prepaid.length,
      total_halalas: sum(prepaid, (r) => r.prepaid_applied?.amount_halalas ?? 0),
    },
  };
  return {
    ...omit(s, 'opening_float_halalas', 'counted_cash_halalas'),
    receipts: sales.length,
    total_halalas: total,
    net_sales_halalas: total - salesTax + sum(refunds, (r) => r.tax_halalas),
    variance_halalas: counted === null ? 0 : counted - expectedCash,
    z_report: drawer || s.status === 'closed' ? zReport : null,
    ...(drawer && {
      expected: { cash_halalas: expectedCash, card_halalas: card },
      counted: { cash_halalas: counted, card_halalas: card },
    }),
  };
};

/** Stock levels as decimal strings; suggested_qty brings a low level back to its par level. */
export const stock = (cashier: CashierData, s: StockLevel) => {
  const found = matchVariant(cashier, { variantId: s.variant_id });
  const low = s.qty <= s.reorder_point;
  return {
    branch_id: s.branch_id,
    variant_id: s.variant_id,
    item_id: found?.item.id ?? null,
    sku: found?.variant.sku ?? null,
    name_ar: found ? variantName(found.item, found.variant) : null,
    qty: String(s.qty),
    reorder_point: String(s.reorder_point),
    suggested_qty: String(low ? Math.max(0, s.par_level - s.qty) : 0),
    updated_at: s.updated_at,
  };
};

export const order = (o: Order) => structuredClone(omit(o, 'client_id'));
