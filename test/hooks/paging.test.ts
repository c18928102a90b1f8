/*
 * Transfer's paging by key (lib/hooks/paging.ts) over a model list that changes between the calls of a transfer:
 * objects enter, leave or move, the server may cap its page size or show no meta. Every object that stays with its
 * key is handed on exactly once, none twice, and the transfer ends.
 */
import fc from 'fast-check';
import nock from 'nock';
import App from '../../index';
import {
  ListOrderError,
  ListTooLongError,
  MEMO_CHARS,
  MemoryFullError,
  memoOf,
  MOVED_REMEMBERED,
  compareKeys,
  plan,
  readOn,
  type Order,
  type Place,
  type ReadPage,
} from '../../lib/hooks/paging';
import { body } from '../fixtures';
import { AUTH, appTester, cashierApi, cashierPath, clinicApi, clinicPath, useNock } from '../helpers';
import { ModelList, checkTransfer, scenarioArb, type Row } from '../support/model-list';
import { cursorStandIn, transferPage } from '../../harness/transfer';

const ORDER: Order = {
  fields: [{ field: 'k' }, { field: 'id' }],
  movable: (o) => o.movable === true,
};
const BUDGET = 5;

useNock();

type Obj = Record<string, unknown>;

/** A whole transfer as Zapier runs it: call after call until one answers nothing; a failed call is asked again. */
const transfer = async (
  list: ModelList,
  perPage: number,
  between: Array<() => void> = [],
  maxCalls = 400,
) => {
  const read: ReadPage = async (page, size) => list.page(page, size);
  let place: Place | { done: true } = { at: 0, after: null };
  const handed: Obj[][] = [];
  for (let call = 0; call < maxCalls; call += 1) {
    if (call > 0) between[call - 1]?.();
    if ('done' in place) {
      handed.push([]);
      return { handed, ended: true };
    }
    const run = await readOn(read, place, ORDER, perPage, BUDGET);
    place = run.next;
    if (run.exhausted) continue;
    handed.push(run.objects);
    if (!run.objects.length) return { handed, ended: true };
  }
  return { handed, ended: false };
};

const keyOf = (o: Obj) => [o.k as number, o.id as string];

describe('plan: the page that holds the last object seen and reaches furthest past it', () => {
  it('starts with page 1 of the full size', () => {
    expect(plan(0, 100)).toEqual({ page: 1, perPage: 100 });
  });

  it('then pages whose boundary falls just before the last object seen', () => {
    expect(plan(100, 100)).toEqual({ page: 2, perPage: 99 }); // [99, 198)
    expect(plan(198, 100)).toEqual({ page: 3, perPage: 98 }); // [196, 294)
    expect(plan(294, 100)).toEqual({ page: 4, perPage: 97 }); // [291, 388)
    expect(plan(25, 25)).toEqual({ page: 2, perPage: 24 });
  });

  it('always holds the last object seen, within the size, and reaches past it (a full page rarely)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 100_000 }), fc.integer({ min: 1, max: 100 }), (at, size) => {
        const { page, perPage } = plan(at, size);
        expect(perPage).toBeLessThanOrEqual(size);
        expect((page - 1) * perPage).toBeLessThanOrEqual(at - 1);
        expect(page * perPage).toBeGreaterThan(at - 1);
        if (size >= 50) expect(page * perPage - at).toBeGreaterThanOrEqual(size / 2 - 1);
      }),
    );
  });
});

