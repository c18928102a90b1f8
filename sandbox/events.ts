/**
 * The event catalogues of both interfaces: who may receive each event, and its static sample (the sample a
 * client sees for an account with no data yet, from `data/event-samples.json`: the sandbox's own values, so a
 * test can tell the interface's sample from the app's fallback). Samples are delivery envelopes; invoice samples
 * carry the line fields code, description, tooth and surfaces, as the clinic spec's samples do (§6).
 */
import SAMPLES from './data/event-samples.json';
import type { Api } from './store/types';

export interface EventInfo {
  api: Api;
  /** The ability a client needs to receive the event (null: ping, sent by the test endpoint to anyone). */
  ability: string | null;
  sample: Record<string, unknown>;
}

const SAMPLE_AT = '2026-11-21T14:05:12+03:00';
const PLANNED = new Set(['starts_at', 'ends_at']);

/** An event happens with the latest change its object shows (a receipt's issue, a session's close). */
const occurredAt = (data: Record<string, unknown> = {}) => {
  const times = Object.entries(data)
    .filter(([k, v]) => k.endsWith('_at') && !PLANNED.has(k) && typeof v === 'string')
    .map(([, v]) => v as string);
  return times.reduce((a, b) => (Date.parse(b) > Date.parse(a) ? b : a), times[0] ?? SAMPLE_AT);
};

const catalogue = (api: Api, abilities: Record<string, string | null>): Record<string, EventInfo> => {
  const data: Record<string, Record<string, unknown>> = SAMPLES[api];
  return Object.fromEntries(
    Object.entries(abilities).map(([event, ability]) => {
      const sample = {
        id: `${event}:sample`,
        event,
        tenant_id: 0,
        occurred_at: occurredAt(data[event]),
        api_version: 'v1',
      };
      return [event, { api, ability, sample: { ...sample, data: data[event] } }];
    }),
  );
};

export const CLINIC_EVENTS = catalogue('clinic', {
  'appointment.created': 'appointments:read',
  'appointment.updated': 'appointments:read',
  'appointment.cancelled': 'appointments:read',
  'invoice.issued': 'invoices:read',
  'invoice.paid': 'invoices:read',
  'claim.updated': 'invoices:read',
  'patient.erased': 'patients:read',
  ping: null,
});

/** Who receives cashier events is not shown: pos:read for all but order.status_changed (pos:orders). */
export const CASHIER_EVENTS = catalogue('cashier', {
  'receipt.issued': 'pos:read',
  'credit_note.issued': 'pos:read',
  'session.closed': 'pos:read',
  'stock.low': 'pos:read',
  'order.status_changed': 'pos:orders',
  'customer.created': 'pos:read',
});

export const catalogueOf = (api: Api): Record<string, EventInfo> =>
  api === 'clinic' ? CLINIC_EVENTS : CASHIER_EVENTS;

/** Events a client can subscribe to (ping is sent by the test endpoint only). */
export const subscribableEvents = (api: Api): string[] =>
  Object.keys(catalogueOf(api)).filter((e) => e !== 'ping');

/** A sample with this account's tenant id. */
export const sampleFor = (api: Api, event: string, tenantId: number): Record<string, unknown> | null => {
  const info = catalogueOf(api)[event];
  return info ? { ...info.sample, tenant_id: tenantId } : null;
};
