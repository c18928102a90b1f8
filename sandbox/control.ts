/**
 * Sandbox-only endpoints under /sandbox: what in life happens on a till, at the front desk or in the back
 * office, plus the knobs the suites turn (config, planned endpoints, faults, tokens). No token needed.
 * Answers that made events carry them: `{data, events: [{event, event_id, deliveries}]}`; `?wait=true` answers
 * only after the first delivery attempts are done.
 */
import type { FastifyInstance } from 'fastify';
import { abilitiesOf } from './auth';
import { addCustomer, closeSession, issueCreditNote, issueReceipt, moveOrder, setStock } from './cashier-ops';
import * as view from './cashier-views';
import { plannableEndpoints } from './clinic';
import { createClaim, issueInvoice, payInvoice, updateClaim } from './clinic-billing';
import {
  BOOKING,
  BOOKING_REQUIRED,
  bookAppointment,
  changeAppointment,
  erasePatient,
  patientView,
} from './clinic-ops';
import { Checker, idParam, refuse, byId } from './errors';
import { makeFault } from './faults';
import { mount, type Method, type Route } from './routing';
import type { ApiClientRecord } from './store';
import { newClient } from './store/records';
import { S, body as schemaBody, op } from './validate';
import { deliveryView } from './webhooks';
import { CONFIG_DEFAULTS, FAULT_KINDS, settingKey, type OpContext, type Setting, type World } from './world';

export const CONTROL_PREFIX = '/sandbox';

type Handler = Route<OpContext>['handle'];

/** A control route: method, path, its handler or an operation declared with its schema (`op`), and its status. */
const route = (
  method: Method,
  path: string,
  r: Handler | Pick<Route<OpContext>, 'schema' | 'handle'>,
  status?: number,
): Route<OpContext> => ({ method, path, status, ...(typeof r === 'function' ? { handle: r } : r) });

/** An operation that makes an object (or a record of something done): 201. */
const MADE = 201;

const TOKEN_WRITE = schemaBody(
  { interface: S.oneOf(['clinic', 'cashier']), abilities: S.array(), owner: S.bool, name: S.str(100) },
  ['interface', 'abilities'],
);
const PLANNED_WRITE = schemaBody({ endpoint: S.str(), planned: S.bool }, ['endpoint']);
const FAULT_WRITE = schemaBody(
  {
    path_prefix: S.str(),
    kind: S.oneOf(FAULT_KINDS),
    when: S.oneOf(['before', 'after']),
    method: S.oneOf(['GET', 'POST', 'PUT', 'DELETE']),
    status: S.int({ min: 200, max: 599 }),
    error: S.str(100),
    token: S.str(200),
    times: S.int({ min: 1 }),
    delay_ms: S.int({ min: 0, max: 60_000 }),
    body: S.str(10_000),
  },
  ['path_prefix'],
);

const clientView = (c: ApiClientRecord) => ({
  name: c.key,
  interface: c.api,
  token: c.token,
  tenant_id: c.tenantId,
  abilities: [...c.abilities],
  owner: c.owner,
});

/** The settings as PATCH /sandbox/config names them, then the clock's scale and the planned list. */
const configView = (w: World) => ({
  ...Object.fromEntries(Object.keys(CONFIG_DEFAULTS).map((k) => [settingKey(k), w.config[k as Setting]])),
  time_scale: w.clock.timeScale,
  planned: [...w.config.planned],
});

const BOOKING_AT_DESK = schemaBody({ ...BOOKING, source: S.str() }, BOOKING_REQUIRED);

const data = (value: unknown) => ({ data: value });

