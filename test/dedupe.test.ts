import { errors as zErrors } from 'zapier-platform-core';
import { EVENTS } from '../lib/hooks/events';
import type { HookEvent } from '../lib/hooks/types';
import type { HookExtension } from '../lib/hooks/types';
import { makePerform } from '../lib/hooks/delivery';
import type { SubscribeData } from '../lib/hooks/types';
import { sign } from '../lib/signature';

/*
 * The dedupe of hook deliveries costs one z.cache round trip a delivery: the nx write alone.
 * The cache here counts every call it gets and behaves as Zapier's does (nx: the first write stores, a later one
 * answers false).
 */

const SECRET = 'whsec_dedupe_round_trips_4f1e';
const PATH = '/hooks/standard/77/abc/';

const countingCache = () => {
  const store = new Map<string, unknown>();
  const calls: string[] = [];
  return {
    calls,
    store,
    z: {
      errors: zErrors,
      cache: {
        get: async (k: string) => (calls.push(`get ${k}`), store.get(k) ?? null),
        set: async (k: string, v: unknown, _ttl?: number, _scope?: string[], nx?: boolean) => {
          calls.push(`set${nx ? ' nx' : ''} ${k}`);
          if (nx && store.has(k)) return false;
          store.set(k, v);
          return true;
        },
        delete: async (k: string) => (calls.push(`delete ${k}`), store.delete(k)),
      },
    },
  };
};

const sub = (def: HookEvent): SubscribeData => ({
  id: 77,
  secret: SECRET,
  target_path: PATH,
  event: def.event,
  api: def.api,
});

const deliveryOf = (def: HookEvent, id: string) => {
  const rawBody = JSON.stringify({
    id,
    event: def.event,
    occurred_at: '2026-11-21T10:00:00+03:00',
    data: def.sampleData ?? def.resource.sample,
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    authData: {},
    inputData: { include_patient: false },
    subscribeData: sub(def),
    rawRequest: {
      content: rawBody,
      headers: {
        'Http-X-Partner-Timestamp': timestamp,
        'Http-X-Partner-Signature': sign(SECRET, { timestamp, path: PATH, rawBody }),
      },
    },
  };
};

const perform = (def: HookEvent, z: unknown, bundle: object) =>
  (makePerform(def) as (z: unknown, b: unknown) => Promise<unknown[]>)(z, bundle);

describe.each(EVENTS.map((def) => [def.key, def] as const))('%s delivery dedupe', (_key, def) => {
  it('a new delivery makes one round trip, the nx write, and yields its item', async () => {
    const { z, calls } = countingCache();
    expect(await perform(def, z, deliveryOf(def, 'evt_new_1'))).toHaveLength(1);
    expect(calls).toEqual([`set nx delivery:${def.api}:77:evt_new_1`]);
  });

  it('a repeat makes one round trip too, and its false answer means seen: no item', async () => {
    const { z, calls } = countingCache();
    const bundle = deliveryOf(def, 'evt_repeat_1');
    await perform(def, z, bundle);
    expect(await perform(def, z, bundle)).toEqual([]);
    expect(calls).toEqual([
      `set nx delivery:${def.api}:77:evt_repeat_1`,
      `set nx delivery:${def.api}:77:evt_repeat_1`,
    ]);
  });
});

describe('the id is claimed only once the item is made', () => {
  const def = EVENTS.find((e) => e.key === 'invoice_paid')!;
  it('an item whose making fails is not claimed, and the sender’s retry yields it', async () => {
    let failures = 1;
    const flaky: HookExtension = {
      inputFields: [],
      outputFields: [],
      sample: {},
      apply: async (_z, _b, item) => {
        if (failures-- > 0) throw new Error('the item could not be made');
        return { ...item, extended: true };
      },
    };
    const withFlaky: HookEvent = { ...def, extensions: [flaky] };
    const { z, calls, store } = countingCache();
    const bundle = deliveryOf(withFlaky, 'evt_flaky_1');
    await expect(perform(withFlaky, z, bundle)).rejects.toThrow('the item could not be made');
    expect(calls).toEqual([]);
    expect(store.size).toBe(0);
    const items = (await perform(withFlaky, z, bundle)) as Array<Record<string, unknown>>;
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: def.resource.sample.id, extended: true });
    expect(calls).toEqual(['set nx delivery:clinic:77:evt_flaky_1']);
  });

  it('an nx answer of null counts as seen; a throwing cache fails open (the item comes through)', async () => {
    const nullCache = { errors: zErrors, cache: { set: async () => null } };
    expect(await perform(def, nullCache, deliveryOf(def, 'evt_null'))).toEqual([]);
    const down = {
      errors: zErrors,
      cache: {
        set: async () => {
          throw new Error('cache unavailable');
        },
      },
    };
    expect(await perform(def, down, deliveryOf(def, 'evt_down'))).toHaveLength(1);
    // A cache whose set throws before it gives a promise fails open the same way.
    const broken = {
      errors: zErrors,
      cache: {
        set: () => {
          throw new Error('cache client broken');
        },
      },
    };
    expect(await perform(def, broken, deliveryOf(def, 'evt_broken'))).toHaveLength(1);
  });
});
