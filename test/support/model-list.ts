/**
 * A model of a partner list that changes while a transfer pages through it: objects sorted by (k, id), paged as
 * the sandbox's `pageOf` does (meta total, page, per_page), optionally capping per_page below what was asked or
 * answering without meta. Between the calls of a transfer, objects enter, leave or move.
 */
import fc from 'fast-check';

export interface Row {
  id: string;
  k: number;
  /** May change its key after it was handed on (a booked appointment rescheduled). */
  movable: boolean;
}

export type Change =
  | { kind: 'enter'; k: number; movable: boolean }
  | { kind: 'leave'; pick: number }
  | { kind: 'move'; pick: number; k: number };

export interface Server {
  /** Largest page it gives, whatever is asked; undefined: as asked. */
  cap?: number;
  /** Answers `meta: {}` (a list that shows no total): only an empty page ends it. */
  noMeta?: boolean;
  /** Pages of its own size whatever is asked (it ignores per_page), saying so in meta.per_page. */
  own?: number;
  /** Lists in an order of its own (a fixed shuffle by id), not by key. */
  shuffled?: boolean;
}

const byKey = (a: Row, b: Row) => a.k - b.k || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0);

export class ModelList {
  rows: Row[];
  private next = 0;
  /** Ids whose key changed or that left, at any time: they are not promised exactly once. */
  readonly disturbed = new Set<string>();
  readonly requests: Array<{ page: number; perPage: number }> = [];

  constructor(
    keys: Array<{ k: number; movable: boolean }>,
    private readonly server: Server = {},
    private readonly idOf: (n: number) => string = (n) => `o${String(n).padStart(5, '0')}`,
  ) {
    this.rows = keys.map(({ k, movable }) => ({ id: this.newId(), k, movable }));
  }

  private newId() {
    this.next += 1;
    return this.idOf(this.next);
  }

  sorted() {
    return [...this.rows].sort(byKey);
  }

  /** The list in the server's order. */
  listed() {
    if (!this.server.shuffled) return this.sorted();
    const mix = (id: string) => [...id].reduce((h, c) => (h * 31 + c.charCodeAt(0)) % 1_000_003, 7);
    return [...this.rows].sort((a, b) => mix(a.id) - mix(b.id) || byKey(a, b));
  }

  apply(change: Change) {
    if (change.kind === 'enter') {
      this.rows.push({ id: this.newId(), k: change.k, movable: change.movable });
      return;
    }
    const movable = change.kind === 'move' ? this.rows.filter((r) => r.movable) : this.rows;
    if (!movable.length) return;
    const row = movable[change.pick % movable.length]!;
    this.disturbed.add(row.id);
    if (change.kind === 'leave') this.rows = this.rows.filter((r) => r !== row);
    else row.k = change.k;
  }

  page(page: number, asked: number) {
    this.requests.push({ page, perPage: asked });
    const perPage = this.server.own ?? Math.min(asked, this.server.cap ?? asked);
    const all = this.listed();
    const data = all.slice((page - 1) * perPage, page * perPage).map((r) => ({ ...r }));
    return { data, meta: this.server.noMeta ? {} : { total: all.length, page, per_page: perPage } };
  }
}

export const changeArb = (maxKey: number): fc.Arbitrary<Change> =>
  fc.oneof(
    fc.record({ kind: fc.constant('enter' as const), k: fc.nat(maxKey), movable: fc.boolean() }),
    fc.record({ kind: fc.constant('leave' as const), pick: fc.nat() }),
    fc.record({ kind: fc.constant('move' as const), pick: fc.nat(), k: fc.nat(maxKey) }),
  );

/** Starting rows, page size, server, and the changes made before each call after the first. */
export const scenarioArb = (o: { maxRows: number; maxPerPage: number; maxChanges: number }) =>
  fc
    .record({
      keys: fc.array(fc.record({ k: fc.nat(1000), movable: fc.boolean() }), { maxLength: o.maxRows }),
      perPage: fc.integer({ min: 1, max: o.maxPerPage }),
      capBelow: fc.option(fc.nat(o.maxPerPage), { nil: undefined }),
      noMeta: fc.boolean(),
      ownSize: fc.option(fc.integer({ min: 1, max: o.maxPerPage * 2 }), { nil: undefined, freq: 4 }),
      between: fc.array(fc.array(changeArb(1000), { maxLength: o.maxChanges }), { maxLength: 40 }),
    })
    .map((s) => {
      // A server without meta does not say its page size: capping would be a list the app cannot page well (its
      // limit, documented), so such a server gives what is asked.
      const cap = s.noMeta || s.capBelow === undefined ? undefined : Math.max(1, s.perPage - s.capBelow);
      // A server that keeps its own page size says it in meta.per_page (without meta the app cannot tell).
      const own = s.noMeta ? undefined : s.ownSize;
      return { ...s, server: { cap, own, noMeta: s.noMeta } satisfies Server };
    });

/**
 * What a transfer must give: every object present from the start to the end with its key unchanged, exactly once;
 * no object twice. `handed` is every id handed on, in order.
 */
export const checkTransfer = (start: Row[], list: ModelList, handed: string[]) => {
  const seen = new Map<string, number>();
  for (const id of handed) seen.set(id, (seen.get(id) ?? 0) + 1);
  const twice = [...seen].filter(([, n]) => n > 1).map(([id]) => id);
  const present = new Set(list.rows.map((r) => r.id));
  const stayed = start.filter((r) => present.has(r.id) && !list.disturbed.has(r.id)).map((r) => r.id);
  const missing = stayed.filter((id) => !seen.has(id));
  return { twice, missing };
};
