import type { Bundle, ZObject } from 'zapier-platform-core';
import { SETTINGS } from '../config';
import type { Query } from '../http';
import {
  INCLUDE_PATIENT_FIELD,
  NO_PATIENT,
  PATIENT_OUTPUT_FIELDS,
  PATIENT_SAMPLE,
  fetchPatient,
  wantsPatient,
  withPatients,
} from '../patients';
import type { OutputField } from '../resources/define';

type Item = Record<string, unknown>;

/**
 * Something a trigger adds to its items beyond the event's data, with the input that controls it: the patient of
 * a clinic item, or the consent check of a new customer. A row of the event table lists its extensions.
 */
export interface HookExtension {
  inputFields: ReadonlyArray<Record<string, unknown> & { key: string; label: string }>;
  outputFields: OutputField[];
  /** What the static sample gains. */
  sample: Item;
  /**
   * The item with what the extension adds, or undefined when the Zap must not fire for it. The item is made for
   * the call, so it may be completed in place. `listed` is true for sample items read from a list already narrowed
   * by `listQuery`. It throws when what it adds cannot be known (a read that failed): the delivery then errors in
   * the Zap history and is not remembered, so a replay or the partner's redelivery brings it again.
   */
  apply(
    z: ZObject,
    bundle: Bundle,
    item: Item,
    at: { occurredAt?: string; listed: boolean },
  ): Item | undefined | Promise<Item | undefined>;
  /**
   * Refuses inputs the extension cannot honour, before the Zap subscribes, fires or lists anything: a value it
   * cannot read must stop the Zap, never loosen what it fires on.
   */
  check?(z: ZObject, bundle: Bundle): void;
  /** Extra query of the list a trigger's samples (and Transfer's pages) come from. */
  listQuery?(input: Record<string, unknown>): Query;
  /**
   * A page of Transfer at once: what `apply` adds to each item, in as few requests as it can, failing the call as
   * `apply` does (Zapier asks for the page again) rather than leaving fields empty. Without it, `apply` runs per item.
   */
  applyPage?(z: ZObject, bundle: Bundle, items: Item[]): Promise<Array<Item | undefined>>;
  /** The largest Transfer page that keeps the extension's requests within the interface's limits. */
  transferPageSize?(input: Record<string, unknown>): number | undefined;
}

/** The patient's name, phone, email and file number on every clinic item that carries `patient_id` (CONTRACT §8). */
export const WITH_PATIENT: HookExtension = {
  inputFields: [INCLUDE_PATIENT_FIELD],
  outputFields: PATIENT_OUTPUT_FIELDS,
  sample: { patient: PATIENT_SAMPLE },
  // Without the patient, at once (no request, so no promise); with it, once its read answers. The item is made
  // for this call (itemOf), so the patient is added to it in place rather than to a copy of every member.
  apply(z, bundle, item) {
    if (!wantsPatient(bundle.inputData)) {
      item.patient = NO_PATIENT;
      return item;
    }
    return fetchPatient(z, bundle, item.patient_id).then((patient) => {
      item.patient = patient;
      return item;
    });
  },
  // One read per distinct patient of the page, never cached between pages: contact data stays out of z.cache.
  async applyPage(z, bundle, items) {
    if (!wantsPatient(bundle.inputData)) return items.map((item) => ({ ...item, patient: NO_PATIENT }));
    return withPatients(z, bundle, items);
  },
  transferPageSize: (input) => (wantsPatient(input) ? SETTINGS.transferPageSizeWithPatient : undefined),
};

export { CONSENT_CHANNEL, CONSENT_CHANNELS } from './consent';

/** Every extension's input check (HookExtension.check), in the row's order. */
export const checkInputs = (extensions: readonly HookExtension[] | undefined, z: ZObject, bundle: Bundle) => {
  for (const x of extensions ?? []) x.check?.(z, bundle);
};
