import type { Bundle, ZObject } from 'zapier-platform-core';
import { SETTINGS } from './config';
import { hostHelp, hostOf } from './host';
import { clientFor } from './http';
import { ULID } from './input-rules';
import { fieldOf, input } from './inputs';
import { APIS } from './partner-apis';
import { patient as patientResource } from './resources/clinic';
import type { OutputField } from './resources/define';
import { retryWithin } from './retry';
import { seal } from './seal';

/*
 * The patient on clinic items (CONTRACT §8): a reminder or a thank-you needs the patient's name and phone in the
 * trigger itself. Only these five fields of GET /patients/{id}, nothing else of the patient, and how they were read.
 */
const KEYS = ['name_ar', 'name_en', 'phone', 'email', 'file_no'] as const;
type Contact = Record<(typeof KEYS)[number], string | null>;

/**
 * How the patient was read (`patient__status`): `found`; `not_found` (404, or the item names no patient);
 * `no_access` (no clinic token, or one without patients:read); `off` (Include Patient Details off); `unavailable`
 * (the read still failed for now after the retries within the step). The other fields are empty unless `found`.
 */
export const PATIENT_STATUSES = ['found', 'not_found', 'no_access', 'off', 'unavailable'] as const;
export type PatientStatus = (typeof PATIENT_STATUSES)[number];

export type PatientContact = Contact & { status: PatientStatus };

/** What an item carries when there is no patient to show: empty fields, and why. */
export const noPatient = (status: Exclude<PatientStatus, 'found'>): PatientContact => ({
  name_ar: null,
  name_en: null,
  phone: null,
  email: null,
  file_no: null,
  status,
});

const contactOf = (p: Record<string, unknown>): PatientContact => {
  const contact = Object.fromEntries(KEYS.map((k) => [k, typeof p[k] === 'string' ? p[k] : null])) as Contact;
  return { ...contact, status: 'found' };
};

export const PATIENT_SAMPLE: PatientContact = contactOf(patientResource.sample);

export const PATIENT_OUTPUT_FIELDS: OutputField[] = [
  { key: 'patient__name_en', label: 'Patient Name (English)', type: 'string' },
  { key: 'patient__name_ar', label: 'Patient Name (Arabic)', type: 'string' },
  { key: 'patient__phone', label: 'Patient Phone (E.164)', type: 'string' },
  { key: 'patient__email', label: 'Patient Email', type: 'string' },
  { key: 'patient__file_no', label: 'Patient File Number', type: 'string' },
  { key: 'patient__status', label: 'Patient Details Status', type: 'string' },
];

/** The "Include Patient Details" input, declared once for every trigger that carries the patient. */
export const INCLUDE_PATIENT_FIELD = fieldOf(
  'include_patient',
  input.bool({
    label: 'Include Patient Details',
    default: 'true',
    altersDynamicFields: false,
    ...hostHelp(
      (w) =>
        `Adds the patient’s name, phone, email and file number to each item (one extra request). The API client needs the \`patients:read\` ability; without it the patient fields stay empty and the ${w.flow} still runs. Contact fields follow the patient’s consent and are empty after an erasure. Patient Details Status says whether they were read (found) or why not (not_found, no_access, off, or unavailable: the clinic could not answer in time): filter on it before a step that writes to the patient.`,
    ),
  }),
);

/** Whether the Zap wants the patient: yes unless Include Patient Details is set to no. */
export const wantsPatient = (inputData: Record<string, unknown> | undefined): boolean => {
  const v = inputData?.include_patient;
  return !(v === false || (typeof v === 'string' && /^(false|no|0)$/i.test(v.trim())));
};

/** The 403 a token without patients:read gets: the fields stay empty (CONTRACT §8), as the Zap builder chose. */
const lacksPatientsRead = (err: unknown): boolean => {
  if (!(err instanceof Error) || err.name !== 'AppError') return false;
  try {
    return (JSON.parse(err.message) as { code?: unknown }).code === 'insufficient_ability';
  } catch {
    return false;
  }
};

