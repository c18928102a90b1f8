import { createHash } from 'node:crypto';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineTrigger } from 'zapier-platform-core';
import { SETTINGS } from './config';
import { clientFor, isLastPage, unwrapOne, type Query } from './http';
import type { Api } from './partner-apis';
import { CHOICES_READ } from './keys';
import { plainText, shortened } from './plain-text';

export interface Option {
  id: string;
  label: string;
}

/** The values of the step's other inputs a list reads, by key: only those given as plain ids. */
export type Given = Readonly<Record<string, string>>;

/** A list of options, read from one interface: what a dropdown offers, however Zapier asks for it. */
export interface ListDef {
  noun: string;
  /** For the dropdown's label, when the noun does not just take an "s" ("Branches"). */
  plural?: string;
  api: Api;
  /**
   * The list endpoint. Absent when the interface lists no such objects (cashier orders, receipts, till
   * sessions): the dropdown then offers nothing, and the Zap builder maps the id from an earlier step or adds the
   * search step Zapier offers beside it (Zapier checks D004, D014).
   */
  path?: string | ((given: Given) => string);
  /** The path answers one object, whose options `options` makes (an item's variants): one page, no paging. */
  one?: boolean;
  /** Extra query of the list call (e.g. only upcoming appointments, only one branch's). */
  query?: (given: Given) => Query;
  /** The options one page of objects yields; by default one per object, labelled by `label`. */
  options?: (rows: Array<Record<string, unknown>>) => Option[];
  label?: (o: Record<string, unknown>) => string;
  /** false for lists derived from another resource, whose pages would repeat options. */
  paged?: boolean;
}

/** A list behind a hidden dropdown trigger. */
export interface DropdownDef extends ListDef {
  key: string;
}

const isRecord = (o: unknown): o is Record<string, unknown> => !!o && typeof o === 'object';

/** The longest option label shown: a line a Zap builder reads at a glance. */
export const LABEL_MAX = 100;

/**
 * A label as a dropdown shows it: the interface's text on one line, without control or bidirectional characters
 * (a right-to-left override would turn the rest of the line around), at most LABEL_MAX characters with an
 * ellipsis; the id when nothing readable is left.
 */
export const cleanLabel = (label: string, id: string): string =>
  shortened(plainText(label.slice(0, 4 * LABEL_MAX)), LABEL_MAX) || id;

/**
 * A row of a list page as paging compares it: a short hash of its id (of the whole row when it has none), so a
 * token can carry every row already offered.
 */
const rowMark = (row: Record<string, unknown>): string => {
  const identity =
    typeof row.id === 'string' || typeof row.id === 'number' ? String(row.id) : JSON.stringify(row);
  return createHash('sha256').update(identity).digest('base64url').slice(0, 8);
};

/** One page of a list as read: its options, its rows' marks, and whether the interface shows it is the last. */
interface ReadPage {
  options: Option[];
  rows: string[];
  last: boolean;
}

/** One page of a list (pages count from 1, as the interfaces do), and whether the interface shows it is the last. */
const readPage = async (
  list: ListDef,
  z: ZObject,
  bundle: Bundle,
  page: number,
  given: Given,
): Promise<ReadPage> => {
  if (!list.path) return { options: [], rows: [], last: true };
  const client = clientFor(z, bundle, list.api);
  const where = typeof list.path === 'function' ? list.path(given) : list.path;
  let rows: Array<Record<string, unknown>>;
  let last = true;
  if (list.one) {
    rows = [unwrapOne(await client.get(where))];
  } else {
    const { data, meta } = await client.page<unknown>(where, {
      ...list.query?.(given),
      page,
      per_page: SETTINGS.maxPerPage,
    });
    rows = data.filter(isRecord);
    last = isLastPage(page, data, meta);
  }
  const label = list.label ?? ((o) => String(o.name ?? o.id));
  const options = list.options
    ? list.options(rows)
    : rows.map((o) => ({ id: String(o.id), label: label(o) }));
  return {
    options: options.map((o) => ({ id: o.id, label: cleanLabel(o.label, o.id) })),
    rows: rows.map(rowMark),
    last,
  };
};

/** Whether a page offers nothing new: no rows, or only rows an earlier page had (an interface that ignores `page`). */
const nothingNew = (rows: readonly string[], before: ReadonlySet<string>): boolean =>
  rows.every((row) => before.has(row));

/**
 * One page of a dropdown trigger: Zapier counts pages from 0, the interfaces from 1. Zapier asks for more until a
 * page is empty, and a trigger keeps nothing between pages: a later page is compared with the one before it, and
 * one that repeats it (an interface that ignores `page`) ends the list.
 */
export const dropdownPerform =
  (def: ListDef) =>
  async (z: ZObject, bundle: Bundle): Promise<Option[]> => {
    const zapierPage = Number(bundle.meta?.page ?? 0);
    if (def.paged === false && zapierPage > 0) return [];
    const page = def.paged === false ? 1 : zapierPage + 1;
    const read = await readPage(def, z, bundle, page, {});
    if (page === 1 || !read.rows.length) return read.options;
    const before = await readPage(def, z, bundle, page - 1, {});
    return nothingNew(read.rows, new Set(before.rows)) ? [] : read.options;
  };

