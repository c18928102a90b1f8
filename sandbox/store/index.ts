import { Random } from '../ids';
import { seedHistory, type HistoryCounts } from './history';
import { seedClients, seedTenants } from './seed';
import { seedCashier, type CashierRefs } from './seed-cashier';
import { seedClinic, type ClinicRefs } from './seed-clinic';
import type { Delivery, Subscription } from './types';

export type * from './types';
export type { TokenName } from './seed';
export { TOKEN_NAMES } from './seed';
export { DEFAULT_HISTORY, type HistoryCounts } from './history';

/** Ids of seeded objects, for tests and the README (empty strings and zeros when started without seed data). */
export interface SeedRefs {
  clinic: ClinicRefs;
  cashier: CashierRefs;
}

export type Store = ReturnType<typeof createStore>;

/**
 * A fresh store. Tenants, API clients and reference data (branches, practitioners, appointment types, rooms,
 * payers, categories, price lists, open till sessions) are always there; `seed` adds the business data and
 * `history` months of past business before it (from its own generator, seeded with `historySeed`).
 */
export const createStore = (
  now: number,
  random: Random,
  seed: boolean,
  history?: { counts: HistoryCounts; historySeed: number },
) => {
  const tenants = seedTenants();
  const clients = seedClients();
  const clinic = seedClinic(now, random, seed);
  const cashier = seedCashier(now, random, seed, clients);
  if (seed && history) {
    seedHistory(
      { clinic: clinic.data, cashier: cashier.data },
      now,
      new Random(history.historySeed),
      history.counts,
    );
  }
  return {
    tenants,
    clients,
    clinic: clinic.data,
    cashier: cashier.data,
    subscriptions: [] as Subscription[],
    deliveries: [] as Delivery[],
    counters: { subscription: 0, delivery: 0, client: clients.length },
    refs: { clinic: clinic.refs, cashier: cashier.refs },
  };
};
