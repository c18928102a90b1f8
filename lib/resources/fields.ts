import { sarKeyOf } from '../money';
import type { OutputField } from '../output-field';

/*
 * A resource's field table: each field's label, how Zapier shows it, and its kind, the type rule the presenter
 * (`./present.ts`) applies to it. The table is data: the presenter reads it, `outputFieldsOf` lists it for Zapier,
 * and the types of a presented item are derived from it (`FieldValues`), so a field is declared once for all three.
 */

export type { OutputField };

type OutputType = NonNullable<OutputField['type']>;

/**
 * The type rule of a field's value. `decimal` is text that may come as a number (the cashier's quantities),
 * `strings` an array of text, `any` a value kept as it came, `rows` an array of objects and `object` a nested
 * object, both with fields of their own.
 */
export type Kind = 'string' | 'integer' | 'decimal' | 'boolean' | 'strings' | 'any' | 'rows' | 'object';

/** One field of a resource. */
export interface Field {
  kind: Kind;
  label: string;
  type: OutputType;
  /** Never absent, null or empty (ids); any other field may be absent or null. */
  required?: boolean;
  /** Integer halalas, shown beside a `_sar` sibling. */
  money?: boolean;
  list?: boolean;
  important?: boolean;
  /** Fields of each element (`rows`) or of the object (`object`). */
  children?: Fields;
  /** A nested object that keeps members beyond its listed children. */
  looseChildren?: boolean;
}

export type Fields = Record<string, Field>;

type Nullable<F, T> = F extends { required: true } ? T : T | null | undefined;

/** The type of a field's presented value, from its kind (as the presenter's rule for that kind gives it). */
type ValueOf<F> = F extends { kind: 'rows'; children: infer C extends Fields }
  ? Array<FieldValues<C>> | null | undefined
  : F extends { kind: 'object'; children: infer C extends Fields; looseChildren: true }
    ? (FieldValues<C> & Record<string, unknown>) | null | undefined
    : F extends { kind: 'object'; children: infer C extends Fields }
      ? FieldValues<C> | null | undefined
      : F extends { kind: 'any' }
        ? unknown
        : F extends { kind: 'integer' }
          ? Nullable<F, number>
          : F extends { kind: 'boolean' }
            ? Nullable<F, boolean>
            : F extends { kind: 'strings' }
              ? Nullable<F, string[]>
              : Nullable<F, string>;

type MayBeAbsent<F extends Fields> = {
  [K in keyof F]: undefined extends ValueOf<F[K]> ? K : never;
}[keyof F];

/**
 * A presented object with these fields: the fields that may be absent are optional. Of a table not known (any
 * resource), any members.
 */
export type FieldValues<F extends Fields> = string extends keyof F
  ? Record<string, unknown>
  : { [K in Exclude<keyof F, MayBeAbsent<F>>]: ValueOf<F[K]> } & { [K in MayBeAbsent<F>]?: ValueOf<F[K]> };

/** Field builders. Everything but an `id` may be absent or null: the interfaces omit what they do not know. */
export const f = {
  id: (label: string) => ({
    kind: 'string' as const,
    required: true as const,
    label,
    type: 'string' as const,
    important: true,
  }),
  intId: (label: string) => ({
    kind: 'integer' as const,
    required: true as const,
    label,
    type: 'integer' as const,
    important: true,
  }),
  text: (label: string, important = false) => ({
    kind: 'string' as const,
    label,
    type: 'string' as const,
    important,
  }),
  int: (label: string, important = false) => ({
    kind: 'integer' as const,
    label,
    type: 'integer' as const,
    important,
  }),
  /** Quantities the cashier sends as decimal strings (numbers tolerated, shown as text). */
  decimal: (label: string) => ({ kind: 'decimal' as const, label, type: 'string' as const }),
  bool: (label: string) => ({ kind: 'boolean' as const, label, type: 'boolean' as const }),
  datetime: (label: string, important = false) => ({
    kind: 'string' as const,
    label,
    type: 'datetime' as const,
    important,
  }),
  date: (label: string) => ({ kind: 'string' as const, label, type: 'string' as const }),
  /** Integer halalas; the output also shows a `_sar` sibling with two decimals. */
  halalas: (label: string, important = false) => ({
    kind: 'integer' as const,
    label,
    type: 'integer' as const,
    money: true,
    important,
  }),
  texts: (label: string) => ({
    kind: 'strings' as const,
    label,
    type: 'string' as const,
    list: true,
  }),
  any: (label: string) => ({ kind: 'any' as const, label, type: 'string' as const }),
  /** An array of objects whose fields are whitelisted like the resource's own. */
  rows: <C extends Fields>(label: string, children: C) => ({
    kind: 'rows' as const,
    label,
    type: 'string' as const,
    children,
  }),
  /** A nested object; `loose` keeps members beyond the listed ones (cashier records the spec leaves open). */
  object: <C extends Fields, L extends boolean = false>(label: string, children: C, loose?: L) => ({
    kind: 'object' as const,
    label,
    type: 'string' as const,
    children,
    looseChildren: (loose ?? false) as L,
  }),
};

/**
 * Zapier output fields: money gets its SAR sibling, rows become `parent[]child`, objects `parent__child`.
 * Important fields come first (each group in the table's order), so the mapping list opens with what Zaps use most.
 * One array filled in place: every resource's fields are made at every load.
 */
export const outputFieldsOf = (fields: Fields, prefix = '', out: OutputField[] = []): OutputField[] => {
  const keys = Object.keys(fields);
  for (let pass = 0; pass < 2; pass += 1) {
    for (const key of keys) {
      const field = fields[key]!;
      if (!field.important !== (pass === 1)) continue;
      const full = `${prefix}${key}`;
      if (field.children) {
        outputFieldsOf(field.children, field.kind === 'rows' ? `${full}[]` : `${full}__`, out);
        continue;
      }
      const base: OutputField = { key: full, label: field.label, type: field.type };
      if (field.list) base.list = true;
      if (!field.money) {
        out.push(base);
        continue;
      }
      out.push({ key: sarKeyOf(full) ?? full, label: `${field.label} (SAR)`, type: 'string' });
      base.label = `${field.label} (Halalas)`;
      out.push(base);
    }
  }
  return out;
};
