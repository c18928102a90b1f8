import SEED from '../data/seed.json';
import { Random } from '../ids';
import { seedHistory, type HistoryCounts } from './history';
import { newClient } from './records';
import { seedCashier } from './seed-cashier';
import { seedClinic } from './seed-clinic';
import type { Api, Delivery, Subscription, Tenant } from './types';

export type * from './types';
export { DEFAULT_HISTORY, type HistoryCounts } from './history';

/** The named tokens (sandbox/README.md lists them), in data/seed.json's order. */
export type TokenName = keyof typeof SEED.clients;
export const TOKEN_NAMES = Object.keys(SEED.clients) as TokenName[];

export type Store = ReturnType<typeof createStore>;
/** Ids of seeded objects, for tests and the README ('' or 0 where a sandbox without seed data has none). */
export type SeedRefs = Store['refs'];

/**
 * A fresh store: tenants, API clients and reference data always; `seed` adds the business data and `history`
 * months of past business before it (from its own generator, seeded with `historySeed`).
 */
export const createStore = (
  now: number,
  random: Random,
  seed: boolean,
  history?: { counts: HistoryCounts; historySeed: number },
) => {
  // The named tokens (sandbox/README.md lists them) are fixed, so a developer can keep them in .env.
  const clients = Object.entries(SEED.clients).map(([key, c], i) =>
    newClient(i + 1, { key, ...c, api: c.api as Api }),
  );
  const clinic = seedClinic(now, random, seed);
  const cashier = seedCashier(now, random, seed, clients);
  if (seed && history) {
    const data = { clinic: clinic.data, cashier: cashier.data };
    seedHistory(data, now, new Random(history.historySeed), history.counts);
  }
  return {
    tenants: structuredClone(SEED.tenants) as Tenant[],
    clients,
    clinic: clinic.data,
    cashier: cashier.data,
    subscriptions: [] as Subscription[],
    deliveries: [] as Delivery[],
    counters: { subscription: 0, delivery: 0, client: clients.length },
    refs: { clinic: clinic.refs, cashier: cashier.refs },
  };
};
