/**
 * The webhook endpoints of both interfaces (clinic spec §4 "Webhooks", cashier spec §6), declared once: list,
 * create, the event catalogue, read and delete; the clinic's are the owner's only and add its recent events,
 * PUT, rotate and test.
 */
import { catalogueOf, sampleFor } from './events';
import type { PartnerRoute, RouteContext } from './routing';
import type { Api } from './store/types';
import { PAGING, S, pageOf, query } from './validate';
import { deliveryView, subscriptionView, webhookWrite } from './webhooks';

export const webhookRoutes = (api: Api, ability: string, recent?: PartnerRoute['handle']): PartnerRoute[] => {
  const clinic = api === 'clinic';
  const tenantOf = (ctx: RouteContext) => ctx.world.store[api].tenantId;
  const mine = (ctx: RouteContext) => ctx.world.webhooks.find(api, tenantOf(ctx), ctx.params.id ?? '');
  const route = (
    method: PartnerRoute['method'],
    path: string,
    handle: PartnerRoute['handle'],
    extra = {},
  ) => ({
    method,
    path,
    ability,
    handle,
    ...(clinic ? { ownerOnly: true } : {}),
    ...extra,
  });
  const withSecret = (sub: ReturnType<typeof mine>) => ({
    id: sub.id,
    secret: sub.secret,
    data: subscriptionView(sub),
  });
  return [
    route(
      'GET',
      '/webhooks',
      (ctx) => ({
        body: pageOf(ctx.world.webhooks.list(api, tenantOf(ctx)).map(subscriptionView), ctx.query),
      }),
      { schema: query(PAGING) },
    ),
    route(
      'POST',
      '/webhooks',
      (ctx) => ({
        status: 201,
        body: withSecret(ctx.world.webhooks.create(api, ctx.client, ctx.body, ctx.lang)),
      }),
      { schema: webhookWrite(api) },
    ),
    route('GET', '/webhooks/events', (ctx) => ({
      body: {
        data: Object.entries(catalogueOf(api)).map(([event, info]) => ({
          event,
          ...(clinic ? { ability: info.ability } : {}),
          sample: sampleFor(api, event, tenantOf(ctx)),
        })),
      },
    })),
    ...(recent
      ? [
          route('GET', '/webhooks/events/{event}/recent', recent, {
            schema: query({ limit: S.int({ min: 1, max: 25 }, 3) }),
          }),
        ]
      : []),
    route('GET', '/webhooks/{id}', (ctx) => ({ body: { data: subscriptionView(mine(ctx)) } })),
    ...(clinic
      ? [
          route(
            'PUT',
            '/webhooks/{id}',
            (ctx) => ({
              body: {
                data: subscriptionView(ctx.world.webhooks.update(mine(ctx), ctx.client, ctx.body, ctx.lang)),
              },
            }),
            { schema: webhookWrite(api, true) },
          ),
        ]
      : []),
    route('DELETE', '/webhooks/{id}', (ctx) => {
      ctx.world.webhooks.remove(mine(ctx));
      return { status: 204 };
    }),
    ...(clinic
      ? [
          route('POST', '/webhooks/{id}/rotate', (ctx) => ({
            body: withSecret(ctx.world.webhooks.rotate(mine(ctx))),
          })),
          route('POST', '/webhooks/{id}/test', async (ctx) => ({
            body: { data: deliveryView(await ctx.world.webhooks.test(mine(ctx), ctx.lang)) },
          })),
        ]
      : []),
  ];
};
