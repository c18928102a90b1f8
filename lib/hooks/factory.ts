import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineTrigger } from 'zapier-platform-core';
import { SETTINGS } from '../config';
import { deliveryKey, isNew, rememberWrite } from '../dedupe';
import { clientFor } from '../http';
import { languageOf, say } from '../i18n';
import { APIS } from '../interfaces';
import { subscribe, unsubscribe } from './subscription';
import { verify, type VerifyFailure } from '../signature';
import type { HookEvent } from './events';
import { checkInputs } from './extensions';
import { filterInputFields, filterQuery, passes } from './filters';
import { transferRangeFields } from './history';
import { isObject, itemOf } from './item';
import { readHistory } from './transfer';

/** What performSubscribe stores and Zapier hands back as `bundle.subscribeData`. */
export interface SubscribeData {
  id: number | string;
  secret: string;
  /** The path of the Zap's hook URL: the signature covers it, and perform does not get the URL itself. */
  target_path: string;
  event: string;
  api: string;
}

/** The delivery envelope both interfaces send (spec §6). */
interface Envelope {
  id: string;
  event: string;
  occurred_at?: string;
  data: Record<string, unknown>;
}

export type HookBundle = Omit<Bundle, 'subscribeData'> & { subscribeData?: Partial<SubscribeData> };

/** The partner headers a delivery is checked with, by their lower-case names. */
const PARTNER_HEADERS = {
  'x-partner-timestamp': 'timestamp',
  'x-partner-signature': 'signature',
  'x-partner-event-id': 'eventId',
} as const;
const PARTNER_HEADER_LENGTHS = new Set(
  Object.keys(PARTNER_HEADERS).flatMap((name) => [name.length, `http-${name}`.length]),
);
type PartnerHeader = (typeof PARTNER_HEADERS)[keyof typeof PARTNER_HEADERS];

/** A header name's partner header, in any case, with or without Zapier's `Http-` prefix. */
const partnerHeaderOf = (k: string): PartnerHeader | undefined => {
  switch (k) {
    // The names as Zapier passes them, matched as they are (no lower-cased copy).
    case 'Http-X-Partner-Timestamp':
      return 'timestamp';
    case 'Http-X-Partner-Signature':
      return 'signature';
    case 'Http-X-Partner-Event-Id':
      return 'eventId';
    // The one other header a delivery carries whose length is a partner header's: known without lower-casing it.
    case 'Http-X-Partner-Delivery':
      return undefined;
  }
  // Only a name of a partner header's length can be one: the others are skipped without lower-casing them.
  if (!PARTNER_HEADER_LENGTHS.has(k.length)) return undefined;
  const lower = k.toLowerCase();
  return PARTNER_HEADERS[
    (lower.startsWith('http-') ? lower.slice(5) : lower) as keyof typeof PARTNER_HEADERS
  ];
};

/**
 * The partner headers of a delivery, in one pass over its headers. Zapier passes them as `Http-X-Partner-…` in
 * Camel-Case; any case is accepted, with or without the prefix (the first of a repeated header wins).
 */
export const partnerHeaders = (headers: Record<string, string | string[] | undefined> | undefined) => {
  // Three variables rather than a record written by name: a store under a name that varies is a slow one.
  let timestamp: string | undefined;
  let signature: string | undefined;
  let eventId: string | undefined;
  for (const k in headers) {
    const name = partnerHeaderOf(k);
    if (name === undefined || !Object.hasOwn(headers, k)) continue;
    const raw = headers[k];
    const v = Array.isArray(raw) ? raw[0] : raw;
    if (name === 'timestamp') {
      if (timestamp === undefined) timestamp = v;
    } else if (name === 'signature') {
      if (signature === undefined) signature = v;
    } else if (eventId === undefined) eventId = v;
  }
  // One shape for every delivery, whatever order its headers come in.
  return { timestamp, signature, eventId };
};

const REFUSALS: Record<
  VerifyFailure | 'no_subscription' | 'not_json' | 'event_id_mismatch',
  { en: string; ar: string }
