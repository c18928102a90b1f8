/**
 * What happens to the cashier's objects: receipts, credit notes, till sessions, stock, customers and orders (partner
 * endpoints) and what in life happens on a till or in the back office (sandbox-only endpoints).
 */
import { ApiError, Checker, type Lang } from './errors';
import { dateLocal, isoLocal } from './ids';
import type {
  CashierData,
  Customer,
  Order,
  OrderLine,
  OrderStatus,
  Receipt,
  TillSession,
} from './store/types';
import { buildReceipt, type SaleLine } from './store/money';
import { BodyReader } from './body-reader';
import { isObject } from './validate';
import {
  CONSENT_CHANNELS,
  customerEventView,
  receiptView,
  sessionFigures,
  sessionView,
  stockView,
  variantName,
} from './cashier-views';
import type { World } from './world';

/* Events. */

const emit = (world: World, event: string, data: Record<string, unknown>) =>
  world.webhooks.emit({ api: 'cashier', tenantId: world.store.cashier.tenantId, event, data, subjects: [] });

/* Receipts. */

export const openSessionOf = (world: World, branchId: number, registerId: number): TillSession => {
  const cashier = world.store.cashier;
  const open = cashier.sessions.find(
    (s) => s.branch_id === branchId && s.register_id === registerId && s.status === 'open',
  );
  if (open) return open;
  const now = world.clock.now();
  const session: TillSession = {
    id: world.random.ulid(now),
    branch_id: branchId,
    register_id: registerId,
    status: 'open',
    business_date: dateLocal(now),
    opened_at: isoLocal(now),
    closed_at: null,
    opening_float_halalas: 50_000,
    counted_cash_halalas: null,
  };
  cashier.sessions.push(session);
  return session;
};

/** Sold or returned goods move stock; a level falling to its reorder point emits stock.low. */
const moveStock = (world: World, branchId: number, variantId: number, delta: number, force = false) => {
  const cashier = world.store.cashier;
  const level = cashier.stock.find((s) => s.branch_id === branchId && s.variant_id === variantId);
  if (!level) return [];
  const before = level.qty;
  level.qty = Math.max(0, Math.round((level.qty + delta) * 1000) / 1000);
  level.updated_at = isoLocal(world.clock.now());
  const crossed = before > level.reorder_point && level.qty <= level.reorder_point;
  return crossed || (force && level.qty <= level.reorder_point)
    ? [emit(world, 'stock.low', stockView(cashier, level))]
    : [];
};

const readSaleLines = (world: World, raw: unknown[] | undefined, c: Checker, lang: Lang): SaleLine[] => {
  const cashier = world.store.cashier;
  const out: SaleLine[] = [];
  (raw ?? []).forEach((row, i) => {
    const field = `lines[${i}]`;
    if (!isObject(row)) {
      c.add(field, 'object');
      return;
    }
    const r = new BodyReader(row, lang);
    const variantId = r.int('variant_id');
    const sku = r.string('sku');
    const barcode = r.string('barcode');
    const qty = typeof row.qty === 'number' && row.qty > 0 ? row.qty : undefined;
    if (qty === undefined) r.c.add('qty', 'number');
    const price = r.int('unit_price_halalas', { min: 0 });
    const match = matchVariant(cashier, { variantId, sku, barcode });
    if (!match) r.c.add(variantId !== undefined ? 'variant_id' : 'sku', 'unknown');
    for (const e of r.c.errors) c.errors.push({ ...e, field: `${field}.${e.field}` });
    if (match && qty !== undefined) {
      out.push({
        variantId: match.variant.id,
        name: variantName(match.item, match.variant),
        qty,
        unitPrice: price ?? match.variant.price_halalas,
      });
    }
  });
  return out;
};

export const matchVariant = (
  cashier: CashierData,
  by: { variantId?: number; plu?: string; sku?: string; barcode?: string },
) => {
  const pluId = by.plu && /^V\d+$/i.test(by.plu) ? Number(by.plu.slice(1)) : undefined;
  for (const item of cashier.items) {
    for (const variant of item.variants) {
      if (
        (by.variantId !== undefined && variant.id === by.variantId) ||
        (pluId !== undefined && variant.id === pluId) ||
        (by.sku !== undefined && variant.sku === by.sku) ||
        (by.barcode !== undefined && variant.barcode === by.barcode)
      ) {
        return { item, variant };
      }
    }
  }
  return undefined;
};

