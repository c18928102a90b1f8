/** Stand-ins of the `this` n8n gives a node's methods: parameters, credentials, static data, request and response. */
import { createHash } from 'node:crypto';
import { AUTH } from '../helpers';

export const credentials = { ...AUTH, clinic_base_url: process.env.CLINIC_BASE_URL! };

/** Book Appointment's inputs of the recorded booking (scenario book-appointment). */
export const BOOKING_INPUT = {
  patient_id: '01EY5943V0CH77X783RTRD9GRE',
  branch_id: '1',
  appointment_type_id: '4',
  starts_at: '2026-11-26T12:30:00+03:00',
  note: 'First visit',
  practitioner_id: '01HQW9J6R0PBHZJ7SBXFA5ZN7T',
  external_ref: 'web-5501',
};

/** Static data as n8n keeps it: whether anything wrote to it (n8n saves it only then, whole). */
export const watchedStaticData = (initial: Record<string, unknown> = {}) => {
  const writes: string[] = [];
  const watch = <T extends object>(target: T, path: string): T =>
    new Proxy(target, {
      get: (t, k) => {
        const v = Reflect.get(t, k) as unknown;
        return v && typeof v === 'object' ? watch(v, `${path}.${String(k)}`) : v;
      },
      set: (t, k, v) => {
        writes.push(`${path}.${String(k)}`);
        return Reflect.set(t, k, v);
      },
      deleteProperty: (t, k) => {
        writes.push(`${path}.${String(k)}`);
        return Reflect.deleteProperty(t, k);
      },
    });
  return { staticData: watch(structuredClone(initial), 'node'), writes };
};

const idOf = (data: Record<string, unknown>) =>
  createHash('sha256').update(JSON.stringify(data)).digest('hex').slice(0, 12);

export const hookContext = (
  params: Record<string, unknown>,
  options: {
    staticData?: Record<string, unknown>;
    webhookUrl?: string;
    request?: { headers: Record<string, string>; rawBody: Buffer };
    /** The workflow's timezone; n8n's own default when the workflow and GENERIC_TIMEZONE set none. */
    timezone?: string;
    /** The node's credentials when they differ from `credentials` (a changed token). */
    credentials?: Record<string, unknown>;
    /** A Redis credential set on the node (n8n's type `redis`). */
    redis?: Record<string, unknown>;
  } = {},
) => {
  const staticData = options.staticData ?? {};
  const answered: { status?: number; body?: unknown } = {};
  const warnings: string[] = [];
  const context = {
    logger: { warn: (message: string) => warnings.push(message) },
    getNodeParameter: (name: string, _i?: number, fallback?: unknown) => params[name] ?? fallback,
    getCredentials: async (name: string) =>
      name === 'redis' ? options.redis : (options.credentials ?? credentials),
    getWorkflow: () => ({ id: 'wf-1' }),
    getNode: () => ({
      name: 'Clinic & Cashier',
      parameters: params,
      // Another credential is another id in n8n: a delivery's credential reads are shared by id
      // (src/delivery-credentials.ts).
      credentials: {
        clinicCashierApi: { id: idOf(options.credentials ?? credentials), name: 'Clinic' },
        ...(options.redis ? { redis: { id: idOf(options.redis), name: 'Redis' } } : {}),
      },
    }),
    getParentNodes: () => [] as Array<{ name: string; type: string }>,
    getNodeWebhookUrl: () => options.webhookUrl,
    getWorkflowStaticData: () => staticData,
    getRequestObject: () => options.request ?? { headers: {}, rawBody: Buffer.from('') },
    getResponseObject: () => ({
      status: (status: number) => ({
        json: (body: unknown) => Object.assign(answered, { status, body }),
      }),
    }),
    getInputData: () => [{ json: {} }],
    getTimezone: () => options.timezone ?? 'America/New_York',
    continueOnFail: () => false,
  };
  return { context, staticData, answered, warnings };
};

/** The `this` of a polling node's poll: as a hook's, with the mode n8n runs it in ('trigger', or 'manual' for a test). */
export const pollContext = (
  params: Record<string, unknown>,
  options: { staticData?: Record<string, unknown>; mode?: string } = {},
) => {
  const { context, staticData } = hookContext(params, options);
  return {
    context: {
      ...context,
      // A poll has no input items: n8n's second argument is the fallback value.
      getNodeParameter: (name: string, fallback?: unknown) => params[name] ?? fallback,
      getMode: () => options.mode ?? 'trigger',
    },
    staticData,
  };
};
