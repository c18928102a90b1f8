import type { z } from 'zod';
import { halalasToSar, sarKeyOf, withSar } from '../money';
import { zod } from '../zod';

/** Output field as Zapier's schema takes it. */
export interface OutputField {
  key: string;
  label: string;
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'datetime';
  list?: boolean;
  primary?: boolean;
}

type OutputType = NonNullable<OutputField['type']>;

/**
 * One field of a resource: its zod schema, its label and how Zapier shows it. The schema is built on first use
 * (a thunk), so loading the app's definition does not load zod.
 */
export interface Field<S extends z.ZodType = z.ZodType> {
  schema: () => S;
  /** The builder that made it: how the presenter reads a value without zod (`readerOf`). */
  kind: Kind;
  label: string;
  type: OutputType;
  money?: boolean;
  list?: boolean;
  important?: boolean;
  /** Fields of each element (arrays of objects) or of the object (nested objects). */
  children?: Record<string, Field>;
  childrenAreList?: boolean;
  /** A nested object that keeps members beyond its listed children. */
  looseChildren?: boolean;
}

/** The field builders of `f`; a delivery's value is read by kind on the hot path, and tests hold it to `schema`. */
export type Kind = 'id' | 'intId' | 'text' | 'int' | 'decimal' | 'bool' | 'texts' | 'any' | 'rows' | 'object';

type Shape<F extends Record<string, Field>> = { [K in keyof F]: ReturnType<F[K]['schema']> };

const opt = <S extends z.ZodType>(s: S) => s.nullish();

/** Field builders. Everything but an `id` may be absent or null: the interfaces omit what they do not know. */
export const f = {
  id: (label: string) => ({
    kind: 'id' as const,
    schema: () => zod().string().min(1),
    label,
    type: 'string' as const,
    important: true,
  }),
  intId: (label: string) => ({
    kind: 'intId' as const,
    schema: () => zod().number().int(),
    label,
    type: 'integer' as const,
    important: true,
  }),
  text: (label: string, important = false) => ({
    kind: 'text' as const,
    schema: () => opt(zod().string()),
    label,
    type: 'string' as const,
    important,
  }),
  int: (label: string, important = false) => ({
    kind: 'int' as const,
    schema: () => opt(zod().number().int()),
    label,
    type: 'integer' as const,
    important,
  }),
  /** Quantities the cashier sends as decimal strings (numbers tolerated). */
  decimal: (label: string) => ({
    kind: 'decimal' as const,
    schema: () => opt(zod().union([zod().string(), zod().number()]).transform(String)),
    label,
    type: 'string' as const,
  }),
  bool: (label: string) => ({
    kind: 'bool' as const,
    schema: () => opt(zod().boolean()),
    label,
    type: 'boolean' as const,
  }),
  datetime: (label: string, important = false) => ({
    kind: 'text' as const,
    schema: () => opt(zod().string()),
    label,
    type: 'datetime' as const,
    important,
  }),
  date: (label: string) => ({
    kind: 'text' as const,
    schema: () => opt(zod().string()),
    label,
    type: 'string' as const,
  }),
  /** Integer halalas; the output also shows a `_sar` sibling with two decimals. */
  halalas: (label: string, important = false) => ({
    kind: 'int' as const,
    schema: () => opt(zod().number().int()),
    label,
    type: 'integer' as const,
    money: true,
    important,
  }),
  texts: (label: string) => ({
    kind: 'texts' as const,
    schema: () => opt(zod().array(zod().string())),
    label,
    type: 'string' as const,
    list: true,
  }),
  any: (label: string) => ({
    kind: 'any' as const,
    schema: () => zod().unknown().optional(),
    label,
    type: 'string' as const,
  }),
  /** An array of objects whose fields are whitelisted like the resource's own. */
  rows: <C extends Record<string, Field>>(label: string, children: C) => ({
    kind: 'rows' as const,
    schema: () => opt(zod().array(zod().object(shapeOf(children)))),
    label,
    type: 'string' as const,
    children: children as Record<string, Field>,
    childrenAreList: true,
  }),
  /** A nested object; `loose` keeps members beyond the listed ones (cashier records the spec leaves open). */
  object: <C extends Record<string, Field>>(label: string, children: C, loose = false) => ({
    kind: 'object' as const,
    schema: () => opt(loose ? zod().looseObject(shapeOf(children)) : zod().object(shapeOf(children))),
    label,
    type: 'string' as const,
    children: children as Record<string, Field>,
    looseChildren: loose,
  }),
};

export function shapeOf<F extends Record<string, Field>>(fields: F): Shape<F> {
  const shape: Record<string, z.ZodType> = {};
  for (const [k, v] of Object.entries(fields)) shape[k] = v.schema();
  return shape as Shape<F>;
}

