import { instantOf, readableTimes } from '../readable-time';
import type { OutputField } from '../resources/define';
import { appointment } from '../resources/clinic';
import type { HookExtension } from './types';

const isPair = (v: unknown): v is [unknown, unknown] => Array.isArray(v) && v.length === 2;
const isScalar = (v: unknown) => v === null || ['string', 'number', 'boolean'].includes(typeof v);

/** Appointment fields a change may be reported for: the whitelist, so `changes` cannot leak anything else. */
const TRACKED = Object.keys(appointment.fields).filter((k) => k !== 'id');

/**
 * appointment.updated carries `changes: {field: [old, new]}`. A Zap filters more easily on plain fields, so the
 * item gets `changed_fields` (a list) and `previous_<field>` for each changed field; a changed start also comes in
 * words (`previous_starts_at_text_en`, `_ar`), in the clinic's time like the new start's, for the patient's message.
 */
export const appointmentChanges = (raw: Record<string, unknown>): Record<string, unknown> => {
  const changes =
    raw.changes && typeof raw.changes === 'object' ? (raw.changes as Record<string, unknown>) : {};
  const out: Record<string, unknown> = {};
  const changed: string[] = [];
  for (const field of TRACKED) {
    const pair = changes[field];
    if (!isPair(pair)) continue;
    changed.push(field);
    // Appointment fields are plain values: anything else in an old value (an object, a list) is not passed on.
    if (isScalar(pair[0])) out[`previous_${field}`] = pair[0];
  }
  if (changed.includes('starts_at')) {
    const words = readableTimes(out.previous_starts_at);
    out.previous_starts_at_text_en = words.starts_at_text_en;
    out.previous_starts_at_text_ar = words.starts_at_text_ar;
  }
  return { changed_fields: changed, ...out };
};

/** Whether an appointment.updated delivery shows its status changed to `status` (`changes.status` = [old, new]). */
export const statusBecame =
  (status: string) =>
  (raw: Record<string, unknown>): boolean => {
    const changes =
      raw.changes && typeof raw.changes === 'object' ? (raw.changes as Record<string, unknown>) : {};
    const pair = Object.hasOwn(changes, 'status') ? changes.status : undefined;
    return isPair(pair) && pair[1] === status && pair[0] !== status;
  };

/**
 * Whether an appointment.updated delivery shows `field` moved (`changes[field]` = [old, new], the two differing).
 * Two date-times are compared as the instants they name: `10:30+03:00` and `07:30Z` are the same start.
 */
export const moved =
  (field: string) =>
  (raw: Record<string, unknown>): boolean => {
    const changes =
      raw.changes && typeof raw.changes === 'object' ? (raw.changes as Record<string, unknown>) : {};
    const pair = Object.hasOwn(changes, field) ? changes[field] : undefined;
    if (!isPair(pair)) return false;
    const [before, after] = pair.map(instantOf);
    return before !== null && after !== null ? before !== after : pair[0] !== pair[1];
  };

export const appointmentChangeFields: OutputField[] = [
  { key: 'changed_fields', label: 'Changed Fields', type: 'string', list: true },
  ...TRACKED.map((field): OutputField => {
    const own = appointment.outputFields.find((o) => o.key === field);
    return {
      key: `previous_${field}`,
      label: `Previous ${own?.label ?? field}`,
      type: own?.type ?? 'string',
    };
  }),
  { key: 'previous_starts_at_text_en', label: 'Previous Starts At (English Text)', type: 'string' },
  { key: 'previous_starts_at_text_ar', label: 'Previous Starts At (Arabic Text)', type: 'string' },
];

/** The changes of an appointment.updated delivery as plain fields (appointmentChanges) on the trigger's items. */
export const WITH_CHANGES: HookExtension = {
  outputFields: appointmentChangeFields,
  fromData: (data) => appointmentChanges(data),
};
