import type { Bundle, ZObject } from 'zapier-platform-core';
import { SETTINGS } from '../config';
import { clientFor, type Query } from '../http';
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
   * by `listQuery`. Must not throw: a hook's event would be lost.
   */
  apply(
    z: ZObject,
    bundle: Bundle,
    item: Item,
    at: { occurredAt?: string; listed: boolean },
  ): Item | undefined | Promise<Item | undefined>;
  /** Extra query of the list a trigger's samples (and Transfer's pages) come from. */
  listQuery?(input: Record<string, unknown>): Query;
  /**
   * A page of Transfer at once: what `apply` adds to each item, in as few requests as it can, failing the call on a
   * 429 (Zapier asks for the page again) rather than leaving fields empty. Without it, `apply` runs per item.
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
    return withPatients(z, bundle, items, { throttleFails: true });
  },
  transferPageSize: (input) => (wantsPatient(input) ? SETTINGS.transferPageSizeWithPatient : undefined),
};

/** Marketing-consent channels the cashier's customer list filters on (README, Assumptions). */
export const CONSENT_CHANNELS = {
  sms: 'SMS',
  whatsapp: 'WhatsApp',
  email: 'Email',
  push: 'Push Notification',
};

/** How far before the event a new customer's record may have last changed and still be found by the check. */
const CONSENT_LOOKBACK_MS = 10 * 60 * 1000;

const channelOf = (input: Record<string, unknown> | undefined) => {
  const v = input?.consent_channel;
  return typeof v === 'string' && Object.hasOwn(CONSENT_CHANNELS, v.trim()) ? v.trim() : undefined;
};

/**
 * New Customer fires for every customer; with a channel chosen, only for customers whose marketing consent covers
 * it, checked with one GET /customers?consented_only=true&consent_channel=… narrowed to recently changed ones.
 */
export const CONSENT_CHANNEL: HookExtension = {
  inputFields: [
    {
      key: 'consent_channel',
      label: 'Consent Channel',
      choices: CONSENT_CHANNELS,
      required: false,
      altersDynamicFields: false,
      helpText:
        'Only fire for customers who agreed to marketing on this channel, so an SMS or email list Zap never messages someone who did not agree to it (one extra request per customer). Leave blank to fire for every new customer; name, phone and email are then empty for customers without consent.',
    },
  ],
  outputFields: [],
  sample: {},
  listQuery: (input) => {
    const channel = channelOf(input);
    return channel ? { consented_only: true, consent_channel: channel } : {};
  },
  async apply(z, bundle, item, at) {
    const channel = channelOf(bundle.inputData);
    if (!channel || at.listed) return item;
    const occurred = Date.parse(at.occurredAt ?? '');
    const since = new Date((Number.isNaN(occurred) ? Date.now() : occurred) - CONSENT_LOOKBACK_MS);
    try {
      const { data } = await clientFor(z, bundle, 'cashier').page<Item>('/customers', {
        consented_only: true,
        consent_channel: channel,
        updated_since: since.toISOString(),
      });
      return data.some((c) => c && String(c.id) === String(item.id)) ? item : undefined;
    } catch {
      // Consent cannot be confirmed: not firing is the only choice that never messages someone without it.
      return undefined;
    }
  },
};
