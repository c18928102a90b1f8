import type { z } from 'zod';
import { withSar } from '../money';
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

type Shape<F extends Record<string, Field>> = { [K in keyof F]: ReturnType<F[K]['schema']> };

const opt = <S extends z.ZodType>(s: S) => s.nullish();

/** Field builders. Everything but an `id` may be absent or null: the interfaces omit what they do not know. */
export const f = {
  id: (label: string) => ({
    schema: () => zod().string().min(1),
    label,
    type: 'string' as const,
    important: true,
  }),
  intId: (label: string) => ({
    schema: () => zod().number().int(),
    label,
    type: 'integer' as const,
    important: true,
  }),
  text: (label: string, important = false) => ({
    schema: () => opt(zod().string()),
    label,
    type: 'string' as const,
    important,
  }),
  int: (label: string, important = false) => ({
    schema: () => opt(zod().number().int()),
    label,
    type: 'integer' as const,
    important,
  }),
  /** Quantities the cashier sends as decimal strings (numbers tolerated). */
  decimal: (label: string) => ({
    schema: () => opt(zod().union([zod().string(), zod().number()]).transform(String)),
    label,
    type: 'string' as const,
  }),
  bool: (label: string) => ({ schema: () => opt(zod().boolean()), label, type: 'boolean' as const }),
  datetime: (label: string, important = false) => ({
    schema: () => opt(zod().string()),
    label,
    type: 'datetime' as const,
    important,
  }),
  date: (label: string) => ({ schema: () => opt(zod().string()), label, type: 'string' as const }),
  /** Integer halalas; the output also shows a `_sar` sibling with two decimals. */
  halalas: (label: string, important = false) => ({
    schema: () => opt(zod().number().int()),
    label,
    type: 'integer' as const,
    money: true,
    important,
  }),
  texts: (label: string) => ({
    schema: () => opt(zod().array(zod().string())),
    label,
    type: 'string' as const,
    list: true,
  }),
  any: (label: string) => ({ schema: () => zod().unknown().optional(), label, type: 'string' as const }),
  /** An array of objects whose fields are whitelisted like the resource's own. */
  rows: <C extends Record<string, Field>>(label: string, children: C) => ({
    schema: () => opt(zod().array(zod().object(shapeOf(children)))),
    label,
    type: 'string' as const,
    children: children as Record<string, Field>,
    childrenAreList: true,
  }),
  /** A nested object; `loose` keeps members beyond the listed ones (cashier records the spec leaves open). */
  object: <C extends Record<string, Field>>(label: string, children: C, loose = false) => ({
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
 * Important fields come first, so the mapping list opens with what Zaps use most.
 */
export const outputFieldsOf = (fields: Record<string, Field>, prefix = ''): OutputField[] =>
  Object.entries(fields)
    .sort(([, a], [, b]) => Number(!!b.important) - Number(!!a.important))
    .flatMap(([key, field]): OutputField[] => {
      const full = `${prefix}${key}`;
      if (field.children) {
        return outputFieldsOf(field.children, field.childrenAreList ? `${full}[]` : `${full}__`);
      }
      const base: OutputField = { key: full, label: field.label, type: field.type };
      if (field.list) base.list = true;
      if (!field.money) return [base];
      const sar: OutputField = {
        key: full.replace(/_halalas$/, '_sar'),
        label: `${field.label} (SAR)`,
        type: 'string',
      };
      return [sar, { ...base, label: `${field.label} (Halalas)` }];
    });

export interface Resource<F extends Record<string, Field>, Extra extends object = object> {
  noun: string;
  /** The zod schema (built on first use). */
  readonly schema: z.ZodObject<Shape<F>>;
  fields: F;
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

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/** A copy of JSON-like data with objects and arrays below `depth` levels replaced by null. */
const bounded = (value: unknown, depth: number): unknown => {
  if (!value || typeof value !== 'object') return value;
  if (depth <= 0) return null;
  if (Array.isArray(value)) return value.map((v) => bounded(v, depth - 1));
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(value)) out[k] = bounded(v, depth - 1);
  return out;
};

/**
 * Field by field, for data that does not have the documented shape: a field that fails its type becomes null,
 * rows and nested objects are read the same way, members outside the whitelist are dropped (kept only where the
 * object is loose). Absent fields stay absent.
 */
const lenient = (fields: Record<string, Field>, data: Record<string, unknown>, loose: boolean) => {
  const out: Record<string, unknown> = loose ? { ...data } : {};
  for (const [key, field] of Object.entries(fields)) {
    if (!Object.hasOwn(data, key)) continue;
    const value = data[key];
    if (field.children && field.childrenAreList) {
      out[key] = Array.isArray(value)
        ? value.filter(isObject).map((row) => lenient(field.children!, row, false))
        : null;
    } else if (field.children) {
      out[key] = isObject(value) ? lenient(field.children, value, !!field.looseChildren) : null;
    } else {
      const parsed = field.schema().safeParse(value);
      out[key] = parsed.success ? parsed.data : null;
    }
  }
  return out;
};

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
  /**
   * Never throws, whatever the data holds: an item that reached the app (a signed delivery, the answer to a write
   * that happened) is always shown, with what does not fit its type as null rather than lost.
   */
  const present = (data: unknown): Item<F> & Extra => {
    const input = bounded(isObject(data) ? data : {}, MAX_DEPTH) as Record<string, unknown>;
    const result = schemaOf().safeParse(input);
    const parsed = (result.success ? result.data : lenient(def.fields, input, !!def.loose)) as Parsed<F>;
    const extra = def.decorate ? def.decorate(parsed) : ({} as Extra);
    // The decoration wins: a stock level's id is always `<branch_id>:<variant_id>` (CONTRACT §2).
    return withSar({ ...parsed, ...extra }) as Item<F> & Extra;
  };
  /**
   * Authored data (samples) shown without loading zod: the top-level whitelist applied, decorations and SAR
   * siblings added. Tests parse every sample with the schema, so both paths agree.
   */
  const presentAuthored = (data: Record<string, unknown>): Item<F> & Extra => {
    const kept = def.loose ? data : Object.fromEntries(Object.entries(data).filter(([k]) => k in def.fields));
    const extra = def.decorate ? def.decorate(kept as Parsed<F>) : ({} as Extra);
    return withSar({ ...kept, ...extra }) as Item<F> & Extra;
  };
  return {
    noun: def.noun,
    get schema() {
      return schemaOf();
    },
    fields: def.fields,
    outputFields: [...(def.decoratedFields ?? []), ...outputFieldsOf(def.fields)],
    present,
    presentAuthored,
    sample: presentAuthored(def.sample as Record<string, unknown>),
  };
};
