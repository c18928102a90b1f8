import { SETTINGS } from '../lib/config';
import { writeMemory, type WriteRecord } from '../lib/write-memory';

/*
 * What a write step remembers of its own runs in z.cache. The runs of Create Item that meet through it are in
 * test/concurrent-writes.test.ts.
 */

/** Polls every `pollMs`, for at most `waitMs`, instead of the settings' seconds. */
const waits = (pollMs: number, waitMs: number = SETTINGS.claimWaitMs) => {
  const settings = SETTINGS as { claimPollMs: number; claimWaitMs: number };
  jest.replaceProperty(settings, 'claimPollMs', pollMs);
  jest.replaceProperty(settings, 'claimWaitMs', waitMs);
};

describe('the nx claim of a write without idempotency key', () => {
  /** A cache that honours nx, as Zapier's does; `answer` overrides what a refused nx write answers. */
  const nxCache = (refused: false | null = false) => {
    const store = new Map<string, unknown>();
    const calls: unknown[][] = [];
    return {
      store,
      calls,
      cache: {
        get: async (key: string) => store.get(key) ?? null,
        set: async (...a: [string, unknown, number, string[], boolean?]) => {
          calls.push(a);
          if (a[4] === true && store.has(a[0])) return refused;
          store.set(a[0], a[1]);
          return true;
        },
      },
    };
  };
  const pending: WriteRecord = { state: 'pending', at: '2026-11-24T07:00:00.000Z' };
  const done: WriteRecord = { state: 'done', at: pending.at, id: 9 };

  it('grants the attempt after what was found to one run only, through one nx write', async () => {
    const { cache, calls } = nxCache();
    const memory = writeMemory({ cache } as never);
    expect(await memory.claim('k', undefined)).toBe('won');
    expect(await memory.claim('k', undefined)).toBe('lost');
    // The attempt after a lost answer, and after an item since deleted, are claims of their own.
    expect(await memory.claim('k', pending)).toBe('won');
    expect(await memory.claim('k', pending)).toBe('lost');
    expect(await memory.claim('k', done)).toBe('won');
    expect(calls[0]).toEqual(['k:after:none', 1, SETTINGS.writeMemoryTtlSeconds, ['auth'], true]);
    expect(calls.map((c) => c[0])).toEqual([
      'k:after:none',
      'k:after:none',
      `k:after:pending:${pending.at}`,
      `k:after:pending:${pending.at}`,
      `k:after:done:${pending.at}`,
    ]);
  });

  it('a refusal answered null is lost too; a cache that fails is unavailable (the write goes ahead)', async () => {
    const { cache } = nxCache(null);
    const memory = writeMemory({ cache } as never);
    await memory.claim('k', undefined);
    expect(await memory.claim('k', undefined)).toBe('lost');
    const down = writeMemory({ cache: { set: () => Promise.reject(new Error('down')) } } as never);
    expect(await down.claim('k', undefined)).toBe('unavailable');
  });

  it('waits for the winner’s done record, not the one it found, and gives up after the wait', async () => {
    waits(5, 100);
    const { cache, store } = nxCache();
    const memory = writeMemory({ cache } as never);
    store.set('k', done);
    // The done record it found (the item since deleted) is not the answer it waits for.
    expect(await memory.awaitDone('k', done)).toBeUndefined();
    store.set('k', pending);
    setTimeout(() => store.set('k', { state: 'done', at: 'later', id: 10 }), 20);
    expect(await memory.awaitDone('k', done)).toEqual({ state: 'done', at: 'later', id: 10 });
    expect(await memory.awaitDone('k', pending)).toEqual({ state: 'done', at: 'later', id: 10 });
  });
});

describe('the records a step reads and writes', () => {
  const cacheOf = (value: unknown) => ({
    get: jest.fn(async () => value),
    set: jest.fn(async () => true),
  });

  it('reads only a record of its own shape, and a cache that fails as unavailable', async () => {
    const done: WriteRecord = { state: 'done', at: '2026-11-24T07:00:00.000Z', id: 'ITM-1' };
    expect(await writeMemory({ cache: cacheOf(done) } as never).recall('k')).toEqual(done);
    const ended: WriteRecord = { state: 'unanswered', at: done.at };
    expect(await writeMemory({ cache: cacheOf(ended) } as never).recall('k')).toEqual(ended);
    for (const stray of [null, 'done', { state: 'done', at: done.at }, { state: 'sent', at: done.at }]) {
      expect(await writeMemory({ cache: cacheOf(stray) } as never).recall('k')).toBeUndefined();
    }
    const down = { get: () => Promise.reject(new Error('down')) };
    expect(await writeMemory({ cache: down } as never).recall('k')).toBe('unavailable');
  });

  it('writes a record for the connection only, and says false when the cache refuses or fails', async () => {
    const cache = cacheOf(undefined);
    const record: WriteRecord = { state: 'pending', at: '2026-11-24T07:00:00.000Z' };
    expect(await writeMemory({ cache } as never).remember('k', record)).toBe(true);
    expect(cache.set).toHaveBeenCalledWith('k', record, SETTINGS.writeMemoryTtlSeconds, ['auth']);
    cache.set.mockResolvedValueOnce(false as never);
    expect(await writeMemory({ cache } as never).remember('k', record)).toBe(false);
    const down = { set: () => Promise.reject(new Error('down')) };
    expect(await writeMemory({ cache: down } as never).remember('k', record)).toBe(false);
  });
});
