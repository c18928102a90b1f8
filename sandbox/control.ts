/**
 * Sandbox-only endpoints under /sandbox: what in life happens on a till, at the front desk or in the back
 * office, plus the sandbox's own knobs (clock, config, planned endpoints, faults, tokens). No token needed.
 * Answers that made events carry them: `{data, events: [{event, event_id, deliveries}]}`; add `?wait=true` to
 * answer only after the first delivery attempts are done.
 */
import type { FastifyInstance, FastifySchema } from 'fastify';
import { abilitiesOf } from './auth';
import {
  addCustomer,
  closeSession,
  CONSENT_WRITE,
  CREDIT_NOTE_WRITE,
  CUSTOMER_WRITE,
  issueCreditNote,
  issueReceipt,
  moveOrder,
  ORDER_MOVE,
  RECEIPT_WRITE,
  recordConsent,
  SESSION_CLOSE,
  setStock,
  STOCK_WRITE,
} from './cashier-ops';
import { customerView, orderView, receiptView, sessionView, stockView } from './cashier-views';
import { CASHIER_PREFIX } from './cashier';
import { CLINIC_PREFIX, plannableEndpoints } from './clinic';
import { createClaim, issueInvoice, payInvoice, updateClaim, voidInvoice } from './clinic-billing';
import {
  appointmentView,
  BOOKING,
  BOOKING_REQUIRED,
  bookAppointment,
  type Booking,
  changeAppointment,
  claimView,
  erasePatient,
  invoiceView,
  patientView,
} from './clinic-ops';
import { ApiError, codeTable, languageOf, type Lang } from './errors';
import { makeFault } from './faults';
import {
  checked,
  sendError,
  sendJson,
  validation,
  type Answer,
  type Method,
  type RouteContext,
} from './routing';
import type { Api, ApiClientRecord } from './store';
import { BodyReader } from './body-reader';
import { S, body as schemaBody } from './validate';
import { clientView, clockView, configView, deliveryDetail, openapi } from './control-views';
import { deliveryView, subscriptionView, type Emitted } from './webhooks';
import { FAULT_KINDS, type World } from './world';

export const CONTROL_PREFIX = '/sandbox';
export { clientView };

interface ControlContext {
  world: World;
  lang: Lang;
  params: Record<string, string>;
  query: RouteContext['query'];
  body: unknown;
}

type Handler = (ctx: ControlContext) => Answer | Promise<Answer>;

/** Hooks the server gives the control endpoints for what only it can do. */
export interface ControlHooks {
  reset: () => Promise<void>;
  resetRateLimits: () => void;
  clientsView: () => unknown[];
}

const withEvents = (data: unknown, events: Emitted[]): Answer => ({ body: { data, events } });

const int = (raw: string | undefined): number => {
  if (!raw || !/^\d+$/.test(raw)) throw new ApiError('not_found');
  return Number(raw);
};

