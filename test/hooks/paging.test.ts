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
  MOVED_REMEMBERED,
  compareKeys,
  plan,
  readOn,
  type Order,
  type Place,
  type ReadPage,
} from '../../lib/hooks/paging';
import { body } from '../fixtures';
import { AUTH, appTester, clinicApi, clinicPath, useNock } from '../helpers';
import { ModelList, checkTransfer, scenarioArb, type Row } from '../support/model-list';
import { cursorStandIn, transferPage } from '../../harness/transfer';

const ORDER: Order = {
  fields: [{ field: 'k' }, { field: 'id' }],
  movable: (o) => o.movable === true,
};
const BUDGET = 5;

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

  it('remembers at most a bounded number of movable ids in the place', async () => {
    const list = new ModelList(
      Array.from({ length: MOVED_REMEMBERED + 150 }, (_, k) => ({ k, movable: true })),
      {},
    );
    let place: Place | { done: true } = { at: 0, after: null };
    while (!('done' in place)) {
      place = (await readOn(async (p, s) => list.page(p, s), place, ORDER, 100, BUDGET)).next;
      if (!('done' in place)) expect(place.moved!.length).toBeLessThanOrEqual(MOVED_REMEMBERED);
    }
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
  useNock();
  const template: Record<string, unknown> = body('transfer-appointments-completed', 0).data[0];
  const toAppointment = (r: Row) => ({
    ...template,
    id: r.id,
    status: r.movable ? 'booked' : 'completed',
    starts_at: new Date(Date.parse('2026-01-01T06:00:00Z') + r.k * 3_600_000).toISOString(),
  });
  const performList = (
    App.triggers as unknown as Record<
      string,
      { operation: { performList: (z: unknown, b: unknown) => unknown } }
    >
  ).appointment_updated!.operation.performList;
  const tester = (fn: (z: unknown, b: unknown) => unknown, bundle: object) =>
    appTester(fn as never, bundle as never) as Promise<unknown>;

  /** A transfer through performList, `between(page)` changing the list before each call after the first. */
  const transferThrough = async (list: ModelList, between: (page: number) => void) => {
    const scope = clinicApi()
      .persist()
      .get(clinicPath('/appointments'))
      .query(true)
      .reply((uri) => {
        const q = new URL(uri, 'http://x').searchParams;
        const { data, meta } = list.page(Number(q.get('page')), Number(q.get('per_page')));
        return [200, { data: data.map(toAppointment), meta }];
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
    return handed;
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
