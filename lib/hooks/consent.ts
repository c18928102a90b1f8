import type { Bundle, ZObject } from 'zapier-platform-core';
import { SETTINGS } from '../config';
import { clientFor, isLastPage, type Query } from '../http';
import { hostHelp, hostOf, type HostWords } from '../host';
import { AppMessageError, languageOf, say, type Bilingual } from '../i18n';
import { fieldOf, input } from '../inputs';
import type { HookExtension, Item } from './types';

/** Marketing-consent channels the cashier's customer list filters on (docs/assumptions.md), with their labels. */
export const CONSENT_CHANNELS = {
  sms: 'SMS',
  whatsapp: 'WhatsApp',
  email: 'Email',
  push: 'Push Notification',
};

type Channel = keyof typeof CONSENT_CHANNELS;

/** How far before the event a new customer's record may have last changed and still be found by the check. */
const CONSENT_LOOKBACK_MS = 10 * 60 * 1000;

const spelling = (v: string) => v.trim().replace(/\s+/g, ' ').toLowerCase();

/** Each channel by its key and by its label, as a Zap builder may type or map either, in any case. */
const CHANNEL_NAMES = new Map<string, Channel>(
  (Object.entries(CONSENT_CHANNELS) as Array<[Channel, string]>).flatMap(([key, label]) => [
    [key, key],
    [spelling(label), key],
  ]),
);

/**
 * The channel a Consent Channel value names; `blank` for no filter; `unknown` for anything else (several
 * channels, another word, a list), which must never be read as "no channel": that would message everyone.
 */
export const channelOf = (input: Record<string, unknown> | undefined): Channel | 'blank' | 'unknown' => {
  const v = input?.consent_channel;
  if (v === undefined || v === null || (typeof v === 'string' && !v.trim())) return 'blank';
  return (typeof v === 'string' && CHANNEL_NAMES.get(spelling(v))) || 'unknown';
};

const ALLOWED = Object.entries(CONSENT_CHANNELS)
  .map(([key, label]) => `${key} (${label})`)
  .join(', ');

const REFUSAL_EN = `Consent Channel must name one channel: ${ALLOWED}, in any case; or be left blank to fire for every new customer. The value given names no single channel, so nothing fires until it is corrected (firing for everyone could message customers who did not agree).`;
const refusal = (words: HostWords): Bilingual => ({
  en: REFUSAL_EN,
  ar: `يجب أن تسمّي Consent Channel قناة واحدة: ${ALLOWED}، بأي حالة أحرف؛ أو تُترك فارغة ليعمل ${words.theFlowAr} لكل عميل جديد. القيمة المعطاة لا تسمّي قناة واحدة، فلن يعمل ${words.theFlowAr} حتى تُصحَّح (العمل للجميع قد يراسل عملاء لم يوافقوا).`,
});

/** The chosen channel, or undefined when blank; a value that names no single channel is refused. */
export const requireChannel = (z: ZObject, bundle: Pick<Bundle, 'authData' | 'inputData'>) => {
  const channel = channelOf(bundle.inputData);
  if (channel === 'blank') return undefined;
  if (channel !== 'unknown') return channel;
  throw new z.errors.Error(say(languageOf(bundle), refusal(hostOf(bundle).words)), 'invalid_input', 400);
};

/**
 * Whether the customer is among the consenting customers of the channel changed since `since`, read page by page
 * (the cashier has no GET /customers/{id}) until found or the last page. A read that fails throws: a check that
 * cannot be made is never a "no" (lost customer) nor a "yes" (message without consent).
 */
const consents = async (z: ZObject, bundle: Bundle, channel: Channel, id: unknown, since: Date) => {
  const client = clientFor(z, bundle, 'cashier');
  const query: Query = {
    consented_only: true,
    consent_channel: channel,
    updated_since: since.toISOString(),
  };
  const perPage = SETTINGS.maxPerPage;
  for (let page = 1; page <= SETTINGS.consentCheckMaxPages; page += 1) {
    const { data, meta } = await client.page<unknown>('/customers', { ...query, page, per_page: perPage });
    if (data.some((c) => !!c && typeof c === 'object' && String((c as Item).id) === String(id))) return true;
    if (isLastPage(page, data, meta)) return false;
  }
  const scanned = SETTINGS.consentCheckMaxPages * perPage;
  const { words } = hostOf(bundle);
  throw new z.errors.Error(
    say(languageOf(bundle), {
      en: `The consent of customer ${String(id)} could not be checked: more than ${scanned} customers with consent changed around the same time. ${words.replayRun.en}`,
      ar: `تعذّر التحقق من موافقة العميل ${String(id)}: تغيّر أكثر من ${scanned} عميل موافق في الوقت نفسه. ${words.replayRun.ar}`,
    }),
    'consent_check_incomplete',
    503,
  );
};

/**
 * New Customer fires for every customer; with a channel chosen, only for customers whose marketing consent covers
 * it, checked with GET /customers?consented_only=true&consent_channel=… narrowed to recently changed ones.
 */
export const CONSENT_CHANNEL: HookExtension = {
  inputFields: [
    fieldOf(
      'consent_channel',
      input.choice(CONSENT_CHANNELS, {
        label: 'Consent Channel',
        altersDynamicFields: false,
        ...hostHelp(
          (w) =>
            `Only fire for customers who agreed to marketing on this channel, so an SMS or email list ${w.flow} never messages someone who did not agree to it (one extra request per customer, more when many customers changed at once). One channel: sms, whatsapp, email or push (its label, such as WhatsApp or Push Notification, in any case, works too); any other value stops the ${w.flow} with an error rather than fire for everyone. Leave blank to fire for every new customer; name, phone and email are then empty for customers without consent.`,
        ),
      }),
    ),
  ],
  check(z, bundle) {
    requireChannel(z, bundle);
  },
  listQuery: (input) => {
    const channel = channelOf(input);
    if (channel === 'blank') return {};
    // `check` refuses an unknown value before any list is read; should a caller skip it, the list is not widened.
    if (channel === 'unknown') throw new AppMessageError(REFUSAL_EN);
    return { consented_only: true, consent_channel: channel };
  },
  async apply(z, bundle, item, at) {
    const channel = requireChannel(z, bundle);
    if (!channel || at.listed) return item;
    const occurred = Date.parse(at.occurredAt ?? '');
    const since = new Date((Number.isNaN(occurred) ? Date.now() : occurred) - CONSENT_LOOKBACK_MS);
    return (await consents(z, bundle, channel, item.id, since)) ? item : undefined;
  },
};
