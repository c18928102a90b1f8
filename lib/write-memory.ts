import type { ZObject } from 'zapier-platform-core';
import { SETTINGS } from './config';
import { isNew } from './dedupe';

/*
 * What a write step remembers of its own earlier runs, in z.cache, for writes the interface has no idempotency
 * key for (Create Item without SKU or barcode). When z.cache cannot be read or written the write goes ahead (fail
 * open), and writes that have a sound lookup (SKU, barcode) never depend on it; only a claim the cache refuses,
 * because an identical run holds it, keeps a run from writing.
 */

/** Scoped to the connection: two accounts' steps never see each other's records. */
const SCOPE = ['auth'];

/** z.cache.get takes a scope at run time (core 19), which its .d.ts leaves out. */
type CacheGet = (key: string, scope?: string[]) => Promise<unknown>;

/**
 * A write in flight (`pending`: the request was about to be sent; its answer may have been lost), ended without an
 * answer it could read (`unanswered`: a time-out, a cut connection, an error; the run is over, so whatever it made
 * is there to be found), or done, with the id the interface gave. `at` is when the request was made (ISO-8601), to
 * look for what it made since then.
 */
export type WriteRecord =
  | { state: 'pending'; at: string }
  | { state: 'unanswered'; at: string }
  | { state: 'done'; at: string; id: number | string };

/** `unavailable`: the cache could not be read (the caller goes ahead as if nothing were recorded). */
export type Recall = WriteRecord | undefined | 'unavailable';

/**
 * `won`: this run alone may send the request; `lost`: an identical run claimed it first and this one must not send;
 * `unavailable`: the cache failed, and the write goes ahead (fail open).
 */
export type Claim = 'won' | 'lost' | 'unavailable';

export type DoneRecord = Extract<WriteRecord, { state: 'done' }>;

const isRecord = (v: unknown): v is WriteRecord =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as WriteRecord).at === 'string' &&
  ((v as WriteRecord).state === 'pending' ||
    (v as WriteRecord).state === 'unanswered' ||
    ((v as WriteRecord).state === 'done' &&
      ['number', 'string'].includes(typeof (v as { id?: unknown }).id)));

/** The one way the app reads and writes a step's records: with its TTL and scope, never throwing. */
export const writeMemory = (z: Pick<ZObject, 'cache'>) => ({
  async recall(key: string): Promise<Recall> {
    try {
      const value = await (z.cache.get as CacheGet)(key, SCOPE);
      return isRecord(value) ? value : undefined;
    } catch {
      return 'unavailable';
    }
  },
  /** True when stored; false when the cache refused or failed (the write goes ahead all the same). */
  async remember(key: string, record: WriteRecord): Promise<boolean> {
    try {
      return (await z.cache.set(key, record, SETTINGS.writeMemoryTtlSeconds, SCOPE)) !== false;
    } catch {
      return false;
    }
  },
  /**
   * Claims the attempt that follows `after` (the record this run found, or none) with an nx write, which Zapier's
   * cache grants to the first writer only: of identical runs that found the same record, exactly one may send the
   * request. The claim is keyed by what was found, not stored in the record, so an attempt whose answer was lost
   * long ago can be claimed past without deleting anything another run might still read. It lives no longer than
   * the record (written first, same TTL), so a run that finds no record can always claim.
   */
  async claim(key: string, after: WriteRecord | undefined): Promise<Claim> {
    const past = after ? `${after.state}:${after.at}` : 'none';
    try {
      const stored = await z.cache.set(
        `${key}:after:${past}`,
        1,
        SETTINGS.writeMemoryTtlSeconds,
        SCOPE,
        true,
      );
      return isNew(stored) ? 'won' : 'lost';
    } catch {
      return 'unavailable';
    }
  },
  /**
   * The record an identical run writes once its item exists (other than `past`, the done record this run found),
   * looked for every `claimPollMs` until `claimWaitMs` has passed; undefined when it did not come in time.
   */
  async awaitDone(key: string, past: WriteRecord | undefined): Promise<DoneRecord | undefined> {
    // Counted in looks, not read off the clock: the wait is the same whatever the worker's clock does.
    for (let look = 0; look < Math.ceil(SETTINGS.claimWaitMs / SETTINGS.claimPollMs); look++) {
      await new Promise((resolve) => setTimeout(resolve, SETTINGS.claimPollMs));
      const record = await this.recall(key);
      const same = past?.state === 'done' && record !== 'unavailable' && record?.at === past.at;
      if (record !== 'unavailable' && record?.state === 'done' && !same) return record;
    }
    return undefined;
  },
});
