/** The money both interfaces share: VAT, invoices, receipts, and the per-branch numbering of files and bills. */
import { dateLocal, isoLocal, type Random } from '../ids';
import type { Item } from './records';

/* types.ts reads its invoice, receipt and session types off the builders below: the data they take is a shape. */
type Numbered<C> = { branches: ReadonlyArray<{ id: number; code: string }>; counters: C };
type ClinicNumbers = Numbered<{ fileNo: Record<number, number>; invoiceNo: Record<number, number> }>;
type CashierNumbers = Numbered<{ receiptSeq: number; receiptNo: Record<string, number> }>;
type Till = CashierNumbers & { items: Item[] };

const VAT_RATE = 0.15;

export interface LineInput {
  nature: 'medical' | 'cosmetic' | 'product' | 'package' | 'fee';
  qty: number;
  unit_halalas: number;
  tax_category: 'standard' | 'exempt' | 'zero' | 'state_borne';
  /** Kept for deliveries and samples only (clinic spec §6); the interface's own answers never show them. */
  code: string;
  description: string;
  tooth: string | null;
  surfaces: string[];
}

const sum = <T>(rows: readonly T[], of: (row: T) => number) => rows.reduce((n, row) => n + of(row), 0);
const sixDigits = (n: number) => String(n).padStart(6, '0');

/** The next number of a counter (a branch's files, invoices, receipts…). */
const next = (counter: Record<string, number>, key: string | number) =>
  (counter[key] = (counter[key] ?? 0) + 1);

const codeOf = (owner: Numbered<unknown>, branchId: number, fallback: string) =>
  owner.branches.find((b) => b.id === branchId)?.code ?? fallback;

export const nextFileNo = (clinic: ClinicNumbers, branchId: number): string =>
  `${codeOf(clinic, branchId, 'CLN')}-${sixDigits(next(clinic.counters.fileNo, branchId))}`;

/**
 * An invoice issued at `at`, nothing paid yet (numbered next in its branch): net = qty × unit − discount (taken
 * from the first lines on), VAT 15 % on standard and state-borne lines.
 */
export const newInvoice = (
  clinic: ClinicNumbers,
  random: Random,
  at: number,
  input: {
    patient_id: string;
    branch_id: number;
    buyer_kind: 'citizen' | 'resident' | 'company' | 'payer';
    lines: LineInput[];
    discount: number;
    kind?: 'simplified' | 'standard';
  },
) => {
  let left = input.discount;
  const lines = input.lines.map((l, i) => {
    const cut = Math.min(left, l.qty * l.unit_halalas);
    left -= cut;
    const net = l.qty * l.unit_halalas - cut;
    const taxed = l.tax_category === 'standard' || l.tax_category === 'state_borne';
    const vat = taxed ? Math.round(net * VAT_RATE) : 0;
    const { nature, qty, unit_halalas, tax_category, ...kept } = l;
    const amounts = { net_halalas: net, vat_halalas: vat, total_halalas: net + vat };
    return { line_no: i + 1, nature, qty, unit_halalas, ...amounts, tax_category, ...kept };
  });
  const total = sum(lines, (l) => l.total_halalas);
  const id = random.ulid(at);
  const no = sixDigits(next(clinic.counters.invoiceNo, input.branch_id));
  return {
    id,
    number: `INV-${codeOf(clinic, input.branch_id, 'CLN')}-${dateLocal(at).slice(0, 4)}-${no}`,
    kind: input.kind ?? 'simplified',
    status: 'issued' as 'issued' | 'partially_paid' | 'paid' | 'void',
    patient_id: input.patient_id,
    branch_id: input.branch_id,
    buyer_kind: input.buyer_kind,
    currency: 'SAR' as const,
    issued_at: isoLocal(at),
    paid_at: null as string | null,
    subtotal_halalas: sum(input.lines, (l) => l.qty * l.unit_halalas),
    discount_halalas: input.discount - left,
    vat_halalas: sum(lines, (l) => l.vat_halalas),
    total_halalas: total,
    paid_halalas: 0,
    due_halalas: total,
    tax_breakdown: [...new Set(lines.map((l) => l.tax_category))].map((tax_category) => {
      const of = lines.filter((l) => l.tax_category === tax_category);
      return {
        tax_category,
        net_halalas: sum(of, (l) => l.net_halalas),
        vat_halalas: sum(of, (l) => l.vat_halalas),
      };
    }),
    lines,
    payments: [] as Array<{
      method: string;
      scheme: string | null;
      last4: string | null;
      amount_halalas: number;
    }>,
  };
};