describe('readOn over a list that changes between calls', () => {
  it('hands on every object that stays exactly once, none twice, in key order, and ends', async () => {
    await fc.assert(
      fc.asyncProperty(
        scenarioArb({ maxRows: 80, maxPerPage: 12, maxChanges: 4 }),
        async ({ keys, perPage, server, between }) => {
          const list = new ModelList(keys, server);
          const start: Row[] = list.sorted().map((r) => ({ ...r }));
          const { handed, ended } = await transfer(
            list,
            perPage,
            between.map((changes) => () => changes.forEach((c) => list.apply(c))),
          );
          expect(ended).toBe(true);
          const ids = handed.flat().map((o) => o.id as string);
          expect(checkTransfer(start, list, ids)).toEqual({ twice: [], missing: [] });
          // Keys as handed only grow: each call goes on after the last.
          const ks = handed.flat().map(keyOf);
          for (let i = 1; i < ks.length; i += 1) expect(compareKeys(ks[i - 1]!, ks[i]!)).toBeLessThan(0);
        },
      ),
      { numRuns: 300 },
    );
  });

  it('a server that gives fewer than asked is neither a skip nor an end', async () => {
    const list = new ModelList(
      Array.from({ length: 250 }, (_, k) => ({ k, movable: false })),
      { cap: 40 },
    );
    const { handed } = await transfer(list, 100);
    expect(handed.flat().map((o) => o.k)).toEqual(Array.from({ length: 250 }, (_, k) => k));
    expect(list.requests[0]).toEqual({ page: 1, perPage: 100 });
    // Learned from meta.per_page: later pages ask no more than the server gives.
    expect(list.requests.slice(1).every((r) => r.perPage <= 40)).toBe(true);
    // One request a call; the call after the last page (meta showed the end) asks nothing.
    expect(list.requests).toHaveLength(handed.length - 1);
    expect(handed.at(-1)).toEqual([]);
  });

  it('invoices paid before the place between calls: each invoice paid for the whole transfer once', async () => {
    // An invoice becoming paid enters the paid list at its issue time, before the place, shifting the pages after.
    const list = new ModelList(
      Array.from({ length: 300 }, (_, k) => ({ k: k * 10, movable: false })),
      {},
    );
    const start = list.sorted();
    const between = Array.from({ length: 10 }, (_, n) => () => {
      for (let i = 0; i < 7; i += 1) list.apply({ kind: 'enter', k: n * 100 + i * 13 + 1, movable: false });
    });
    const { handed } = await transfer(list, 100, between);
    expect(
      checkTransfer(
        start,
        list,
        handed.flat().map((o) => o.id as string),
      ),
    ).toEqual({
      twice: [],
      missing: [],
    });
  });

  it('remembers every movable object it handed on, past a thousand: none rescheduled past the place comes twice', async () => {
    const list = new ModelList(
      Array.from({ length: 1300 }, (_, k) => ({ k, movable: true })),
      {},
    );
    const late = list.sorted()[1150]!;
    let place: Place | { done: true } = { at: 0, after: null };
    const handed: string[] = [];
    let rescheduled = false;
    while (!('done' in place)) {
      const run = await readOn(async (p, s) => list.page(p, s), place, ORDER, 100, BUDGET);
      handed.push(...run.objects.map((o) => o.id as string));
      place = run.next;
      // Once it was handed on (the 1,151st movable object), it is rescheduled past the place.
      if (!rescheduled && handed.includes(late.id)) {
        list.apply({ kind: 'move', pick: 1150, k: 5000 });
        rescheduled = true;
      }
    }
    expect(rescheduled).toBe(true);
    expect(handed.filter((id) => id === late.id)).toHaveLength(1);
    expect(new Set(handed).size).toBe(1300);
    expect(handed).toHaveLength(1300);
  });

  it('stops rather than forget: past MOVED_REMEMBERED movable objects it fails with MemoryFullError', async () => {
    const full = Array.from({ length: MOVED_REMEMBERED }, (_, i) => memoOf(`o${i}`)).join('');
    const list = new ModelList([{ k: 1, movable: true }], {});
    await expect(
      readOn(async (p, s) => list.page(p, s), { at: 0, after: null, moved: full }, ORDER, 100, BUDGET),
    ).rejects.toThrow(MemoryFullError);
    expect(full.length).toBe(MOVED_REMEMBERED * MEMO_CHARS);
  });
});

