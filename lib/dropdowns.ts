import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineTrigger } from 'zapier-platform-core';
import { SETTINGS } from './config';
import { clientFor, type Query } from './http';
import type { Api } from './interfaces';

export interface Option {
  id: string;
  label: string;
}

export interface DropdownDef {
  key: string;
  noun: string;
  /** For the dropdown's label, when the noun does not just take an "s" ("Branches"). */
  plural?: string;
  api: Api;
  /**
   * The list endpoint. Absent when the interface lists no such objects (cashier orders, receipts, till
   * sessions): the dropdown then offers nothing, and the Zap builder maps the id from an earlier step or adds the
   * search step Zapier offers beside it (Zapier checks D004, D014).
   */
  path?: string;
  /** Extra query of the list call (e.g. only upcoming appointments). */
  query?: () => Query;
  /** The options one page of objects yields; by default one per object, labelled by `label`. */
  options?: (rows: Array<Record<string, unknown>>) => Option[];
  label?: (o: Record<string, unknown>) => string;
  /** false for lists derived from another resource, whose pages would repeat options. */
  paged?: boolean;
}

/** One page of a dropdown: Zapier counts pages from 0, the interfaces from 1. */
export const dropdownPerform =
  (def: DropdownDef) =>
  async (z: ZObject, bundle: Bundle): Promise<Option[]> => {
    if (!def.path) return [];
    const page = def.paged === false ? 1 : Number(bundle.meta?.page ?? 0) + 1;
    if (def.paged === false && Number(bundle.meta?.page ?? 0) > 0) return [];
    const { data } = await clientFor(z, bundle, def.api).page<Record<string, unknown>>(def.path, {
      ...def.query?.(),
      page,
      per_page: SETTINGS.maxPerPage,
    });
    const rows = data.filter((o): o is Record<string, unknown> => !!o && typeof o === 'object');
    if (def.options) return def.options(rows);
    const label = def.label ?? ((o) => String(o.name ?? o.id));
    return rows.map((o) => ({ id: String(o.id), label: label(o) }));
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
      canPaginate: !!def.path && def.paged !== false,
      perform: dropdownPerform(def),
      sample: { id: '1', label: `${def.noun} 1` },
      outputFields: [
        { key: 'id', label: `${def.noun} ID`, type: 'string' },
        { key: 'label', label: def.noun, type: 'string' },
      ],
    },
  });
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