const routes = (resetRateLimits: () => void): Array<Route<OpContext>> => [
  route(
    'POST',
    '/tokens',
    op(TOKEN_WRITE, ({ world, lang }: OpContext, { interface: api, abilities, owner = true, name }) => {
      const allowed = abilitiesOf(api);
      if (abilities.some((a) => typeof a !== 'string' || !allowed.includes(a))) {
        throw refuse(lang, 'abilities', 'one_of', { values: allowed.join(', ') });
      }
      const store = world.store;
      store.counters.client += 1;
      const id = store.counters.client;
      const client = newClient(id, {
        tenantId: store[api].tenantId,
        api,
        key: name ?? `custom${id}`,
        name: name ?? `Custom client ${id}`,
        token: `sbx_custom_${id}_${world.random.hex(12)}`,
        abilities: abilities as string[],
        owner,
        note: 'created through POST /sandbox/tokens',
      });
      store.clients.push(client);
      return data(clientView(client));
    }),
    MADE,
  ),
  route(
    'PATCH',
    '/config',
    op(
      schemaBody({
        rate_limit_per_minute: S.int({ min: 1 }),
        anonymous_rate_limit_per_minute: S.int({ min: 1 }),
        hold_back_ms: S.int({ min: 0 }),
        webhook_limit: S.int({ min: 0 }),
        allow_loopback_receivers: S.bool,
        delivery_timeout_ms: S.int({ min: 1 }),
        time_scale: S.nonNegative,
      }),
      ({ world }: OpContext, b) => {
        for (const k of Object.keys(CONFIG_DEFAULTS)) {
          const value = (b as Record<string, unknown>)[settingKey(k)];
          if (value !== undefined) Object.assign(world.config, { [k]: value });
        }
        if (b.time_scale !== undefined) world.clock.setTimeScale(b.time_scale);
        return data(configView(world));
      },
    ),
  ),
  route(
    'POST',
    '/planned',
    op(PLANNED_WRITE, ({ world, lang }: OpContext, { endpoint: raw, planned = true }) => {
      const endpoint = raw
        .trim()
        .replace(/\s+/, ' ')
        .replace(/^(\w+)/, (m) => m.toUpperCase());
      if (!plannableEndpoints().includes(endpoint)) {
        throw refuse(lang, 'endpoint', 'one_of', { values: plannableEndpoints().join(', ') });
      }
      if (planned) world.config.planned.add(endpoint);
      else world.config.planned.delete(endpoint);
      return data({ planned: [...world.config.planned] });
    }),
  ),
  route('POST', '/rate-limits/reset', resetRateLimits),
  route('POST', '/deliveries/{id}/resend', async ({ world, params }) =>
    data(deliveryView(await world.webhooks.resend(idParam(params.id)))),
  ),
  route('POST', '/deliveries/{id}/redact', ({ world, params }) =>
    data(deliveryView(world.webhooks.redact(idParam(params.id)))),
  ),

  route(
    'POST',
    '/faults',
    op(FAULT_WRITE, ({ world, lang }: OpContext, b) => {
      const { kind = 'status', status } = b;
      const c = new Checker(lang);
      if (kind === 'status' && status === undefined) c.add('status', 'required');
      else if (kind === 'status' && status !== undefined && status < 400) {
        c.add('status', 'range', { min: 400, max: 599 });
      }
      c.done();
      const { path_prefix: pathPrefix, times = 1, delay_ms: delayMs, ...rest } = b;
      return data(makeFault(world, { ...rest, pathPrefix, kind, status, times, delayMs }));
    }),
    MADE,
  ),
  route('GET', '/faults', ({ world }) => data(world.faults.map((f) => ({ ...f })))),
  route('DELETE', '/faults', ({ world }) => {
    world.faults.length = 0;
  }),
  /* Clinic: front desk and back office. */
  route('GET', '/clinic/patients/{id}', ({ world, params }) => {
    const p = byId(world.store.clinic.patients, params.id);
    return data({ ...patientView(p), stored: p });
  }),

  route(
    'POST',
    '/clinic/appointments',
    op(BOOKING_AT_DESK, (ctx: OpContext, b) => bookAppointment(ctx, null, b.source ?? 'front_desk')),
    MADE,
  ),
  route('PATCH', '/clinic/appointments/{id}', changeAppointment),
  route('POST', '/clinic/invoices', issueInvoice, MADE),
  route('POST', '/clinic/invoices/{id}/payments', payInvoice),
  route('POST', '/clinic/claims', createClaim, MADE),
  route('PATCH', '/clinic/claims/{id}', updateClaim),
  route('POST', '/clinic/patients/{id}/erase', erasePatient),

  /* Cashier: tills and back office. */
  route('POST', '/cashier/receipts', issueReceipt, MADE),
  route('POST', '/cashier/receipts/{id}/credit-note', issueCreditNote, MADE),
  route('POST', '/cashier/sessions/{id}/close', closeSession),
  route('GET', '/cashier/orders', ({ world, query }) =>
    data(
      world.store.cashier.orders
        .filter((o) => !query.external_id || o.external_id === query.external_id)
        .map(view.order),
    ),
  ),
  route('POST', '/cashier/orders/{id}/accept', moveOrder('accepted')),
  route('POST', '/cashier/orders/{id}/status', moveOrder()),
  route('POST', '/cashier/stock', setStock),
  route('POST', '/cashier/customers', addCustomer, MADE),
];

export const mountControl = (app: FastifyInstance, world: () => World, resetRateLimits: () => void): void =>
  mount(app, world, CONTROL_PREFIX, routes(resetRateLimits));
