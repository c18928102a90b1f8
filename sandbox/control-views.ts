/** What the sandbox-only endpoints show of API clients, the config, the clock, deliveries and the route tables. */
import { CASHIER_PREFIX, cashierRoutes } from './cashier';
import { CLINIC_PREFIX, clinicRoutes } from './clinic';
import { byId } from './errors';
import { plannedKey } from './routing';
import type { ApiClientRecord } from './store';
import { deliveryRecord } from './webhooks';
import { CONFIG_DEFAULTS, settingKey, type Setting, type World } from './world';

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

/** The config's settings as GET and PATCH /sandbox/config name them, then the clock's scale and the planned list. */
export const configView = (w: World) => ({
  ...Object.fromEntries(Object.keys(CONFIG_DEFAULTS).map((k) => [settingKey(k), w.config[k as Setting]])),
  time_scale: w.clock.timeScale,
  planned: [...w.config.planned],
});

/** Sets the settings `values` gives, named as configView names them. */
export const patchConfig = (w: World, values: Record<string, unknown>) => {
  for (const k of Object.keys(CONFIG_DEFAULTS)) {
    const value = values[settingKey(k)];
    if (value !== undefined) Object.assign(w.config, { [k]: value });
  }
};

export const clockView = (w: World) => ({
  now: w.clock.now(),
  iso: new Date(w.clock.now()).toISOString(),
  unix_seconds: w.clock.nowSeconds(),
  time_scale: w.clock.timeScale,
  pending_timers: w.clock.pending().map((at) => new Date(at).toISOString()),
});

/** The full delivery, with its body, signature inputs and every attempt: for debugging receivers. */
export const deliveryDetail = (w: World, id: number) => {
  const d = byId(w.store.deliveries, id);
  return {
    ...deliveryRecord(d),
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
