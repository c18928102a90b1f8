import type { ZObject } from 'zapier-platform-core';
import { SETTINGS } from './config';

/** Scoped to the connection, so two accounts whose interfaces number subscriptions alike never collide. */
const SCOPE = ['auth'];

/** z.cache.get takes a scope at run time (core 19), which its .d.ts leaves out. */
type CacheGet = (key: string, scope?: string[]) => Promise<unknown>;

/**
 * Remembers delivered event ids per subscription in z.cache, so a delivery the sender repeats triggers a Zap once.
 * Keyed by interface and subscription: several Zaps may subscribe to the same event and each must see it.
 */
export const deliveryKey = (api: string, subscriptionId: string | number, eventId: string): string =>
  `delivery:${api}:${subscriptionId}:${eventId}`;

/** True the first time an event id is seen for a subscription; false for a repeat. */
export const firstDelivery = async (z: ZObject, key: string): Promise<boolean> => {
  if ((await (z.cache.get as CacheGet)(key, SCOPE)) !== null) return false;
  // nx: when two copies race, only one set succeeds (Zapier's cache answers false for the other).
  const stored = await z.cache.set(key, 1, SETTINGS.dedupeTtlSeconds, SCOPE, true);
  return stored !== false;
};
