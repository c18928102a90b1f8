/**
 * Page-number paging of a list whose members change while Zapier Transfer reads it (every Transfer list but the
 * receipts cursor). Page numbers alone move an object twice when one enters before the place, and never when one
 * leaves before it. Here the place is the sort key of the last object handed on, and every page handed is a run of
 * the sorted list that begins at or before that key, so nothing after the key can fall between two pages.
 *
 * Pure: the list is read through `read`, so the same code runs against the interfaces and a model list in tests.
 */

import { createHash } from 'node:crypto';
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
   * The interface's own order is not shown, so the list is read whole each call and sorted here (readWhole): only
   * for lists that stay short (the stock levels low now).
   */
  unordered?: boolean;
  /**
   * Objects whose key may still move forward after they are handed on (a booked appointment rescheduled later):
   * their ids are remembered so they are not handed again at their new place.
   */
  movable?: (o: Obj) => boolean;
}

/**
 * Where the next read starts, kept between the calls of a transfer: `at`, the index in the list of the first
 * object not yet seen (an estimate: the list changes); `after`, the key of the last object handed on; `size`, the
 * largest page the server was seen to give; `fixed`, its own page size when it gives more than asked (it ignores
 * `per_page` and says so in `meta.per_page`); `moved`, the movable objects already handed on, each id as a
 * MEMO_CHARS-character digest, none ever forgotten.
 */
export interface Place {
  at: number;
  after: Key | null;
  size?: number;
  fixed?: number;
  moved?: string;
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

/** A list read whole (its order not shown) that is longer than one call may read. */
export class ListTooLongError extends Error {
  constructor(readonly pages: number) {
    super(`the list is longer than ${pages} pages`);
  }
}

export interface Run {
  /** Objects after the place, in the list's order, none handed on before. */
  objects: Obj[];
  /** Where the next read starts; at the end, what is remembered still (a later list of the transfer needs it). */
  next: Place | { done: true; moved?: string };
  reads: number;
  /** The budget ran out before any object after the place was found. */
  exhausted: boolean;
}

/**
 * How many movable objects a transfer remembers at most: 11 characters each, 220 KB of cursor at most. Past it the
 * transfer stops (MemoryFullError) rather than forget one and move it twice.
 */
export const MOVED_REMEMBERED = 20_000;
/**
 * Characters of an id's digest (SHA-256, base64url): 66 bits, so among 20,000 ids two share a digest with a chance
 * of about 3 in 10^12, which would leave one of them unmoved.
 */
export const MEMO_CHARS = 11;
export const memoOf = (id: string) =>
  createHash('sha256').update(id).digest('base64url').slice(0, MEMO_CHARS);

/** The place holds as many movable objects as it may; one more could not be remembered. */
export class MemoryFullError extends Error {
  constructor() {
    super(`more than ${MOVED_REMEMBERED} movable objects`);
  }
}

/** The digests of a place's moved objects, as a set. */
const memory = (moved: string | undefined) => {
  const set = new Set<string>();
  for (let i = 0; i + MEMO_CHARS <= (moved ?? '').length; i += MEMO_CHARS)
    set.add(moved!.slice(i, i + MEMO_CHARS));
  return set;
};

/**
 * Whether `o` was moved already (it is then skipped); otherwise a movable object is remembered in `moved` as it is
 * handed on, so a reschedule that brings it back into the list's unread part cannot move it twice.
 */
const movedBefore = (moved: Set<string>, order: { movable?: (o: Obj) => boolean }, o: Obj, key: Key) => {
  const memo = memoOf(String(o.id ?? key.join(':')));
  if (moved.has(memo)) return true;
  if (order.movable?.(o)) {
    if (moved.size >= MOVED_REMEMBERED) throw new MemoryFullError();
    moved.add(memo);
  }
  return false;
};

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

/** The page of a server that keeps its own page size `fixed` holding the last object seen (index at-1). */
const fixedPlan = (at: number, fixed: number) => ({
  page: at <= 0 ? 1 : Math.floor((at - 1) / fixed) + 1,
  perPage: fixed,
});

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
  if (order.unordered) return readWhole(read, place, order, perPage, budget);
  let { at, after } = place;
  let size = Math.min(perPage, place.size ?? perPage);
  let fixed = place.fixed;
  const moved = memory(place.moved);
  let chained: { page: number; perPage: number } | undefined;
  let back = 1;
  let reads = 0;
  const here = (): Place => ({
    at,
    after,
    ...(size < perPage ? { size } : {}),
    ...(fixed ? { fixed } : {}),
    ...(moved.size ? { moved: [...moved].join('') } : {}),
  });
  while (reads < budget) {
    const asked = chained ?? (fixed ? fixedPlan(at, fixed) : plan(at, size));
    const answer = await read(asked.page, asked.perPage);
    reads += 1;
    const objects = answer.data.filter(isObject);
    const keys = objects.map((o) => keyOf(o, order.fields));
    for (let i = 1; i < keys.length; i += 1) {
      if (compareKeys(keys[i - 1]!, keys[i]!) >= 0) throw new ListOrderError(order.fields.at(-1)!.field);
    }
    // The server's own page size when it says it: one that gives fewer than asked is not at the end, and one that
    // gives more ignores per_page, so its pages are its own from then on.
    const given = positiveIntOf(answer.meta.per_page);
    if (given && given > asked.perPage) fixed = given;
    else if (given && given < asked.perPage) size = Math.min(size, given);
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
    // At most `perPage` objects a call (a page of a server that ignores per_page can be larger): the place then
    // stops at the last one handed on.
    const fresh: Obj[] = [];
    let examined = 0;
    for (const [i, o] of objects.entries()) {
      if (fresh.length === perPage) break;
      examined = i + 1;
      const key = keys[i]!;
      if (after && compareKeys(key, after) <= 0) continue;
      after = key;
      if (movedBefore(moved, order, o, key)) continue;
      fresh.push(o);
    }
    at = start + examined;
    const cut = examined < objects.length;
    // The end shows in the meta (total, page size); a list without them ends with an empty page.
    const end = !cut && (!objects.length || (total !== undefined && start + objects.length >= total));
    if (end) {
      const { moved: memo } = here();
      return {
        objects: fresh,
        next: { done: true, ...(memo ? { moved: memo } : {}) },
        reads,
        exhausted: false,
      };
    }
    if (fresh.length) return { objects: fresh, next: here(), reads, exhausted: false };
    chained = { page: asked.page + 1, perPage: asked.perPage };
  }
  return { objects: [], next: here(), reads, exhausted: true };
};

