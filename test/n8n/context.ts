/** Stand-ins of the `this` n8n gives a node's methods: parameters, credentials, static data, request and response. */
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

export const hookContext = (
  params: Record<string, unknown>,
  options: {
    staticData?: Record<string, unknown>;
    webhookUrl?: string;
    request?: { headers: Record<string, string>; rawBody: Buffer };
    /** The workflow's timezone; n8n's own default when the workflow and GENERIC_TIMEZONE set none. */
    timezone?: string;
  } = {},
) => {
  const staticData = options.staticData ?? {};
  const answered: { status?: number; body?: unknown } = {};
  const warnings: string[] = [];
  const context = {
    logger: { warn: (message: string) => warnings.push(message) },
    getNodeParameter: (name: string, _i?: number, fallback?: unknown) => params[name] ?? fallback,
    getCredentials: async () => credentials,
    getWorkflow: () => ({ id: 'wf-1' }),
    getNode: () => ({ parameters: params }),
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
