/** Orders (partner endpoints), and what happens on a till or in the back office (sandbox-only endpoints). */
import { ApiError, Checker, found, refuse, invalidTransition, byId } from './errors';
import { isoLocal } from './ids';
import type { Order, OrderStatus, Receipt } from './store/types';
import { buildReceipt, matchVariant, newSession, saleLine, variantName } from './store/money';
import { newCustomer, newOrder, orderLine } from './store/records';
import { body, op, S } from './validate';
import * as view from './cashier-views';
import type { RouteContext } from './routing';
import type { OpContext, World } from './world';

const emit = (world: World, event: string, data: Record<string, unknown>) =>
  world.webhooks.emit({ api: 'cashier', tenantId: world.store.cashier.tenantId, event, data, subjects: [] });

const openSessionOf = (world: World, branchId: number, registerId: number) => {
  const cashier = world.store.cashier;
  const open = cashier.sessions.find(
    (s) => s.branch_id === branchId && s.register_id === registerId && s.status === 'open',
  );
  if (open) return open;
  const session = newSession(world.random, branchId, registerId, world.clock.now(), null);
  cashier.sessions.push(session);
  return session;
};

type TillInput = Omit<Parameters<typeof buildReceipt>[2], 'issuedAt' | 'arrivedAt'>;

/** A till issues a receipt or credit note now (a refund goes back to the sale's `card`); stock stays as it is. */
const ring = (world: World, input: TillInput, card?: Receipt['payments'][number]) => {
  const cashier = world.store.cashier;
  const now = world.clock.now();
  const receipt = buildReceipt(cashier, world.random, { ...input, issuedAt: now, arrivedAt: now });
  if (card) receipt.payments = [{ ...card, amount_halalas: receipt.total_halalas }];
  cashier.receipts.push(receipt);
  const event = receipt.kind === 'credit_note' ? 'credit_note.issued' : 'receipt.issued';
  return { data: view.receipt(receipt), events: [emit(world, event, view.receipt(receipt))] };
};

/** How a line names a catalogue variant (cashier spec §2 OrderWrite). */
const VARIANT_REF = { variant_id: S.int(), plu: S.str(), sku: S.str(), barcode: S.str() };

/** POST /sandbox/cashier/receipts: a till sells at catalogue prices. */
const RECEIPT_WRITE = body(
  {
    branch_id: S.int(),
    tender: S.oneOf(['card', 'cash']),
    lines: S.array(S.object({ ...VARIANT_REF, qty: S.positive }, ['qty'])),
  },
  ['branch_id', 'lines'],
);

export const issueReceipt = op(RECEIPT_WRITE, ({ world, lang }: OpContext, b) => {
  const cashier = world.store.cashier;
  const c = new Checker(lang);
  const branch = cashier.branches.find((x) => x.id === b.branch_id);
  if (!branch) c.add('branch_id', 'unknown');
  if (!b.lines.length) c.add('lines', 'required');
  const lines = b.lines.flatMap((row, i) => {
    const { variant_id: variantId, plu, sku, barcode } = row;
    const match = matchVariant(cashier, { variantId, plu, sku, barcode });
    if (!match) c.add(`lines[${i}].${variantId !== undefined ? 'variant_id' : 'sku'}`, 'unknown');
    return match ? [saleLine(cashier, match.variant.id, row.qty)] : [];
  });
  c.done();
  const session = openSessionOf(world, b.branch_id, branch?.registers[0] ?? 1);
  return ring(world, { session, lines, tender: b.tender });
});

const CREDIT_NOTE_WRITE = body(
  { lines: S.array(S.object({ line_no: S.int(), qty: S.positive }, ['line_no'])) },
  [],
  true,
);