/**
 * Zapier output fields: money gets its SAR sibling, rows become `parent[]child`, objects `parent__child`.
 * Important fields come first (each group in the table's order), so the mapping list opens with what Zaps use most.
 * One array filled in place: every resource's fields are made at every load.
 */
export const outputFieldsOf = (
  fields: Record<string, Field>,
  prefix = '',
  out: OutputField[] = [],
): OutputField[] => {
  const keys = Object.keys(fields);
  for (let pass = 0; pass < 2; pass += 1) {
    for (const key of keys) {
      const field = fields[key]!;
      if (!field.important !== (pass === 1)) continue;
      const full = `${prefix}${key}`;
      if (field.children) {
        outputFieldsOf(field.children, field.childrenAreList ? `${full}[]` : `${full}__`, out);
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

export interface Resource<F extends Record<string, Field>, Extra extends object = object> {
  noun: string;
  /** The zod schema (built on first use). */
  readonly schema: z.ZodObject<Shape<F>>;
  fields: F;
  /** Whether members beyond the listed fields are kept. */
  loose: boolean;
  /** What the item gains beyond its fields (e.g. a stock level's composite id). */
  decorate?(parsed: Parsed<F>): Extra;
  outputFields: OutputField[];
  /** What a Zap sees: the whitelisted object with its `_sar` siblings (and `id` where the object has none). */
  present(data: unknown): Item<F> & Extra;
  /** The same for data written in this codebase (samples): no parsing, so zod stays unloaded. */
  presentAuthored(data: Record<string, unknown>): Item<F> & Extra;
  sample: Item<F> & Extra;
}

export type Parsed<F extends Record<string, Field>> = z.infer<z.ZodObject<Shape<F>>>;
export type Item<F extends Record<string, Field>> = Parsed<F> & Record<string, unknown>;

/**
 * How deep a received object may nest. The documented shapes go three levels down (a Z-report's sales total);
 * members the cashier adds beyond them are kept to this depth and cut below it, so no delivery can make the app
 * (or Zapier, serialising the item) recurse without end.
 */
export const MAX_DEPTH = 10;

/**
 * Members of received data that are never copied, at any depth. JSON.parse makes a `"__proto__"` member an own
 * key, and assigning it to a plain object replaces the object's prototype: its members would then be inherited
 * (a `branch_id` passing a Branch filter the item does not have). `constructor` and `prototype` would shadow what
 * code and Zapier expect of a plain object. No field of either interface is named so.
 */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The keys of received data that may be copied. */
const safeKeys = (data: object): string[] => Object.keys(data).filter((k) => !UNSAFE_KEYS.has(k));

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** The SAR sibling of each integer `*_halalas` among `keys`, set last so a stale `_sar` never wins. */
const addSiblings = (out: Record<string, unknown>, keys: readonly string[]) => {
  for (const k of keys) {
    const sar = sarKeyOf(k);
    const v = out[k];
    if (sar !== undefined && typeof v === 'number' && Number.isInteger(v)) out[sar] = halalasToSar(v);
  }
};

/**
 * A member kept as it came (a loose object's extra member, an `any` field) at nesting level `level` (the item's own
 * members are level 1): a copy with objects and arrays from level MAX_DEPTH down replaced by null, and the SAR
 * sibling of every integer `*_halalas` added, in one walk. So no delivery can make the app (or Zapier, serialising
 * the item) recurse without end.
 */
const keep = (value: unknown, level: number): unknown => {
  if (!value || typeof value !== 'object') return value;
  if (level >= MAX_DEPTH) return null;
  if (Array.isArray(value)) return value.map((v) => keep(v, level + 1));
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  const keys = safeKeys(source);
  for (const k of keys) out[k] = keep(source[k], level + 1);
  addSiblings(out, keys);
  return out;
};

/** Reads one member's value at its nesting level; a value that fails the field's type becomes null. */
type Reader = (value: unknown, level: number) => unknown;

const nullish = (v: unknown) => v === null || v === undefined;

/**
 * Each kind's type check, the same as its zod schema in `f`: test/present.test.ts holds the presenter to the
 * schema on every recorded delivery and on generated data.
 */
const readerOf = (field: Field, tier: Tier): Reader => {
  switch (field.kind) {
    case 'id':
      return (v) => (typeof v === 'string' && v.length > 0 ? v : null);
    case 'intId':
      return (v) => (Number.isSafeInteger(v) ? v : null);
    case 'text':
      return (v) => (nullish(v) || typeof v === 'string' ? v : null);
    case 'int':
      return (v) => (nullish(v) || Number.isSafeInteger(v) ? v : null);
    case 'decimal':
      return (v) =>
        nullish(v) || typeof v === 'string'
          ? v
          : typeof v === 'number' && Number.isFinite(v)
            ? String(v)
            : null;
    case 'bool':
      return (v) => (nullish(v) || typeof v === 'boolean' ? v : null);
    case 'texts':
      return (v) =>
        nullish(v)
          ? v
          : Array.isArray(v) && v.every((s) => typeof s === 'string')
            ? [...(v as string[])]
            : null;
    case 'any':
      return keep;
    case 'rows': {
      const row = tier(field.children!, false);
      return (v, level) => {
        if (!Array.isArray(v)) return nullish(v) ? v : null;
        const out: Array<Record<string, unknown>> = [];
        for (const r of v) if (isObject(r)) out.push(row(r, level + 1));
        return out;
      };
    }
    case 'object': {
      const read = tier(field.children!, !!field.looseChildren);
      return (v, level) => (isObject(v) ? read(v, level) : nullish(v) ? v : null);
    }
  }
};

/** The type checks of `readerOf` as expressions over `v`, for the kinds whose check is one expression. */
const INLINE: Partial<Record<Kind, string>> = {
  id: "(typeof v === 'string' && v.length > 0 ? v : null)",
  intId: '(Number.isSafeInteger(v) ? v : null)',
  text: "(v == null || typeof v === 'string' ? v : null)",
  int: '(v == null || Number.isSafeInteger(v) ? v : null)',
  bool: "(v == null || typeof v === 'boolean' ? v : null)",
};

type ObjectReader = (data: Record<string, unknown>, level: number) => Record<string, unknown>;

/** Makes the reader of an object with these fields (and of its rows and nested objects, the same way). */
type Tier = (fields: Record<string, Field>, loose: boolean) => ObjectReader;

const hasOwn = Object.hasOwn;

/**
 * The first tier of the presenter: the same pass as `objectReader`'s compiled one, member by member in the same
 * order with the same checks, but a loop over the field table, so nothing is compiled for a resource's first items.
 * A cold container's first delivery of each kind pays no code generation; a resource whose
 * items keep coming moves to the compiled tier (`present`), which is what the steady state runs. test/present.test.ts
 * holds both to the zod schemas and to each other, key order included.
 */
const tableReader: Tier = (fields, loose) => {
  const members = Object.entries(fields).map(([key, field]) => ({
    key,
    // A key Object.prototype also has (`constructor`…) is looked up as the object's own only.
    own: key in Object.prototype,
    read: readerOf(field, tableReader),
  }));
  const siblings = Object.keys(fields).flatMap((key) => {
    const sar = sarKeyOf(key);
    return sar === undefined ? [] : [{ key, sar }];
  });
  return (data, level) => {
    const out: Record<string, unknown> = {};
    for (const { key, own, read } of members) {
      const v = own ? (hasOwn(data, key) ? data[key] : undefined) : data[key];
      if (v !== undefined || hasOwn(data, key)) out[key] = read(v, level + 1);
    }
    let extra: string[] | undefined;
    if (loose) {
      for (const k of safeKeys(data)) {
        if (!hasOwn(fields, k)) {
          out[k] = keep(data[k], level + 1);
          (extra ??= []).push(k);
        }
      }
    }
    for (const { key, sar } of siblings) {
      const v = out[key];
      if (typeof v === 'number' && Number.isInteger(v)) out[sar] = halalasToSar(v);
    }
    if (extra !== undefined) addSiblings(out, extra);
    return out;
  };
};

/**
 * The presenter of an object with these fields, built once from the field table: one pass that whitelists the
 * members (keeps the others where the object is loose), reads each by its kind, and adds the SAR siblings. Absent
 * members stay absent; what fails its type becomes null; rows and nested objects are read the same way.
 *
 * It is compiled to a function with one statement a member (the keys are the field table's, never a delivery's), so
 * each item is built with constant keys in one shape: the hot path of a delivery with thousands of lines.
 */
const objectReader: Tier = (fields, loose) => {
  const readers: Reader[] = [];
  const lines = Object.entries(fields).map(([key, field]) => {
    const k = JSON.stringify(key);
    // A key Object.prototype also has (`constructor`…) is looked up as the object's own only.
    const get = key in Object.prototype ? `hasOwn(data, ${k}) ? data[${k}] : undefined` : `data[${k}]`;
    const inline = INLINE[field.kind];
    const read = inline ?? `R[${readers.push(readerOf(field, objectReader)) - 1}](v, level + 1)`;
    return `v = ${get}; if (v !== undefined || hasOwn(data, ${k})) out[${k}] = ${read};`;
  });
  // The members a loose object keeps beyond its fields, after them; the names of those kept in `extra`.
  const extras = loose
    ? [
        'let extra;',
        'for (const k of safeKeys(data)) if (!hasOwn(fields, k)) { out[k] = keep(data[k], level + 1); (extra ??= []).push(k); }',
      ]
    : [];
  // The SAR siblings last, in the order of the members (the fields', then the extra ones').
  const siblings = Object.keys(fields).flatMap((key) => {
    const sar = sarKeyOf(key);
    if (sar === undefined) return [];
    const k = JSON.stringify(key);
    return [
      `v = out[${k}]; if (typeof v === 'number' && Number.isInteger(v)) out[${JSON.stringify(sar)}] = sar(v);`,
    ];
  });
  if (loose) siblings.push('if (extra !== undefined) addSiblings(out, extra);');
  const body = ['const out = {};', 'let v;', ...lines, ...extras, ...siblings, 'return out;'].join('\n');
  const make = new Function(
    'hasOwn',
    'R',
    'sar',
    'keep',
    'addSiblings',
    'fields',
    'safeKeys',
    `return function read(data, level) {\n${body}\n};`,
  );
  return make(hasOwn, readers, halalasToSar, keep, addSiblings, fields, safeKeys) as ObjectReader;
};

/**
 * Items a resource presents with the field-table tier before its presenter is compiled: a cold container's first
 * delivery of each kind compiles nothing, a stream of deliveries is on the compiled tier after a few.
 */
export const COMPILE_AFTER = 8;

/** Both tiers of a resource's presenter, for tests: the same output for the same data, key order included. */
export const presenterTiers = (fields: Record<string, Field>, loose: boolean) => ({
  table: tableReader(fields, loose),
  compiled: objectReader(fields, loose),
});

export const defineResource = <F extends Record<string, Field>, Extra extends object = object>(def: {
  noun: string;
  fields: F;
  sample: unknown;
  /** Fields that stay beyond the listed ones (cashier records whose full field lists are not shown). */
  loose?: boolean;
  /** Adds what the object lacks, e.g. the composite `id` of a stock level. */
  decorate?: (parsed: Parsed<F>) => Extra;
  /** Output fields of what `decorate` adds. */
  decoratedFields?: OutputField[];
}): Resource<F, Extra> => {
  let schema: z.ZodObject<Shape<F>> | undefined;
  const schemaOf = (): z.ZodObject<Shape<F>> => {
    if (!schema) {
      const shape = shapeOf(def.fields);
      schema = (def.loose ? zod().looseObject(shape) : zod().object(shape)) as z.ZodObject<Shape<F>>;
    }
    return schema;
  };
  // Made on the first item, so loading the app's definition makes none: the field-table tier for the first
  // COMPILE_AFTER items, then the compiled one.
  let read: ObjectReader | undefined;
  let items = 0;
  /**
   * Never throws, whatever the data holds: an item that reached the app (a signed delivery, the answer to a write
   * that happened) is always shown, with what does not fit its type as null rather than lost. One pass over the
   * data, without zod (see objectReader).
   */
  const present = (data: unknown): Item<F> & Extra => {
    if (items <= COMPILE_AFTER) {
      items += 1;
      if (items === 1) read = tableReader(def.fields, !!def.loose);
      else if (items > COMPILE_AFTER) read = objectReader(def.fields, !!def.loose);
    }
    const out = read!(isObject(data) ? data : {}, 0);
    if (!def.decorate) return out as Item<F> & Extra;
    // The decoration wins: a stock level's id is always `<branch_id>:<variant_id>` (CONTRACT §2).
    return Object.assign(out, withSar(def.decorate(out as Parsed<F>))) as Item<F> & Extra;
  };
  /**
   * Authored data (samples) shown without loading zod: the top-level whitelist applied, decorations and SAR
   * siblings added. Tests parse every sample with the schema, so both paths agree.
   */
  const presentAuthored = (data: Record<string, unknown>): Item<F> & Extra => {
    let kept = data;
    if (!def.loose) {
      kept = {};
      for (const k of Object.keys(data)) if (k in def.fields) kept[k] = data[k];
    }
    // withSar makes the copy that is shown (every resource's sample is made at every load).
    return withSar(def.decorate ? { ...kept, ...def.decorate(kept as Parsed<F>) } : kept) as Item<F> & Extra;
  };
  return {
    noun: def.noun,
    get schema() {
      return schemaOf();
    },
    fields: def.fields,
    loose: !!def.loose,
    ...(def.decorate ? { decorate: def.decorate } : {}),
    outputFields: [...(def.decoratedFields ?? []), ...outputFieldsOf(def.fields)],
    present,
    presentAuthored,
    sample: presentAuthored(def.sample as Record<string, unknown>),
  };
};
