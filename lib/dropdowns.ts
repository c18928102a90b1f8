import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineTrigger } from 'zapier-platform-core';
import { SETTINGS } from './config';
import { clientFor } from './http';
import type { Api } from './interfaces';

export interface DropdownDef {
  key: string;
  noun: string;
  api: Api;
  path: string;
  /** The text a Zap builder reads in the dropdown. */
  label: (o: Record<string, unknown>) => string;
}

/** One page of a dropdown: Zapier counts pages from 0, the interfaces from 1. */
export const dropdownPerform = (def: DropdownDef) => async (z: ZObject, bundle: Bundle) => {
  const page = Number(bundle.meta?.page ?? 0) + 1;
  const { data } = await clientFor(z, bundle, def.api).page<Record<string, unknown>>(def.path, {
    page,
    per_page: SETTINGS.maxPerPage,
  });
  return data.map((o) => ({ ...o, id: String(o.id), label: def.label(o) }));
};

/** A hidden polling trigger that feeds a dynamic dropdown, with "load more" paging. */
export const dropdownTrigger = (def: DropdownDef) =>
  defineTrigger({
    key: def.key,
    noun: def.noun,
    display: {
      label: `List ${def.noun}s`,
      description: `Lists ${def.noun.toLowerCase()}s for dropdowns.`,
      hidden: true,
    },
    operation: {
      type: 'polling',
      canPaginate: true,
      perform: dropdownPerform(def),
      sample: { id: 1, label: `${def.noun} 1` },
      outputFields: [
        { key: 'id', label: `${def.noun} ID`, type: 'string' },
        { key: 'label', label: def.noun, type: 'string' },
      ],
    },
  });
