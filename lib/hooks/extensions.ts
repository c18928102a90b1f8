/**
 * Extensions rows list that are not a module of their own: the patient of a clinic item and the keys a Transfer item
 * cannot tell (HookExtension, lib/hooks/types.ts). Appointment changes and the consent check have their own modules.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { SETTINGS } from '../config';
import {
  INCLUDE_PATIENT_FIELD,
  PATIENT_OUTPUT_FIELDS,
  PATIENT_SAMPLE,
  fetchPatient,
  noPatient,
  wantsPatient,
  withPatients,
} from '../patients';
import type { HookExtension, Item } from './types';

/**
 * The patient's name, phone, email, file number and how they were read, on every clinic item that carries
 * `patient_id` (CONTRACT §8). A delivery's read is the read of an event; a sample's and a Transfer page's are
 * asked for again when they fail (lib/patients.ts, Reading).
 */
export const WITH_PATIENT: HookExtension = {
  inputFields: [INCLUDE_PATIENT_FIELD],
  outputFields: PATIENT_OUTPUT_FIELDS,
  sample: { patient: PATIENT_SAMPLE },
  // The item is made for this call (itemOf), so the patient is added to it in place rather than to a copy.
  async apply(z, bundle, item, at) {
    item.patient = wantsPatient(bundle.inputData)
      ? await fetchPatient(z, bundle, item.patient_id, at.replayable ? 'step' : 'event')
      : noPatient('off');
    return item;
  },
  // One read per distinct patient of the page, never cached between pages: contact data stays out of z.cache.
  async applyPage(z, bundle, items) {
    if (!wantsPatient(bundle.inputData)) return items.map((item) => ({ ...item, patient: noPatient('off') }));
    return withPatients(z, bundle, items, 'step');
  },
  transferPageSize: (input) => (wantsPatient(input) ? SETTINGS.transferPageSizeWithPatient : undefined),
};

/**
 * Keys a live item always has that a Transfer list cannot tell, with their empty values, so an item of the past has
 * the keys of a live one (Invoice Paid's `paid_at`, a status trigger's `previous_status`). A key the listed object
 * does show keeps its value. Their output fields are the resource's or another extension's.
 */
export const unknownInTransfer = (blanks: Item): HookExtension => ({
  fromData: (_data, item, making) =>
    making.transfer
      ? Object.fromEntries(Object.entries(blanks).filter(([k]) => !Object.hasOwn(item, k)))
      : {},
});

/** Every extension's input check (HookExtension.check), in the row's order. */
export const checkInputs = (extensions: readonly HookExtension[] | undefined, z: ZObject, bundle: Bundle) => {
  for (const x of extensions ?? []) x.check?.(z, bundle);
};
