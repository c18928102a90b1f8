import fc from 'fast-check';
import nock from 'nock';
import { createAppTester } from 'zapier-platform-core';
import { validateAppDefinition } from 'zapier-platform-schema';
import { SETTINGS } from '../lib/config';
import { cloneDefinition, loadDefinition, type AppDefinition } from '../scripts/checks/definition';
import { data, replay, reply, sent, WATER_INPUT } from './fixtures';
import { App, AUTH, cashierApi, cashierPath, messageOf, useNock } from './helpers';
import { rpcCache, type RpcCall } from './support/zcache-rpc';

/*
 * Runs of Create Item and Update Item that meet. Zapier's lock (declared on both, enforced by Zapier's servers, not
 * by core) serialises runs on one item and connection; Create Item's nx claim makes one item even when identical
 * runs meet without it. The runs go through the app's definition with appTester, sharing a z.cache that honours
 * nx (test/support/zcache-rpc.ts); the property tests draw the order of their steps and model the lock.
 */

useNock();

// The runs wait on each other (gates opened when the other run has looked, not after a time), so this file's limit
// only guards against a hang: on a loaded two-core machine the property runs took longer than jest's 30 s.
jest.setTimeout(300_000);

/** A tester of its own whose z.cache calls go to the RPC stand-in: appTester's in-memory mock ignores nx. */
const tester = createAppTester(App) as ReturnType<typeof createAppTester> & { zcacheTestObj: unknown };
beforeEach(() => {
  tester.zcacheTestObj = null;
});

type Ops = Record<string, { operation: { perform: unknown } }>;
const ZAP = { zap: { id: '424242' } };
const runCreate = <T = Record<string, unknown>>(key: string, inputData: object, authData: object = AUTH) =>
  tester(
    (App.creates as Ops)[key]!.operation.perform as never,
    {
      authData,
      inputData,
      meta: ZAP,
    } as never,
  ) as Promise<T>;
const outcome = (p: Promise<Record<string, unknown>>) =>
  p.then(
    (value) => ({ value, error: undefined }),
    (error: Error) => ({ value: undefined, error }),
  );
/** Waits shorter than a Zap's, so the suites do not sit through them: how often a loser looks, and how long. */
const waits = (pollMs: number, waitMs: number = SETTINGS.claimWaitMs) => {
  const settings = SETTINGS as { claimPollMs: number; claimWaitMs: number };
  jest.replaceProperty(settings, 'claimPollMs', pollMs);
  jest.replaceProperty(settings, 'claimWaitMs', waitMs);
};
const isClaim = (c: RpcCall) => c.method === 'zcache_set' && c.params[4] === true;
const BUSY =
  /^An identical Create Item run is making this item right now, so this run did not make it again\. Replay this step in a minute/;

/** What the cashier made of Create Item's water (recorded), under the id the test gives it. */
const WATER = data('create-item-default-price');
const created = (id: number) => ({ data: { ...WATER, id } }); // hand-built: the recorded answer under another id

// ------------------------------------------------------------------------------------------------ the declarations

type Lock = { key?: string; scope?: string[]; timeout?: number };
type Operation = { lock?: Lock; inputFields?: Array<{ key: string; required?: boolean }> };

/** What is wrong with each lock of the definition, as Zapier's servers would read it. */
const lockProblems = (definition: AppDefinition): string[] =>
  (['creates', 'searches'] as const).flatMap((kind) =>
    Object.entries((definition[kind] ?? {}) as Record<string, { operation: Operation }>).flatMap(
      ([key, { operation }]) => {
        const lock = operation.lock;
        if (!lock) return [];
        const problems: string[] = [];
        // Without a scope a lock is app-wide: every account's runs with the same value would wait on each other.
        if (!lock.scope?.includes('auth')) problems.push(`${key}: scope must include auth`);
        if (!Number.isInteger(lock.timeout) || lock.timeout! < 1 || lock.timeout! > 180) {
          problems.push(`${key}: timeout must be 1-180 s`);
        }
        const inputs = [...(lock.key ?? '').matchAll(/{{bundle\.inputData\.(\w+)}}/g)].map((m) => m[1]!);
        if (!inputs.length) problems.push(`${key}: key names no input`);
        for (const input of inputs) {
          const field = operation.inputFields?.find((f) => f.key === input);
          if (field?.required !== true) problems.push(`${key}: ${input} is not a required input`);
        }
        return problems;
      },
    ),
  );

