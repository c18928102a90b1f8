/**
 * The money both interfaces share, below the seed and the operations: VAT (15 %), invoice arithmetic and receipt
 * building, and the per-branch numbering of files, invoices and receipts.
 */
import { dateLocal, isoLocal, type Random } from '../ids';

/*
 * The invoice, receipt and till-session records are what the builders below make (types.ts reads their types off
 * them); what the builders read of the clinic's and the café chain's data is named here by its shape alone.
 */
type Branches = { branches: ReadonlyArray<{ id: number; code: string }> };
type ClinicNumbers = Branches & {
  counters: { fileNo: Record<number, number>; invoiceNo: Record<number, number> };
};
type CashierNumbers = Branches & { counters: { receiptSeq: number; receiptNo: Record<string, number> } };
type Catalogue<I> = { items: I[] };
type CatalogueItem = {
  name_ar: string;
  variants: Array<{ id: number; name_ar: string; price_halalas: number }>;
};

export const VAT_RATE = 0.15;

/* Invoice arithmetic: net = qty × unit − discount; VAT 15 % on standard and state-borne lines. */

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

export const computeInvoice = (lines: LineInput[], discount: number) => {
  let left = discount;
  const out = lines.map((l, i) => {
    const gross = l.qty * l.unit_halalas;
    const cut = Math.min(left, gross);
    left -= cut;
    const net = gross - cut;
    const vat =
      l.tax_category === 'standard' || l.tax_category === 'state_borne' ? Math.round(net * VAT_RATE) : 0;
    return { ...l, line_no: i + 1, net_halalas: net, vat_halalas: vat, total_halalas: net + vat };
  });
  const breakdown = new Map<string, { tax_category: string; net_halalas: number; vat_halalas: number }>();
  for (const l of out) {
    const row = breakdown.get(l.tax_category) ?? {
      tax_category: l.tax_category,
      net_halalas: 0,
      vat_halalas: 0,
    };
    row.net_halalas += l.net_halalas;
    row.vat_halalas += l.vat_halalas;
    breakdown.set(l.tax_category, row);
  }
  const subtotal = lines.reduce((s, l) => s + l.qty * l.unit_halalas, 0);
  const vat = out.reduce((s, l) => s + l.vat_halalas, 0);
  const total = out.reduce((s, l) => s + l.total_halalas, 0);
  return {
    lines: out,
    subtotal_halalas: subtotal,
    discount_halalas: discount - left,
    vat_halalas: vat,
    total_halalas: total,
    tax_breakdown: [...breakdown.values()],
  };
};

export const nextInvoiceNumber = (clinic: ClinicNumbers, branchId: number, ms: number): string => {
  const branch = clinic.branches.find((b) => b.id === branchId);
  const n = (clinic.counters.invoiceNo[branchId] ?? 0) + 1;
  clinic.counters.invoiceNo[branchId] = n;
  return `INV-${branch?.code ?? 'CLN'}-${dateLocal(ms).slice(0, 4)}-${String(n).padStart(6, '0')}`;
};

/** An invoice issued at `at` with its totals, nothing paid yet (numbered next in its branch unless given one). */
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
    number?: string;
  },
) => {
  const totals = computeInvoice(input.lines, input.discount);
  return {
    id: random.ulid(at),
    number: input.number ?? nextInvoiceNumber(clinic, input.branch_id, at),
    kind: input.kind ?? 'simplified',
    status: 'issued' as 'issued' | 'partially_paid' | 'paid' | 'void',
    patient_id: input.patient_id,
    branch_id: input.branch_id,
    buyer_kind: input.buyer_kind,
    currency: 'SAR' as const,
    issued_at: isoLocal(at),
    ...totals,
    paid_halalas: 0,
    due_halalas: totals.total_halalas,
    payments: [] as InvoicePayment[],
    paid_at: null as string | null,
  };
};

export interface InvoicePayment {
  method: string;
  scheme: string | null;
  last4: string | null;
  amount_halalas: number;
}

/** A payment against an invoice: paid and due move; paid in full, the invoice is paid at `at`. */
export const addPayment = (inv: ReturnType<typeof newInvoice>, payment: InvoicePayment, at: number): void => {
  inv.payments.push(payment);
  inv.paid_halalas += payment.amount_halalas;
  inv.due_halalas = inv.total_halalas - inv.paid_halalas;
  inv.status = inv.due_halalas === 0 ? 'paid' : 'partially_paid';
  if (inv.status === 'paid') inv.paid_at = isoLocal(at);
};

/** A claim's reference at the claims exchange, e.g. CX-2026-11-0421337. */
export const claimsRef = (random: Random, at: number) =>
  `CX-${dateLocal(at).slice(0, 7)}-${String(random.int(10_000_000)).padStart(7, '0')}`;