> = {
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
    en: 'its signature does not match this Zap’s signing secret',
    ar: 'توقيعها لا يطابق سر التوقيع الخاص بهذا الزاب',
  },
  no_subscription: { en: 'this Zap holds no signing secret for it', ar: 'لا يحمل هذا الزاب سر توقيع لها' },
  not_json: { en: 'its body is not a JSON event envelope', ar: 'محتواها ليس غلاف حدث بصيغة JSON' },
  event_id_mismatch: {
    en: 'its X-Partner-Event-Id header differs from the event id in its body',
    ar: 'ترويسة X-Partner-Event-Id تختلف عن معرّف الحدث في المحتوى',
  },
};

const refuse = (z: ZObject, bundle: Pick<Bundle, 'authData'>, reason: keyof typeof REFUSALS): Error =>
  new z.errors.HaltedError(
    say(languageOf(bundle), {
      en: `Delivery refused: ${REFUSALS[reason].en}. If the signing secret was rotated, turn the Zap off and on again to subscribe with the new one.`,
      ar: `رُفض التسليم: ${REFUSALS[reason].ar}. إن غُيِّر سر التوقيع فأوقف الزاب وشغّله من جديد ليشترك بالسر الجديد.`,
    }),
  );

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

const parseEnvelope = (content: string): Envelope | undefined => {
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

/** Times an object is planned for, not times something happened to it: an event may come before them. */
const PLANNED_TIMES = new Set(['starts_at', 'ends_at']);

/**
 * When a sample's event happened: with the latest change the sample shows (an invoice paid after it was issued
 * is paid_at, not issued_at), as a delivery of it would say; an object that shows no time of its own gets an
 * afternoon of the samples' working day.
 */
export const sampleOccurredAt = (data: Record<string, unknown>): string => {
  const times = Object.entries(data).flatMap(([k, v]) =>
    k.endsWith('_at') && !PLANNED_TIMES.has(k) && typeof v === 'string' && !Number.isNaN(Date.parse(v))
      ? [v]
      : [],
  );
  return times.reduce(
    (a, b) => (Date.parse(b) > Date.parse(a) ? b : a),
    times[0] ?? '2026-11-21T14:05:12+03:00',
  );
};

/** The trigger's own sample: authored data, shown without parsing (see Resource.presentAuthored). */
export const staticSample = (def: HookEvent) => {
  const data = def.sampleData ?? def.resource.sample;
  return {
    ...def.resource.presentAuthored(data),
    ...(def.derive ? def.derive(data) : {}),
    ...Object.assign({}, ...(def.extensions ?? []).map((x) => x.sample)),
    event_id: `${def.event}:${String(def.resource.sample.id)}`,
    occurred_at: sampleOccurredAt(data),
  };
};

type Extended = Record<string, unknown> | undefined;

/**
 * The item with what the row's extensions add; undefined when one of them says the Zap must not fire for it. A
 * promise only once an extension answers with one (a request): an extension that asks nothing costs no await.
 */
const extend = (
  def: HookEvent,
  z: ZObject,
  bundle: HookBundle,
  item: Record<string, unknown> | undefined,
  at: { occurredAt?: string; listed: boolean },
  from = 0,
): Extended | Promise<Extended> => {
  const extensions = def.extensions ?? [];
  let out = item;
  for (let i = from; i < extensions.length; i += 1) {
    if (!out) return undefined;
    const next = extensions[i]!.apply(z, bundle as Bundle, out, at);
    if (next instanceof Promise) return next.then((o) => extend(def, z, bundle, o, at, i + 1));
    out = next;
  }
  return out;
};

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
  const envelope = parseEnvelope(rawBody);
  if (!envelope) throw refuse(z, bundle, 'not_json');
  const headerId = headers.eventId;
  if (headerId !== undefined && headerId !== envelope.id) throw refuse(z, bundle, 'event_id_mismatch');
  // A test delivery from POST /webhooks/{id}/test, another event sent to this hook, or an update this trigger
  // is not about (e.g. Patient Arrived for a reschedule): nothing to trigger.
  if (envelope.event !== def.event || (def.when && !def.when(envelope.data))) return [];
  checkInputs(def.extensions, z, bundle as Bundle);
  // The item first, then the id: only a delivery that made its item is remembered (an extension that throws leaves
  // it retryable), and of two copies only the one that remembers it first triggers. One cache round trip: the nx
  // write answers whether the id is new. Filters come before the extensions, so a filtered-out item costs no request.
  const key = deliveryKey(def.api, sub.id ?? '', envelope.id);
  const base = itemOf(def, envelope.data, envelope.id, envelope.occurred_at);
  const extended = passes(def.filters, bundle.inputData, base)
    ? extend(def, z, bundle, base, { occurredAt: envelope.occurred_at, listed: false })
    : undefined;
  const item = extended instanceof Promise ? await extended : extended;
  let fresh = true;
  try {
    fresh = isNew(await rememberWrite(z, key));
  } catch {
    // The cache failed: fail open (a possible duplicate, never a lost event; lib/dedupe.ts).
  }
  if (!fresh) return [];
  return item ? [item] : [];
};