describe('item writes declare Zapier’s lock, per connection', () => {
  const definition = loadDefinition(App);
  const lockOf = (d: AppDefinition, key: string) =>
    ((d.creates as Record<string, { operation: Operation }>)[key]!.operation.lock ?? {}) as Lock;

  it.each([
    ['update_item', 'item_id'],
    ['create_item', 'name_ar'],
  ])('%s is locked on %s, scoped to the connection, for at most 180 s', (key, input) => {
    expect(lockOf(definition, key)).toEqual({
      key: `${key}:{{bundle.inputData.${input}}}`,
      scope: ['auth'],
      timeout: SETTINGS.writeLockSeconds,
    });
    expect(SETTINGS.writeLockSeconds).toBeLessThanOrEqual(180);
  });

  it('every lock passes the rules and Zapier’s schema; a broken one fails each', () => {
    expect(lockProblems(definition)).toEqual([]);
    expect(validateAppDefinition(definition).errors).toEqual([]);
    const broken = (change: (lock: Lock) => unknown) => {
      const copy = cloneDefinition(definition);
      change(lockOf(copy, 'create_item'));
      return copy;
    };
    expect(lockProblems(broken((l) => delete l.scope))).toEqual(['create_item: scope must include auth']);
    expect(lockProblems(broken((l) => (l.timeout = 181)))).toEqual(['create_item: timeout must be 1-180 s']);
    expect(lockProblems(broken((l) => (l.key = 'create_item:{{bundle.inputData.name_en}}')))).toEqual([
      'create_item: name_en is not a required input',
    ]);
    expect(validateAppDefinition(broken((l) => (l.scope = ['app']))).errors).not.toEqual([]);
  });
});

/** Held until `open` is called: a request the test lets through when it chooses. */
const gate = () => {
  const g = { done: false, open: () => {}, opened: Promise.resolve() };
  g.opened = new Promise<void>((resolve) => (g.open = () => ((g.done = true), resolve())));
  return g;
};

// --------------------------------------------------------------------------------- two Create Item runs that meet

