/** What the sandbox-only endpoints show of API clients, the config, the clock, deliveries and the route tables. */
import { CASHIER_PREFIX, cashierRoutes } from './cashier';
import { CLINIC_PREFIX, clinicRoutes } from './clinic';
import { ApiError } from './errors';
import { plannedKey } from './routing';
import type { ApiClientRecord } from './store';
import { deliveryView } from './webhooks';
import type { World } from './world';

export const clientView = (c: ApiClientRecord) => ({
  name: c.key,
  interface: c.api,
  token: c.token,
  tenant_id: c.tenantId,
  client_name: c.name,
  abilities: [...c.abilities],
  owner: c.owner,
  token_revoked: c.tokenRevoked,
  client_revoked: c.clientRevoked,
  note: c.note,
});

export const configView = (w: World) => ({
  rate_limit_per_minute: w.config.rateLimitPerMinute,
  anonymous_rate_limit_per_minute: w.config.anonymousRateLimitPerMinute,
  hold_back_ms: w.config.holdBackMs,
  webhook_limit: w.config.webhookLimit,
  allow_loopback_receivers: w.config.allowLoopbackReceivers,
  delivery_timeout_ms: w.config.deliveryTimeoutMs,
  time_scale: w.clock.timeScale,
  planned: [...w.config.planned],
});

export const clockView = (w: World) => ({
  now: w.clock.now(),
  iso: new Date(w.clock.now()).toISOString(),
  unix_seconds: w.clock.nowSeconds(),
  time_scale: w.clock.timeScale,
  pending_timers: w.clock.pending().map((at) => new Date(at).toISOString()),
});

/** The full delivery, with its body, signature inputs and every attempt: for debugging receivers. */
export const deliveryDetail = (w: World, id: number) => {
  const d = w.store.deliveries.find((x) => x.id === id);
  if (!d) throw new ApiError('not_found');
  return {
    ...deliveryView(d),
    interface: d.api,
    next_attempt_at: d.next_attempt_at,
    created_at: d.created_at,
    body: d.body,
    attempts_log: d.log,
  };
};

/** A minimal OpenAPI 3.0.3 description of both interfaces, generated from the route tables. */
export const openapi = (w: World) => {
  const paths: Record<string, Record<string, unknown>> = {};
  const add = (prefix: string, routes: typeof clinicRoutes, tag: string) => {
    for (const r of routes) {
      const path = `${prefix}${r.path}`;
      paths[path] = paths[path] ?? {};
      (paths[path] as Record<string, unknown>)[r.method.toLowerCase()] = {
        tags: [tag],
        summary: `${r.method} ${r.path}`,
        'x-ability': r.ability ?? 'any',
        ...(r.ownerOnly ? { 'x-owner-only': true } : {}),
        ...(r.plannable
          ? { 'x-plannable': true, 'x-planned': w.config.planned.has(plannedKey(r.method, r.path)) }
          : {}),
        responses: { default: { description: 'JSON; errors are {error, message, details}' } },
      };
    }
  };
  add(CLINIC_PREFIX, clinicRoutes, 'clinic');
  add(CASHIER_PREFIX, cashierRoutes, 'cashier');
  return {
    openapi: '3.0.3',
    info: { title: 'Partner interfaces (local sandbox)', version: '1.0.0' },
    servers: [{ url: w.baseUrl }],
    components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer' } } },
    security: [{ bearer: [] }],
    paths,
  };
};