export const makePerformSubscribe = (def: HookEvent) => (z: ZObject, bundle: HookBundle) => {
  // An input that could never pass (an unknown Consent Channel) is refused before any subscription is made.
  checkInputs(def.extensions, z, bundle as Bundle);
  return subscribe(z, bundle, def);
};

export const makePerformUnsubscribe = (def: HookEvent) => (z: ZObject, bundle: HookBundle) =>
  unsubscribe(z, bundle, def);

/** Envelope-or-object: the clinic's meta.sample and the cashier's catalogue samples do not show which. */
const fromSample = (def: HookEvent, sample: unknown) => {
  if (!isObject(sample)) return undefined;
  if (isObject(sample.data) && typeof sample.event === 'string') {
    return itemOf(
      def,
      sample.data,
      typeof sample.id === 'string' ? sample.id : `${def.event}:sample`,
      sample.occurred_at as string | undefined,
    );
  }
  return itemOf(def, sample, `${def.event}:${String(sample.id ?? 'sample')}`, undefined);
};

/**
 * The newest few objects of a cursor list (newest first). The cashier's receipts come oldest first with no way to
 * start at the end and no count, so the only way to the newest is through every page; past a few pages the
 * sample settles for the newest objects read so far.
 */
const latestOfCursor = async (
  client: ReturnType<typeof clientFor>,
  source: Extract<HookEvent['sample'], { kind: 'cursor' }>,
  query: Record<string, string>,
) => {
  let since: string | undefined;
  let latest: Array<Record<string, unknown>> = [];
  for (let reads = 0; reads < SETTINGS.sampleCursorPages; reads += 1) {
    const { data, meta } = await client.page(source.path, {
      ...query,
      ...source.query,
      since_id: since,
      per_page: SETTINGS.maxPerPage,
    });
    const kept = data.filter(isObject).filter((o) => !source.keeps || source.keeps(o));
    latest = [...latest, ...kept].slice(-SETTINGS.recentLimit);
    const next = typeof meta.next_since_id === 'string' ? meta.next_since_id : since;
    if (meta.has_more !== true || next === since) break;
    since = next;
  }
  return latest.reverse();
};

/** Recent delivery envelopes (clinic) whose data this trigger fires on. */
const firesOn = (def: HookEvent, e: Record<string, unknown>) =>
  !def.when || (isObject(e.data) ? def.when(e.data) : isObject(e) && def.when(e));

