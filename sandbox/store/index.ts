import type { Random } from '../ids';
import { seedCashier, seedClients, seedClinic, seedTenants, type SeedRefs } from './seed';
import type { ApiClientRecord, CashierData, ClinicData, Delivery, Subscription, Tenant } from './types';

export type * from './types';
export type { SeedRefs, TokenName } from './seed';
export { TOKEN_NAMES } from './seed';

/** All the data of one running sandbox. */
export interface Store {
  tenants: Tenant[];
  clients: ApiClientRecord[];
  clinic: ClinicData;
  cashier: CashierData;
  subscriptions: Subscription[];
  deliveries: Delivery[];
  counters: { subscription: number; delivery: number; client: number };
  /** Ids of seeded objects that tests and the README point at. */
  refs: SeedRefs;
}

/**
 * A fresh store. Tenants, API clients and reference data (branches, practitioners, appointment types, rooms,
 * payers, categories, price lists, open till sessions) are always there; `seed` adds the business data.
 */
export const createStore = (now: number, random: Random, seed: boolean): Store => {
  const tenants = seedTenants();
  const clients = seedClients();
  const clinic = seedClinic(now, random, seed);
  const cashier = seedCashier(now, random, seed, clients);
  return {
    tenants,
    clients,
    clinic: clinic.data,
    cashier: cashier.data,
    subscriptions: [],
    deliveries: [],
    counters: { subscription: 0, delivery: 0, client: clients.length },
    refs: { clinic: clinic.refs, cashier: cashier.refs },
  };
};