/**
 * A list whose order the interface does not show: each call reads it whole (pages 1, 2… to its end, at most
 * `budget`), sorts it by the declared key, and hands on the next `perPage` objects after the place. Read again when
 * its count changed between two of its pages (the list moved under the read), so a page boundary that shifted
 * neither skips nor repeats; a list longer than the budget stops with ListTooLongError.
 */
const readWhole = async (
  read: ReadPage,
  place: Place,
  order: Order,
  perPage: number,
  budget: number,
): Promise<Run> => {
  let reads = 0;
  for (let attempt = 0; attempt < 2; attempt += 1) {
    const byKey = new Map<string, { key: Key; o: Obj }>();
    const totals = new Set<number>();
    let size = perPage;
    for (let page = 1; ; page += 1) {
      if (reads >= budget) throw new ListTooLongError(budget);
      const answer = await read(page, size);
      reads += 1;
      const objects = answer.data.filter(isObject);
      for (const o of objects) {
        const key = keyOf(o, order.fields);
        byKey.set(JSON.stringify(key), { key, o });
      }
      const given = positiveIntOf(answer.meta.per_page);
      if (given) size = given;
      const total = given ? count(answer.meta.total) : undefined;
      if (total !== undefined) totals.add(total);
      if (!objects.length || (total !== undefined && page * (given ?? size) >= total)) break;
    }
    // A count that changed between pages, or objects read that the count does not hold: read once more, then
    // leave the place as it is (the call fails, and asking again reads it afresh).
    const [total] = totals;
    if (totals.size > 1 || (total !== undefined && total !== byKey.size)) {
      if (attempt === 0) continue;
      return { objects: [], next: place, reads, exhausted: true };
    }
    const after = place.after;
    const moved = memory(place.moved);
    const rest = [...byKey.values()]
      .filter(({ key }) => !after || compareKeys(key, after) > 0)
      .sort((a, b) => compareKeys(a.key, b.key));
    const handed: Obj[] = [];
    let last: Key | undefined;
    for (const { key, o } of rest) {
      if (handed.length === perPage) break;
      last = key;
      if (movedBefore(moved, order, o, key)) continue;
      handed.push(o);
    }
    const next: Place | { done: true } =
      !last || compareKeys(last, rest.at(-1)!.key) === 0
        ? { done: true }
        : { at: 0, after: last, ...(moved.size ? { moved: [...moved].join('') } : {}) };
    return { objects: handed, next, reads, exhausted: false };
  }
  return { objects: [], next: place, reads, exhausted: true };
};
