/** What both seeds and the history share (sandbox/README.md, Seed data). */
import { dateLocal } from '../ids';
import type { LineInput } from './money';
import SEED from '../data/seed.json';

export const MIN = 60_000;
export const DAY = 24 * 60 * MIN;

/** The ids at the named places of a list (data/seed.json's `refsAt`), `none` where the list is shorter. */
export const idsAt = <K extends string, Id>(list: Array<{ id: Id }>, at: Record<K, number>, none: Id) => {
  const ids = Object.entries<number>(at).map(([name, i]) => [name, list[i]?.id ?? none]);
  return Object.fromEntries(ids) as Record<K, Id>;
};

export const times = (now: number) => {
  const round5 = Math.floor(now / (5 * MIN)) * 5 * MIN;
  return {
    /** `minutes` from now, on a 5-minute mark. */
    rel: (minutes: number) => round5 + minutes * MIN,
    /** A branch-local wall time on the day `days` from today. */
    day: (days: number, hhmm: string) => Date.parse(`${dateLocal(now + days * DAY)}T${hhmm}:00+03:00`),
  };
};

/** An invoice line of the seed's treatments (data/seed.json, by code) with what the row changes (tooth, price…). */
export const treatment = (row: { code: string }) =>
  ({ ...SEED.treatments.find((t) => t.code === row.code), ...row }) as LineInput;
