/**
 * A delivery (perform): the signature checked, the envelope read, the trigger's item made, and the event id
 * remembered so a repeated delivery fires once.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { deliveryKey, isNew, rememberWrite } from '../dedupe';
import { hostOf, type HostWords } from '../host';
import { languageOf, say, type Bilingual } from '../i18n';
import { APIS } from '../partner-apis';
import { verify, type VerifyFailure } from '../signature';
import { checkInputs } from './extensions';
import { passes } from './filters';
import { extend, isObject, itemOf } from './item';
import type { HookBundle, HookEvent, Item } from './types';

/** The delivery envelope both interfaces send (spec §6). */
interface Envelope {
  id: string;
  event: string;
  occurred_at?: string;
  data: Item;
}

type PartnerHeader = 'timestamp' | 'signature' | 'eventId';

/** The partner headers a delivery is checked with, by their lower-case names. */
const PARTNER_HEADERS = new Map<string, PartnerHeader>([
  ['x-partner-timestamp', 'timestamp'],
  ['x-partner-signature', 'signature'],
  ['x-partner-event-id', 'eventId'],
]);

/**
 * The partner headers of a delivery. Zapier passes them as `Http-X-Partner-…` in Camel-Case; any case is accepted,
 * with or without the prefix, and the first of a repeated header wins.
 */
export const partnerHeaders = (headers: Record<string, string | string[] | undefined> | undefined) => {
  const found: Partial<Record<PartnerHeader, string>> = {};
  for (const [name, raw] of Object.entries(headers ?? {})) {
    const lower = name.toLowerCase();
    const header = PARTNER_HEADERS.get(lower.startsWith('http-') ? lower.slice('http-'.length) : lower);
    if (header === undefined || found[header] !== undefined) continue;
    found[header] = Array.isArray(raw) ? raw[0] : raw;
  }
  return found;
};

type Refusal = VerifyFailure | 'no_subscription' | 'not_json' | 'event_id_mismatch';

const refusals = (words: HostWords): Record<Refusal, Bilingual> => ({
  missing_signature: { en: 'it has no X-Partner-Signature header', ar: 'لا تحمل ترويسة X-Partner-Signature' },
  missing_timestamp: { en: 'it has no X-Partner-Timestamp header', ar: 'لا تحمل ترويسة X-Partner-Timestamp' },
  bad_timestamp: { en: 'its timestamp is not a number of seconds', ar: 'طابعها الزمني ليس عددًا من الثواني' },
  stale_timestamp: {
    en: 'its timestamp is more than 5 minutes old (a replay or a slow clock)',
    ar: 'مضى على طابعها الزمني أكثر من 5 دقائق (إعادة إرسال أو ساعة متأخرة)',
  },
  future_timestamp: {
    en: 'its timestamp is more than 5 minutes in the future',
    ar: 'طابعها الزمني متقدم بأكثر من 5 دقائق',
  },
  malformed_signature: {
    en: 'its signature is not of the form sha256=<64 hex digits>',
    ar: 'توقيعها ليس بالصيغة sha256=<64 خانة ست عشرية>',
  },
  mismatch: {
    en: `its signature does not match this ${words.flow}’s signing secret`,
    ar: `توقيعها لا يطابق سر التوقيع الخاص ب${words.thisFlowAr}`,
  },
  no_subscription: {
    en: `this ${words.flow} holds no signing secret for it`,
    ar: `لا يحمل ${words.thisFlowAr} سر توقيع لها`,
  },
  not_json: { en: 'its body is not a JSON event envelope', ar: 'محتواها ليس غلاف حدث بصيغة JSON' },
  event_id_mismatch: {
    en: 'its X-Partner-Event-Id header differs from the event id in its body',
    ar: 'ترويسة X-Partner-Event-Id تختلف عن معرّف الحدث في المحتوى',
  },
});