type Invoice = ReturnType<typeof newInvoice>;

/** A payment against an invoice: paid and due move; paid in full, the invoice is paid at `at`. */
export const addPayment = (inv: Invoice, payment: Invoice['payments'][number], at: number): void => {
  inv.payments.push(payment);
  inv.paid_halalas += payment.amount_halalas;
  inv.due_halalas = inv.total_halalas - inv.paid_halalas;
  inv.status = inv.due_halalas === 0 ? 'paid' : 'partially_paid';
  if (inv.status === 'paid') inv.paid_at = isoLocal(at);
};

/** A claim sent at `at` to a payer for the whole of an invoice, not answered yet. */
export const newClaim = (random: Random, inv: Invoice, payerId: number, at: number) => ({
  id: random.ulid(at),
  invoice_id: inv.id,
  patient_id: inv.patient_id,
  payer_id: payerId,
  status: 'submitted',
  previous_status: null as string | null,
  outcome: 'pending' as 'approved' | 'partial' | 'rejected' | 'pending',
  claimed_halalas: inv.total_halalas,
  approved_halalas: 0,
  patient_share_halalas: 0,
  // The claims exchange's reference, e.g. CX-2026-11-0421337.
  claims_exchange_ref: `CX-${dateLocal(at).slice(0, 7)}-${String(random.int(10_000_000)).padStart(7, '0')}`,
  updated_at: isoLocal(at),
});

/** A till session of `register` opened at `opened`, closed at `closed` (null: still open), drawer not counted. */
export const newSession = (
  random: Random,
  branchId: number,
  register: number,
  opened: number,
  closed: number | null,
) => ({
  id: random.ulid(opened),
  branch_id: branchId,
  register_id: register,
  status: (closed === null ? 'open' : 'closed') as 'open' | 'closed',
  business_date: dateLocal(opened),
  opened_at: isoLocal(opened),
  closed_at: closed === null ? null : isoLocal(closed),
  opening_float_halalas: 50_000,
  counted_cash_halalas: null as number | null,
});
type TillSession = ReturnType<typeof newSession>;

/** VAT-inclusive prices: tax = total × 15/115. */
export const buildReceipt = (
  cashier: CashierNumbers,
  random: Random,
  input: {
    session: TillSession;
    /** As a till rings them up: a receipt's or an order's lines (qty as text or number) will do. */
    lines: Array<{
      variant_id: number | null;
      name: string;
      qty: number | string;
      unit_price_halalas: number;
    }>;
    tender?: string;
    issuedAt: number;
    arrivedAt: number;
    kind?: 'simplified' | 'standard' | 'credit_note';
    refundOf?: string | null;
    prepaid?: { order_id: string; amount_halalas: number } | null;
  },
) => {
  const code = codeOf(cashier, input.session.branch_id, 'POS');
  const kind = input.kind ?? 'simplified';
  const series = kind === 'credit_note' ? `${code}-CN` : code;
  const lines = input.lines.map((l, i) => ({
    line_no: i + 1,
    variant_id: l.variant_id,
    name: l.name,
    qty: String(l.qty),
    unit_price_halalas: l.unit_price_halalas,
    total_halalas: Math.round(Number(l.qty) * l.unit_price_halalas),
  }));
  const total = sum(lines, (l) => l.total_halalas);
  const tax = Math.round((total * VAT_RATE) / (1 + VAT_RATE));
  const tender = input.tender ?? 'card';
  const card = tender === 'card';
  // Drawn before the id, in this order: the seeded ids depend on it.
  const scheme = input.prepaid || !card ? null : random.pick(['mada', 'visa', 'mastercard']);
  const last4 = input.prepaid || !card ? null : String(1000 + random.int(9000));
  cashier.counters.receiptSeq += 1;
  return {
    id: random.ulid(input.issuedAt),
    number: `${series}-${sixDigits(next(cashier.counters.receiptNo, series))}`,
    kind,
    refund_of: input.refundOf ?? null,
    branch_id: input.session.branch_id,
    register_id: input.session.register_id,
    session_id: input.session.id,
    issued_at: isoLocal(input.issuedAt),
    business_date: dateLocal(input.issuedAt),
    currency: 'SAR' as const,
    subtotal_halalas: total - tax,
    tax_halalas: tax,
    total_halalas: total,
    amount_due_halalas: 0,
    prepaid_applied: input.prepaid ?? null,
    lines,
    payments: input.prepaid ? [] : [{ tender, amount_halalas: total, scheme, last4 }],
    /** Arrival order at the server (the cursor's order) and time (the hold-back's). */
    seq: cashier.counters.receiptSeq,
    arrived_at_ms: input.arrivedAt,
  };
};
type Receipt = ReturnType<typeof buildReceipt>;

