import type { ZObject } from 'zapier-platform-core';
import { SETTINGS } from './config';

/** Scoped to the connection, so two accounts whose interfaces number subscriptions alike never collide. */
const SCOPE = ['auth'];

/**
 * Remembers delivered event ids per subscription in z.cache, so a delivery the sender repeats triggers a Zap once.
 * Keyed by interface and subscription: several Zaps may subscribe to the same event and each must see it.
 *
 * Zapier has already answered the sender 200 when perform runs, so a delivery perform drops is lost for good. The
 * cache therefore fails open (an outage gives a possible duplicate, never a lost event), and an id is remembered
 * only once its item exists (`rememberWrite` after the item is made), so a delivery that failed half-way is not
 * blocked when the sender tries again. One round trip a delivery: the nx write alone says whether it is new.
 */
export const deliveryKey = (api: string, subscriptionId: string | number, eventId: string): string =>
  `delivery:${api}:${subscriptionId}:${eventId}`;

/**
 * The nx write that remembers the id, as the cache's own promise, for the caller to await once (a delivery's hot
 * path awaits nothing else). `nx` makes it atomic: Zapier's cache stores the first write and answers every later one
 * false (or null), so `isNew` of its answer says whether this is the first delivery of the id (an earlier delivery,
 * or another copy racing this one, answers false). A write that throws or rejects must fail open: the caller treats
 * it as new (hook perform, lib/hooks/delivery.ts).
 */
export const rememberWrite = (z: ZObject, key: string): Promise<unknown> =>
  z.cache.set(key, 1, SETTINGS.dedupeTtlSeconds, SCOPE, true);

/** Whether the nx write's answer means the id is new. */
export const isNew = (stored: unknown): boolean => stored !== false && stored !== null;
