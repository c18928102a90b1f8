/**
 * What happens to the cashier's objects: receipts, credit notes, till sessions, stock, customers and orders (partner
 * endpoints) and what in life happens on a till or in the back office (sandbox-only endpoints).
 */
import { ApiError, Checker, found, idParam, refuse, invalidTransition, byId } from './errors';
import { isoLocal, parseDateTime } from './ids';
import type { ApiClientRecord, Order, OrderLine, OrderStatus, Receipt, TillSession } from './store/types';
import { buildReceipt, matchVariant, newSession, variantName, type SaleLine } from './store/money';
import { newCustomer, newOrder, orderLine } from './store/records';
import { body, op, S, type BodyOf } from './validate';
import {
  CONSENT_CHANNELS,
  customerEventView,
  customerView,
  orderView,
  receiptView,
  sessionFigures,
  sessionView,
  stockView,
} from './cashier-views';
import type { OpContext, World } from './world';

const emit = (world: World, event: string, data: Record<string, unknown>) =>
  world.webhooks.emit({ api: 'cashier', tenantId: world.store.cashier.tenantId, event, data, subjects: [] });

export const openSessionOf = (world: World, branchId: number, registerId: number): TillSession => {
  const cashier = world.store.cashier;
  const open = cashier.sessions.find(
    (s) => s.branch_id === branchId && s.register_id === registerId && s.status === 'open',
  );
  if (open) return open;
  const session = newSession(world.random, branchId, registerId, world.clock.now(), null);
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

/**
 * A till rings up a receipt or credit note that arrives now (issued now unless `issuedAt` says earlier: an offline
 * sale): stored, emitted, and its goods leave stock (a credit note's come back). `prepare` adjusts it first.
 */
const ring = (
  world: World,
  input: Omit<Parameters<typeof buildReceipt>[2], 'issuedAt' | 'arrivedAt'> & { issuedAt?: number },
  prepare?: (r: Receipt) => void,
) => {
  const now = world.clock.now();
  const receipt = buildReceipt(world.store.cashier, world.random, {
    ...input,
    issuedAt: input.issuedAt ?? now,
    arrivedAt: now,
  });
  prepare?.(receipt);
  world.store.cashier.receipts.push(receipt);
  const back = receipt.kind === 'credit_note';
  const events = [emit(world, back ? 'credit_note.issued' : 'receipt.issued', receiptView(receipt))];
  for (const l of input.lines) {
    const qty = Number(l.qty);
    if (l.variant_id !== null)
      events.push(...moveStock(world, input.session.branch_id, l.variant_id, back ? qty : -qty));
  }
  return { data: receiptView(receipt), events };
};

const readSaleLines = (world: World, rows: BodyOf<typeof RECEIPT_WRITE>['lines'], c: Checker): SaleLine[] =>
  rows.flatMap((row, i) => {
    const match = matchVariant(world.store.cashier, {
      variantId: row.variant_id,
      sku: row.sku,
      barcode: row.barcode,
    });
    if (row.qty === undefined) c.add(`lines[${i}].qty`, 'number');
    if (!match) c.add(`lines[${i}].${row.variant_id !== undefined ? 'variant_id' : 'sku'}`, 'unknown');
    if (!match || row.qty === undefined) return [];
    const name = variantName(match.item, match.variant);
    return [
      {
        variant_id: match.variant.id,
        name,
        qty: row.qty,
        unit_price_halalas: row.unit_price_halalas ?? match.variant.price_halalas,
      },
    ];
  });

/**
 * POST /sandbox/cashier/receipts: a till sells. `issued_at` in the past makes an offline sale synced now: it
 * arrives after receipts issued later, which is what the cursor's arrival order is for.
 */
const RECEIPT_WRITE = body(
  {
    branch_id: S.int(),
    register_id: S.int(),
    kind: S.oneOf(['simplified', 'standard']),
    tender: S.oneOf(['card', 'cash']),
    issued_at: S.dateTime,
    lines: S.array(
      S.object({
        variant_id: S.int(),
        sku: S.str(),
        barcode: S.str(),
        qty: S.positive,
        unit_price_halalas: S.int({ min: 0 }),
      }),
    ),
  },
  ['branch_id', 'lines'],
);

export const issueReceipt = op(RECEIPT_WRITE, ({ world, lang }: OpContext, b) => {
  const cashier = world.store.cashier;
  const { register_id: registerId, kind, tender } = b;
  const c = new Checker(lang);
  const branch = cashier.branches.find((x) => x.id === b.branch_id);
  if (!branch) c.add('branch_id', 'unknown');
  if (registerId !== undefined && branch && !branch.registers.includes(registerId))
    c.add('register_id', 'unknown');
  if (!b.lines.length) c.add('lines', 'required');
  const lines = readSaleLines(world, b.lines, c);
  c.done();
  if (!branch) throw new ApiError('validation_failed');
  const issuedAt = b.issued_at === undefined ? undefined : parseDateTime(b.issued_at);
  const session = openSessionOf(world, branch.id, registerId ?? branch.registers[0] ?? 1);
  return ring(world, { session, lines, tender, issuedAt, kind });
});

const CREDIT_NOTE_WRITE = body(
  { lines: S.array(S.object({ line_no: S.int(), qty: S.positive }, ['line_no'])) },
  [],
  true,
);

/** POST /sandbox/cashier/receipts/{id}/credit-note: a refund of some or all lines (credit_note.issued). */
export const issueCreditNote = op(CREDIT_NOTE_WRITE, ({ world, lang, params }: OpContext, b) => {
  const cashier = world.store.cashier;
  const original = found(cashier.receipts.find((x) => x.id === params.id && x.kind !== 'credit_note'));
  const rawLines = b?.lines;
  const c = new Checker(lang);
  const picked: SaleLine[] = [];
  if (!rawLines) {
    picked.push(...original.lines);
  } else {
    rawLines.forEach((row, i) => {
      const line = original.lines.find((l) => l.line_no === row.line_no);
      if (!line) c.add(`lines[${i}].line_no`, 'unknown');
      else {
        const qty = Math.min(row.qty ?? Number(line.qty), Number(line.qty));
        picked.push({ ...line, qty });
      }
    });
  }
  c.done();
  const session =
    cashier.sessions.find((s) => s.id === original.session_id && s.status === 'open') ??
    openSessionOf(world, original.branch_id, original.register_id);
  const tender = original.payments[0]?.tender ?? 'card';
  const card = original.payments.find((p) => p.tender === 'card');
  const input = { session, lines: picked, kind: 'credit_note' as const, refundOf: original.id, tender };
  return ring(world, input, (note) => {
    if (card) note.payments = [{ ...card, amount_halalas: note.total_halalas }];
  });
});

/** POST /sandbox/cashier/sessions/{id}/close: the cashier counts the drawer and closes (session.closed). */
const SESSION_CLOSE = body({ counted_cash_halalas: S.int({ min: 0 }) }, [], true);

export const closeSession = op(SESSION_CLOSE, ({ world, params }: OpContext, b) => {
  const cashier = world.store.cashier;
  const s = byId(cashier.sessions, params.id);
  const counted = b?.counted_cash_halalas;
  if (s.status === 'closed') throw invalidTransition('closed', 'closed');
  s.counted_cash_halalas = counted ?? sessionFigures(cashier, s).expected.cash_halalas;
  s.status = 'closed';
  s.closed_at = isoLocal(world.clock.now());
  const next = openSessionOf(world, s.branch_id, s.register_id);
  const events = [emit(world, 'session.closed', sessionView(cashier, s))];
  return { data: sessionView(cashier, s), next_session: sessionView(cashier, next), events };
});

/** POST /sandbox/cashier/stock: set a level (by default just below its reorder point), emitting stock.low. */
const STOCK_WRITE = body(
  {
    branch_id: S.int(),
    variant_id: S.int(),
    qty: S.nonNegative,
    reorder_point: S.int({ min: 0 }),
    force_event: S.bool,
  },
  ['branch_id', 'variant_id'],
);

export const setStock = op(STOCK_WRITE, ({ world, lang }: OpContext, b) => {
  const { qty, reorder_point: reorderPoint, force_event: force = false } = b;
  const level = world.store.cashier.stock.find(
    (s) => s.branch_id === b.branch_id && s.variant_id === b.variant_id,
  );
  if (!level) throw refuse(lang, 'variant_id', 'unknown');
  if (reorderPoint !== undefined) level.reorder_point = reorderPoint;
  const target = qty ?? Math.max(0, level.reorder_point - 1);
  const events = moveStock(world, level.branch_id, level.variant_id, target - level.qty, force);
  return { data: stockView(world.store.cashier, level), events };
});

/** POST /sandbox/cashier/customers: a customer is added at a till or in the back office (customer.created). */
const CUSTOMER_WRITE = body({
  name: S.str(200),
  phone: S.phone,
  email: S.str(200),
  address: S.str(500),
  vat_number: S.str(20),
  cr_number: S.str(20),
  marketing_consent: S.bool,
  consent_channels: S.array(),
});

const channelsOf = (raw: unknown[] | undefined, field: string, c: Checker): string[] => {
  const channels = raw ?? ['sms', 'email', 'whatsapp'];
  if (channels.some((ch) => !(CONSENT_CHANNELS as readonly unknown[]).includes(ch))) {
    c.add(field, 'one_of', { values: CONSENT_CHANNELS.join(', ') });
  }
  return channels as string[];
};

export const addCustomer = op(CUSTOMER_WRITE, ({ world, lang }: OpContext, b) => {
  const cashier = world.store.cashier;
  const { name, phone, email, address, vat_number, cr_number, marketing_consent: consent = false } = b;
  const c = new Checker(lang);
  const channels = channelsOf(b.consent_channels, 'consent_channels', c);
  if (!name && !phone && !vat_number) c.add('name', 'required');
  c.done();
  const at = isoLocal(world.clock.now());
  cashier.counters.customer += 1;
  const customer = newCustomer({
    id: cashier.counters.customer,
    name,
    phone,
    email,
    address,
    vat_number,
    cr_number,
    consents: [{ granted: consent, channels: consent ? channels : [], at }],
    created_at: at,
    updated_at: at,
  });
  cashier.customers.push(customer);
  return {
    data: customerView(customer),
    events: [emit(world, 'customer.created', customerEventView(customer))],
  };
});

/** POST /sandbox/cashier/customers/{id}/consent: a new entry in the consent ledger (no event). */
const CONSENT_WRITE = body({ granted: S.bool, channels: S.array() }, ['granted']);

export const recordConsent = op(CONSENT_WRITE, ({ world, lang, params }: OpContext, b) => {
  const id = idParam(params.id);
  const customer = byId(world.store.cashier.customers, id);
  const { granted, channels: raw } = b;
  const c = new Checker(lang);
  const channels = channelsOf(raw, 'channels', c);
  c.done();
  const at = isoLocal(world.clock.now());
  customer.consents.push({ granted, channels: granted ? channels : [], at });
  customer.updated_at = at;
  return { data: customerView(customer) };
});

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

/** OrderWrite; a line's qty may come as text ("2"), so the operation reads it. */
const ORDER_WRITE = body(
  {
    external_id: S.str(100),
    branch_id: S.int(),
    order_type: S.str(50),
    prepaid: S.bool,
    lines: S.array(
      S.object({
        variant_id: S.int(),
        plu: S.str(),
        sku: S.str(),
        barcode: S.str(),
        name: S.str(200),
        qty: { type: ['number', 'string'] as const },
        unit_price_halalas: S.int({ min: 0 }),
      }),
    ),
    customer: S.object({ name: S.str(200), phone: S.phone }),
  },
  ['external_id', 'branch_id', 'lines'],
);

/** POST /orders: the same external_id from the same API client answers the same order with duplicate true. */
export const createOrder = op(
  ORDER_WRITE,
  ({ world, lang, client }: OpContext & { client: ApiClientRecord }, b) => {
    const cashier = world.store.cashier;
    const { external_id: externalId, branch_id: branchId, order_type: orderType, prepaid = false } = b;
    const customer = b.customer ? { name: b.customer.name ?? null, phone: b.customer.phone ?? null } : null;
    const c = new Checker(lang);
    if (!cashier.branches.some((x) => x.id === branchId)) c.add('branch_id', 'unknown');
    if (!b.lines.length) c.add('lines', 'required');
    const lines: OrderLine[] = [];
    b.lines.forEach((row, i) => {
      const { variant_id: variantId, plu, sku, barcode, name, unit_price_halalas: price } = row;
      // A number, or text that reads as one ("2"); anything else is no quantity.
      const qty = Number(row.qty) > 0 ? Number(row.qty) : undefined;
      if (qty === undefined) c.add(`lines[${i}].qty`, 'number');
      const match = matchVariant(cashier, { variantId, plu, sku, barcode });
      if (!match && price === undefined) c.add(`lines[${i}].unit_price_halalas`, 'open_item_price');
      if (!match && !name && !plu && !sku && !barcode && variantId === undefined)
        c.add(`lines[${i}].name`, 'required');
      if (qty === undefined) return;
      const unit = price ?? match?.variant.price_halalas ?? 0;
      const text = match
        ? variantName(match.item, match.variant)
        : (name ?? plu ?? sku ?? barcode ?? String(variantId));
      lines.push(orderLine(lines.length + 1, match?.variant.id ?? null, text, qty, unit));
    });
    c.done();

    const existing = cashier.orders.find((o) => o.client_id === client.id && o.external_id === externalId);
    if (existing) return { data: orderView(existing), duplicate: true };

    const now = world.clock.now();
    const at = isoLocal(now);
    const order = newOrder({
      id: world.random.ulid(now),
      external_id: externalId,
      provider: client.provider,
      client_id: client.id,
      branch_id: branchId,
      order_type: orderType,
      prepaid,
      customer,
      lines,
      total_halalas: lines.reduce((s, l) => s + l.total_halalas, 0),
      created_at: at,
      updated_at: at,
    });
    cashier.orders.push(order);
    return { data: orderView(order) };
  },
);

/**
 * POST /orders/{id}/cancel: withdrawn from the panel; a receipt already issued stands and the cashier is asked to
 * decide on a refund. A cancelled order answers again; one the till rejected answers 409.
 */
export const cancelOrder = ({ world, params }: OpContext) => {
  const o = byId(world.store.cashier.orders, params.id);
  if (o.status === 'cancelled') return { data: orderView(o), events: [] };
  if (o.status === 'rejected') throw new ApiError('order_not_cancellable', { status: o.status });
  const from = o.status;
  o.status = 'cancelled';
  if (o.receipt_id) o.refund_decision = 'pending';
  o.updated_at = isoLocal(world.clock.now());
  return { data: orderView(o), events: [emitOrderChange(world, o, from)] };
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
const ORDER_MOVE = body(
  { status: S.oneOf(['accepted', 'rejected', 'completed']), issue_receipt: S.bool },
  [],
  true,
);

export const moveOrder = (fixed?: OrderStatus) =>
  op(ORDER_MOVE, ({ world, lang, params }: OpContext, body) => {
    const cashier = world.store.cashier;
    const o = byId(world.store.cashier.orders, params.id);
    const b = body ?? {};
    const to = fixed ?? b.status;
    if (!to) throw refuse(lang, 'status', 'required');
    const issue = b.issue_receipt ?? to === 'accepted';
    if (!ORDER_MOVES[o.status].includes(to)) throw invalidTransition(o.status, to);
    const from = o.status;
    o.status = to;
    o.updated_at = isoLocal(world.clock.now());
    const events = [emitOrderChange(world, o, from)];
    if (to === 'accepted' && issue && !o.receipt_id) {
      const branch = cashier.branches.find((b) => b.id === o.branch_id);
      const session = openSessionOf(world, o.branch_id, branch?.registers[0] ?? 1);
      const sold = ring(world, {
        session,
        lines: o.lines,
        prepaid: o.prepaid ? { order_id: o.id, amount_halalas: o.total_halalas } : null,
      });
      o.receipt_id = sold.data.id;
      events.push(...sold.events);
    }
    return { data: orderView(o), events };
  });

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