const routes = (hooks: ControlHooks): Array<[Method, string, Handler, FastifySchema?]> => [
  [
    'GET',
    '',
    ({ world }) => ({
      body: {
        data: {
          clinic_base_url: `${world.baseUrl}${CLINIC_PREFIX}`,
          cashier_base_url: `${world.baseUrl}${CASHIER_PREFIX}`,
          tokens: hooks.clientsView(),
          refs: world.store.refs,
          config: configView(world),
          clock: clockView(world),
          plannable_endpoints: plannableEndpoints(),
          error_codes: codeTable(),
          readme: 'sandbox/README.md',
        },
      },
    }),
  ],
  ['GET', '/openapi.json', ({ world }) => ({ body: openapi(world) })],
  ['GET', '/tokens', () => ({ body: { data: hooks.clientsView() } })],
  [
    'POST',
    '/tokens',
    ({ world, lang, body }) => {
      const r = new BodyReader(body, lang);
      const api = r.oneOf('interface', ['clinic', 'cashier'] as const, { required: true });
      const abilities = r.array('abilities', { required: true });
      const owner = r.bool('owner') ?? true;
      const name = r.string('name', { max: 100 });
      const allowed = api ? abilitiesOf(api) : [];
      if (abilities?.some((a) => typeof a !== 'string' || !allowed.includes(a))) {
        r.c.add('abilities', 'one_of', { values: allowed.join(', ') });
      }
      r.done();
      const store = world.store;
      store.counters.client += 1;
      const id = store.counters.client;
      const client: ApiClientRecord = {
        id,
        tenantId: api === 'clinic' ? store.clinic.tenantId : store.cashier.tenantId,
        api: api as Api,
        key: name ?? `custom${id}`,
        name: name ?? `Custom client ${id}`,
        token: `sbx_custom_${id}_${world.random.hex(12)}`,
        abilities: (abilities ?? []) as string[],
        owner,
        tokenRevoked: false,
        clientRevoked: false,
        provider: 'partner',
        note: 'created through POST /sandbox/tokens',
      };
      store.clients.push(client);
      return { status: 201, body: { data: clientView(client) } };
    },
  ],
  [
    'POST',
    '/tokens/{token}/revoke',
    ({ world, lang, params, body }) => {
      const client = world.store.clients.find((c) => c.token === params.token || c.key === params.token);
      if (!client) throw new ApiError('not_found');
      const r = new BodyReader(body, lang, { optional: true });
      const what = r.oneOf('what', ['token', 'client'] as const) ?? 'token';
      r.done();
      if (what === 'token') client.tokenRevoked = true;
      else client.clientRevoked = true;
      return { body: { data: clientView(client) } };
    },
  ],
  ['GET', '/refs', ({ world }) => ({ body: { data: world.store.refs } })],
  ['GET', '/config', ({ world }) => ({ body: { data: configView(world) } })],
  [
    'PATCH',
    '/config',
    ({ world, lang, body }) => {
      const r = new BodyReader(body, lang);
      const rate = r.int('rate_limit_per_minute', { min: 1 });
      const anon = r.int('anonymous_rate_limit_per_minute', { min: 1 });
      const hold = r.int('hold_back_ms', { min: 0 });
      const limit = r.int('webhook_limit', { min: 0 });
      const loopback = r.bool('allow_loopback_receivers');
      const timeout = r.int('delivery_timeout_ms', { min: 1 });
      const scale =
        typeof r.obj.time_scale === 'number' && r.obj.time_scale >= 0 ? r.obj.time_scale : undefined;
      if (r.has('time_scale') && scale === undefined) r.c.add('time_scale', 'min', { min: 0 });
      r.done();
      const c = world.config;
      if (rate !== undefined) c.rateLimitPerMinute = rate;
      if (anon !== undefined) c.anonymousRateLimitPerMinute = anon;
      if (hold !== undefined) c.holdBackMs = hold;
      if (limit !== undefined) c.webhookLimit = limit;
      if (loopback !== undefined) c.allowLoopbackReceivers = loopback;
      if (timeout !== undefined) c.deliveryTimeoutMs = timeout;
      if (scale !== undefined) world.clock.setTimeScale(scale);
      return { body: { data: configView(world) } };
    },
  ],
  [
    'GET',
    '/planned',
    ({ world }) => ({
      body: { data: { planned: [...world.config.planned], plannable: plannableEndpoints() } },
    }),
  ],
  [
    'POST',
    '/planned',
    ({ world, lang, body }) => {
      const r = new BodyReader(body, lang);
      const raw = r.string('endpoint', { required: true });
      const planned = r.bool('planned') ?? true;
      const endpoint = raw
        ?.trim()
        .replace(/\s+/, ' ')
        .replace(/^(\w+)/, (m) => m.toUpperCase());
      if (endpoint && !plannableEndpoints().includes(endpoint)) {
        r.c.add('endpoint', 'one_of', { values: plannableEndpoints().join(', ') });
      }
      r.done();
      if (endpoint) {
        if (planned) world.config.planned.add(endpoint);
        else world.config.planned.delete(endpoint);
      }
      return { body: { data: { planned: [...world.config.planned] } } };
    },
  ],
  [
    'POST',
    '/rate-limits/reset',
    () => {
      hooks.resetRateLimits();
      return { status: 204 };
    },
  ],
  ['GET', '/clock', ({ world }) => ({ body: { data: clockView(world) } })],
  [
    'POST',
    '/clock/advance',
    async ({ world, lang, body }) => {
      const r = new BodyReader(body, lang);
      const ms = r.int('ms', { min: 0 });
      const seconds = r.int('seconds', { min: 0 });
      if (ms === undefined && seconds === undefined) r.c.add('ms', 'required');
      r.done();
      await world.clock.advance(ms ?? (seconds ?? 0) * 1000);
      await world.webhooks.settle();
      return { body: { data: clockView(world) } };
    },
  ],
  [
    'POST',
    '/reset',
    async () => {
      await hooks.reset();
      return { status: 204 };
    },
  ],
  [
    'GET',
    '/subscriptions',
    ({ world }) => ({
      body: {
        data: world.store.subscriptions.map((s) => ({
          ...subscriptionView(s),
          interface: s.api,
          client_id: s.clientId,
          secret: s.secret,
        })),
      },
    }),
  ],
  [
    'GET',
    '/deliveries',
    ({ world, query }) => {
      const list = world.store.deliveries
        .filter((d) => !query.subscription_id || String(d.subscription_id) === query.subscription_id)
        .filter((d) => !query.event || d.event === query.event)
        .filter((d) => !query.status || d.status === query.status)
        .filter((d) => !query.interface || d.api === query.interface)
        .map((d) => ({ ...deliveryView(d), interface: d.api, next_attempt_at: d.next_attempt_at }));
      return { body: { data: list } };
    },
  ],
  [
    'GET',
    '/deliveries/{id}',
    ({ world, params }) => ({ body: { data: deliveryDetail(world, int(params.id)) } }),
  ],
  [
    'POST',
    '/deliveries/{id}/resend',
    async ({ world, params }) => ({
      body: { data: deliveryView(await world.webhooks.resend(int(params.id))) },
    }),
  ],
  [
    'POST',
    '/deliveries/{id}/redact',
    ({ world, params }) => ({
      body: { data: deliveryView(world.webhooks.redact(int(params.id))) },
    }),
  ],
  [
    'POST',
    '/faults',
    ({ world, lang, body }) => {
      const r = new BodyReader(body, lang);
      const prefix = r.string('path_prefix', { required: true });
      const kind = r.oneOf('kind', FAULT_KINDS) ?? 'status';
      const when = r.oneOf('when', ['before', 'after'] as const);
      const method = r.oneOf('method', ['GET', 'POST', 'PUT', 'DELETE'] as const);
      const status = r.int('status', {
        required: kind === 'status',
        min: kind === 'status' ? 400 : 200,
        max: 599,
      });
      const error = r.string('error', { max: 100 });
      const token = r.string('token', { max: 200 });
      const times = r.int('times', { min: 1 }) ?? 1;
      const delay = r.int('delay_ms', { min: 0, max: 60_000 });
      const raw = r.string('body', { max: 10_000 });
      r.done();
      const fault = makeFault(world, {
        pathPrefix: prefix ?? '',
        kind,
        when,
        method,
        status,
        error,
        token,
        times,
        delayMs: delay,
        body: raw,
      });
      return { status: 201, body: { data: fault } };
    },
  ],
  ['GET', '/faults', ({ world }) => ({ body: { data: world.faults.map((f) => ({ ...f })) } })],
  [
    'DELETE',
    '/faults',
    ({ world }) => {
      world.faults.length = 0;
      return { status: 204 };
    },
  ],
  [
    'GET',
    '/requests',
    ({ world }) => {
      const counts = new Map<string, number>();
      for (const r of world.requests) {
        const key = `${r.method} ${r.path} ${r.tokenName ?? r.token ?? '-'}`;
        counts.set(key, (counts.get(key) ?? 0) + 1);
      }
      return { body: { data: { total: world.requests.length, by_request: Object.fromEntries(counts) } } };
    },
  ],
  [
    'DELETE',
    '/requests',
    ({ world }) => {
      world.requests.length = 0;
      return { status: 204 };
    },
  ],

  /* Clinic: front desk and back office. */
  [
    'GET',
    '/clinic/reference',
    ({ world }) => {
      const c = world.store.clinic;
      return {
        body: {
          data: {
            branches: c.branches,
            practitioners: c.practitioners,
            appointment_types: c.appointmentTypes,
            rooms: c.rooms,
            payers: c.payers,
          },
        },
      };
    },
  ],
  [
    'GET',
    '/clinic/patients/{id}',
    ({ world, params }) => {
      const p = world.store.clinic.patients.find((x) => x.id === params.id);
      if (!p) throw new ApiError('not_found');
      return { body: { data: { ...patientView(p), stored: p } } };
    },
  ],
  [
    'POST',
    '/clinic/appointments',
    ({ world, lang, body }) => {
      const b = body as Booking & { source?: string };
      const result = bookAppointment(world, lang, null, b, b.source ?? 'front_desk');
      return { status: 201, ...withEvents(appointmentView(result.appointment), result.events) };
    },
    schemaBody({ ...BOOKING, source: S.str() }, BOOKING_REQUIRED),
  ],
  [
    'PATCH',
    '/clinic/appointments/{id}',
    ({ world, lang, params, body }) => {
      const { appointment, events } = changeAppointment(world, lang, params.id ?? '', body);
      return withEvents(appointmentView(appointment), events);
    },
  ],
  [
    'POST',
    '/clinic/invoices',
    ({ world, lang, body }) => {
      const { invoice, events } = issueInvoice(world, lang, body);
      return { status: 201, ...withEvents(invoiceView(invoice, 'event'), events) };
    },
  ],
  [
    'POST',
    '/clinic/invoices/{id}/payments',
    ({ world, lang, params, body }) => {
      const { invoice, events } = payInvoice(world, lang, params.id ?? '', body);
      return withEvents(invoiceView(invoice, 'event'), events);
    },
  ],
  [
    'POST',
    '/clinic/invoices/{id}/void',
    ({ world, params }) => {
      const { invoice, events } = voidInvoice(world, params.id ?? '');
      return withEvents(invoiceView(invoice, 'event'), events);
    },
  ],
  [
    'POST',
    '/clinic/claims',
    ({ world, lang, body }) => {
      const { claim, events } = createClaim(world, lang, body);
      return { status: 201, ...withEvents(claimView(claim), events) };
    },
  ],
  [
    'PATCH',
    '/clinic/claims/{id}',
    ({ world, lang, params, body }) => {
      const { claim, events } = updateClaim(world, lang, params.id ?? '', body);
      return withEvents(claimView(claim), events);
    },
  ],
  [
    'POST',
    '/clinic/patients/{id}/erase',
    ({ world, params }) => {
      const { patient, events } = erasePatient(world, params.id ?? '');
      return withEvents(patientView(patient), events);
    },
  ],

  /* Cashier: tills and back office. */
  [
    'POST',
    '/cashier/receipts',
    ({ world, lang, body }) => {
      const { receipt, events } = issueReceipt(world, lang, body);
      return { status: 201, ...withEvents(receiptView(receipt), events) };
    },
    RECEIPT_WRITE,
  ],
  [
    'POST',
    '/cashier/receipts/{id}/credit-note',
    ({ world, lang, params, body }) => {
      const { receipt, events } = issueCreditNote(world, lang, params.id ?? '', body);
      return { status: 201, ...withEvents(receiptView(receipt), events) };
    },
    CREDIT_NOTE_WRITE,
  ],
  [
    'GET',
    '/cashier/sessions',
    ({ world }) => ({
      body: { data: world.store.cashier.sessions.map((s) => sessionView(world.store.cashier, s)) },
    }),
  ],
  [
    'POST',
    '/cashier/sessions/{id}/close',
    ({ world, params, body }) => {
      const { session, next_session, events } = closeSession(world, params.id ?? '', body);
      const cashier = world.store.cashier;
      return {
        body: {
          data: sessionView(cashier, session),
          next_session: sessionView(cashier, next_session),
          events,
        },
      };
    },
    SESSION_CLOSE,
  ],
  [
    'GET',
    '/cashier/orders',
    ({ world, query }) => ({
      body: {
        data: world.store.cashier.orders
          .filter((o) => !query.external_id || o.external_id === query.external_id)
          .map(orderView),
      },
    }),
  ],
  [
    'POST',
    '/cashier/orders/{id}/accept',
    ({ world, lang, params, body }) => {
      const { order, events } = moveOrder(world, lang, params.id ?? '', body, 'accepted');
      return withEvents(orderView(order), events);
    },
    ORDER_MOVE,
  ],
  [
    'POST',
    '/cashier/orders/{id}/status',
    ({ world, lang, params, body }) => {
      const { order, events } = moveOrder(world, lang, params.id ?? '', body);
      return withEvents(orderView(order), events);
    },
    ORDER_MOVE,
  ],
  [
    'POST',
    '/cashier/stock',
    ({ world, lang, body }) => {
      const { stock_level, events } = setStock(world, lang, body);
      return withEvents(stockView(world.store.cashier, stock_level), events);
    },
    STOCK_WRITE,
  ],
  [
    'POST',
    '/cashier/customers',
    ({ world, lang, body }) => {
      const { customer, events } = addCustomer(world, lang, body);
      return { status: 201, ...withEvents(customerView(customer), events) };
    },
    CUSTOMER_WRITE,
  ],
  [
    'POST',
    '/cashier/customers/{id}/consent',
    ({ world, lang, params, body }) => {
      const { customer } = recordConsent(world, lang, int(params.id), body);
      return { body: { data: customerView(customer) } };
    },
    CONSENT_WRITE,
  ],
];

export const mountControl = (app: FastifyInstance, world: () => World, hooks: ControlHooks): void => {
  for (const [method, path, handle, schema] of routes(hooks)) {
    app.route({
      method,
      url: CONTROL_PREFIX + path.replace(/\{(\w+)\}/g, ':$1'),
      ...validation(schema),
      handler: async (req, reply) => {
        const lang = languageOf(req.headers['accept-language']);
        const w = world();
        try {
          checked(req, lang);
          const query = (req.query ?? {}) as RouteContext['query'];
          const answer = await handle({
            world: w,
            lang,
            params: (req.params ?? {}) as Record<string, string>,
            query,
            body: req.body,
          });
          if (query.wait === 'true') await w.webhooks.settle();
          return sendJson(reply, answer.status ?? 200, answer.body);
        } catch (err) {
          if (err instanceof ApiError) return sendError(reply, err, lang);
          w.log(`control: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
          return sendJson(reply, 500, { error: 'internal_error', message: String(err), details: {} });
        }
      },
    });
  }
};
