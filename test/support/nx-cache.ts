/**
 * A z.cache that honours `nx` as Zapier's does (the first write stores, a later one answers false), for running a
 * hook's perform through core's app tester, whose own cache lets every write succeed: with it a repeated delivery
 * is dropped, so a test can tell a delivery that was remembered from one that was not.
 */

type Fn = (z: unknown, bundle: unknown) => unknown;

export const nxCache = () => {
  const store = new Map<string, unknown>();
  const cache = {
    get: async (k: string) => store.get(k) ?? null,
    set: async (k: string, v: unknown, _ttl?: number, _scope?: string[], nx?: boolean) => {
      if (nx && store.has(k)) return false;
      store.set(k, v);
      return true;
    },
    delete: async (k: string) => store.delete(k),
  };
  return {
    store,
    /** `fn` with this cache as `z.cache` (the rest of core's z as it is). */
    around:
      (fn: Fn): Fn =>
      (z, bundle) => {
        (z as { cache: unknown }).cache = cache;
        return fn(z, bundle);
      },
  };
};
