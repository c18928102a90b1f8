/**
 * Ids, secrets and times. The sandbox draws its randomness from a seeded generator, so the same run of calls
 * on the same clock gives the same ids (recorded fixtures stay stable); secrets use the same generator.
 */

const CROCKFORD = '0123456789ABCDEFGHJKMNPQRSTVWXYZ';

/** mulberry32: small, fast, deterministic; not for anything secret outside a sandbox. */
export class Random {
  private state: number;

  constructor(seed: number) {
    this.state = seed >>> 0;
  }

  next(): number {
    this.state = (this.state + 0x6d2b79f5) >>> 0;
    let t = this.state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(maxExclusive: number): number {
    return Math.floor(this.next() * maxExclusive);
  }

  pick<T>(list: readonly T[]): T {
    const value = list[this.int(list.length)];
    if (value === undefined) throw new Error('pick from an empty list');
    return value;
  }

  hex(length: number): string {
    let out = '';
    for (let i = 0; i < length; i += 1) out += this.int(16).toString(16);
    return out;
  }

  /** A ULID (26 Crockford base-32 characters) whose time part is `ms`. */
  ulid(ms: number): string {
    let time = '';
    let rest = Math.max(0, Math.floor(ms));
    for (let i = 0; i < 10; i += 1) {
      time = CROCKFORD.charAt(rest % 32) + time;
      rest = Math.floor(rest / 32);
    }
    let random = '';
    for (let i = 0; i < 16; i += 1) random += CROCKFORD.charAt(this.int(32));
    return time + random;
  }
}

/** Both interfaces' branches are in Saudi Arabia: UTC+03:00 all year, no daylight saving. */
const OFFSET_MS = 3 * 60 * 60 * 1000;

/** `2026-11-24T10:30:00+03:00`: a date-time in the branch's time zone (clinic spec §1 rule 3). */
export const isoLocal = (ms: number): string =>
  `${new Date(ms + OFFSET_MS).toISOString().slice(0, 19)}+03:00`;

/** `2026-11-24`: the branch's calendar date at `ms`. */
export const dateLocal = (ms: number): string => new Date(ms + OFFSET_MS).toISOString().slice(0, 10);

/** Midnight at the start of the branch's calendar date `date` (YYYY-MM-DD), as ms since the epoch. */
export const startOfLocalDate = (date: string): number => Date.parse(`${date}T00:00:00+03:00`);

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATE_TIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:\d{2})$/;

/** An ISO-8601 date-time with a zone (Z or an offset), as ms; undefined when it is not one. */
export const parseDateTime = (value: string): number | undefined => {
  const ms = DATE_TIME.test(value) ? Date.parse(value) : NaN;
  return Number.isNaN(ms) ? undefined : ms;
};

/** An ISO-8601 date (the branch's midnight) or date-time, as ms; undefined when it is neither. */
export const parseDateOrDateTime = (value: string): number | undefined => {
  if (DATE.test(value)) {
    const ms = startOfLocalDate(value);
    return Number.isNaN(ms) || dateLocal(ms) !== value ? undefined : ms;
  }
  return parseDateTime(value);
};

/** A shallow copy of `o` without `keys`; the other members keep their order. */
export const omit = <T extends object, K extends keyof T>(o: T, ...keys: K[]): Omit<T, K> => {
  const copy = { ...o };
  for (const k of keys) delete copy[k];
  return copy;
};
