/**
 * The webhook endpoints of both interfaces (clinic spec §4 "Webhooks", cashier spec §6), declared once: list,
 * create, the event catalogue, read and delete; the clinic's are the owner's only and add its recent events,
 * PUT, rotate and test.
 */
import { byId, idParam } from './errors';
import { route as partnerRoute, type Method, type PartnerRoute, type RouteContext } from './routing';
import type { Api, Subscription } from './store/types';
import { PAGING, S, pageOf, query } from './validate';
import { CATALOGUES, deliveryView, sampleFor, subscriptionView, webhookWrite } from './webhooks';

type Handle = PartnerRoute['handle'];

const RECENT = { schema: query({ limit: S.int({ min: 1, max: 25 }, 3) }) };

export const webhookRoutes = (api: Api, ability: string, recent?: Handle): PartnerRoute[] => {
  const clinic = api === 'clinic';
  const route = (method: Method, path: string, extra: Partial<PartnerRoute>, handle: Handle) =>
    partnerRoute(method, path, ability, handle, { ownerOnly: clinic, ...extra });
  const tenantOf = (ctx: RouteContext) => ctx.world.store[api].tenantId;
  const mine = (ctx: RouteContext) =>
    byId(ctx.world.webhooks.list(api, tenantOf(ctx)), idParam(ctx.params.id));
  const withSecret = (sub: Subscription) => ({ id: sub.id, secret: sub.secret, data: subscriptionView(sub) });
  const clinicOnly = (...routes: PartnerRoute[]) => (clinic ? routes : []);
  return [
    route('GET', '/webhooks', { schema: query(PAGING) }, (ctx) =>
      pageOf(ctx.world.webhooks.list(api, tenantOf(ctx)).map(subscriptionView), ctx.query),
    ),
    route('POST', '/webhooks', { schema: webhookWrite(api), status: 201 }, (ctx) =>
      withSecret(ctx.world.webhooks.create(api, ctx.client, ctx.body, ctx.lang)),
    ),
    route('GET', '/webhooks/events', {}, (ctx) => ({
      data: Object.entries(CATALOGUES[api]).map(([event, info]) => ({
        event,
        ...(clinic ? { ability: info.ability } : {}),
        sample: sampleFor(api, event, tenantOf(ctx)),
      })),
    })),
    ...(recent ? [route('GET', '/webhooks/events/{event}/recent', RECENT, recent)] : []),
    route('GET', '/webhooks/{id}', {}, (ctx) => ({ data: subscriptionView(mine(ctx)) })),
    ...clinicOnly(
      route('PUT', '/webhooks/{id}', { schema: webhookWrite(api, true) }, (ctx) => ({
        data: subscriptionView(ctx.world.webhooks.update(mine(ctx), ctx.client, ctx.body, ctx.lang)),
      })),
    ),
    route('DELETE', '/webhooks/{id}', {}, (ctx) => ctx.world.webhooks.remove(mine(ctx))),
    ...clinicOnly(
      route('POST', '/webhooks/{id}/rotate', {}, (ctx) => withSecret(ctx.world.webhooks.rotate(mine(ctx)))),
      route('POST', '/webhooks/{id}/test', {}, async (ctx) => ({
        data: deliveryView(await ctx.world.webhooks.test(mine(ctx), ctx.lang)),
      })),
    ),
  ];
};