/**
 * POST /sandbox/cashier/receipts: a till sells. `issued_at` in the past makes an offline sale synced now: it
 * arrives after receipts issued later, which is what the cursor's arrival order is for.
 */
export const issueReceipt = (world: World, lang: Lang, body: unknown) => {
  const cashier = world.store.cashier;
  const r = new BodyReader(body, lang);
  const branchId = r.int('branch_id', { required: true });
  const registerId = r.int('register_id');
  const kind = r.oneOf('kind', ['simplified', 'standard'] as const);
  const tender = r.oneOf('tender', ['card', 'cash'] as const);
  const issuedMs = r.dateTime('issued_at');
  const rawLines = r.array('lines', { required: true });
  const branch = branchId === undefined ? undefined : cashier.branches.find((b) => b.id === branchId);
  if (branchId !== undefined && !branch) r.c.add('branch_id', 'unknown');
  if (registerId !== undefined && branch && !branch.registers.includes(registerId))
    r.c.add('register_id', 'unknown');
  if (rawLines && !rawLines.length) r.c.add('lines', 'required');
  const lines = readSaleLines(world, rawLines, r.c, lang);
  r.done();
  if (!branch) throw new ApiError('validation_failed');
  const now = world.clock.now();
  const session = openSessionOf(world, branch.id, registerId ?? branch.registers[0] ?? 1);
  const receipt = buildReceipt(world.store.cashier, world.random, {
    session,
    lines,
    tender,
    issuedAt: issuedMs ?? now,
    arrivedAt: now,
    kind,
  });
  cashier.receipts.push(receipt);
  const events = [emit(world, 'receipt.issued', receiptView(receipt))];
  for (const l of lines)
    if (l.variantId !== null) events.push(...moveStock(world, branch.id, l.variantId, -l.qty));
  return { receipt, events };
};

/** POST /sandbox/cashier/receipts/{id}/credit-note: a refund of some or all lines (credit_note.issued). */
export const issueCreditNote = (world: World, lang: Lang, receiptId: string, body: unknown) => {
  const cashier = world.store.cashier;
  const original = cashier.receipts.find((x) => x.id === receiptId && x.kind !== 'credit_note');
  if (!original) throw new ApiError('not_found');
  const r = new BodyReader(body, lang, { optional: true });
  const rawLines = r.array('lines');
  const picked: SaleLine[] = [];
  if (!rawLines) {
    for (const l of original.lines) {
      picked.push({
        variantId: l.variant_id,
        name: l.name,
        qty: Number(l.qty),
        unitPrice: l.unit_price_halalas,
      });
    }
  } else {
    rawLines.forEach((row, i) => {
      const lr = new BodyReader(row, lang);
      const lineNo = lr.int('line_no', { required: true });
      const line = original.lines.find((l) => l.line_no === lineNo);
      if (lineNo !== undefined && !line) lr.c.add('line_no', 'unknown');
      const qty = isObject(row) && typeof row.qty === 'number' && row.qty > 0 ? row.qty : undefined;
      if (isObject(row) && row.qty !== undefined && qty === undefined) lr.c.add('qty', 'number');
      for (const e of lr.c.errors) r.c.errors.push({ ...e, field: `lines[${i}].${e.field}` });
      if (line) {
        picked.push({
          variantId: line.variant_id,
          name: line.name,
          qty: Math.min(qty ?? Number(line.qty), Number(line.qty)),
          unitPrice: line.unit_price_halalas,
        });
      }
    });
  }
  r.done();
  const session =
    cashier.sessions.find((s) => s.id === original.session_id && s.status === 'open') ??
    openSessionOf(world, original.branch_id, original.register_id);
  const now = world.clock.now();
  const tender = original.payments[0]?.tender ?? 'card';
  const note = buildReceipt(world.store.cashier, world.random, {
    session,
    lines: picked,
    issuedAt: now,
    arrivedAt: now,
    kind: 'credit_note',
    refundOf: original.id,
    tender,
  });
  const card = original.payments.find((p) => p.tender === 'card');
  if (card) note.payments = [{ ...card, amount_halalas: note.total_halalas }];
  cashier.receipts.push(note);
  const events = [emit(world, 'credit_note.issued', receiptView(note))];
  for (const l of picked) if (l.variantId !== null) moveStock(world, original.branch_id, l.variantId, l.qty);
  return { receipt: note, events };
};