/** A hidden polling trigger that feeds a dynamic dropdown, with "load more" paging. */
export const dropdownTrigger = (def: DropdownDef) => {
  const plural = def.plural ?? `${def.noun}s`;
  return defineTrigger({
    key: def.key,
    noun: def.noun,
    display: {
      label: `List ${plural}`,
      description: def.path
        ? `Triggers when a Zap step's ${def.noun} dropdown opens: lists ${plural.toLowerCase()} from the ${def.api} interface.`
        : `Triggers when a Zap step's ${def.noun} dropdown opens: offers nothing, as the ${def.api} interface has no list of recent ${plural.toLowerCase()}; the ${def.noun.toLowerCase()} is mapped from an earlier step.`,
      hidden: true,
    },
    operation: {
      type: 'polling',
      canPaginate: !!def.path && def.paged !== false && !def.one,
      perform: dropdownPerform(def),
      sample: { id: '1', label: `${def.noun} 1` },
      outputFields: [
        { key: 'id', label: `${def.noun} ID`, type: 'string' },
        { key: 'label', label: def.noun, type: 'string' },
      ],
    },
  });
};

/** What a `choices.perform` answers: one page of options, and the token of the next (null on the last). */
export interface ChoicesPage {
  results: Option[];
  paging_token: string | null;
}

/** Which of the step's other inputs a dropdown's choices follow. */
export interface Cascade {
  /** Filled first: Zapier enables the field once they are, and clears it when one of them changes. */
  dependsOn?: readonly string[];
  /** Optional: they narrow the choices when given, and the field still offers choices without them. */
  narrowedBy?: readonly string[];
}

/*
 * A parent's value narrows the choices only when it is a plain id: one mapped from an earlier step arrives in the
 * editor as its `{{…}}` reference, and a typed name ("Olaya") is no id; either leaves the list whole rather than
 * ask the interface for a branch called "{{12__branch_id}}".
 */
const PLAIN_ID = /^[A-Za-z0-9_-]{1,100}$/;

const givenOf = (bundle: Bundle, keys: readonly string[]): Given => {
  const out: Record<string, string> = {};
  for (const key of keys) {
    const v: unknown = bundle.inputData?.[key];
    const s = typeof v === 'number' ? String(v) : typeof v === 'string' ? v.trim() : '';
    if (PLAIN_ID.test(s)) out[key] = s;
  }
  return out;
};

/** Marks of the rows a token remembers at most: far more than anyone pages through, and a token stays small. */
const TOKEN_ROWS_MAX = 5_000;

interface Token {
  page: number;
  /** Marks of the rows earlier pages held: a page with none new ends the list, whatever meta says. */
  rows?: string[];
  /** Options already offered, for derived lists whose pages repeat them. */
  seen?: string[];
}

const strings = (v: unknown): string[] | undefined => (Array.isArray(v) ? v.map(String) : undefined);

const tokenOf = (raw: unknown): Token => {
  if (typeof raw !== 'string' || !raw) return { page: 1 };
  try {
    const t = JSON.parse(raw) as Partial<Token>;
    const page = Number.isSafeInteger(t.page) && t.page! > 1 ? t.page! : 1;
    return { page, rows: strings(t.rows), seen: strings(t.seen) };
  } catch {
    return { page: 1 };
  }
};

/**
 * A dynamic dropdown on core's `choices: { perform }`: the field members that make one (spread into the input's
 * declaration), its choices read from `list` as the cascade's inputs are given. `list` may be chosen by what is
 * given (an item's own variants once the item is known, every variant before). A derived list (`paged: false`)
 * pages too: each page offers only options no earlier page offered.
 */
export const choicesOf = (list: ListDef | ((given: Given) => ListDef), cascade: Cascade = {}) => {
  const dependsOn = [...(cascade.dependsOn ?? [])];
  const reads = [...dependsOn, ...(cascade.narrowedBy ?? [])];
  const perform = async (z: ZObject, bundle: Bundle): Promise<ChoicesPage> => {
    const given = givenOf(bundle, reads);
    const def = typeof list === 'function' ? list(given) : list;
    const token = tokenOf((bundle.meta as { paging_token?: unknown } | undefined)?.paging_token);
    const { options, rows, last } = await readPage(def, z, bundle, token.page, given);
    const before = new Set(token.rows);
    // An interface that ignores `page` answers page 1 again and again: a page with no row new ends the list.
    if (token.page > 1 && nothingNew(rows, before)) return { results: [], paging_token: null };
    const seen = new Set(token.seen);
    const results = def.paged === false ? options.filter((o) => !seen.has(o.id)) : options;
    const next: Token = {
      page: token.page + 1,
      rows: [...before, ...rows.filter((r) => !before.has(r))].slice(-TOKEN_ROWS_MAX),
      ...(def.paged === false ? { seen: [...seen, ...results.map((o) => o.id)] } : {}),
    };
    return { results, paging_token: last ? null : JSON.stringify(next) };
  };
  return {
    choices: { perform },
    ...(dependsOn.length ? { dependsOn } : {}),
    ...(reads.length ? { meta: { [CHOICES_READ]: reads.join(' ') } } : {}),
  };
};

/** Options from the distinct values of one field of a list (clinic lists that have no endpoint of their own). */
export const distinctOptions =
  (field: string, label: (value: string, count: number) => string) =>
  (rows: Array<Record<string, unknown>>): Option[] => {
    const counts = new Map<string, number>();
    for (const row of rows) {
      const v = row[field];
      if (v !== undefined && v !== null && v !== '') counts.set(String(v), (counts.get(String(v)) ?? 0) + 1);
    }
    return [...counts.entries()]
      .sort((a, b) => b[1] - a[1])
      .map(([value, count]) => ({ id: value, label: label(value, count) }));
  };