export const makePerformList = (def: HookEvent) => async (z: ZObject, bundle: HookBundle) => {
  checkInputs(def.extensions, z, bundle as Bundle);
  if (bundle.meta?.isBulkRead) {
    // Events with no list (claims, erasures, till sessions, order changes) have no past to move.
    return def.history ? readHistory(def, def.history, z, bundle) : [];
  }
  // "Load more" in the Zap editor: the recent objects are all there is outside a transfer.
  if (Number(bundle.meta?.page ?? 0) > 0) return [];
  const client = clientFor(z, bundle, def.api);
  let items: Array<Record<string, unknown>> = [];
  const source = def.sample;
  let listed = false;
  if (source.kind === 'recent') {
    // A status trigger reads more of the recent updates: few of them are the one status it fires on.
    const body = await client.raw('GET', `/webhooks/events/${encodeURIComponent(def.event)}/recent`, {
      query: { limit: def.when ? SETTINGS.recentLimitForStatus : SETTINGS.recentLimit },
    });
    const answer = isObject(body) ? body : {};
    const list = Array.isArray(answer.data) ? answer.data : [];
    items = list
      .filter(isObject)
      .filter((e) => firesOn(def, e))
      .slice(0, SETTINGS.recentLimit)
      .flatMap((e) => {
        const item = fromSample(def, e);
        return item ? [item] : [];
      });
    if (
      !items.length &&
      isObject(answer.meta) &&
      isObject(answer.meta.sample) &&
      firesOn(def, answer.meta.sample)
    ) {
      const sample = fromSample(def, answer.meta.sample);
      if (sample) items = [sample];
    }
  } else if (source.kind === 'list') {
    const narrowed = Object.assign(
      {},
      ...(def.extensions ?? []).map((x) => x.listQuery?.(bundle.inputData) ?? {}),
    );
    listed = Object.keys(narrowed).length > 0;
    const { data } = await client.page<unknown>(source.path, { ...source.query, ...narrowed, per_page: 3 });
    items = data
      .filter(isObject)
      .map((o) =>
        itemOf(def, o, `${def.event}:${String(o.id ?? `${o.branch_id}:${o.variant_id}`)}`, undefined),
      );
  } else if (source.kind === 'cursor') {
    const latest = await latestOfCursor(client, source, filterQuery(def.filters, bundle.inputData ?? {}));
    items = latest.map((o) => {
      const at = o[source.at];
      return itemOf(def, o, `${def.event}:${String(o.id)}`, typeof at === 'string' ? at : undefined);
    });
  }
  // A shop or branch with no sales yet still shows its kind of item: the account's sample.
  if (!items.length && (source.kind === 'catalogue' || source.kind === 'cursor')) {
    const body = await client.raw('GET', '/webhooks/events');
    const list = isObject(body) && Array.isArray(body.data) ? body.data : [];
    const entry = list.find((e): e is Record<string, unknown> => isObject(e) && e.event === def.event);
    const sample = entry ? fromSample(def, entry.sample) : undefined;
    if (sample) items = [sample];
  }
  const kept: Array<Record<string, unknown>> = [];
  for (const item of items.filter((i) => passes(def.filters, bundle.inputData, i))) {
    const extended = await extend(def, z, bundle, item, { occurredAt: item.occurred_at as string, listed });
    if (extended) kept.push(extended);
  }
  return kept.length ? kept : [staticSample(def)];
};

/** One REST-hook trigger from a row of the event table. */
export const hookTrigger = (def: HookEvent) =>
  defineTrigger({
    key: def.key,
    noun: def.noun,
    display: { label: def.label, description: def.description },
    operation: {
      type: 'hook',
      inputFields: [
        ...filterInputFields(def.filters),
        ...(def.extensions ?? []).flatMap((x) => x.inputFields),
        ...(def.history?.range ? transferRangeFields(def.history.range.by) : []),
      ],
      perform: makePerform(def),
      performList: makePerformList(def),
      performSubscribe: makePerformSubscribe(def),
      performUnsubscribe: makePerformUnsubscribe(def),
      sample: staticSample(def),
      // z.cursor keeps a transfer's place between its pages (readHistory).
      ...(def.history ? { canPaginate: true } : {}),
      outputFields: [
        ...def.resource.outputFields,
        ...(def.extraOutputFields ?? []),
        ...(def.extensions ?? []).flatMap((x) => x.outputFields),
        { key: 'event_id', label: 'Event ID', type: 'string' },
        { key: 'occurred_at', label: 'Occurred At', type: 'datetime' },
      ],
    },
  });
