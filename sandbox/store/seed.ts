/**
 * What both seeds and the history share. Reference data has fixed ids; business data is placed around the
 * sandbox clock's start (sandbox/README.md, Seed data).
 */
import { dateLocal } from '../ids';
import type { LineInput } from './money';
import SEED from '../data/seed.json';

export const CLINIC_TENANT = 1001;
export const CASHIER_TENANT = 2001;

/** The named tokens (sandbox/README.md lists them), in data/seed.json's order. */
export type TokenName = keyof typeof SEED.clients;
export const TOKEN_NAMES = Object.keys(SEED.clients) as TokenName[];

export const MIN = 60_000;
export const DAY = 24 * 60 * MIN;

export const times = (now: number) => {
  const round5 = Math.floor(now / (5 * MIN)) * 5 * MIN;
  return {
    /** `minutes` from now, on a 5-minute mark. */
    rel: (minutes: number) => round5 + minutes * MIN,
    /** A branch-local wall time on the day `days` from today. */
    day: (days: number, hhmm: string) => Date.parse(`${dateLocal(now + days * DAY)}T${hhmm}:00+03:00`),
  };
};

/**
 * An invoice line from the seed's treatments (data/seed.json `treatments`, by code), with what the row changes
 * (tooth, surfaces, another price): the one catalogue of the seed's invoices and the history's.
 */
export const treatment = (row: { code: string }): LineInput =>
  ({
    nature: 'medical',
    qty: 1,
    unit_halalas: 0,
    tax_category: 'standard',
    code: '',
    description: '',
    tooth: null,
    surfaces: [],
    ...SEED.treatments.find((t) => t.code === row.code),
    ...(row as object),
  }) as LineInput;
