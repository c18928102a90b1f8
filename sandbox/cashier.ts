/** The cashier partner interface under /api/partner/v1 (cashier spec §4), route by route. */
import { ITEM_CREATE, ITEM_UPDATE, createItem, updateItem } from './cashier-items';
import { cancelOrder, createOrder, ORDER_WRITE, receiptsAfter } from './cashier-ops';
import {
  CONSENT_CHANNELS,
  RECEIPT_KINDS,
  branchView,
  categoryView,
  consentOf,
  customerView,
  itemView,
  orderView,
  priceListView,
  receiptView,
  stockView,
  zReportView,
} from './cashier-views';
import { ApiError, found, idParam, refuse } from './errors';
import { get, one, post, route, type PartnerRoute, type RouteContext } from './routing';
import { PAGING, PER_PAGE, S, between, instant, pageOf, query, where } from './validate';
import { webhookRoutes } from './webhook-routes';

export const CASHIER_PREFIX = '/api/partner/v1';

const cashierOf = (ctx: RouteContext) => ctx.world.store.cashier;

const paged = <T>(ctx: RouteContext, rows: readonly T[]) => pageOf(rows, ctx.query);

const ping = ({ client, tenant }: RouteContext) => ({
  data: {
    client: { id: client.id, name: client.name, abilities: [...client.abilities] },
    account: { id: tenant.id, name: tenant.name, name_ar: tenant.name_ar },
  },
});
const itemsQuery = query({
  ...PAGING,
  category_id: S.int(),
  updated_since: S.instant,
  sku: S.str(),
  barcode: S.str(),
});

const listItems = (ctx: RouteContext) => {
  const { sku, barcode } = ctx.query;
  const since = instant(ctx.query.updated_since);
  const rows = between(where(cashierOf(ctx).items, ctx.query, 'category_id'), (i) => i.updated_at, since)
    .filter((i) => sku === undefined || i.variants.some((v) => v.sku === sku))
    .filter((i) => barcode === undefined || i.variants.some((v) => v.barcode === barcode))
    .sort((a, b) => a.id - b.id);
  return pageOf(rows.map(itemView), ctx.query);
};

/**
 * consented_only: the latest consent in the ledger is granted (never erased customers); consent_channel narrows
 * to consents covering that channel, alone or together with consented_only.
 */
const customersQuery = query({
  ...PAGING,
  updated_since: S.instant,
  consented_only: S.bool,
  consent_channel: S.oneOf(CONSENT_CHANNELS),
});

const listCustomers = (ctx: RouteContext) => {
  const { consented_only: consentedOnly = false, consent_channel: channel } = ctx.query;
  const rows = between(cashierOf(ctx).customers, (x) => x.updated_at, instant(ctx.query.updated_since))
    .filter((x) => !consentedOnly || !!consentOf(x))
    .filter((x) => channel === undefined || !!consentOf(x)?.channels.includes(channel))
    .sort((a, b) => a.id - b.id);
  return pageOf(rows.map(customerView), ctx.query);
};

/** The cursor: oldest first in arrival order after since_id; recently arrived receipts are held back. */
const receiptsQuery = query({
  since_id: S.str(),
  branch_id: S.int(),
  kind: S.oneOf(RECEIPT_KINDS),
  per_page: PER_PAGE,
});

const listReceipts = (ctx: RouteContext) => {
  const { since_id: sinceId, branch_id: branchId, kind, per_page: perPage } = ctx.query;
  const after = sinceId === undefined ? undefined : cashierOf(ctx).receipts.find((r) => r.id === sinceId);
  if (sinceId !== undefined && !after) {
    throw refuse(ctx.lang, 'since_id', 'cursor');
  }
  const { data, last, hasMore } = receiptsAfter(ctx.world, after?.seq ?? 0, { branchId, kind }, perPage);
  return {
    data: data.map(receiptView),
    meta: { next_since_id: last?.id ?? sinceId ?? null, has_more: hasMore, per_page: perPage },
  };
};

const zReport = (ctx: RouteContext) => {
  const cashier = cashierOf(ctx);
  const session = found(cashier.sessions.find((s) => s.id === ctx.params.id));
  if (session.status !== 'closed') throw new ApiError('session_open', { status: session.status });
  return { data: zReportView(cashier, session) };
};

const stockQuery = query({ ...PAGING, branch_id: S.int(), variant_id: S.int(), low_only: S.bool });

const listStock = (ctx: RouteContext) => {
  const { low_only: lowOnly = false } = ctx.query;
  const cashier = cashierOf(ctx);
  const rows = where(cashier.stock, ctx.query, 'branch_id', 'variant_id')
    .filter((s) => !lowOnly || s.qty <= s.reorder_point)
    .sort((a, b) => a.branch_id - b.branch_id || a.variant_id - b.variant_id);
  return pageOf(
    rows.map((s) => stockView(cashier, s)),
    ctx.query,
  );
};

const pages = { schema: query(PAGING) };

export const cashierRoutes: PartnerRoute[] = [
  get('/ping', null, ping),
  get('/branches', 'pos:read', pages, (ctx) => paged(ctx, cashierOf(ctx).branches.map(branchView))),
  get('/categories', 'pos:read', pages, (ctx) => paged(ctx, cashierOf(ctx).categories.map(categoryView))),
  get('/items', 'pos:read', { schema: itemsQuery }, listItems),
  post('/items', 'pos:write', { schema: ITEM_CREATE }, createItem),
  get(
    '/items/{id}',
    'pos:read',
    one((ctx) => cashierOf(ctx).items, itemView, idParam),
  ),
  route('PUT', '/items/{id}', 'pos:write', { schema: ITEM_UPDATE }, updateItem),
  get('/price-lists', 'pos:read', pages, (ctx) =>
    paged(
      ctx,
      cashierOf(ctx).priceLists.map((pl) => priceListView(pl, cashierOf(ctx).items)),
    ),
  ),
  get('/customers', 'pos:read', { schema: customersQuery }, listCustomers),
  get('/receipts', 'pos:read', { schema: receiptsQuery }, listReceipts),
  get(
    '/receipts/{id}',
    'pos:read',
    one((ctx) => cashierOf(ctx).receipts, receiptView),
  ),
  get('/sessions/{id}/z-report', 'pos:read', zReport),
  get('/stock/levels', 'pos:read', { schema: stockQuery }, listStock),
  post('/orders', 'pos:orders', { schema: ORDER_WRITE }, createOrder),
  get(
    '/orders/{id}',
    'pos:orders',
    one((ctx) => cashierOf(ctx).orders, orderView),
  ),
  route('POST', '/orders/{id}/cancel', 'pos:orders', cancelOrder),
  ...webhookRoutes('cashier', 'pos:webhooks'),
];