describe('a server that ignores per_page (and says so in meta.per_page)', () => {
  it.each([
    [50, 100],
    [100, 100],
    [100, 25],
    [30, 25],
  ])(
    'pages of its own %i, asked for %i: every object once, in order, no call handing more than asked',
    async (own, perPage) => {
      const list = new ModelList(
        Array.from({ length: 333 }, (_, k) => ({ k, movable: false })),
        { own },
      );
      const { handed, ended } = await transfer(list, perPage);
      expect(ended).toBe(true);
      expect(handed.flat().map((o) => o.k)).toEqual(Array.from({ length: 333 }, (_, k) => k));
      expect(handed.every((p) => p.length <= perPage)).toBe(true);
      // Its pages are its own once it showed it: page n of `own` is objects (n-1)·own… (never a step back).
      expect(list.requests.slice(2).every((r) => r.perPage === own)).toBe(true);
    },
  );
});

describe('a list in an order of its own (the order not shown): read whole each call, sorted by key', () => {
  const UNORDERED: Order = { ...ORDER, unordered: true };
  const whole = async (list: ModelList, perPage: number, between: Array<() => void> = []) => {
    let place: Place | { done: true } = { at: 0, after: null };
    const handed: Obj[][] = [];
    for (let call = 0; call < 100 && !('done' in place); call += 1) {
      if (call > 0) between[call - 1]?.();
      const run = await readOn(async (p, s) => list.page(p, s), place, UNORDERED, perPage, 20);
      handed.push(run.objects);
      place = run.next;
    }
    return handed;
  };

  it('hands every object once, in key order, whatever order and page size the server keeps', async () => {
    const list = new ModelList(
      Array.from({ length: 260 }, (_, k) => ({ k: (k * 37) % 260, movable: false })),
      { own: 50, shuffled: true },
    );
    expect(list.page(1, 100).data.map((r) => r.k)).not.toEqual(
      [...list.page(1, 100).data.map((r) => r.k)].sort((a, b) => a - b),
    );
    const handed = await whole(list, 100);
    const ks = handed.flat().map((o) => o.k);
    expect(ks).toEqual(Array.from({ length: 260 }, (_, k) => k));
    expect(handed.every((p) => p.length <= 100)).toBe(true);
  });

  it('objects that stay are handed once while others enter and leave between calls', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb({ maxRows: 120, maxPerPage: 12, maxChanges: 4 }), async (s) => {
        const list = new ModelList(s.keys, { ...s.server, shuffled: true });
        const start = list.sorted().map((r) => ({ ...r }));
        const handed = await whole(
          list,
          s.perPage,
          s.between.map((changes) => () => changes.forEach((c) => list.apply(c))),
        );
        const ids = handed.flat().map((o) => o.id as string);
        expect(checkTransfer(start, list, ids)).toEqual({ twice: [], missing: [] });
      }),
      { numRuns: 100 },
    );
  });

  it('a list longer than the pages a call may read stops with ListTooLongError', async () => {
    const list = new ModelList(
      Array.from({ length: 120 }, (_, k) => ({ k, movable: false })),
      { own: 5 },
    );
    await expect(
      readOn(async (p, s) => list.page(p, s), { at: 0, after: null }, UNORDERED, 100, 20),
    ).rejects.toThrow(ListTooLongError);
  });
});