/** POST /sandbox/cashier/receipts/{id}/credit-note: a refund of some or all lines, in the sale's tender. */
export const issueCreditNote = op(CREDIT_NOTE_WRITE, ({ world, lang, params }: OpContext, b) => {
  const cashier = world.store.cashier;
  const original = found(cashier.receipts.find((x) => x.id === params.id && x.kind !== 'credit_note'));
  const c = new Checker(lang);
  const picked = (b?.lines ?? original.lines).flatMap((row, i) => {
    const line = original.lines.find((l) => l.line_no === row.line_no);
    if (!line) c.add(`lines[${i}].line_no`, 'unknown');
    return line ? [{ ...line, qty: Math.min(Number(row.qty ?? line.qty), Number(line.qty)) }] : [];
  });
  c.done();
  const session = openSessionOf(world, original.branch_id, original.register_id);
  const tender = original.payments[0]?.tender ?? 'card';
  const card = original.payments.find((p) => p.tender === 'card');
  return ring(world, { session, lines: picked, kind: 'credit_note', refundOf: original.id, tender }, card);
});

/** POST /sandbox/cashier/sessions/{id}/close: the drawer is counted (as expected by default), the next opens. */
const SESSION_CLOSE = body({ counted_cash_halalas: S.int({ min: 0 }) }, [], true);

export const closeSession = op(SESSION_CLOSE, ({ world, params }: OpContext, b) => {
  const cashier = world.store.cashier;
  const s = byId(cashier.sessions, params.id);
  if (s.status === 'closed') throw invalidTransition('closed', 'closed');
  s.counted_cash_halalas = b?.counted_cash_halalas ?? view.session(cashier, s, true).expected!.cash_halalas;
  s.status = 'closed';
  s.closed_at = isoLocal(world.clock.now());
  const next = openSessionOf(world, s.branch_id, s.register_id);
  const events = [emit(world, 'session.closed', view.session(cashier, s))];
  return { data: view.session(cashier, s), next_session: view.session(cashier, next), events };
});

/** POST /sandbox/cashier/stock: sets a level, by default just below its reorder point (stock.low). */
const STOCK_WRITE = body({ branch_id: S.int(), variant_id: S.int(), qty: S.nonNegative }, [
  'branch_id',
  'variant_id',
]);

export const setStock = op(STOCK_WRITE, ({ world, lang }: OpContext, b) => {
  const cashier = world.store.cashier;
  const level = cashier.stock.find((s) => s.branch_id === b.branch_id && s.variant_id === b.variant_id);
  if (!level) throw refuse(lang, 'variant_id', 'unknown');
  const wasAbove = level.qty > level.reorder_point;
  level.qty = b.qty ?? Math.max(0, level.reorder_point - 1);
  level.updated_at = isoLocal(world.clock.now());
  const low = wasAbove && level.qty <= level.reorder_point;
  const events = low ? [emit(world, 'stock.low', view.stock(cashier, level))] : [];
  return { data: view.stock(cashier, level), events };
});

/** POST /sandbox/cashier/customers: a customer is added at a till or in the back office. */
const CUSTOMER_WRITE = body({
  name: S.str(200),
  phone: S.phone,
  email: S.str(200),
  address: S.str(500),
  vat_number: S.str(20),
  cr_number: S.str(20),
  marketing_consent: S.bool,
  consent_channels: S.array(S.oneOf(view.CONSENT_CHANNELS)),
});

export const addCustomer = op(CUSTOMER_WRITE, ({ world, lang }: OpContext, b) => {
  const cashier = world.store.cashier;
  const { marketing_consent: consent = false, consent_channels: channels, ...fields } = b;
  if (!fields.name && !fields.phone && !fields.vat_number) throw refuse(lang, 'name', 'required');
  const at = isoLocal(world.clock.now());
  const customer = newCustomer({
    id: (cashier.counters.customer += 1),
    ...fields,
    consents: [{ granted: consent, channels: consent ? (channels ?? ['sms', 'email', 'whatsapp']) : [], at }],
    created_at: at,
    updated_at: at,
  });
  cashier.customers.push(customer);
  return {
    data: view.customer(customer),
    events: [emit(world, 'customer.created', view.customerEvent(customer))],
  };
});

/** The order moves on: order.status_changed with from and to. */
const moveTo = (world: World, o: Order, to: OrderStatus) => {
  const { status: from, id, external_id, provider, total_halalas } = o;
  o.status = to;
  o.updated_at = isoLocal(world.clock.now());
  const data = { from, to, id, external_id, provider, status: to, total_halalas };
  return emit(world, 'order.status_changed', data);
};