describe('two identical Create Item runs without SKU that meet make one item', () => {
  let rpc: ReturnType<typeof rpcCache> | undefined;
  afterEach(() => rpc?.stop());

  const readBack = (id: number) =>
    cashierApi()
      .get(cashierPath(`/items/${id}`))
      .reply(200, created(id));

  it('both find nothing, both claim: the one the nx write refuses does not POST and answers the other’s item', async () => {
    // Both runs read the cache before either claims (the worst moment to meet).
    const reads = gate();
    // The winner's item is made once the loser has looked for it: the loser waits for it, however slow the machine.
    const looked = gate();
    let seen = 0;
    rpc = rpcCache({
      before: async ({ method }) => {
        if (method !== 'zcache_get') return;
        if (rpc!.calls.filter(isClaim).length === 2) looked.open();
        if (seen >= 2) return;
        if (++seen === 2) reads.open();
        await reads.opened;
      },
    });
    waits(20, 60_000);
    cashierApi()
      .post(cashierPath('/items'), sent('create-item-default-price'))
      .reply(async () => {
        await looked.opened;
        return reply('create-item-default-price');
      });
    readBack(WATER.id as number);
    const [a, b] = await Promise.all([
      runCreate('create_item', WATER_INPUT),
      runCreate('create_item', WATER_INPUT),
    ]);
    expect([a.duplicate, b.duplicate].sort()).toEqual([false, true]);
    expect(a.id).toBe(WATER.id);
    expect(b.id).toBe(WATER.id);
    const claims = rpc.calls.filter(isClaim);
    expect(claims).toHaveLength(2);
    expect(claims[0]!.params[0]).toBe(claims[1]!.params[0]);
    expect(claims[0]!.params[3]).toEqual(['auth']);
  });

  it('a run that finds the other’s fresh pending record neither claims nor POSTs: it answers the item once made', async () => {
    const post = gate();
    const posted = gate();
    // Every look while the first run's POST is held is the second run's: the POST ends at its second look, so it
    // has found the record pending once at least, whatever the machine's speed.
    let looks = 0;
    rpc = rpcCache({
      before: async ({ method }) => {
        if (method === 'zcache_get' && posted.done && ++looks === 2) post.open();
      },
    });
    waits(20, 60_000);
    cashierApi()
      .post(cashierPath('/items'), sent('create-item-default-price'))
      .reply(async () => {
        posted.open();
        await post.opened;
        return reply('create-item-default-price');
      });
    readBack(WATER.id as number);
    const first = runCreate('create_item', WATER_INPUT);
    await posted.opened;
    const second = runCreate('create_item', WATER_INPUT);
    expect(await first).toMatchObject({ id: WATER.id, duplicate: false });
    expect(await second).toMatchObject({ id: WATER.id, duplicate: true });
    expect(rpc.calls.filter(isClaim)).toHaveLength(1);
  });

  it('a cache that cannot be read is not asked to claim: the write goes ahead (fail open), as documented', async () => {
    let readsDown = false;
    rpc = rpcCache({
      before: async ({ method }) => {
        if (readsDown && method === 'zcache_get') throw new Error('z.cache is down');
      },
    });
    waits(5, 50);
    cashierApi()
      .post(cashierPath('/items'), sent('create-item-default-price'))
      .times(2)
      .reply(...reply('create-item-default-price'));
    expect(await runCreate('create_item', WATER_INPUT)).toMatchObject({ duplicate: false });
    // The first run's claim is still held; a run that cannot read what it made posts all the same.
    readsDown = true;
    expect(await runCreate('create_item', WATER_INPUT)).toMatchObject({ duplicate: false });
    expect(rpc.calls.filter(isClaim)).toHaveLength(1);
  });

  it('the run that loses fails with a clear message when the item is late; replayed, it answers the item', async () => {
    rpc = rpcCache();
    waits(10, 50);
    const post = gate();
    const posted = gate();
    cashierApi()
      .post(cashierPath('/items'), sent('create-item-default-price'))
      .reply(async () => {
        posted.open();
        await post.opened;
        return reply('create-item-default-price');
      });
    const first = runCreate('create_item', WATER_INPUT);
    await posted.opened;
    const late = await outcome(runCreate('create_item', WATER_INPUT));
    expect(messageOf(late.error)).toMatch(BUSY);
    expect(messageOf(late.error)).toMatch(/never makes a second one\.$/);
    expect(JSON.parse(late.error!.message)).toMatchObject({ code: 'item_create_in_progress', status: 409 });
    const inArabic = await outcome(runCreate('create_item', WATER_INPUT, { ...AUTH, language: 'ar' }));
    expect(messageOf(inArabic.error)).toMatch(/^An identical Create Item run .* — يُنشئ تشغيلٌ مطابق/);
    post.open();
    expect(await first).toMatchObject({ id: WATER.id, duplicate: false });
    readBack(WATER.id as number);
    expect(await runCreate('create_item', WATER_INPUT)).toMatchObject({ id: WATER.id, duplicate: true });
  });
});

// -------------------------------------------------------------------- Update Item runs on one item, written apart