describe('the end of a list', () => {
  const rows = (n: number, from = 0) =>
    Array.from({ length: n }, (_, i) => ({ k: from + i, id: `o${from + i}` }));
  const pages = (answers: Array<{ data: Obj[]; meta: Obj }>) => {
    const asked: Array<[number, number]> = [];
    const read: ReadPage = async (page, perPage) => {
      asked.push([page, perPage]);
      return answers.shift() ?? { data: [], meta: {} };
    };
    return { read, asked };
  };

  it('a short page whose meta shows more goes on', async () => {
    const { read } = pages([{ data: rows(40), meta: { total: 250, page: 1, per_page: 40 } }]);
    const run = await readOn(read, { at: 0, after: null }, ORDER, 100, BUDGET);
    expect(run.objects).toHaveLength(40);
    expect(run.next).toEqual({ at: 40, after: [39, 'o39'], size: 40 });
  });

  it('a page that reaches meta.total ends the list', async () => {
    const { read } = pages([{ data: rows(30), meta: { total: 30, page: 1, per_page: 100 } }]);
    const run = await readOn(read, { at: 0, after: null }, ORDER, 100, BUDGET);
    expect(run.objects).toHaveLength(30);
    expect(run.next).toEqual({ done: true });
  });

  it('without meta a short page is not the end; the empty page after it is', async () => {
    const first = pages([{ data: rows(30), meta: {} }]);
    const run = await readOn(first.read, { at: 0, after: null }, ORDER, 100, BUDGET);
    expect(run.next).toEqual({ at: 30, after: [29, 'o29'] });
    // The next call reads the page holding the last object seen, finds nothing after it, and the next page empty.
    const last = pages([
      { data: rows(30), meta: {} },
      { data: [], meta: {} },
    ]);
    const end = await readOn(last.read, run.next as Place, ORDER, 100, BUDGET);
    expect(last.asked).toEqual([
      [1, 100],
      [2, 100],
    ]);
    expect(end).toMatchObject({ objects: [], next: { done: true } });
  });

  it('an empty first page ends a list with or without meta', async () => {
    for (const meta of [{}, { total: 0, page: 1, per_page: 100 }]) {
      const { read } = pages([{ data: [], meta }]);
      await expect(readOn(read, { at: 0, after: null }, ORDER, 100, BUDGET)).resolves.toMatchObject({
        objects: [],
        next: { done: true },
      });
    }
  });

  it('a list out of its declared order stops the transfer rather than skip or repeat', async () => {
    const { read } = pages([{ data: [...rows(3)].reverse(), meta: {} }]);
    await expect(readOn(read, { at: 0, after: null }, ORDER, 100, BUDGET)).rejects.toThrow(ListOrderError);
    const missing = pages([{ data: [{ id: 'o1' }], meta: {} }]);
    await expect(readOn(missing.read, { at: 0, after: null }, ORDER, 100, BUDGET)).rejects.toThrow(
      ListOrderError,
    );
  });
});

