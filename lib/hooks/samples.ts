/**
 * Live samples (performList outside Transfer): the newest real objects of the event, made into the items a delivery
 * of them would make, with the trigger's filters and extensions applied; the account's sample or the app's own when
 * there are none yet.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { SETTINGS } from '../config';
import { clientFor } from '../http';
import { checkInputs } from './extensions';
import { filterQuery, passes } from './filters';
import { extend, isObject, itemOf, staticSample } from './item';
import { readTransferPage } from './transfer';
import type { HookBundle, HookEvent, Item, SampleSource } from './types';

/** Envelope-or-object: the clinic's meta.sample and the cashier's catalogue samples do not show which. */
const fromSample = (def: HookEvent, sample: unknown) => {
  if (!isObject(sample)) return undefined;
  if (isObject(sample.data) && typeof sample.event === 'string') {
    return itemOf(def, sample.data, {
      eventId: typeof sample.id === 'string' ? sample.id : `${def.event}:sample`,
      occurredAt: sample.occurred_at as string | undefined,
    });
  }
  return itemOf(def, sample, {
    eventId: `${def.event}:${String(sample.id ?? 'sample')}`,
    occurredAt: undefined,
  });
};

/**
 * The newest few objects of a cursor list (newest first). The cashier's receipts come oldest first with no way to
 * start at the end and no count, so the only way to the newest is through every page; past a few pages the
 * sample settles for the newest objects read so far.
 */
const latestOfCursor = async (
  client: ReturnType<typeof clientFor>,
  source: Extract<SampleSource, { kind: 'cursor' }>,
  query: Record<string, string>,
) => {
  let since: string | undefined;
  let latest: Item[] = [];
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
const firesOn = (def: HookEvent, e: Item) =>
  !def.when || (isObject(e.data) ? def.when(e.data) : isObject(e) && def.when(e));

/** Items of the interface's newest objects of the event, before filters and extensions; `listed`: narrowed by them. */
const newestItems = async (
  def: HookEvent,
  z: ZObject,
  bundle: HookBundle,
): Promise<{ items: Item[]; listed: boolean }> => {
  const client = clientFor(z, bundle, def.api);
  const source = def.sample;
  if (source.kind === 'recent') {
    // A status trigger reads more of the recent updates: few of them are the one status it fires on.
    const body = await client.raw('GET', `/webhooks/events/${encodeURIComponent(def.event)}/recent`, {
      query: { limit: def.when ? SETTINGS.recentLimitForStatus : SETTINGS.recentLimit },
    });
    const answer = isObject(body) ? body : {};
    const list = Array.isArray(answer.data) ? answer.data : [];
    const items = list
      .filter(isObject)
      .filter((e) => firesOn(def, e))
      .slice(0, SETTINGS.recentLimit)
      .flatMap((e) => {
        const item = fromSample(def, e);
        return item ? [item] : [];
      });
    if (items.length) return { items, listed: false };
    const sample =
      isObject(answer.meta) && isObject(answer.meta.sample) && firesOn(def, answer.meta.sample)
        ? fromSample(def, answer.meta.sample)
        : undefined;
    return { items: sample ? [sample] : [], listed: false };
  }
  let items: Item[] = [];
  let listed = false;
  if (source.kind === 'list') {
    const narrowed = Object.assign(
      {},
      ...(def.extensions ?? []).map((x) => x.listQuery?.(bundle.inputData) ?? {}),
    );
    listed = Object.keys(narrowed).length > 0;
    const { data } = await client.page<unknown>(source.path, { ...source.query, ...narrowed, per_page: 3 });
    items = data.filter(isObject).map((o) =>
      itemOf(def, o, {
        eventId: `${def.event}:${String(o.id ?? `${o.branch_id}:${o.variant_id}`)}`,
        occurredAt: undefined,
      }),
    );
  } else if (source.kind === 'cursor') {
    const latest = await latestOfCursor(client, source, filterQuery(def.filters, bundle.inputData ?? {}));
    items = latest.map((o) => {
      const at = o[source.at];
      return itemOf(def, o, {
        eventId: `${def.event}:${String(o.id)}`,
        occurredAt: typeof at === 'string' ? at : undefined,
      });
    });
  }
  // A shop or branch with no sales yet still shows its kind of item: the account's sample.
  if (!items.length && (source.kind === 'catalogue' || source.kind === 'cursor')) {
    const body = await client.raw('GET', '/webhooks/events');
    const list = isObject(body) && Array.isArray(body.data) ? body.data : [];
    const entry = list.find((e): e is Item => isObject(e) && e.event === def.event);
    const sample = entry ? fromSample(def, entry.sample) : undefined;
    if (sample) items = [sample];
  }
  return { items, listed };
};

/** The trigger's performList: samples in the Zap editor, pages of past objects for Zapier Transfer. */
export const makePerformList = (def: HookEvent) => async (z: ZObject, bundle: HookBundle) => {
  checkInputs(def.extensions, z, bundle as Bundle);
  if (bundle.meta?.isBulkRead) {
    // Events with no list (claims, erasures, till sessions, order changes) have no past to move.
    return def.transfer ? readTransferPage(def, def.transfer, z, bundle) : [];
  }
  // "Load more" in the Zap editor: the recent objects are all there is outside a transfer.
  if (Number(bundle.meta?.page ?? 0) > 0) return [];
  const { items, listed } = await newestItems(def, z, bundle);
  const kept: Item[] = [];
  for (const item of items.filter((i) => passes(def.filters, bundle.inputData, i))) {
    const extended = await extend(def, z, bundle, item, {
      occurredAt: item.occurred_at as string,
      listed,
      replayable: true,
    });
    if (extended) kept.push(extended);
  }
  return kept.length ? kept : [staticSample(def)];
};