describe('Update Item runs on one item meet at the app’s own lock, however the id is written', () => {
  let rpc: ReturnType<typeof rpcCache> | undefined;
  afterEach(() => rpc?.stop());
  const ITEM = data('update-item', { method: 'GET' }).id as number;
  const READ = () =>
    cashierApi()
      .get(cashierPath(`/items/${ITEM}`))
      .reply(replay('update-item', { method: 'GET' }));
  const lockWaits = (pollMs: number, waitMs: number) => {
    const settings = SETTINGS as { lockPollMs: number; lockWaitMs: number };
    jest.replaceProperty(settings, 'lockPollMs', pollMs);
    jest.replaceProperty(settings, 'lockWaitMs', waitMs);
  };
  const BUSY_UPDATE = new RegExp(
    `^Another Update Item run is changing item ${ITEM} right now, so this run changed nothing; replayed, this step reads the item as that run left it and makes this change\\. Zapier replays it by itself when Autoreplay is on\\.`,
  );

  it.each([` ${ITEM}`, `0${ITEM}`, `${ITEM} `])(
    'a run on "%s" while one on the plain id holds the item sends nothing, waits a little, then fails saying Zapier replays it',
    async (written) => {
      rpc = rpcCache();
      lockWaits(10, 40);
      const read = gate();
      const held = new Promise<void>((resolve) =>
        cashierApi()
          .get(cashierPath(`/items/${ITEM}`))
          .reply(async () => {
            resolve();
            await read.opened;
            return reply('update-item', { method: 'GET' });
          }),
      );
      cashierApi()
        .put(cashierPath(`/items/${ITEM}`), { name_en: 'Saudi Coffee' })
        .times(2)
        .reply(...reply('update-item', { method: 'PUT' }));
      const first = runCreate('update_item', { item_id: String(ITEM), name_en: 'Saudi Coffee' });
      await held;
      // Zapier's lock renders the raw input: "0311" and "311" are two keys to it, one item to the cashier.
      const late = await outcome(runCreate('update_item', { item_id: written, name_en: 'Saudi Coffee' }));
      expect(messageOf(late.error)).toMatch(BUSY_UPDATE);
      expect(JSON.parse(late.error!.message)).toMatchObject({ code: 'update_item_in_progress', status: 409 });
      read.open();
      expect(await first).toMatchObject({ duplicate: false });
      const claims = rpc.calls.filter(isClaim);
      expect(claims.map((c) => c.params[0])).toEqual(Array(claims.length).fill(`update_item:lock:${ITEM}`));
      expect(claims.length).toBeGreaterThan(2); // the late run tried again before it gave up
      expect(claims[0]!.params.slice(2, 4)).toEqual([SETTINGS.writeLockSeconds, ['auth']]);
      // Released when the run ended: the replay takes the lock and makes its change.
      expect(rpc.keys()).toEqual([]);
      READ();
      expect(await runCreate('update_item', { item_id: written, name_en: 'Saudi Coffee' })).toMatchObject({
        duplicate: false,
      });
    },
  );

  it('a run that finds the lock taken and then free goes ahead after the other run', async () => {
    // The first run's read ends once the second has found the lock taken: the second's next try (the third claim)
    // is sent after its first was refused. It then waits for the lock as long as the first holds it, a hang aside.
    let tries = 0;
    rpc = rpcCache({
      before: async (call) => {
        if (isClaim(call) && ++tries === 3) read.open();
      },
    });
    lockWaits(10, 60_000);
    const order: string[] = [];
    const read = gate();
    const held = new Promise<void>((resolve) =>
      cashierApi()
        .get(cashierPath(`/items/${ITEM}`))
        .reply(async () => {
          order.push('first reads');
          resolve();
          await read.opened;
          return reply('update-item', { method: 'GET' });
        }),
    );
    cashierApi()
      .put(cashierPath(`/items/${ITEM}`))
      .times(2)
      .reply(() => {
        order.push('writes');
        return reply('update-item', { method: 'PUT' });
      });
    const first = runCreate('update_item', { item_id: String(ITEM), name_en: 'Saudi Coffee' });
    await held;
    cashierApi()
      .get(cashierPath(`/items/${ITEM}`))
      .reply(() => {
        order.push('second reads');
        return reply('update-item', { method: 'GET' });
      });
    const second = runCreate('update_item', { item_id: `0${ITEM}`, name_en: 'Saudi Coffee Beans' });
    await Promise.all([first, second]);
    expect(order).toEqual(['first reads', 'writes', 'second reads', 'writes']);
  });
});