/** POST /sandbox/cashier/sessions/{id}/close: the cashier counts the drawer and closes (session.closed). */
export const closeSession = (world: World, lang: Lang, id: string, body: unknown) => {
  const cashier = world.store.cashier;
  const s = cashier.sessions.find((x) => x.id === id);
  if (!s) throw new ApiError('not_found');
  const r = new BodyReader(body, lang, { optional: true });
  const counted = r.int('counted_cash_halalas', { min: 0 });
  r.done();
  if (s.status === 'closed') {
    throw new ApiError(
      'invalid_transition',
      { from: 'closed', to: 'closed' },
      { from: 'closed', to: 'closed' },
    );
  }
  s.counted_cash_halalas = counted ?? sessionFigures(cashier, s).expected.cash_halalas;
  s.status = 'closed';
  s.closed_at = isoLocal(world.clock.now());
  const next = openSessionOf(world, s.branch_id, s.register_id);
  return { session: s, next_session: next, events: [emit(world, 'session.closed', sessionView(cashier, s))] };
};

/** POST /sandbox/cashier/stock: set a level (by default just below its reorder point), emitting stock.low. */
export const setStock = (world: World, lang: Lang, body: unknown) => {
  const cashier = world.store.cashier;
  const r = new BodyReader(body, lang);
  const branchId = r.int('branch_id', { required: true });
  const variantId = r.int('variant_id', { required: true });
  const qty =
    r.obj.qty === undefined ? undefined : typeof r.obj.qty === 'number' && r.obj.qty >= 0 ? r.obj.qty : -1;
  if (qty === -1) r.c.add('qty', 'min', { min: 0 });
  const reorderPoint = r.int('reorder_point', { min: 0 });
  const force = r.bool('force_event') ?? false;
  const level = cashier.stock.find((s) => s.branch_id === branchId && s.variant_id === variantId);
  if (branchId !== undefined && variantId !== undefined && !level) r.c.add('variant_id', 'unknown');
  r.done();
  if (!level || qty === -1) throw new ApiError('validation_failed');
  if (reorderPoint !== undefined) level.reorder_point = reorderPoint;
  const target = qty ?? Math.max(0, level.reorder_point - 1);
  const events = moveStock(world, level.branch_id, level.variant_id, target - level.qty, force);
  return { stock_level: level, events };
};

/* Customers. */

/** POST /sandbox/cashier/customers: a customer is added at a till or in the back office (customer.created). */
export const addCustomer = (world: World, lang: Lang, body: unknown) => {
  const cashier = world.store.cashier;
  const r = new BodyReader(body, lang);
  const name = r.string('name', { max: 200 });
  const phone = r.phone('phone');
  const email = r.string('email', { max: 200 });
  const address = r.string('address', { max: 500 });
  const vat = r.string('vat_number', { max: 20 });
  const cr = r.string('cr_number', { max: 20 });
  const consent = r.bool('marketing_consent') ?? false;
  const channels = r.array('consent_channels') ?? ['sms', 'email', 'whatsapp'];
  if (channels.some((ch) => !(CONSENT_CHANNELS as readonly unknown[]).includes(ch))) {
    r.c.add('consent_channels', 'one_of', { values: CONSENT_CHANNELS.join(', ') });
  }
  if (!name && !phone && !vat) r.c.add('name', 'required');
  r.done();
  const at = isoLocal(world.clock.now());
  cashier.counters.customer += 1;
  const customer: Customer = {
    id: cashier.counters.customer,
    name: name ?? null,
    phone: phone ?? null,
    email: email ?? null,
    address: address ?? null,
    vat_number: vat ?? null,
    cr_number: cr ?? null,
    consents: [{ granted: consent, channels: consent ? (channels as string[]) : [], at }],
    erased: false,
    created_at: at,
    updated_at: at,
  };
  cashier.customers.push(customer);
  return { customer, events: [emit(world, 'customer.created', customerEventView(customer))] };
};

/** POST /sandbox/cashier/customers/{id}/consent: a new entry in the consent ledger (no event). */
export const recordConsent = (world: World, lang: Lang, id: number, body: unknown) => {
  const c = world.store.cashier.customers.find((x) => x.id === id);
  if (!c) throw new ApiError('not_found');
  const r = new BodyReader(body, lang);
  const granted = r.bool('granted');
  if (granted === undefined) r.c.add('granted', 'required');
  const channels = r.array('channels') ?? ['sms', 'email', 'whatsapp'];
  if (channels.some((ch) => !(CONSENT_CHANNELS as readonly unknown[]).includes(ch))) {
    r.c.add('channels', 'one_of', { values: CONSENT_CHANNELS.join(', ') });
  }
  r.done();
  const at = isoLocal(world.clock.now());
  c.consents.push({ granted: !!granted, channels: granted ? (channels as string[]) : [], at });
  c.updated_at = at;
  return { customer: c, events: [] };
};

