/**
 * The one item builder: what a Zap sees of an object of an event, live, sampled or moved by Transfer, and the output
 * fields and static sample that describe it. An item is the resource's presentation of the event's data, then what
 * each of the row's extensions adds, in the row's order, then `event_id` and `occurred_at`.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { OutputField } from '../resources/define';
import type { HookBundle, HookEvent, Item, Making, Occasion } from './types';

// One test of "a plain object" for everything made from received data: the presenter's.
export { isObject } from '../resources/present';

const extensionsOf = (def: HookEvent) => def.extensions ?? [];

/**
 * The item for one object of an event, before the extensions that need a request. Without an `eventId` (an object
 * of a list), the item's own id names its event.
 */
export const itemOf = (
  def: HookEvent,
  data: Item,
  ids: { eventId?: string; occurredAt: string | undefined },
  making: Making = { transfer: false },
): Item => {
  // present makes a new object, which is completed in place.
  const item: Item = def.resource.present(data);
  for (const x of extensionsOf(def)) if (x.fromData) Object.assign(item, x.fromData(data, item, making));
  item.event_id = ids.eventId ?? `${def.event}:${String(item.id)}`;
  item.occurred_at = ids.occurredAt ?? null;
  return item;
};

/** The item with what the row's extensions add by request; undefined when one says the Zap must not fire for it. */
export const extend = async (
  def: HookEvent,
  z: ZObject,
  bundle: HookBundle,
  item: Item,
  at: Occasion,
): Promise<Item | undefined> => {
  let out: Item | undefined = item;
  for (const x of extensionsOf(def)) {
    if (!out) return undefined;
    if (x.apply) out = await x.apply(z, bundle as Bundle, out, at);
  }
  return out;
};

/** The same for a page of Transfer, dropping the items an extension refuses. */
export const extendPage = async (
  def: HookEvent,
  z: ZObject,
  bundle: HookBundle,
  items: Item[],
  listed: boolean,
): Promise<Item[]> => {
  let out: Array<Item | undefined> = items;
  for (const x of extensionsOf(def)) {
    const present = out.filter((i): i is Item => !!i);
    if (x.applyPage) out = await x.applyPage(z, bundle as Bundle, present);
    else if (x.apply) {
      const apply = x.apply.bind(x);
      out = await Promise.all(
        present.map((i) =>
          apply(z, bundle as Bundle, i, { occurredAt: i.occurred_at as string, listed, replayable: true }),
        ),
      );
    }
  }
  return out.filter((i): i is Item => !!i);
};

/** Times an object is planned for, not times something happened to it: an event may come before them. */
const PLANNED_TIMES = new Set(['starts_at', 'ends_at']);

/**
 * When a sample's event happened: with the latest change the sample shows (an invoice paid after it was issued
 * is paid_at, not issued_at), as a delivery of it would say; an object that shows no time of its own gets an
 * afternoon of the samples' working day.
 */
export const sampleOccurredAt = (data: Item): string => {
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
export const staticSample = (def: HookEvent): Item => {
  const data = def.sampleData ?? def.resource.sample;
  const item: Item = def.resource.presentAuthored(data);
  for (const x of extensionsOf(def)) {
    Object.assign(item, x.fromData?.(data, item, { transfer: false }), x.sample);
  }
  item.event_id = `${def.event}:${String(def.resource.sample.id)}`;
  item.occurred_at = sampleOccurredAt(data);
  return item;
};

/** The keys of the items, as the Zap editor lists them. */
export const itemOutputFields = (def: HookEvent): OutputField[] => [
  ...def.resource.outputFields,
  ...extensionsOf(def).flatMap((x) => x.outputFields ?? []),
  { key: 'event_id', label: 'Event ID', type: 'string' },
  { key: 'occurred_at', label: 'Occurred At', type: 'datetime' },
];
