import type * as ZodParts from './zod-parts';

type ZodNamespace = typeof ZodParts;

let loaded: ZodNamespace | undefined;

/**
 * zod, loaded on first use. Zapier loads the whole app on every cold start, and zod costs about as much as a
 * fifth of core: the definition (fields, samples) needs none of it, only running an operation does. What the app
 * builds its schemas from is `lib/zod-parts.ts` (so the bundle carries only that part of zod).
 */
export const zod = (): ZodNamespace => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  loaded ??= require('./zod-parts') as ZodNamespace;
  return loaded;
};

/** A schema (or anything built with zod) made on first use and kept. */
export const lazy = <T>(build: (z: ZodNamespace) => T): (() => T) => {
  let value: T | undefined;
  return () => (value ??= build(zod()));
};