/* Orders (cashier spec §3 and §4 rule 5). */

const emitOrderChange = (world: World, o: Order, from: OrderStatus) =>
  emit(world, 'order.status_changed', {
    from,
    to: o.status,
    id: o.id,
    external_id: o.external_id,
    provider: o.provider,
    status: o.status,
    total_halalas: o.total_halalas,
  });

export interface OrderResult {
  status: 200 | 201;
  order: Order;
  duplicate: boolean;
}

/** POST /orders: the same external_id from the same API client answers the same order with duplicate true. */
export const createOrder = (
  world: World,
  lang: Lang,
  client: { id: number; provider: string },
  body: unknown,
): OrderResult => {
  const cashier = world.store.cashier;
  const r = new BodyReader(body, lang);
  const externalId = r.string('external_id', { required: true, max: 100 });
  const branchId = r.int('branch_id', { required: true });
  const orderType = r.string('order_type', { max: 50 });
  const prepaid = r.bool('prepaid') ?? false;
  const rawLines = r.array('lines', { required: true });
  let customer: Order['customer'] = null;
  if (r.obj.customer !== undefined && r.obj.customer !== null) {
    const cr = new BodyReader(r.obj.customer, lang);
    const name = cr.string('name', { max: 200 });
    const phone = cr.phone('phone');
    for (const e of cr.c.errors) r.c.errors.push({ ...e, field: `customer.${e.field}` });
    customer = { name: name ?? null, phone: phone ?? null };
  }
  if (branchId !== undefined && !cashier.branches.some((b) => b.id === branchId))
    r.c.add('branch_id', 'unknown');
  if (rawLines && !rawLines.length) r.c.add('lines', 'required');
  const lines: OrderLine[] = [];
  (rawLines ?? []).forEach((row, i) => {
    const field = `lines[${i}]`;
    if (!isObject(row)) {
      r.c.add(field, 'object');
      return;
    }
    const lr = new BodyReader(row, lang);
    const variantId = lr.int('variant_id');
    const plu = lr.string('plu');
    const sku = lr.string('sku');
    const barcode = lr.string('barcode');
    const name = lr.string('name', { max: 200 });
    const qtyRaw = row.qty;
    const qty =
      typeof qtyRaw === 'number' && qtyRaw > 0
        ? qtyRaw
        : typeof qtyRaw === 'string' && Number(qtyRaw) > 0
          ? Number(qtyRaw)
          : undefined;
    if (qty === undefined) lr.c.add('qty', 'number');
    const price = lr.int('unit_price_halalas', { min: 0 });
    const match = matchVariant(cashier, { variantId, plu, sku, barcode });
    if (!match && price === undefined && !lr.c.has('unit_price_halalas')) {
      lr.c.add('unit_price_halalas', 'open_item_price');
    }
    if (!match && !name && !plu && !sku && !barcode && variantId === undefined) lr.c.add('name', 'required');
    for (const e of lr.c.errors) r.c.errors.push({ ...e, field: `${field}.${e.field}` });
    if (qty === undefined) return;
    const unit = price ?? match?.variant.price_halalas ?? 0;
    lines.push({
      line_no: lines.length + 1,
      variant_id: match?.variant.id ?? null,
      plu: match ? `V${match.variant.id}` : null,
      name: match
        ? variantName(match.item, match.variant)
        : (name ?? plu ?? sku ?? barcode ?? String(variantId)),
      qty: String(qty),
      unit_price_halalas: unit,
      total_halalas: Math.round(qty * unit),
      open_item: !match,
    });
  });
  r.done();
  if (externalId === undefined || branchId === undefined) throw new ApiError('validation_failed');

  const existing = cashier.orders.find((o) => o.client_id === client.id && o.external_id === externalId);
  if (existing) return { status: 200, order: existing, duplicate: true };

  const now = world.clock.now();
  const at = isoLocal(now);
  const order: Order = {
    id: world.random.ulid(now),
    external_id: externalId,
    provider: client.provider,
    client_id: client.id,
    branch_id: branchId,
    order_type: orderType ?? null,
    prepaid,
    customer,
    status: 'received',
    lines,
    total_halalas: lines.reduce((s, l) => s + l.total_halalas, 0),
    receipt_id: null,
    refund_decision: null,
    created_at: at,
    updated_at: at,
  };
  cashier.orders.push(order);
  return { status: 201, order, duplicate: false };
};

