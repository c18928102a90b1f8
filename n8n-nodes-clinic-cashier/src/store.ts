/**
 * Where the core's z.cache lives on n8n. Every "once" of the core is an nx write to z.cache (a delivery's event id,
 * Create Item's claim, Update Item's lock), so backing z.cache with one store gives every claim the reach of that
 * store: this n8n process (its memory), or every process that reaches the same Redis (queue mode: the main, the
 * webhook processors and the workers). n8n's own stores are no base for it: workflow static data is saved whole by
 * whichever process ends last, and its processed-data table reads then writes.
 */
import { createHash } from 'node:crypto';

/** A store of JSON values with a time to live and an atomic "set if absent". */
export interface Store {
  /** Whose claims meet in it: this process only, or every process that reaches it. */
  readonly reach: 'process' | 'shared';
  /** The value under a live key, or null. */
  get(key: string): Promise<unknown>;
  /** Writes the value; with `nx`, only when the key is absent or expired (true when written). */
  set(key: string, value: unknown, ttlSeconds: number, nx: boolean): Promise<boolean>;
  /** True when the key was live. */
  delete(key: string): Promise<boolean>;
}

/**
 * The most keys the process's memory holds, the oldest dropped first: a partner redelivers within hours, far inside
 * this many deliveries and writes, and n8n's memory stays bounded.
 */
export const PROCESS_LIMIT = 100_000;

/**
 * A store in this process's memory: atomic within the process (no await between a check and its write), lost when
 * n8n restarts, not seen by other processes.
 */
export const memoryStore = (
  now: () => number = Date.now,
  limit = PROCESS_LIMIT,
): Store & { clear(): void } => {
  const entries = new Map<string, { until: number; value: unknown }>();
  const live = (key: string) => {
    const found = entries.get(key);
    if (found && found.until > now()) return found;
    entries.delete(key);
    return undefined;
  };
  return {
    reach: 'process',
    async get(key) {
      return live(key)?.value ?? null;
    },
    async set(key, value, ttlSeconds, nx) {
      if (nx && live(key)) return false;
      // Deleted first, so a rewritten key counts as the newest.
      entries.delete(key);
      entries.set(key, { until: now() + ttlSeconds * 1000, value });
      for (const old of entries.keys()) {
        if (entries.size <= limit) break;
        entries.delete(old);
      }
      return true;
    },
    async delete(key) {
      const had = live(key) !== undefined;
      entries.delete(key);
      return had;
    },
    /** Forgets everything, as a restart does. */
    clear: () => entries.clear(),
  };
};

/** The one memory of this n8n process, which every execution it runs shares. */
export const processStore = memoryStore();

/**
 * A key as a shared store holds it: the connection's scope and the core's key, hashed, so no event id, item name or
 * token is readable in Redis, and two connections (as Zapier's `auth` scope) never meet.
 */
export const storedKey = (scope: string, key: string): string =>
  `n8n-clinic-cashier:${createHash('sha256').update(`${scope}\n${key}`).digest('hex')}`;

/** z.cache as the core calls it (scope and nx positional, as core 19's), over a store. */
export interface SeamCache {
  get(key: string, scope?: unknown): Promise<unknown>;
  set(key: string, value: unknown, ttl?: number, scope?: unknown, nx?: boolean): Promise<boolean>;
  delete(key: string, scope?: unknown): Promise<boolean>;
  /** Whether a call of this cache failed (the store could not be reached): the core then went ahead unclaimed. */
  failed(): boolean;
  /** The first failure, for a message naming its kind. */
  failure(): unknown;
}

/**
 * z.cache for one connection (`scope`, a hash of its tokens) over a store. The core catches a failing cache and goes
 * ahead (fail open); `failed` lets the node see that it did, and refuse instead where n8n can retry (a delivery).
 */
export const cacheOver = (store: Store, scope: string): SeamCache => {
  const failures: unknown[] = [];
  const counted = async <T>(call: () => Promise<T>): Promise<T> => {
    try {
      return await call();
    } catch (error) {
      failures.push(error);
      throw error;
    }
  };
  const keyOf = (key: string) => storedKey(scope, key);
  return {
    get: (key) => counted(() => store.get(keyOf(key))),
    set: (key, value, ttl = 3600, _scope, nx = false) => counted(() => store.set(keyOf(key), value, ttl, nx)),
    delete: (key) => counted(() => store.delete(keyOf(key))),
    failed: () => failures.length > 0,
    failure: () => failures[0],
  };
};