describe('through the definition: Appointment Updated over a changing appointments list', () => {
  const template: Record<string, unknown> = body('transfer-appointments-completed', 0).data[0];
  /** The rows' starts: two days before the test runs, then one an hour, so the later ones are still to come. */
  const BASE = Date.now() - 2 * 86_400_000;
  /** Rows changed while the transfer runs: their updated_at is then. */
  const touched = new Map<string, string>();
  const toAppointment = (r: Row) => ({
    ...template,
    id: r.id,
    status: r.movable ? 'booked' : 'completed',
    starts_at: new Date(BASE + r.k * 3_600_000).toISOString(),
    created_at: new Date(BASE - 30 * 86_400_000).toISOString(),
    updated_at: touched.get(r.id) ?? new Date(BASE - 20 * 86_400_000).toISOString(),
  });
  const performList = (
    App.triggers as unknown as Record<
      string,
      { operation: { performList: (z: unknown, b: unknown) => unknown } }
    >
  ).appointment_updated!.operation.performList;
  const tester = (fn: (z: unknown, b: unknown) => unknown, bundle: object) =>
    appTester(fn as never, bundle as never) as Promise<unknown>;

  /**
   * A transfer through performList, `between(page)` changing the list before each call after the first. The list
   * answers `status` and `from` as the interface does (the recheck of booked and confirmed appointments at the end);
   * `main` is the requests of the list itself, `rechecks` those with a status.
   */
  const transferThrough = async (list: ModelList, between: (page: number) => void) => {
    const rechecks: string[] = [];
    const scope = clinicApi()
      .persist()
      .get(clinicPath('/appointments'))
      .query(true)
      .reply((uri) => {
        const q = new URL(uri, 'http://x').searchParams;
        const page = Number(q.get('page'));
        const perPage = Number(q.get('per_page'));
        if (!q.get('status')) {
          const { data, meta } = list.page(page, perPage);
          return [200, { data: data.map(toAppointment), meta }];
        }
        rechecks.push(q.toString());
        const from = Date.parse(`${q.get('from')}T00:00:00+03:00`);
        const all = list
          .sorted()
          .map(toAppointment)
          .filter((a) => a.status === q.get('status') && Date.parse(a.starts_at) >= from);
        const data = all.slice((page - 1) * perPage, page * perPage);
        return [200, { data, meta: { total: all.length, page, per_page: perPage } }];
      });
    const cursor = cursorStandIn();
    const handed: string[] = [];
    for (let page = 0; page < 50; page += 1) {
      if (page > 0) between(page);
      const items = await transferPage<Record<string, unknown>>(
        tester,
        performList,
        { authData: AUTH, inputData: { include_patient: 'false' } },
        page,
        cursor,
      );
      handed.push(...items.map((i) => i.id as string));
      if (!items.length) break;
    }
    scope.persist(false);
    nock.cleanAll();
    return Object.assign(handed, { rechecks });
  };
  const ulid = (n: number) => `01K${'0'.repeat(16)}${String(n).padStart(7, '0')}`;

  it('a booked appointment rescheduled past the place after it was moved does not come again', async () => {
    const list = new ModelList(
      Array.from({ length: 250 }, (_, k) => ({ k, movable: k === 5 })),
      {},
      ulid,
    );
    const booked = list.sorted()[5]!.id;
    const handed = await transferThrough(list, (page) => {
      if (page === 1) list.apply({ kind: 'move', pick: 0, k: 240 });
    });
    expect(handed.filter((id) => id === booked)).toHaveLength(1);
    expect(new Set(handed).size).toBe(250);
    // Page 2 then starts after the place (the booked one left its place before it): one step back, in the same call.
    expect(list.requests.map((r) => [r.page, r.perPage])).toEqual([
      [1, 100],
      [2, 99],
      [2, 98],
      [3, 97],
    ]);
  });

  it('a booked appointment rescheduled from ahead of the place to behind it is moved, once, at the end', async () => {
    const list = new ModelList(
      Array.from({ length: 250 }, (_, k) => ({ k, movable: k % 10 === 0 })),
      {},
      ulid,
    );
    // The booked one two days and 200 hours on; after the first page it moves to today (behind the place).
    const late = list.sorted()[200]!;
    const handed = await transferThrough(list, (page) => {
      if (page !== 1) return;
      list.apply({ kind: 'move', pick: 20, k: 60 });
      touched.set(late.id, new Date().toISOString());
    });
    expect(list.rows.find((r) => r.id === late.id)!.k).toBe(60);
    expect(handed.filter((id) => id === late.id)).toHaveLength(1);
    expect(new Set(handed).size).toBe(250);
    expect(handed).toHaveLength(250);
    // It comes after the list's end, from the recheck of booked, then confirmed, appointments from yesterday on.
    expect(handed.at(-1)).toBe(late.id);
    expect(handed.rechecks.map((q) => new URLSearchParams(q).get('status'))).toEqual(['booked', 'confirmed']);
    const yesterday = new Date(Date.now() + 3 * 3_600_000 - 86_400_000).toISOString().slice(0, 10);
    expect(handed.rechecks.every((q) => new URLSearchParams(q).get('from') === yesterday)).toBe(true);
  });

  it('a server that ignores per_page, giving 50 a page (and saying so), is paged in its own pages to the end', async () => {
    const list = new ModelList(
      Array.from({ length: 260 }, (_, k) => ({ k, movable: false })),
      { own: 50 },
      ulid,
    );
    const handed = await transferThrough(list, () => {});
    expect([...handed]).toEqual(list.sorted().map((r) => r.id));
    // Found out on the second request; from then on its own pages, each holding the last object seen.
    expect(list.requests.slice(0, 2)).toEqual([
      { page: 1, perPage: 100 },
      { page: 2, perPage: 49 },
    ]);
    expect(list.requests.slice(2).every((r) => r.perPage === 50)).toBe(true);
  });

  it('hands on every appointment that stays once, none twice (a booked one rescheduled later included)', async () => {
    await fc.assert(
      fc.asyncProperty(scenarioArb({ maxRows: 250, maxPerPage: 1, maxChanges: 6 }), async (s) => {
        const list = new ModelList(
          s.keys.map((r) => ({ ...r, k: r.k % 400 })),
          {},
          ulid,
        );
        const start = list.sorted().map((r) => ({ ...r }));
        const handed = await transferThrough(list, (page) =>
          s.between[page - 1]?.forEach((c) => list.apply('k' in c ? { ...c, k: c.k % 400 } : c)),
        );
        expect(list.requests.every((r) => r.perPage <= 100)).toBe(true);
        expect(checkTransfer(start, list, handed)).toEqual({ twice: [], missing: [] });
        expect(handed.length).toBeGreaterThanOrEqual(start.length - list.disturbed.size);
      }),
      { numRuns: 8 },
    );
  });
});

