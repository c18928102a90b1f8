/**
 * Page-number paging of a list whose members change while Zapier Transfer reads it (every Transfer list but the
 * receipts cursor). Page numbers alone move an object twice when one enters before the place, and never when one
 * leaves before it. Here the place is the sort key of the last object handed on, and every page handed is a run of
 * the sorted list that begins at or before that key, so nothing after the key can fall between two pages.
 *
 * Pure: the list is read through `read`, so the same code runs against the interfaces and a model list in tests.
 */

import { isObject } from '../resources/present';

type Obj = Record<string, unknown>;

/** A field of a list's sort order; `time`: compared as an instant, whatever offset its text carries. */
export interface SortField {
  field: string;
  time?: boolean;
}

export type Key = Array<string | number>;

/** The sort order of a list (the last field unique, so the order is total) and what may still move in it. */
export interface Order {
  fields: readonly SortField[];
  /**
   * Objects whose key may still move forward after they are handed on (a booked appointment rescheduled later):
   * their ids are remembered so they are not handed again at their new place.
   */
  movable?: (o: Obj) => boolean;
}

/**
 * Where the next read starts, kept between the calls of a transfer: `at`, the index in the list of the first
 * object not yet seen (an estimate: the list changes); `after`, the key of the last object handed on; `size`, the
 * largest page the server was seen to give; `moved`, ids of movable objects already handed on.
 */
export interface Place {
  at: number;
  after: Key | null;
  size?: number;
  moved?: string[];
}

export interface ListPage {
  data: unknown[];
  meta: Record<string, unknown>;
}

export type ReadPage = (page: number, perPage: number) => Promise<ListPage>;

/** The list does not come in the order it is declared to: paging by key would skip or repeat, so it stops. */
export class ListOrderError extends Error {
  constructor(readonly field: string) {
    super(`the list is not ordered by ${field}`);
  }
}

export interface Run {
  /** Objects after the place, in the list's order, none handed on before. */
  objects: Obj[];
  next: Place | { done: true };
  reads: number;
  /** The budget ran out before any object after the place was found. */
  exhausted: boolean;
}

/** How many movable ids a transfer remembers: a bound on the cursor's size. */
export const MOVED_REMEMBERED = 1000;

const positiveIntOf = (v: unknown) => (Number.isInteger(v) && (v as number) > 0 ? (v as number) : undefined);
const count = (v: unknown) => (Number.isInteger(v) && (v as number) >= 0 ? (v as number) : undefined);

export const keyOf = (o: Obj, fields: readonly SortField[]): Key =>
  fields.map(({ field, time }) => {
    const v = o[field];
    const k = time && typeof v === 'string' ? Date.parse(v) : v;
    if ((typeof k === 'number' && Number.isFinite(k)) || typeof k === 'string') return k;
    throw new ListOrderError(field);
  });

export const compareKeys = (a: Key, b: Key): number => {
  for (let i = 0; i < Math.min(a.length, b.length); i += 1) {
    const x = a[i]!;
    const y = b[i]!;
    if (typeof x !== typeof y) return typeof x < typeof y ? -1 : 1;
    if (x < y) return -1;
    if (x > y) return 1;
  }
  return a.length - b.length;
};

/**
 * The page to read next: one that holds the object just before `at` (the last one seen, the witness that the page
 * starts at or before the place) and reaches as far past it as a page of at most `size` can. Page sizes vary
 * (100, 99, 98…) so that a page boundary falls just before the witness.
 */
export const plan = (at: number, size: number): { page: number; perPage: number } => {
  if (at <= 0) return { page: 1, perPage: size };
  let best = { page: 1, perPage: size, end: -1 };
  // A page of s holding index at-1 ends before at-1+s: once that cannot beat the best, smaller pages cannot either.
  for (let s = size; s >= 1 && at - 1 + s > best.end; s -= 1) {
    const page = Math.floor((at - 1) / s) + 1;
    if (page * s > best.end) best = { page, perPage: s, end: page * s };
  }
  return { page: best.page, perPage: best.perPage };
};

/**
 * Reads on from `place` until a page gives objects after it, the list ends, or `budget` reads are spent.
 *
 * A page is used only when it provably continues the place: it is page 1, or its first object sorts at or before
 * the last key handed on, or it is the page right after one read just before in this call, with the same size,
 * whose objects all sort at or before that key. Then every object of the list between the key and the page's end is
 * in it. A page that starts after the key means objects before the place left the list: the read steps back.
 */
export const readOn = async (
  read: ReadPage,
  place: Place,
  order: Order,
  perPage: number,
  budget: number,
): Promise<Run> => {
  let { at, after } = place;
  let size = Math.min(perPage, place.size ?? perPage);
  const moved = new Set(place.moved ?? []);
  let chained: { page: number; perPage: number } | undefined;
  let back = 1;
  let reads = 0;
  const here = (): Place => ({
    at,
    after,
    ...(size < perPage ? { size } : {}),
    ...(moved.size ? { moved: [...moved] } : {}),
  });
  while (reads < budget) {
    const asked = chained ?? plan(at, size);
    const answer = await read(asked.page, asked.perPage);
    reads += 1;
    const objects = answer.data.filter(isObject);
    const keys = objects.map((o) => keyOf(o, order.fields));
    for (let i = 1; i < keys.length; i += 1) {
      if (compareKeys(keys[i - 1]!, keys[i]!) >= 0) throw new ListOrderError(order.fields.at(-1)!.field);
    }
    // The server's own page size when it says it: one that gives fewer than asked is not at the end.
    const given = positiveIntOf(answer.meta.per_page);
    if (given && given < asked.perPage) size = Math.min(size, given);
    const start = (asked.page - 1) * (given ?? asked.perPage);
    const total = given ? count(answer.meta.total) : undefined;
    const continues =
      asked.page === 1 || !!chained || (!!keys[0] && (!after || compareKeys(keys[0], after) <= 0));
    chained = undefined;
    if (!continues) {
      // Objects before the place left the list: read from `back` objects earlier (from the list's end, if it ends
      // sooner), one at first (the usual single change), then ten times as far each time.
      at = Math.max(0, Math.min(start, total ?? start) - back + 1);
      back *= 10;
      continue;
    }
    const fresh: Obj[] = [];
    objects.forEach((o, i) => {
      if (after && compareKeys(keys[i]!, after) <= 0) return;
      const id = String(o.id ?? keys[i]!.join(':'));
      if (moved.has(id)) return;
      if (order.movable?.(o) && moved.size < MOVED_REMEMBERED) moved.add(id);
      fresh.push(o);
    });
    const last = keys.at(-1);
    if (last && (!after || compareKeys(last, after) > 0)) after = last;
    at = start + objects.length;
    // The end shows in the meta (total, page size); a list without them ends with an empty page.
    const end = !objects.length || (total !== undefined && start + objects.length >= total);
    if (end) return { objects: fresh, next: { done: true }, reads, exhausted: false };
    if (fresh.length) return { objects: fresh, next: here(), reads, exhausted: false };
    chained = { page: asked.page + 1, perPage: asked.perPage };
  }
  return { objects: [], next: here(), reads, exhausted: true };
};