/**
 * What the read is for, which says who tries again when it fails for now (429, 5xx, time-out, network):
 * - `event`: a trigger's event (a hook's delivery, a poll's new item). Where the host never runs a failed trigger
 *   again (Zapier: lib/host.ts), failing would lose the event for good, so the read is retried within the step
 *   (SETTINGS.triggerReadBudgetMs) and then the item fires with the patient `unavailable`. Where it does (n8n), the
 *   failure fails the call: the interface delivers again, the poll runs again.
 * - `step`: a call the host runs again (an action or a search, which Zapier replays; a sample in the Zap editor; a
 *   page of Transfer, which Zapier asks for again, its place not moved). The failure fails the call, 429 as
 *   ThrottledError with the interface's Retry-After, and the run again brings the patient: nothing goes out
 *   without a patient who may well be there.
 */
export type Reading = 'event' | 'step';

type PatientBundle = Pick<Bundle, 'authData'> & Partial<Pick<Bundle, 'meta'>>;

const readPatient = async (
  z: ZObject,
  bundle: PatientBundle,
  id: string,
  timeoutMs?: number,
): Promise<PatientContact> => {
  try {
    const found = await clientFor(z, bundle, 'clinic', timeoutMs).find(`/patients/${id}`);
    return found ? contactOf(patientResource.present(found)) : noPatient('not_found');
  } catch (err) {
    if (lacksPatientsRead(err)) return noPatient('no_access');
    throw err;
  }
};

/**
 * GET /patients/{id}, reduced to the five fields and its status. Without a call where the answer is known for good:
 * no patient id, or no clinic token (as one without patients:read).
 */
export const fetchPatient = async (
  z: ZObject,
  bundle: PatientBundle,
  id: unknown,
  reading: Reading = 'step',
): Promise<PatientContact> => {
  if (typeof id !== 'string' || !ULID.test(id)) return noPatient('not_found');
  if (!bundle.authData?.[APIS.clinic.tokenKey]?.trim()) return noPatient('no_access');
  if (reading === 'step' || hostOf(bundle).replaysFailedTriggers) return readPatient(z, bundle, id);
  try {
    return await retryWithin(SETTINGS.triggerReadBudgetMs, (timeoutMs) =>
      readPatient(z, bundle, id, timeoutMs),
    );
  } catch {
    // Whatever still fails, the event is not lost: the item says the patient could not be read.
    return noPatient('unavailable');
  }
};

/** Items with their patient, each distinct patient read once. */
export const withPatients = async <T extends Record<string, unknown>>(
  z: ZObject,
  bundle: PatientBundle,
  items: T[],
  reading: Reading = 'step',
): Promise<Array<T & { patient: PatientContact }>> => {
  const ids = [
    ...new Set(items.map((i) => i.patient_id).filter((id): id is string => typeof id === 'string')),
  ];
  const found = new Map<string, PatientContact>();
  for (const id of ids) found.set(id, await fetchPatient(z, bundle, id, reading));
  return items.map((i) => ({
    ...i,
    patient: (typeof i.patient_id === 'string' && found.get(i.patient_id)) || noPatient('not_found'),
  }));
};

/** One item with its patient (an action's or a search's single answer). */
export const withPatient = async <T extends Record<string, unknown>>(
  z: ZObject,
  bundle: PatientBundle,
  item: T,
): Promise<T & { patient: PatientContact }> => (await withPatients(z, bundle, [item]))[0]!;

/** The sample and output fields of an operation whose items carry the patient, from the resource's own. */
export const carryingPatient = <S extends Record<string, unknown>>(resource: {
  sample: S;
  outputFields: OutputField[];
}) => ({
  sample: { ...resource.sample, patient: PATIENT_SAMPLE },
  outputFields: [...resource.outputFields, ...PATIENT_OUTPUT_FIELDS],
});

/**
 * The hydrator of Appointment Starting Soon's patient pointer (z.dehydrate): Zapier resolves it only for items new
 * to the Zap, so a poll that sees the same appointments again reads no patient again. Zapier resolves it as the
 * trigger fires, with the item already seen: the read of an event. Sealed here, not by sealApp, because
 * z.dehydrate finds it in the app by identity.
 */
export const hydratePatient = seal(async (z: ZObject, bundle: Bundle) =>
  fetchPatient(z, bundle, bundle.inputData?.patient_id, 'event'),
);
