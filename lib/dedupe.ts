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
 * only once its item exists (`remember` after the item is made), so a delivery that failed half-way is not
 * blocked when the sender tries again. One round trip a delivery: the nx write alone says whether it is new.
 */
export const deliveryKey = (api: string, subscriptionId: string | number, eventId: string): string =>
  `delivery:${api}:${subscriptionId}:${eventId}`;

/**
 * Remembers the id; false when it was remembered before (an earlier delivery, or another copy racing this one). `nx`
 * makes the write atomic: Zapier's cache stores the first and answers every later one false (or null). A cache that
 * fails answers true (fail open).
 */
export const remember = async (z: ZObject, key: string): Promise<boolean> => {
  try {
    const stored: unknown = await z.cache.set(key, 1, SETTINGS.dedupeTtlSeconds, SCOPE, true);
    return stored !== false && stored !== null;
  } catch {
    return true;
  }
};
