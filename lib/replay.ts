import type { ZObject } from 'zapier-platform-core';
import { SETTINGS } from './config';

/*
 * What a write step remembers of its own earlier runs, in z.cache, for writes the interface has no idempotency
 * key for (Create Item without SKU or barcode). z.cache is a help, never a gate: when it cannot be read or written
 * the write goes ahead (fail open), and writes that have a sound lookup (SKU, barcode) never depend on it.
 */

/** Scoped to the connection: two accounts' steps never see each other's records. */
const SCOPE = ['auth'];

/** z.cache.get takes a scope at run time (core 19), which its .d.ts leaves out. */
type CacheGet = (key: string, scope?: string[]) => Promise<unknown>;

/**
 * A write in flight (`pending`: the request was about to be sent; its answer may have been lost) or done, with the
 * id the interface gave. `at` is when the request was made (ISO-8601), to look for what it made since then.
 */
export type WriteRecord =
  { state: 'pending'; at: string } | { state: 'done'; at: string; id: number | string };

/** `unavailable`: the cache could not be read (the caller goes ahead as if nothing were recorded). */
export type Recall = WriteRecord | undefined | 'unavailable';

const isRecord = (v: unknown): v is WriteRecord =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as WriteRecord).at === 'string' &&
  ((v as WriteRecord).state === 'pending' ||
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
});