// ------------------------------------------------------------------------------------------ interleavings (property)

/**
 * Releases the runs' steps one at a time in an order fast-check draws, each time once every run still going stands
 * at a step (or after a few milliseconds, for a run asleep between two looks), so any interleaving can come.
 */
const interleaving = (s: fc.Scheduler) => {
  let going = 0;
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1));
  return {
    step: (label: string) => s.schedule(Promise.resolve(label), label),
    run: async <T>(body: () => Promise<T>): Promise<T> => {
      going++;
      try {
        return await body();
      } finally {
        going--;
      }
    },
    /** Waiting for something that is not a step (a lock another run holds): not counted as going meanwhile. */
    aside: async <T>(wait: Promise<T>): Promise<T> => {
      going--;
      try {
        return await wait;
      } finally {
        going++;
      }
    },
    drive: async <T>(all: Promise<T>): Promise<T> => {
      let settled = false;
      const end = () => (settled = true);
      void all.then(end, end);
      while (!settled) {
        for (let t = 0; t < 100 && !settled && s.count() < going; t++) await tick();
        if (s.count() > 0) await s.waitNext(1);
        else await tick();
      }
      return all;
    },
  };
};

/** Zapier's lock as the definition declares it: the key rendered from the inputs, scoped to the connection. */
const zapierLock = (key: string) => {
  const held = new Map<string, Promise<void>>();
  const { lock } = (App.creates as Record<string, { operation: { lock: Lock } }>)[key]!.operation;
  return async <T>(
    steps: ReturnType<typeof interleaving>,
    inputData: Record<string, unknown>,
    body: () => Promise<T>,
  ): Promise<T> => {
    const rendered = lock.key!.replace(/{{bundle\.inputData\.(\w+)}}/g, (_, k: string) =>
      String(inputData[k]),
    );
    const at = `${AUTH.cashier_api_token} ${rendered}`;
    await steps.step('lock');
    const before = held.get(at) ?? Promise.resolve();
    let release = () => {};
    const mine = new Promise<void>((resolve) => (release = resolve));
    held.set(
      at,
      before.then(() => mine),
    );
    await steps.aside(before);
    try {
      return await body();
    } finally {
      release();
    }
  };
};