/** OrderWrite; a line's qty may come as text ("2"), so the operation reads it. */
const ORDER_WRITE = body(
  {
    external_id: S.str(100),
    branch_id: S.int(),
    order_type: S.str(50),
    prepaid: S.bool,
    lines: S.array(
      S.object({
        ...VARIANT_REF,
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
export const createOrder = op(ORDER_WRITE, ({ world, lang, client }: RouteContext, b) => {
  const cashier = world.store.cashier;
  const c = new Checker(lang);
  if (!cashier.branches.some((x) => x.id === b.branch_id)) c.add('branch_id', 'unknown');
  if (!b.lines.length) c.add('lines', 'required');
  const lines = b.lines.flatMap((row, i) => {
    const { variant_id: variantId, plu, sku, barcode, name, unit_price_halalas: price } = row;
    const qty = Number(row.qty) > 0 ? Number(row.qty) : undefined;
    if (qty === undefined) c.add(`lines[${i}].qty`, 'number');
    const match = matchVariant(cashier, { variantId, plu, sku, barcode });
    if (!match && price === undefined) c.add(`lines[${i}].unit_price_halalas`, 'open_item_price');
    const text = match ? variantName(match.item, match.variant) : name || plu || sku || barcode || variantId;
    if (text === undefined) c.add(`lines[${i}].name`, 'required');
    if (qty === undefined) return [];
    const unit = price ?? match?.variant.price_halalas ?? 0;
    return [orderLine(i + 1, match?.variant.id ?? null, String(text), qty, unit)];
  });
  c.done();

  const existing = cashier.orders.find((o) => o.client_id === client.id && o.external_id === b.external_id);
  if (existing) return { data: view.order(existing), duplicate: true };

  const now = world.clock.now();
  const order = newOrder({
    id: world.random.ulid(now),
    external_id: b.external_id,
    provider: client.provider,
    client_id: client.id,
    branch_id: b.branch_id,
    order_type: b.order_type,
    prepaid: b.prepaid ?? false,
    customer: b.customer ? { name: b.customer.name ?? null, phone: b.customer.phone ?? null } : null,
    lines,
    total_halalas: lines.reduce((n, l) => n + l.total_halalas, 0),
    created_at: isoLocal(now),
    updated_at: isoLocal(now),
  });
  cashier.orders.push(order);
  return { data: view.order(order) };
});

/** POST /orders/{id}/cancel: an order the till rejected cannot be cancelled (409). */
export const cancelOrder = ({ world, params }: OpContext) => {
  const o = byId(world.store.cashier.orders, params.id);
  if (o.status === 'cancelled') return { data: view.order(o), events: [] };
  if (o.status === 'rejected') throw new ApiError('order_not_cancellable', { status: o.status });
  if (o.receipt_id) o.refund_decision = 'pending';
  const events = [moveTo(world, o, 'cancelled')];
  return { data: view.order(o), events };
};

const ORDER_MOVES: Partial<Record<OrderStatus, readonly OrderStatus[]>> = {
  received: ['accepted', 'rejected'],
  accepted: ['completed'],
};

/** POST /sandbox/cashier/orders/{id}/accept (the till issues the receipt) and …/status. */
const ORDER_MOVE = body({ status: S.oneOf(['accepted', 'rejected', 'completed']) }, [], true);

export const moveOrder = (fixed?: OrderStatus) =>
  op(ORDER_MOVE, ({ world, lang, params }: OpContext, b) => {
    const cashier = world.store.cashier;
    const o = byId(cashier.orders, params.id);
    const to = fixed ?? b?.status;
    if (!to) throw refuse(lang, 'status', 'required');
    if (!ORDER_MOVES[o.status]?.includes(to)) throw invalidTransition(o.status, to);
    const events = [moveTo(world, o, to)];
    if (to === 'accepted' && !o.receipt_id) {
      const registers = cashier.branches.find((x) => x.id === o.branch_id)?.registers;
      const session = openSessionOf(world, o.branch_id, registers?.[0] ?? 1);
      const prepaid = o.prepaid ? { order_id: o.id, amount_halalas: o.total_halalas } : null;
      const sold = ring(world, { session, lines: o.lines, prepaid });
      o.receipt_id = sold.data.id;
      events.push(...sold.events);
    }
    return { data: view.order(o), events };
  });