const refuse = (z: ZObject, bundle: Pick<Bundle, 'authData'>, reason: Refusal): Error => {
  const { words } = hostOf(bundle);
  const why = refusals(words)[reason];
  return new z.errors.HaltedError(
    say(languageOf(bundle), {
      en: `Delivery refused: ${why.en}. If the signing secret was rotated, ${words.reactivate.en} again to subscribe with the new one.`,
      ar: `رُفض التسليم: ${why.ar}. إن غُيِّر سر التوقيع ف${words.reactivate.ar} من جديد ليشترك بالسر الجديد.`,
    }),
  );
};

/** An instant trigger run outside Zapier (`zapier-platform invoke`): where to see its items instead. */
const notADelivery = (z: ZObject, bundle: Pick<Bundle, 'authData'>, def: HookEvent): Error =>
  new z.errors.Error(
    say(languageOf(bundle), {
      en: `${def.label} is an instant trigger: it runs when the ${def.api} interface delivers an event to a Zap, and there is no delivery here. To see its items locally, run: npm run sample -- ${def.key}`,
      ar: `«${def.label}» مشغّل فوري: يعمل حين تسلّم واجهة ${APIS[def.api].name.ar} حدثًا إلى زاب، ولا تسليم هنا. لرؤية عناصره محليًا شغّل: npm run sample -- ${def.key}`,
    }),
    'not_a_delivery',
    400,
  );

/** The event envelope of a delivery's raw body; undefined when the body is not one. */
const parseDelivery = (content: string): Envelope | undefined => {
  let body: unknown;
  try {
    body = JSON.parse(content);
  } catch {
    return undefined;
  }
  if (!isObject(body) || typeof body.id !== 'string' || typeof body.event !== 'string') return undefined;
  return {
    id: body.id,
    event: body.event,
    occurred_at: typeof body.occurred_at === 'string' ? body.occurred_at : undefined,
    data: isObject(body.data) ? body.data : {},
  };
};

/** The trigger's perform: at most one item for one delivery. */
export const makePerform = (def: HookEvent) => async (z: ZObject, bundle: HookBundle) => {
  const sub = bundle.subscribeData;
  // `zapier-platform invoke` runs perform with neither a subscription nor a delivery: there is nothing to refuse.
  if (!sub && !bundle.rawRequest) throw notADelivery(z, bundle, def);
  if (!sub?.secret || !sub.target_path) throw refuse(z, bundle, 'no_subscription');
  const headers = partnerHeaders(bundle.rawRequest?.headers);
  const rawBody = bundle.rawRequest?.content ?? '';
  const checked = verify({
    secret: sub.secret,
    path: sub.target_path,
    rawBody,
    timestamp: headers.timestamp,
    signature: headers.signature,
  });
  if (!checked.ok) throw refuse(z, bundle, checked.reason);
  const envelope = parseDelivery(rawBody);
  if (!envelope) throw refuse(z, bundle, 'not_json');
  if (headers.eventId !== undefined && headers.eventId !== envelope.id) {
    throw refuse(z, bundle, 'event_id_mismatch');
  }
  // A test delivery from POST /webhooks/{id}/test, another event sent to this hook, or an update this trigger
  // is not about (e.g. Patient Arrived for a reschedule): nothing to trigger.
  if (envelope.event !== def.event || (def.when && !def.when(envelope.data))) return [];
  checkInputs(def.extensions, z, bundle as Bundle);
  // The item first, then the id: only a delivery that made its item is remembered (an extension that throws leaves
  // it retryable), and of two copies only the one that remembers it first triggers. One cache round trip: the nx
  // write answers whether the id is new. Filters come before the extensions, so a filtered-out item costs no request.
  const made = itemOf(def, envelope.data, { eventId: envelope.id, occurredAt: envelope.occurred_at });
  const item = passes(def.filters, bundle.inputData, made)
    ? await extend(def, z, bundle, made, { occurredAt: envelope.occurred_at, listed: false })
    : undefined;
  let fresh = true;
  try {
    fresh = isNew(await rememberWrite(z, deliveryKey(def.api, sub.id ?? '', envelope.id)));
  } catch {
    // The cache failed: fail open (a possible duplicate, never a lost event; lib/dedupe.ts).
  }
  if (!fresh) return [];
  return item ? [item] : [];
};