describe('any interleaving of two runs’ steps (property)', () => {
  it('two identical Create Item runs make exactly one item when z.cache honours nx; without nx, two', async () => {
    waits(2);
    const property = (honourNx: boolean) =>
      fc.asyncProperty(fc.scheduler(), async (s) => {
        const steps = interleaving(s);
        const rpc = rpcCache({ honourNx, before: () => steps.step('cache') });
        const items: number[] = [];
        cashierApi()
          .persist()
          .post(cashierPath('/items'), sent('create-item-default-price'))
          .reply(async () => {
            await steps.step('POST');
            items.push(items.length + 500);
            return [201, created(items.at(-1)!)];
          });
        cashierApi()
          .persist()
          .get(/\/items\/\d+$/)
          .reply(async (uri) => {
            await steps.step('GET');
            const id = Number(uri.split('/').at(-1));
            return items.includes(id) ? [200, created(id)] : [404, { error: { code: 'not_found' } }];
          });
        try {
          const runs = [0, 1].map(() => steps.run(() => outcome(runCreate('create_item', WATER_INPUT))));
          const results = await steps.drive(Promise.all(runs));
          if (items.length !== 1) return false;
          for (const r of results) {
            if (r.error && !BUSY.test(messageOf(r.error))) return false;
            if (r.value && r.value.id !== items[0]) return false;
          }
          if (results.filter((r) => r.value?.duplicate === false).length !== 1) return false;
          // A replay of either run answers the one item and makes none.
          const again = await steps.drive(steps.run(() => runCreate('create_item', WATER_INPUT)));
          return again.id === items[0] && again.duplicate === true && items.length === 1;
        } finally {
          nock.cleanAll();
          rpc.stop();
        }
      });
    await fc.assert(property(true), { numRuns: 30 });
    expect((await fc.check(property(false), { numRuns: 30, endOnFailure: true })).failed).toBe(true);
  });

  it('two Update Item runs on one item each adding a variant keep both under either lock (Zapier’s, or the app’s own in z.cache); under neither, one is lost', async () => {
    type Variant = Record<string, unknown> & { id: number };
    const first = data('update-item-variants', { method: 'GET' }) as Record<string, unknown> & {
      id: number;
      variants: Variant[];
    };
    // The app's lock, tried often and briefly: a run that waits it out is released by the driver like any other.
    const settings = SETTINGS as { lockPollMs: number; lockWaitMs: number };
    jest.replaceProperty(settings, 'lockPollMs', 2);
    jest.replaceProperty(settings, 'lockWaitMs', 2_000);
    const property = (lockedBy: 'zapier' | 'app' | 'neither') =>
      fc.asyncProperty(
        fc.scheduler(),
        fc.uniqueArray(fc.stringMatching(/^NEW-[A-Z]{1,3}$/), { minLength: 2, maxLength: 2 }),
        async (s, skus) => {
          const steps = interleaving(s);
          const lock = zapierLock('update_item');
          // The app's lock holds where z.cache honours nx; appTester's mock (every write succeeds) is no lock at all.
          const rpc = rpcCache({ honourNx: lockedBy !== 'neither' });
          let stored = structuredClone(first);
          let nextId = 900;
          /** The item's version a run read, checked again when it writes: unchanged means nothing came between. */
          let version = 0;
          const readAt: number[] = [];
          const between: number[] = [];
          cashierApi()
            .persist()
            .get(cashierPath(`/items/${first.id}`))
            .reply(async () => {
              await steps.step('GET');
              readAt.push(version);
              return [200, { data: stored }];
            });
          cashierApi()
            .persist()
            .put(cashierPath(`/items/${first.id}`))
            .reply(async (_uri, body) => {
              await steps.step('PUT');
              between.push(version - Math.max(...readAt.splice(0, 1)));
              // Spec §4 rule 1: the array replaces what is stored; rows without id are new, ids left out are deleted.
              const rows = (body as { variants: Array<Partial<Variant>> }).variants;
              const variants = rows.map((r) =>
                r.id === undefined ? { ...r, id: nextId++, plu: `V${nextId}` } : { ...r, id: r.id },
              ) as Variant[];
              stored = { ...stored, variants };
              version++;
              return [200, { data: stored }];
            });
          try {
            const runs = skus.map((sku) => {
              const inputData = {
                item_id: String(first.id),
                variants: [{ variant_name_ar: 'جديد', sku, price_sar: '10' }],
              };
              const run = () => outcome(runCreate('update_item', inputData));
              return steps.run(() => (lockedBy === 'zapier' ? lock(steps, inputData, run) : run()));
            });
            const results = await steps.drive(Promise.all(runs));
            const kept = stored.variants.map((v) => v.sku);
            const none = first.variants.every((v) => stored.variants.some((w) => w.id === v.id));
            // A run may only fail for the other holding the item (it is replayed), and then changes nothing.
            const made = skus.filter((_, i) => !results[i]!.error);
            const refused = results.every(
              (r) => !r.error || /^Another Update Item run is changing item/.test(messageOf(r.error)),
            );
            // Under a lock each run's read came right before its write, with no write of the other between.
            return (
              none &&
              refused &&
              made.every((sku) => kept.filter((k) => k === sku).length === 1) &&
              kept.filter((k) => k !== undefined && skus.includes(k as string)).length === made.length &&
              between.every((n) => n === 0)
            );
          } finally {
            nock.cleanAll();
            rpc.stop();
          }
        },
      );
    await fc.assert(property('zapier'), { numRuns: 30 });
    await fc.assert(property('app'), { numRuns: 20 });
    expect((await fc.check(property('neither'), { numRuns: 30, endOnFailure: true })).failed).toBe(true);
  });
});
