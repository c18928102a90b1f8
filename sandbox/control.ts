/**
 * Sandbox-only endpoints under /sandbox (no token, so no ability: `null`): what in life happens on a till, at the
 * front desk or in the back office, plus the knobs the suites turn (tokens, settings, rate limits, deliveries).
 */
import { abilitiesOf } from './auth';
import * as till from './cashier-ops';
import * as view from './cashier-views';
import * as billing from './clinic-billing';
import * as desk from './clinic-ops';
import { byId, idParam, refuse } from './errors';
import { get, post, route, type Route } from './routing';
import { newClient } from './store/records';
import { S, body as schemaBody, op } from './validate';
import { deliveryView } from './webhooks';
import { CONFIG_DEFAULTS, type OpContext, type World } from './world';

export const CONTROL_PREFIX = '/sandbox';

const TOKEN_WRITE = schemaBody(
  { interface: S.oneOf(['clinic', 'cashier']), abilities: S.array(), owner: S.bool, name: S.str(100) },
  ['interface', 'abilities'],
);

/** A setting's name in PATCH /sandbox/config (rateLimitPerMinute: rate_limit_per_minute). */
const settingKey = (name: string) => name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);
const SETTINGS = Object.keys(CONFIG_DEFAULTS) as Array<keyof typeof CONFIG_DEFAULTS>;

/** The settings as PATCH /sandbox/config names them, then the clock's scale and the planned list. */
const configView = (w: World) => ({
  ...Object.fromEntries(SETTINGS.map((k) => [settingKey(k), w.config[k]])),
  time_scale: w.clock.timeScale,
  planned: [...w.config.planned],
});

const CONFIG_WRITE = schemaBody({
  rate_limit_per_minute: S.int({ min: 1 }),
  anonymous_rate_limit_per_minute: S.int({ min: 1 }),
  hold_back_ms: S.int({ min: 0 }),
  webhook_limit: S.int({ min: 0 }),
  allow_loopback_receivers: S.bool,
  delivery_timeout_ms: S.int({ min: 1 }),
  time_scale: S.nonNegative,
});

const BOOKING_AT_DESK = schemaBody({ ...desk.BOOKING, source: S.str() }, desk.BOOKING_REQUIRED);

const data = (value: unknown) => ({ data: value });

const addClient = op(
  TOKEN_WRITE,
  ({ world, lang }: OpContext, { interface: api, abilities, owner = true, name }) => {
    const allowed = abilitiesOf(api);
    if (abilities.some((a) => typeof a !== 'string' || !allowed.includes(a))) {
      throw refuse(lang, 'abilities', 'one_of', { values: allowed.join(', ') });
    }
    const id = (world.store.counters.client += 1);
    const client = newClient(id, {
      tenantId: world.store[api].tenantId,
      api,
      key: name ?? `custom${id}`,
      name: name ?? `Custom client ${id}`,
      token: `sbx_custom_${id}_${world.random.hex(12)}`,
      abilities: abilities as string[],
      owner,
      note: 'created through POST /sandbox/tokens',
    });
    world.store.clients.push(client);
    const { key, token, tenantId: tenant_id } = client;
    return data({ name: key, interface: api, token, tenant_id, abilities: [...client.abilities], owner });
  },
);

const changeConfig = op(CONFIG_WRITE, ({ world }: OpContext, b) => {
  for (const k of SETTINGS) {
    const value = (b as Record<string, unknown>)[settingKey(k)];
    if (value !== undefined) Object.assign(world.config, { [k]: value });
  }
  if (b.time_scale !== undefined) world.clock.setTimeScale(b.time_scale);
  return data(configView(world));
});

export const controlRoutes: Route[] = [
  post('/tokens', null, addClient),
  route('PATCH', '/config', null, changeConfig),
  route('POST', '/rate-limits/reset', null, ({ world }) => world.rateWindows.clear()),
  route('POST', '/deliveries/{id}/resend', null, async ({ world, params }) =>
    data(deliveryView(await world.webhooks.resend(idParam(params.id)))),
  ),
  route('POST', '/deliveries/{id}/redact', null, ({ world, params }) =>
    data(deliveryView(world.webhooks.redact(idParam(params.id)))),
  ),

  /* Clinic: front desk and back office. */
  get('/clinic/patients/{id}', null, ({ world, params }) => {
    const p = byId(world.store.clinic.patients, params.id);
    return data({ ...desk.patientView(p), stored: p });
  }),

  post(
    '/clinic/appointments',
    null,
    op(BOOKING_AT_DESK, (ctx: OpContext, b) => desk.bookAppointment(ctx, null, b.source ?? 'front_desk')),
  ),
  route('PATCH', '/clinic/appointments/{id}', null, desk.changeAppointment),
  post('/clinic/invoices', null, billing.issueInvoice),
  route('POST', '/clinic/invoices/{id}/payments', null, billing.payInvoice),
  post('/clinic/claims', null, billing.createClaim),
  route('PATCH', '/clinic/claims/{id}', null, billing.updateClaim),
  route('POST', '/clinic/patients/{id}/erase', null, desk.erasePatient),

  /* Cashier: tills and back office. */
  post('/cashier/receipts', null, till.issueReceipt),
  post('/cashier/receipts/{id}/credit-note', null, till.issueCreditNote),
  route('POST', '/cashier/sessions/{id}/close', null, till.closeSession),
  get('/cashier/orders', null, ({ world, query }) =>
    data(
      world.store.cashier.orders
        .filter((o) => !query.external_id || o.external_id === query.external_id)
        .map(view.order),
    ),
  ),
  route('POST', '/cashier/orders/{id}/accept', null, till.moveOrder('accepted')),
  route('POST', '/cashier/orders/{id}/status', null, till.moveOrder()),
  route('POST', '/cashier/stock', null, till.setStock),
  post('/cashier/customers', null, till.addCustomer),
];
