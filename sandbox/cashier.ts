/** The cashier partner interface under /api/partner/v1 (cashier spec §4), route by route. */
import { createItem, updateItem } from './cashier-items';
import { cancelOrder, createOrder } from './cashier-ops';
import {
  CONSENT_CHANNELS,
  RECEIPT_KINDS,
  branchView,
  consentOf,
  customerView,
  itemView,
  orderView,
  receiptView,
  sessionView,
  stockView,
} from './cashier-views';
import { ApiError, idParam, refuse, byId } from './errors';
import type { Receipt } from './store/types';
import { get, one, post, route, type PartnerRoute, type RouteContext } from './routing';
import { PER_PAGE, S, eq, list, query, since } from './validate';
import { webhookRoutes } from './webhook-routes';

export const CASHIER_PREFIX = '/api/partner/v1';

const cashierOf = (ctx: RouteContext) => ctx.world.store.cashier;

const ping = ({ client, tenant }: RouteContext) => ({
  data: {
    client: { id: client.id, name: client.name, abilities: [...client.abilities] },
    account: { id: tenant.id, name: tenant.name, name_ar: tenant.name_ar },
  },
});
const idOrder = (a: { id: number }, b: { id: number }) => a.id - b.id;

const listItems = list((ctx: RouteContext) => cashierOf(ctx).items, itemView, idOrder, {
  category_id: eq(S.int(), 'category_id'),
  updated_since: since((i) => i.updated_at),
  sku: [S.str(), (i, sku) => i.variants.some((v) => v.sku === sku)],
  barcode: [S.str(), (i, barcode) => i.variants.some((v) => v.barcode === barcode)],
});

/**
 * consented_only: the latest consent in the ledger is granted (never erased customers); consent_channel narrows
 * to consents covering that channel, alone or together with consented_only.
 */
const listCustomers = list((ctx: RouteContext) => cashierOf(ctx).customers, customerView, idOrder, {
  updated_since: since((x) => x.updated_at),
  consented_only: [S.bool, (x, only) => !only || !!consentOf(x)],
  consent_channel: [S.oneOf(CONSENT_CHANNELS), (x, channel) => !!consentOf(x)?.channels.includes(channel)],
});

const receiptsQuery = query({
  since_id: S.str(),
  branch_id: S.int(),
  kind: S.oneOf(RECEIPT_KINDS),
  per_page: PER_PAGE,
});

/**
 * The cursor: oldest first in arrival order after since_id, without those that arrived within the hold-back. It
 * moves past receipts a filter leaves out, so a filtered reader never sees them again.
 */
const listReceipts = (ctx: RouteContext) => {
  const { since_id: sinceId, branch_id: branchId, kind, per_page: perPage } = ctx.query;
  const receipts = cashierOf(ctx).receipts;
  const after = sinceId === undefined ? undefined : receipts.find((r) => r.id === sinceId);
  if (sinceId !== undefined && !after) throw refuse(ctx.lang, 'since_id', 'cursor');
  const visibleUntil = ctx.world.clock.now() - ctx.world.config.holdBackMs;
  const arrived = receipts
    .filter((r) => r.seq > (after?.seq ?? 0) && r.arrived_at_ms <= visibleUntil)
    .sort((a, b) => a.seq - b.seq);
  const data: Receipt[] = [];
  let read = 0;
  for (; read < arrived.length && data.length < perPage; read += 1) {
    const r = arrived[read] as Receipt;
    if ((branchId ?? r.branch_id) === r.branch_id && (kind ?? r.kind) === r.kind) data.push(r);
  }
  return {
    data: data.map(receiptView),
    meta: {
      next_since_id: arrived[read - 1]?.id ?? sinceId ?? null,
      has_more: read < arrived.length,
      per_page: perPage,
    },
  };
};

const zReport = (ctx: RouteContext) => {
  const session = byId(cashierOf(ctx).sessions, ctx.params.id);
  if (session.status !== 'closed') throw new ApiError('session_open', { status: session.status });
  return { data: sessionView(cashierOf(ctx), session, true) };
};

const listStock = list(
  (ctx: RouteContext) => cashierOf(ctx).stock,
  (s, ctx) => stockView(cashierOf(ctx), s),
  (a, b) => a.branch_id - b.branch_id || a.variant_id - b.variant_id,
  {
    branch_id: eq(S.int(), 'branch_id'),
    variant_id: eq(S.int(), 'variant_id'),
    low_only: [S.bool, (s, low) => !low || s.qty <= s.reorder_point],
  },
);

const branches = list((ctx: RouteContext) => cashierOf(ctx).branches, branchView);
const categories = list(
  (ctx: RouteContext) => cashierOf(ctx).categories,
  (c) => ({ ...c }),
);
const item = one((ctx) => cashierOf(ctx).items, itemView, idParam);
const receipt = one((ctx) => cashierOf(ctx).receipts, receiptView);
const order = one((ctx) => cashierOf(ctx).orders, orderView);

export const cashierRoutes: PartnerRoute[] = [
  get('/ping', null, ping),
  get('/branches', 'pos:read', branches),
  get('/categories', 'pos:read', categories),
  get('/items', 'pos:read', listItems),
  post('/items', 'pos:write', createItem),
  get('/items/{id}', 'pos:read', item),
  route('PUT', '/items/{id}', 'pos:write', updateItem),
  get('/customers', 'pos:read', listCustomers),
  get('/receipts', 'pos:read', { schema: receiptsQuery, handle: listReceipts }),
  get('/receipts/{id}', 'pos:read', receipt),
  get('/sessions/{id}/z-report', 'pos:read', zReport),
  get('/stock/levels', 'pos:read', listStock),
  post('/orders', 'pos:orders', createOrder),
  get('/orders/{id}', 'pos:orders', order),
  route('POST', '/orders/{id}/cancel', 'pos:orders', cancelOrder),
  ...webhookRoutes('cashier', 'pos:webhooks'),
];
