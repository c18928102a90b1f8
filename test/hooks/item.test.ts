/* The item builder (lib/hooks/item.ts): the keys of every item of a trigger, its output fields and static sample. */
import type { ZObject } from 'zapier-platform-core';
import { EVENTS } from '../../lib/hooks/events';
import { unknownInTransfer } from '../../lib/hooks/extensions';
import {
  extend,
  extendPage,
  itemOf,
  itemOutputFields,
  sampleOccurredAt,
  staticSample,
} from '../../lib/hooks/item';
import type { HookBundle, HookEvent, HookExtension, Item } from '../../lib/hooks/types';

const created = EVENTS.find((e) => e.key === 'appointment_created')!;
const stock = EVENTS.find((e) => e.key === 'stock_low')!;
const z = {} as ZObject;
const bundle = { authData: {}, inputData: {} } as unknown as HookBundle;
const rowWith = (extensions: HookExtension[], def: HookEvent = created): HookEvent => ({
  ...def,
  extensions,
});
/** The top-level key an output field names (`patient__phone` → `patient`, `lines[]sku` → `lines`). */
const rootOf = (key: string) => key.split(/\[\]|__/)[0]!;

describe('itemOf', () => {
  it('is the resource’s presentation, what the extensions read from the data, then event_id and occurred_at', () => {
    const seen: Array<[Item, Item, boolean]> = [];
    const probe: HookExtension = {
      fromData: (data, item, making) => {
        seen.push([data, { ...item }, making.transfer]);
        return { probed: true };
      },
    };
    const data = { ...created.resource.sample, diagnosis: 'not a field' };
    const item = itemOf(rowWith([probe]), data, {
      eventId: 'evt_1',
      occurredAt: '2026-11-24T10:00:00+03:00',
    });
    expect(item).toEqual({
      ...created.resource.present(data),
      probed: true,
      event_id: 'evt_1',
      occurred_at: '2026-11-24T10:00:00+03:00',
    });
    expect(item).not.toHaveProperty('diagnosis');
    // The extension sees the raw data and the item so far, made from a delivery.
    expect(seen).toEqual([[data, created.resource.present(data), false]]);
  });

  it('names an object of a list by its own id, and leaves an unknown time null', () => {
    const item = itemOf(stock, stock.resource.sample, { occurredAt: undefined });
    expect(item.event_id).toBe(`stock.low:${String(item.id)}`);
    expect(item.id).toBe(`${stock.resource.sample.branch_id}:${stock.resource.sample.variant_id}`);
    expect(item.occurred_at).toBeNull();
  });

  it('adds the keys Transfer cannot tell only to a Transfer item, keeping a value the object shows', () => {
    const def = rowWith([unknownInTransfer({ previous_status: null, status: 'blank' })]);
    const data = created.resource.sample;
    const live = itemOf(def, data, { eventId: 'e', occurredAt: undefined });
    const moved = itemOf(def, data, { occurredAt: undefined }, { transfer: true });
    expect(live).not.toHaveProperty('previous_status');
    expect(moved.previous_status).toBeNull();
    expect(moved.status).toBe(data.status);
  });
});

describe('extend', () => {
  const adds = (key: string): HookExtension => ({
    apply: async (_z, _b, item) => ({ ...item, [key]: true }),
  });
  const refuses: HookExtension = { apply: async () => undefined };

  it('runs the extensions that ask something in the row’s order, and skips those that only read the data', async () => {
    const order: string[] = [];
    const track = (key: string): HookExtension => ({
      apply: async (_z, _b, item) => {
        order.push(key);
        return { ...item, [key]: Object.keys(item).length };
      },
    });
    const out = await extend(
      rowWith([track('a'), { fromData: () => ({}) }, track('b')]),
      z,
      bundle,
      { id: 1 },
      {
        listed: false,
      },
    );
    expect(order).toEqual(['a', 'b']);
    expect(out).toEqual({ id: 1, a: 1, b: 2 });
  });

  it('stops at an extension that refuses the item', async () => {
    const after = jest.fn(async (_z: unknown, _b: unknown, item: Item) => item);
    const def = rowWith([adds('a'), refuses, { apply: after }]);
    await expect(extend(def, z, bundle, { id: 1 }, { listed: false })).resolves.toBeUndefined();
    expect(after).not.toHaveBeenCalled();
  });

  it('passes the occasion on', async () => {
    const seen: unknown[] = [];
    const apply: HookExtension['apply'] = async (_z, _b, item, at) => {
      seen.push(at);
      return item;
    };
    await extend(rowWith([{ apply }]), z, bundle, { id: 1 }, { occurredAt: 'then', listed: true });
    expect(seen).toEqual([{ occurredAt: 'then', listed: true }]);
  });
});

describe('extendPage', () => {
  it('uses a page-wide step where there is one, else each item’s, and drops the refused items', async () => {
    const page: HookExtension = {
      applyPage: async (_z, _b, items) => items.map((i) => ({ ...i, paged: items.length })),
      apply: async () => {
        throw new Error('not per item when the page can be done at once');
      },
    };
    const odd: HookExtension = {
      apply: async (_z, _b, item, at) =>
        (item.id as number) % 2 ? { ...item, listed: at.listed } : undefined,
    };
    const items = [1, 2, 3].map((id) => ({ id, occurred_at: null }));
    const out = await extendPage(rowWith([page, odd]), z, bundle, items, true);
    expect(out).toEqual([
      { id: 1, occurred_at: null, paged: 3, listed: true },
      { id: 3, occurred_at: null, paged: 3, listed: true },
    ]);
  });
});

describe('sampleOccurredAt', () => {
  it('is the latest time something happened to the object, not a planned time', () => {
    expect(
      sampleOccurredAt({
        issued_at: '2026-11-21T09:00:00+03:00',
        paid_at: '2026-11-21T11:24:10+03:00',
        starts_at: '2026-12-01T09:00:00+03:00',
        note_at: 'not a time',
      }),
    ).toBe('2026-11-21T11:24:10+03:00');
    // Compared as instants: 08:00Z is later than 10:00+03:00.
    expect(sampleOccurredAt({ a_at: '2026-11-21T10:00:00+03:00', b_at: '2026-11-21T08:00:00Z' })).toBe(
      '2026-11-21T08:00:00Z',
    );
  });

  it('is an afternoon of the samples’ day for an object without times', () => {
    expect(sampleOccurredAt({ starts_at: '2026-12-01T09:00:00+03:00' })).toBe('2026-11-21T14:05:12+03:00');
  });
});

describe.each(EVENTS.map((def) => [def.key, def] as const))('%s', (_key, def) => {
  it('its output fields are the resource’s, then each extension’s in the row’s order, then event_id, occurred_at', () => {
    const keys = itemOutputFields(def).map((f) => f.key);
    expect(keys).toEqual([
      ...def.resource.outputFields.map((f) => f.key),
      ...(def.extensions ?? []).flatMap((x) => (x.outputFields ?? []).map((f) => f.key)),
      'event_id',
      'occurred_at',
    ]);
    expect(new Set(keys).size).toBe(keys.length);
  });

  it('its static sample has only keys its output fields name, and every extension’s sample', () => {
    const sample = staticSample(def);
    const named = new Set(itemOutputFields(def).map((f) => rootOf(f.key)));
    for (const key of Object.keys(sample)) expect(named).toContain(key);
    for (const x of def.extensions ?? []) expect(sample).toMatchObject(x.sample ?? {});
    expect(sample.event_id).toBe(`${def.event}:${String(def.resource.sample.id)}`);
    expect(typeof sample.occurred_at).toBe('string');
  });
});