export const findOrder = (world: World, id: string): Order => {
  const o = world.store.cashier.orders.find((x) => x.id === id);
  if (!o) throw new ApiError('not_found');
  return o;
};

/**
 * POST /orders/{id}/cancel: withdrawn from the panel; a receipt already issued stands and the cashier is asked to
 * decide on a refund. A cancelled order answers again; one the till rejected answers 409.
 */
export const cancelOrder = (world: World, id: string): Order => {
  const o = findOrder(world, id);
  if (o.status === 'cancelled') return o;
  if (o.status === 'rejected') throw new ApiError('order_not_cancellable', { status: o.status });
  const from = o.status;
  o.status = 'cancelled';
  if (o.receipt_id) o.refund_decision = 'pending';
  o.updated_at = isoLocal(world.clock.now());
  emitOrderChange(world, o, from);
  return o;
};

const ORDER_MOVES: Record<OrderStatus, readonly OrderStatus[]> = {
  received: ['accepted', 'rejected'],
  accepted: ['completed'],
  rejected: [],
  completed: [],
  cancelled: [],
};

/**
 * POST /sandbox/cashier/orders/{id}/accept and …/status: the cashier accepts (issuing the receipt on the till
 * unless issue_receipt is false), rejects or completes the order (order.status_changed with from and to).
 */
export const moveOrder = (world: World, lang: Lang, id: string, body: unknown, fixed?: OrderStatus) => {
  const cashier = world.store.cashier;
  const o = findOrder(world, id);
  const r = new BodyReader(body, lang, { optional: true });
  const to = fixed ?? r.oneOf('status', ['accepted', 'rejected', 'completed'] as const, { required: true });
  const issue = r.bool('issue_receipt') ?? to === 'accepted';
  r.done();
  if (!to) throw new ApiError('validation_failed');
  if (!ORDER_MOVES[o.status].includes(to)) {
    throw new ApiError('invalid_transition', { from: o.status, to }, { from: o.status, to });
  }
  const from = o.status;
  o.status = to;
  o.updated_at = isoLocal(world.clock.now());
  const events = [emitOrderChange(world, o, from)];
  if (to === 'accepted' && issue && !o.receipt_id) {
    const branch = cashier.branches.find((b) => b.id === o.branch_id);
    const session = openSessionOf(world, o.branch_id, branch?.registers[0] ?? 1);
    const now = world.clock.now();
    const receipt = buildReceipt(world.store.cashier, world.random, {
      session,
      lines: o.lines.map((l) => ({
        variantId: l.variant_id,
        name: l.name,
        qty: Number(l.qty),
        unitPrice: l.unit_price_halalas,
      })),
      issuedAt: now,
      arrivedAt: now,
      prepaid: o.prepaid ? { order_id: o.id, amount_halalas: o.total_halalas } : null,
    });
    cashier.receipts.push(receipt);
    o.receipt_id = receipt.id;
    events.push(emit(world, 'receipt.issued', receiptView(receipt)));
    for (const l of o.lines)
      if (l.variant_id !== null) events.push(...moveStock(world, o.branch_id, l.variant_id, -Number(l.qty)));
  }
  return { order: o, events };
};

/* The receipts cursor (cashier spec §4 rule 4). */

/**
 * Receipts and credit notes after `since_id` in arrival order, skipping those that arrived within the
 * hold-back. The cursor moves past receipts a filter leaves out, so a filtered reader never sees them again.
 */
export const receiptsAfter = (
  world: World,
  sinceSeq: number,
  filter: { branchId?: number; kind?: string },
  perPage: number,
) => {
  const visibleUntil = world.clock.now() - world.config.holdBackMs;
  const ordered = world.store.cashier.receipts
    .filter((r) => r.seq > sinceSeq && r.arrived_at_ms <= visibleUntil)
    .sort((a, b) => a.seq - b.seq);
  const data: Receipt[] = [];
  let last: Receipt | undefined;
  let index = 0;
  for (; index < ordered.length && data.length < perPage; index += 1) {
    const r = ordered[index] as Receipt;
    last = r;
    if (filter.branchId !== undefined && r.branch_id !== filter.branchId) continue;
    if (filter.kind !== undefined && r.kind !== filter.kind) continue;
    data.push(r);
  }
  return { data, last, hasMore: index < ordered.length };
};
