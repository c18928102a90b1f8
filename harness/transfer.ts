/**
 * Zapier Transfer as its servers run it, for the unit and end-to-end suites, the recorder and the benchmark: a
 * trigger's performList with `meta.isBulkRead`, page 0, 1, 2… until it answers `[]`. The stock app tester sends
 * `z.cursor` to Zapier's servers; this stand-in keeps the cursor in memory, as Zapier keeps it between the pages of
 * one transfer.
 */

type Fn = (z: unknown, bundle: unknown) => unknown;
/** Core's app tester, or anything that runs an (ad hoc) function of the app with a bundle. */
type Tester = (fn: Fn, bundle: object) => Promise<unknown>;

export interface CursorStandIn {
  get(): Promise<string | null>;
  set(value: string): Promise<null>;
  /** What was set last (null before the first set). */
  readonly value: string | null;
}

export const cursorStandIn = (initial: string | null = null): CursorStandIn => {
  let value = initial;
  return {
    get: async () => value,
    set: async (v: string) => {
      // As core's own: a cursor is a string.
      if (typeof v !== 'string') throw new TypeError('cursor value must be a string');
      value = v;
      return null;
    },
    get value() {
      return value;
    },
  };
};

/** `fn` with `z.cursor` answered by the stand-in (the rest of core's z as it is). */
export const withCursor =
  (fn: Fn, cursor: CursorStandIn): Fn =>
  (z, bundle) => {
    (z as { cursor: unknown }).cursor = cursor;
    return fn(z, bundle);
  };

/** One call of a transfer: page `page` of `performList` in bulk read. */
export const transferPage = async <T = Record<string, unknown>>(
  tester: Tester,
  performList: Fn,
  bundle: { authData: object; inputData?: object },
  page: number,
  cursor: CursorStandIn,
): Promise<T[]> =>
  (await tester(withCursor(performList, cursor), {
    inputData: {},
    ...bundle,
    meta: { isBulkRead: true, page, limit: -1 },
  })) as T[];

/** A whole transfer: every page until `[]` (at most `maxPages`), the items of each page in order. */
export const transferAll = async <T = Record<string, unknown>>(
  tester: Tester,
  performList: Fn,
  bundle: { authData: object; inputData?: object },
  maxPages = 100,
): Promise<T[][]> => {
  const cursor = cursorStandIn();
  const pages: T[][] = [];
  for (let page = 0; page < maxPages; page += 1) {
    const items = await transferPage<T>(tester, performList, bundle, page, cursor);
    pages.push(items);
    if (!items.length) return pages;
  }
  throw new Error(`the transfer had not ended after ${maxPages} pages`);
};
