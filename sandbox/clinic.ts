/** The clinic partner interface under /partner/v1 (clinic spec §4), route by route. */
import { abilitiesOf } from './auth';
import DELIVERY_RULES from './data/delivery-rules.json';
import * as ops from './clinic-ops';
import { get, one, post, route, type PartnerRoute, type RouteContext } from './routing';
import { PER_PAGE_DEFAULT, PER_PAGE_MAX, S, eq, list, since, sinceDay, until, untilDay } from './validate';
import { API_VERSION, CLINIC_EVENTS } from './webhooks';
import { webhookRoutes } from './webhook-routes';

export const CLINIC_PREFIX = '/partner/v1';

/** By a time, then by id: a total order, so a page boundary between objects of the same time is stable. */
const byTime =
  <T extends { id: string }>(key: (x: T) => string) =>
  (a: T, b: T) =>
    Date.parse(key(a)) - Date.parse(key(b)) || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

const ping = ({ client, tenant }: RouteContext) => ({
  data: {
    client: { id: client.id, name: client.name, abilities: [...client.abilities], owner: client.owner },
    clinic: { id: tenant.id, name: tenant.name, name_ar: tenant.name_ar },
  },
});

const meta = ({ world, client }: RouteContext) => ({
  data: {
    api_version: API_VERSION,
    spec_version: '1.0.0',
    abilities: [...abilitiesOf('clinic')],
    client_abilities: [...client.abilities],
    events: Object.entries(CLINIC_EVENTS).map(([event, info]) => ({ event, ability: info.ability })),
    rate_limits: {
      per_client_per_minute: world.config.rateLimitPerMinute,
      per_address_without_client_per_minute: world.config.anonymousRateLimitPerMinute,
    },
    per_page: { default: PER_PAGE_DEFAULT, max: PER_PAGE_MAX },
    webhooks: {
      max_subscriptions: world.config.webhookLimit,
      timeout_seconds: Math.round(world.config.deliveryTimeoutMs / 1000),
      ...DELIVERY_RULES,
    },
    docs_url: `${world.baseUrl}/sandbox`,
    openapi_url: `${world.baseUrl}/sandbox/openapi.json`,
  },
});

const clinicOf = (ctx: RouteContext) => ctx.world.store.clinic;

/** A phone finds only patients whose contact fields are shown (consented, not erased). */
const listPatients = list(
  (ctx: RouteContext) => clinicOf(ctx).patients,
  ops.patientView,
  byTime((p) => p.created_at),
  {
    file_no: eq(S.str(), 'file_no'),
    phone: [S.phone, (p, phone) => p.phone === phone && p.contact_consent && !p.erased_at],
    updated_since: since((p) => p.updated_at),
  },
);

const listAppointments = list(
  (ctx: RouteContext) => clinicOf(ctx).appointments,
  ops.appointmentView,
  byTime((a) => a.starts_at),
  {
    branch_id: eq(S.int(), 'branch_id'),
    patient_id: eq(S.str(), 'patient_id'),
    practitioner_id: eq(S.str(), 'practitioner_id'),
    from: since((a) => a.starts_at),
    to: until((a) => a.starts_at),
    status: eq(S.oneOf(ops.APPOINTMENT_STATUSES), 'status'),
  },
);

const listInvoices = list(
  (ctx: RouteContext) => clinicOf(ctx).invoices,
  ops.invoiceView,
  byTime((i) => i.issued_at),
  {
    patient_id: eq(S.str(), 'patient_id'),
    branch_id: eq(S.int(), 'branch_id'),
    status: eq(S.oneOf(['issued', 'partially_paid', 'paid', 'void']), 'status'),
    issued_from: sinceDay((i) => i.issued_at),
    issued_to: untilDay((i) => i.issued_at),
  },
);

const patient = one((ctx) => clinicOf(ctx).patients, ops.patientView);
const appointment = one((ctx) => clinicOf(ctx).appointments, ops.appointmentView);
const invoice = one((ctx) => clinicOf(ctx).invoices, ops.invoiceView);

/** Endpoints of the patients, appointments and invoices groups may be marked planned (501). */
const PLANNABLE = /^\/(patients|appointments|invoices)/;

export const clinicRoutes: PartnerRoute[] = [
  get('/ping', null, ping),
  get('/meta', null, meta),
  get('/patients', 'patients:read', listPatients),
  get('/patients/{id}', 'patients:read', patient),
  get('/appointments', 'appointments:read', listAppointments),
  post('/appointments', 'appointments:write', ops.booking),
  get('/appointments/{id}', 'appointments:read', appointment),
  route('POST', '/appointments/{id}/cancel', 'appointments:write', ops.cancelAppointment),
  get('/invoices', 'invoices:read', listInvoices),
  get('/invoices/{id}', 'invoices:read', invoice),
  ...webhookRoutes('clinic', 'webhooks', ops.recentEvents),
].map((r) => ({ ...r, plannable: PLANNABLE.test(r.path) }));

export const plannableEndpoints = (): string[] =>
  clinicRoutes.filter((r) => r.plannable).map((r) => `${r.method} ${r.path}`);