describe('through the definition: Stock Low against a cashier that lists 50 a page in its own order', () => {
  const template: Record<string, unknown> = body('stock-low-list', 0).data[0];
  const performList = (
    App.triggers as unknown as Record<
      string,
      { operation: { performList: (z: unknown, b: unknown) => unknown } }
    >
  ).stock_low!.operation.performList;
  const tester = (fn: (z: unknown, b: unknown) => unknown, bundle: object) =>
    appTester(fn as never, bundle as never) as Promise<unknown>;

  it('moves every low level once, by branch then variant, with no transfer_list_order', async () => {
    // hand-built: 130 low levels of three branches (the recorded level's fields), listed in the server's own order,
    // 50 a page whatever is asked, as the cashier spec leaves both open.
    const list = new ModelList(
      Array.from({ length: 130 }, (_, k) => ({ k, movable: false })),
      { own: 50, shuffled: true },
    );
    const level = (r: Row) => ({ ...template, branch_id: 1 + (r.k % 3), variant_id: 1000 + r.k });
    const scope = cashierApi()
      .persist()
      .get(cashierPath('/stock/levels'))
      .query(true)
      .reply((uri) => {
        const q = new URL(uri, 'http://x').searchParams;
        expect(q.get('low_only')).toBe('true');
        const { data, meta } = list.page(Number(q.get('page')), Number(q.get('per_page')));
        return [200, { data: data.map(level), meta }];
      });
    const cursor = cursorStandIn();
    const pages: Array<Array<Record<string, unknown>>> = [];
    for (let page = 0; page < 10; page += 1) {
      const items = await transferPage<Record<string, unknown>>(
        tester,
        performList,
        { authData: AUTH },
        page,
        cursor,
      );
      pages.push(items);
      if (!items.length) break;
    }
    scope.persist(false);
    nock.cleanAll();
    const ids = pages.flat().map((i) => i.id);
    const expected = list
      .sorted()
      .map(level)
      .sort((a, b) => a.branch_id - b.branch_id || a.variant_id - b.variant_id)
      .map((l) => `${l.branch_id}:${l.variant_id}`);
    expect(ids).toEqual(expected);
    expect(pages.map((p) => p.length)).toEqual([100, 30, 0]);
  });
});