/** The catalogue's variant with this id, PLU (`V` and its id), SKU or barcode, with its item. */
export const matchVariant = (
  cashier: { items: Item[] },
  by: { variantId?: number; plu?: string; sku?: string; barcode?: string },
) => {
  const pluId = by.plu && /^V\d+$/i.test(by.plu) ? Number(by.plu.slice(1)) : undefined;
  for (const item of cashier.items) {
    const variant = item.variants.find(
      (v) =>
        (by.variantId !== undefined && v.id === by.variantId) ||
        (pluId !== undefined && v.id === pluId) ||
        (by.sku !== undefined && v.sku === by.sku) ||
        (by.barcode !== undefined && v.barcode === by.barcode),
    );
    if (variant) return { item, variant };
  }
  return undefined;
};

export const variantName = (item: Item, v: { name_ar: string }) =>
  item.variants.length > 1 && v.name_ar !== item.name_ar ? `${item.name_ar} - ${v.name_ar}` : item.name_ar;

/** A line selling `qty` of a variant at its catalogue price, named as the till names it. */
export const saleLine = (cashier: Till, variantId: number, qty: number) => {
  const { item, variant } = matchVariant(cashier, { variantId })!;
  return {
    variant_id: variantId,
    name: variantName(item, variant),
    qty,
    unit_price_halalas: variant.price_halalas,
  };
};

/** A basket of [variant, qty] sold on `session` at `at`, synced two seconds later unless `arrivedAt` says. */
export const sellBasket = (
  cashier: Till,
  random: Random,
  session: TillSession,
  basket: Array<[number, number]>,
  at: number,
  tender?: string,
  arrivedAt = at + 2000,
) => {
  const lines = basket.map(([v, q]) => saleLine(cashier, v, q));
  return buildReceipt(cashier, random, { session, lines, tender, issuedAt: at, arrivedAt });
};

/** A credit note giving `line` of `receipt` back at `at`, in the sale's tender, synced two seconds later. */
export const giveBack = (
  cashier: Till,
  random: Random,
  session: TillSession,
  receipt: Receipt,
  line: Receipt['lines'][number],
  at: number,
) =>
  buildReceipt(cashier, random, {
    session,
    lines: [line],
    tender: receipt.payments[0]?.tender ?? 'card',
    issuedAt: at,
    arrivedAt: at + 2000,
    kind: 'credit_note',
    refundOf: receipt.id,
  });

/** Arrival order is the cursor's: receipts sorted and numbered (`seq`) by arrival time. */
export const numberByArrival = (cashier: { receipts: Receipt[]; counters: { receiptSeq: number } }) => {
  cashier.receipts.sort((a, b) => a.arrived_at_ms - b.arrived_at_ms);
  cashier.receipts.forEach((r, i) => (r.seq = i + 1));
  cashier.counters.receiptSeq = cashier.receipts.length;
};

/** What receipts took by tender, in the order tenders first appear: sales in, credit notes' refunds out. */
export const tendersOf = (receipts: Receipt[]): Map<string, number> => {
  const tenders = new Map<string, number>();
  for (const r of receipts) {
    for (const p of r.payments) {
      const signed = r.kind === 'credit_note' ? -p.amount_halalas : p.amount_halalas;
      tenders.set(p.tender, (tenders.get(p.tender) ?? 0) + signed);
    }
  }
  return tenders;
};

/** What a session's receipts left in the drawer, as its Z-report expects it: the seed's and history's counts. */
export const cashTaken = (receipts: Receipt[], session: TillSession): number =>
  tendersOf(receipts.filter((r) => r.session_id === session.id)).get('cash') ?? 0;
