import { errors } from 'zapier-platform-core';
import { SETTINGS } from '../lib/config';
import { holdLock, writeLock } from '../lib/locks';

/* Every item write declaring it, and Zapier's rules for it: test/concurrent-writes.test.ts. */

describe('writeLock', () => {
  it('keys the action by the value of its input, on one connection, for the settings’ time', () => {
    expect(writeLock('update_item', 'item_id')).toEqual({
      key: 'update_item:{{bundle.inputData.item_id}}',
      scope: ['auth'],
      timeout: SETTINGS.writeLockSeconds,
    });
  });
});

describe('holdLock', () => {
  const BUSY = { en: 'Busy: Zapier replays this step.', ar: 'مشغول.' };
  /** A z.cache of the standard calls only (get, set with nx, delete): any other member is a failure. */
  const standardCache = (store = new Map<string, unknown>()) => {
    const calls: string[] = [];
    const cache = {
      get: jest.fn(async (key: string) => (calls.push('get'), store.get(key) ?? null)),
      set: jest.fn(async (key: string, value: unknown, _ttl?: number, _scope?: string[], nx?: boolean) => {
        calls.push(nx ? 'set nx' : 'set');
        if (nx && store.has(key)) return false;
        store.set(key, value);
        return true;
      }),
      delete: jest.fn(async (key: string) => (calls.push('delete'), store.delete(key))),
    };
    const strict = new Proxy(cache, {
      get: (target, name) => {
        if (!Object.hasOwn(target, name)) throw new Error(`z.cache.${String(name)} is not a standard call`);
        return target[name as keyof typeof target];
      },
    });
    return { cache: strict as never, store, calls, raw: cache };
  };
  const z = (cache: unknown) => ({ cache, errors }) as never;
  const bundle = { authData: {} } as never;
  const fast = () => {
    jest.replaceProperty(SETTINGS as { lockPollMs: number }, 'lockPollMs', 1);
    jest.replaceProperty(SETTINGS as { lockWaitMs: number }, 'lockWaitMs', 5);
  };

  it('claims the id with one nx write (the declared lock’s timeout, the connection’s scope) and releases it', async () => {
    const { cache, store, calls, raw } = standardCache();
    const result = await holdLock(
      z(cache),
      bundle,
      { action: 'update_item', id: 311, busy: BUSY },
      async () => {
        expect([...store.keys()]).toEqual(['update_item:lock:311']);
        return 'done';
      },
    );
    expect(result).toBe('done');
    expect(raw.set).toHaveBeenCalledWith(
      'update_item:lock:311',
      expect.any(String),
      SETTINGS.writeLockSeconds,
      ['auth'],
      true,
    );
    expect(calls).toEqual(['set nx', 'get', 'delete']);
    expect(store.size).toBe(0);
  });

  it('releases it when the run fails too', async () => {
    const { cache, store } = standardCache();
    await expect(
      holdLock(z(cache), bundle, { action: 'update_item', id: 311, busy: BUSY }, async () => {
        throw new Error('the write failed');
      }),
    ).rejects.toThrow('the write failed');
    expect(store.size).toBe(0);
  });

  it('taken: tries again, then fails the step with the busy words, never running; the holder’s lock stays', async () => {
    fast();
    const { cache, store, calls } = standardCache(new Map([['update_item:lock:311', 'another run']]));
    const run = jest.fn();
    const error = await holdLock(z(cache), bundle, { action: 'update_item', id: 311, busy: BUSY }, run).catch(
      (e: Error) => e,
    );
    expect(run).not.toHaveBeenCalled();
    expect(JSON.parse((error as Error).message)).toEqual({
      message: BUSY.en,
      code: 'update_item_in_progress',
      status: 409,
    });
    expect(calls.filter((c) => c === 'set nx').length).toBeGreaterThan(1);
    expect(calls).not.toContain('delete');
    expect(store.get('update_item:lock:311')).toBe('another run');
  });

  it('a lock that lapsed and was taken by another run is not deleted by the run that held it before', async () => {
    const { cache, store } = standardCache();
    await holdLock(z(cache), bundle, { action: 'update_item', id: 311, busy: BUSY }, async () => {
      store.set('update_item:lock:311', 'the next run'); // the TTL ended mid-run; another run claimed it
    });
    expect(store.get('update_item:lock:311')).toBe('the next run');
  });

  it('a cache that fails does not stop the write (fail open)', async () => {
    const down = {
      get: jest.fn(),
      set: jest.fn(async () => Promise.reject(new Error('down'))),
      delete: jest.fn(),
    };
    const run = jest.fn(async () => 'written');
    await expect(
      holdLock(z(down), bundle, { action: 'update_item', id: 311, busy: BUSY }, run),
    ).resolves.toBe('written');
    expect(down.delete).not.toHaveBeenCalled();
  });
});