export const nextFileNo = (clinic: ClinicNumbers, branchId: number): string => {
  const branch = clinic.branches.find((b) => b.id === branchId);
  const n = (clinic.counters.fileNo[branchId] ?? 0) + 1;
  clinic.counters.fileNo[branchId] = n;
  return `${branch?.code ?? 'CLN'}-${String(n).padStart(6, '0')}`;
};

export interface SaleLine {
  variantId: number | null;
  name: string;
  qty: number;
  unitPrice: number;
}

/** VAT-inclusive prices: tax = total × 15/115. */
export const buildReceipt = (
  cashier: CashierNumbers,
  random: Random,
  input: {
    session: ReturnType<typeof newSession>;
    lines: SaleLine[];
    tender?: string;
    issuedAt: number;
    arrivedAt: number;
    kind?: 'simplified' | 'standard' | 'credit_note';
    refundOf?: string | null;
    prepaid?: { order_id: string; amount_halalas: number } | null;
  },
) => {
  const branch = cashier.branches.find((b) => b.id === input.session.branch_id);
  const code = branch?.code ?? 'POS';
  const kind = input.kind ?? 'simplified';
  const counterKey = kind === 'credit_note' ? `${code}-CN` : code;
  const n = (cashier.counters.receiptNo[counterKey] ?? 0) + 1;
  cashier.counters.receiptNo[counterKey] = n;
  const lines = input.lines.map((l, i) => ({
    line_no: i + 1,
    variant_id: l.variantId,
    name: l.name,
    qty: String(l.qty),
    unit_price_halalas: l.unitPrice,
    total_halalas: Math.round(l.qty * l.unitPrice),
  }));
  const total = lines.reduce((s, l) => s + l.total_halalas, 0);
  const tax = Math.round((total * VAT_RATE) / (1 + VAT_RATE));
  const prepaid = input.prepaid ?? null;
  const tender = input.tender ?? 'card';
  const payments = prepaid
    ? []
    : [
        {
          tender,
          amount_halalas: total,
          scheme: tender === 'card' ? random.pick(['mada', 'visa', 'mastercard']) : null,
          last4: tender === 'card' ? String(1000 + random.int(9000)) : null,
        },
      ];
  cashier.counters.receiptSeq += 1;
  return {
    id: random.ulid(input.issuedAt),
    number: `${counterKey}-${String(n).padStart(6, '0')}`,
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
    prepaid_applied: prepaid,
    lines,
    payments,
    /** Arrival order at the server (the cursor's order) and time (the hold-back's). */
    seq: cashier.counters.receiptSeq,
    arrived_at_ms: input.arrivedAt,
  };
};

export const findVariant = <I extends CatalogueItem>(cashier: Catalogue<I>, variantId: number) => {
  for (const item of cashier.items) {
    const variant = item.variants.find((v) => v.id === variantId);
    if (variant) return { item, variant: variant as I['variants'][number] };
  }
  return undefined;
};

export const variantName = (item: CatalogueItem, v: { name_ar: string }) =>
  item.variants.length > 1 && v.name_ar !== item.name_ar ? `${item.name_ar} - ${v.name_ar}` : item.name_ar;

/** A line selling `qty` of a variant at its catalogue price, named as the till names it. */
export const saleLine = (cashier: Catalogue<CatalogueItem>, variantId: number, qty: number): SaleLine => {
  const found = findVariant(cashier, variantId);
  const name = found ? variantName(found.item, found.variant) : 'صنف';
  return { variantId, name, qty, unitPrice: found?.variant.price_halalas ?? 1000 };
};

/** A receipt or order line as a sale line: given back (a credit note's lines) or rung up (an accepted order's). */
export const returnLine = (
  line: { variant_id: number | null; name: string; qty: string; unit_price_halalas: number },
  qty = Number(line.qty),
): SaleLine => ({
  variantId: line.variant_id,
  name: line.name,
  qty,
  unitPrice: line.unit_price_halalas,
});

type Receipt = ReturnType<typeof buildReceipt>;
type Till = CashierNumbers & Catalogue<CatalogueItem>;

/** A basket of [variant, qty] sold on `session` at `at`, synced two seconds later unless `arrivedAt` says. */
export const sellBasket = (
  cashier: Till,
  random: Random,
  session: ReturnType<typeof newSession>,
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
  session: ReturnType<typeof newSession>,
  receipt: Receipt,
  line: Receipt['lines'][number],
  at: number,
) =>
  buildReceipt(cashier, random, {
    session,
    lines: [returnLine(line)],
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

/** Cash taken in a session (sales and credit notes alike), for the drawers the seed and history count. */
export const cashTaken = (receipts: Receipt[], session: ReturnType<typeof newSession>): number =>
  receipts
    .filter((r) => r.session_id === session.id)
    .flatMap((r) => r.payments)
    .filter((p) => p.tender === 'cash')
    .reduce((n, p) => n + p.amount_halalas, 0);
