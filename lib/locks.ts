import { randomUUID } from 'node:crypto';
import type { Bundle, LockObject, ZObject } from 'zapier-platform-core';
import { SETTINGS } from './config';
import { isNew } from './dedupe';
import { languageOf, say, type Bilingual } from './i18n';

/**
 * Zapier's lock for an item write: runs of the action with the same value of `input` on the same connection run
 * one at a time. Zapier's servers enforce it (core does not), and without a scope a lock is app-wide, holding up
 * every account's runs that share the value; `auth` keeps it to the connection. `input` must be a required input:
 * an optional one can reach the key blank and lock unrelated runs together.
 */
export const writeLock = (action: string, input: string): LockObject => ({
  key: `${action}:{{bundle.inputData.${input}}}`,
  scope: ['auth'],
  timeout: SETTINGS.writeLockSeconds,
});

/** The connection's runs share a lock; two accounts' never meet. */
const SCOPE = ['auth'];

/** z.cache.get and delete take a scope at run time (core 19), which their .d.ts leave out. */
type CacheGet = (key: string, scope?: string[]) => Promise<unknown>;
type CacheDelete = (key: string, scope?: string[]) => Promise<unknown>;

/**
 * Runs `run` holding the app's own lock on one object, keyed by the object as the interface knows it (`id`, already
 * canonical: `311`, ` 311` and `0311` are one item), where Zapier's declared lock cannot reach: that lock renders the
 * raw input, so differently written ids pass each other. It is one nx write to z.cache (the declared lock's timeout
 * as its TTL, scoped to the connection), deleted when the run ends; a run that finds it taken tries again every
 * `lockPollMs` for `lockWaitMs`, then fails its step saying the step is replayed. Only get, set (nx) and delete of
 * the standard z.cache are used, so the lock holds wherever every run's z.cache is one store (Zapier's; on n8n, the
 * store the seam's z.cache is backed by). A cache that fails does not stop the write (fail open): Zapier's lock
 * still serialises the runs that write the id alike.
 */
export const holdLock = async <T>(
  z: Pick<ZObject, 'cache' | 'errors'>,
  bundle: Pick<Bundle, 'authData'>,
  lock: { action: string; id: string | number; busy: Bilingual },
  run: () => Promise<T>,
): Promise<T> => {
  const key = `${lock.action}:lock:${String(lock.id)}`;
  const mine = randomUUID();
  const take = async (): Promise<boolean | 'unavailable'> => {
    try {
      return isNew(await z.cache.set(key, mine, SETTINGS.writeLockSeconds, SCOPE, true));
    } catch {
      return 'unavailable';
    }
  };
  let held = await take();
  // Counted in tries, not read off the clock: the wait is the same whatever the worker's clock does.
  for (
    let tries = Math.ceil(SETTINGS.lockWaitMs / SETTINGS.lockPollMs);
    held === false && tries > 0;
    tries--
  ) {
    await new Promise((resolve) => setTimeout(resolve, SETTINGS.lockPollMs));
    held = await take();
  }
  if (held === false) {
    throw new z.errors.Error(say(languageOf(bundle), lock.busy), `${lock.action}_in_progress`, 409);
  }
  try {
    return await run();
  } finally {
    if (held === true) await release(z, key, mine);
  }
};

/** Deletes the lock if it is still this run's: one that lapsed and was taken by another run stays theirs. */
const release = async (z: Pick<ZObject, 'cache'>, key: string, mine: string): Promise<void> => {
  try {
    if ((await (z.cache.get as CacheGet)(key, SCOPE)) === mine)
      await (z.cache.delete as CacheDelete)(key, SCOPE);
  } catch {
    // The TTL ends it.
  }
};
