import type { Bundle, ZObject } from 'zapier-platform-core';
import { clientFor } from './http';
import { ULID } from './input-rules';
import { fieldOf, input } from './inputs';
import { APIS } from './partner-apis';
import { patient as patientResource } from './resources/clinic';
import type { OutputField } from './resources/define';
import { seal } from './seal';

/*
 * The patient on clinic items (CONTRACT §8): a reminder or a thank-you needs the patient's name and phone in the
 * trigger itself. Only these five fields of GET /patients/{id}, nothing else of the patient.
 */
const KEYS = ['name_ar', 'name_en', 'phone', 'email', 'file_no'] as const;

export type PatientContact = Record<(typeof KEYS)[number], string | null>;

/** What an item carries when there is no patient to show (no patients:read, erased, not found): empty fields. */
export const NO_PATIENT: PatientContact = Object.freeze({
  name_ar: null,
  name_en: null,
  phone: null,
  email: null,
  file_no: null,
});

const contactOf = (p: Record<string, unknown>): PatientContact =>
  Object.fromEntries(KEYS.map((k) => [k, typeof p[k] === 'string' ? p[k] : null])) as PatientContact;

export const PATIENT_SAMPLE: PatientContact = contactOf(patientResource.sample);

export const PATIENT_OUTPUT_FIELDS: OutputField[] = [
  { key: 'patient__name_en', label: 'Patient Name (English)', type: 'string' },
  { key: 'patient__name_ar', label: 'Patient Name (Arabic)', type: 'string' },
  { key: 'patient__phone', label: 'Patient Phone (E.164)', type: 'string' },
  { key: 'patient__email', label: 'Patient Email', type: 'string' },
  { key: 'patient__file_no', label: 'Patient File Number', type: 'string' },
];

/** The "Include Patient Details" input, declared once for every trigger that carries the patient. */
export const INCLUDE_PATIENT_FIELD = fieldOf(
  'include_patient',
  input.bool({
    label: 'Include Patient Details',
    default: 'true',
    altersDynamicFields: false,
    helpText:
      'Adds the patient’s name, phone, email and file number to each item (one extra request). The API client needs the `patients:read` ability; without it the patient fields stay empty and the Zap still runs. Contact fields follow the patient’s consent and are empty after an erasure.',
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
 * GET /patients/{id}, reduced to the five fields. Empty only where nothing will change on a retry: no clinic token or
 * one without patients:read, or a patient the interface does not know (erased, unknown id). A read that fails for now (429, 5xx, time-out,
 * network) throws, 429 as core's ThrottledError with Retry-After: Zapier keeps what a trigger or a step returns, and
 * a reminder without the patient's name and phone must not go out. A hook's delivery that throws is not remembered
 * (lib/hooks/delivery.ts), so it is delivered again; a poll's hydration, a step and a Transfer page are run again.
 */
export const fetchPatient = async (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  id: unknown,
): Promise<PatientContact> => {
  if (typeof id !== 'string' || !ULID.test(id)) return NO_PATIENT;
  // A connection without a clinic token can read no patient, as one without patients:read: for good, not for now.
  if (!bundle.authData?.[APIS.clinic.tokenKey]?.trim()) return NO_PATIENT;
  try {
    const found = await clientFor(z, bundle, 'clinic').find(`/patients/${id}`);
    return found ? contactOf(patientResource.present(found)) : NO_PATIENT;
  } catch (err) {
    if (lacksPatientsRead(err)) return NO_PATIENT;
    throw err;
  }
};

/** Items with their patient, each distinct patient read once. */
export const withPatients = async <T extends Record<string, unknown>>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  items: T[],
): Promise<Array<T & { patient: PatientContact }>> => {
  const ids = [
    ...new Set(items.map((i) => i.patient_id).filter((id): id is string => typeof id === 'string')),
  ];
  const found = new Map<string, PatientContact>();
  for (const id of ids) found.set(id, await fetchPatient(z, bundle, id));
  return items.map((i) => ({
    ...i,
    patient: (typeof i.patient_id === 'string' && found.get(i.patient_id)) || NO_PATIENT,
  }));
};

/** One item with its patient (an action's or a search's single answer). */
export const withPatient = async <T extends Record<string, unknown>>(
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
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
 * to the Zap, so a poll that sees the same appointments again reads no patient again. Sealed here, not by sealApp,
 * because z.dehydrate finds it in the app by identity.
 */
export const hydratePatient = seal(async (z: ZObject, bundle: Bundle) =>
  fetchPatient(z, bundle, bundle.inputData?.patient_id),
);
