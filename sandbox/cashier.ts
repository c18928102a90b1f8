/** The cashier partner interface under /api/partner/v1 (cashier spec §4), route by route. */
import { createItem, updateItem } from './cashier-items';
import { cancelOrder, createOrder } from './cashier-ops';
import * as view from './cashier-views';
import { ApiError, idParam, refuse, byId } from './errors';
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

const listItems = list((ctx: RouteContext) => cashierOf(ctx).items, view.item, idOrder, {
  category_id: eq(S.int(), 'category_id'),
  updated_since: since((i) => i.updated_at),
  sku: [S.str(), (i, sku) => i.variants.some((v) => v.sku === sku)],
  barcode: [S.str(), (i, barcode) => i.variants.some((v) => v.barcode === barcode)],
});

/** consent_channel alone also asks for a granted latest consent. */
const listCustomers = list((ctx: RouteContext) => cashierOf(ctx).customers, view.customer, idOrder, {
  updated_since: since((x) => x.updated_at),
  consented_only: [S.bool, (x, only) => !only || !!view.consentOf(x)],
  consent_channel: [S.oneOf(view.CONSENT_CHANNELS), (x, ch) => !!view.consentOf(x)?.channels.includes(ch)],
});

const receiptsQuery = query({
  since_id: S.str(),
  branch_id: S.int(),
  kind: S.oneOf(['simplified', 'standard', 'credit_note']),
  per_page: PER_PAGE,
});

/** The cursor moves past receipts a filter leaves out, so a filtered reader never sees them again. */
const listReceipts = (ctx: RouteContext) => {
  const { since_id: sinceId, branch_id: branchId, kind, per_page: perPage } = ctx.query;
  const receipts = cashierOf(ctx).receipts;
  const after = receipts.find((r) => r.id === sinceId);
  if (sinceId !== undefined && !after) throw refuse(ctx.lang, 'since_id', 'cursor');
  const visibleUntil = ctx.world.clock.now() - ctx.world.config.holdBackMs;
  const arrived = receipts
    .filter((r) => r.seq > (after?.seq ?? 0) && r.arrived_at_ms <= visibleUntil)
    .sort((a, b) => a.seq - b.seq);
  const page = arrived
    .filter((r) => (branchId ?? r.branch_id) === r.branch_id && (kind ?? r.kind) === r.kind)
    .slice(0, perPage);
  const read = page.length < perPage ? arrived.length : arrived.findIndex((r) => r === page.at(-1)) + 1;
  return {
    data: page.map(view.receipt),
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
  return { data: view.session(cashierOf(ctx), session, true) };
};

const listStock = list(
  (ctx: RouteContext) => cashierOf(ctx).stock,
  (s, ctx) => view.stock(cashierOf(ctx), s),
  (a, b) => a.branch_id - b.branch_id || a.variant_id - b.variant_id,
  {
    branch_id: eq(S.int(), 'branch_id'),
    variant_id: eq(S.int(), 'variant_id'),
    low_only: [S.bool, (s, low) => !low || s.qty <= s.reorder_point],
  },
);

const branches = list((ctx: RouteContext) => cashierOf(ctx).branches, view.branch);
const categories = list((ctx: RouteContext) => cashierOf(ctx).categories, view.category);
const item = one((ctx) => cashierOf(ctx).items, view.item, idParam);
const receipt = one((ctx) => cashierOf(ctx).receipts, view.receipt);
const order = one((ctx) => cashierOf(ctx).orders, view.order);

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
