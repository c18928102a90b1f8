/**
 * Request validation by Fastify route schemas (JSON Schema, checked by Fastify's Ajv). Routes declare what they
 * take with the helpers below; `prepare` readies a request for its schema (JSON body, query values) and errors.ts
 * turns what the schema finds into validation_failed.
 */
import type { FastifyRequest, FastifySchema } from 'fastify';
import { parseDateOrDateTime, parseDateTime, startOfLocalDate } from './ids';

/**
 * Fastify's Ajv: every problem of a request at once, no coercion (`prepare` reads the query), a member of more
 * than one type (a line's qty: number or text) as the spec allows, and formats named after the problem they report.
 */
export const AJV_OPTIONS = {
  customOptions: {
    allErrors: true,
    verbose: true,
    coerceTypes: false,
    allowUnionTypes: true,
    formats: {
      date_time: (v: string) => parseDateTime(v) !== undefined,
      date_or_date_time: (v: string) => parseDateOrDateTime(v) !== undefined,
      date: (v: string) => /^\d{4}-\d{2}-\d{2}$/.test(v) && !Number.isNaN(startOfLocalDate(v)),
      phone: (v: string) => /^\+[1-9]\d{7,14}$/.test(v),
    },
  },
};

/** A schema piece as TypeScript sees it, so that a route's body type is read off its schema (`BodyOf`). */
type Piece = { type: string | readonly string[]; enum?: readonly string[] };
type Scalars = { integer: number; number: number; string: string; boolean: boolean; null: null };
type Scalar<T> = T extends keyof Scalars
  ? Scalars[T]
  : T extends 'object'
    ? Record<string, unknown>
    : unknown;
type Shaped<P, R extends PropertyKey> = { [K in keyof P & R]: Infer<P[K]> } & {
  [K in Exclude<keyof P, R>]?: Infer<P[K]>;
};
type Infer<T> = T extends { enum: readonly (infer E)[] }
  ? E
  : T extends { properties: infer P; required: readonly (infer R extends PropertyKey)[] }
    ? Shaped<P, R> | (T extends { type: readonly unknown[] } ? null : never)
    : T extends { items: infer I }
      ? Array<Infer<I>>
      : T extends { type: 'array' }
        ? unknown[]
        : T extends { type: infer U }
          ? Scalar<U extends readonly (infer V)[] ? V : U>
          : unknown;
export type BodyOf<T> = T extends { body: infer B } ? Infer<B> : never;

/** The keywords that are set: a schema keyword must not be undefined. */
const set = (keywords: Record<string, number | undefined>) =>
  Object.fromEntries(Object.entries(keywords).filter(([, v]) => v !== undefined));

export const S = {
  int: ({ min, max }: { min?: number; max?: number } = {}, fallback?: number) => ({
    type: 'integer' as const,
    ...set({ minimum: min, maximum: max, default: fallback }),
  }),
  positive: { type: 'number' as const, exclusiveMinimum: 0 },
  nonNegative: { type: 'number' as const, minimum: 0 },
  str: (max?: number) => ({ type: 'string' as const, ...set({ maxLength: max }) }),
  oneOf: <const T extends string>(values: readonly T[]) => ({ type: 'string' as const, enum: [...values] }),
  bool: { type: 'boolean' as const },
  /** The member may be null (or empty): the operation reads that as "clear". */
  nullable: <T extends string>(schema: { type: T }) => ({ ...schema, type: [schema.type, 'null'] as const }),
  dateTime: { type: 'string' as const, format: 'date_time' },
  instant: { type: 'string' as const, format: 'date_or_date_time' },
  date: { type: 'string' as const, format: 'date' },
  phone: { type: 'string' as const, format: 'phone' },
  array: <const I extends Piece | undefined = undefined>(items?: I) =>
    ({ type: 'array' as const, ...(items ? { items } : {}) }) as I extends Piece
      ? { type: 'array'; items: I }
      : { type: 'array' },
  object: <P extends Record<string, Piece>, R extends keyof P = never, N extends boolean = false>(
    properties: P,
    required: readonly R[] = [],
    nullable?: N,
  ) => ({
    type: (nullable ? ['object', 'null'] : 'object') as N extends true
      ? readonly ['object', 'null']
      : 'object',
    properties,
    required,
  }),
};

/* Paging (clinic spec §4; the cashier's is assumed the same). */

export const PER_PAGE_DEFAULT = 50;
export const PER_PAGE_MAX = 100;
export const PER_PAGE = S.int({ min: 1, max: PER_PAGE_MAX }, PER_PAGE_DEFAULT);
export const PAGING = { page: S.int({ min: 1 }, 1), per_page: PER_PAGE };

/** A route's schema: query parameters (all optional), and a body (required unless `optional`). */
export const query = (properties: Record<string, Piece>): FastifySchema => ({
  querystring: S.object(properties),
});
export const body = <P extends Record<string, Piece>, R extends keyof P = never, N extends boolean = false>(
  properties: P,
  required: readonly R[] = [],
  optional?: N,
) => ({ body: S.object(properties, required, optional) });

/** An operation declared with its route's schema: `run` gets the body that schema lets through. */
export const op = <S extends { body: unknown }, C extends { body: unknown }, R>(
  schema: S,
  run: (ctx: C, body: BodyOf<S>) => R,
) => ({ schema, handle: (ctx: C) => run(ctx, ctx.body as BodyOf<S>) });

/** The list envelope `{data, meta: {total, page, per_page}}`, for a query with PAGING. */
type Paging = { page?: number; per_page?: number };
export const pageOf = <T>(items: readonly T[], { page = 1, per_page = PER_PAGE_DEFAULT }: Paging) => ({
  data: items.slice((page - 1) * per_page, page * per_page),
  meta: { total: items.length, page, per_page },
});

/* Lists: one declaration per query parameter, its schema piece and the rows it keeps when the query gives it. */

// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Param<T> = readonly [Piece, (row: T, value: any) => boolean];
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Listing = { query: Record<string, any> };

export const eq = <T>(piece: Piece, key: keyof T): Param<T> => [piece, (r, v) => r[key] === v];

/** Rows whose time `at` is at or after (`since`) or before (`until`) the query's date or date-time. */
const bound =
  (piece: Piece, read: (v: string) => number | undefined, after: boolean) =>
  <T>(at: (r: T) => string): Param<T> => [
    piece,
    (r, v: string) => Date.parse(at(r)) >= (read(v) ?? 0) === after,
  ];
export const since = bound(S.instant, parseDateOrDateTime, true);
export const until = bound(S.instant, parseDateOrDateTime, false);
export const sinceDay = bound(S.date, startOfLocalDate, true);
export const untilDay = bound(S.date, startOfLocalDate, false);

/**
 * A paged list endpoint: the query's schema (PAGING, then the parameters in their order), and a handler that pages
 * the rows every given parameter keeps, in `order` (the rows' own when none), as `view` shows them.
 */
export const list = <T, C extends Listing>(
  rows: (ctx: C) => readonly T[],
  view: (row: T, ctx: C) => unknown,
  order?: (a: T, b: T) => number,
  params: Record<string, Param<T>> = {},
) => ({
  schema: query({
    ...PAGING,
    ...Object.fromEntries(Object.entries(params).map(([k, [piece]]) => [k, piece])),
  }),
  handle: (ctx: C) => {
    const given = Object.entries(params).filter(([k]) => ctx.query[k] !== undefined);
    const kept = rows(ctx).filter((r) => given.every(([k, [, keeps]]) => keeps(r, ctx.query[k])));
    const views = (order ? kept.sort(order) : kept).map((r) => view(r, ctx));
    return pageOf(views, ctx.query);
  },
});

/** Query values as the sandbox reads them: the first of a repeated key; an empty value is no value. */
export const parseQuery = (raw: string) => {
  const first = new Map<string, string>();
  for (const [k, v] of new URLSearchParams(raw)) if (!first.has(k)) first.set(k, v);
  return Object.fromEntries([...first].filter(([, v]) => v !== ''));
};

const FLAGS: Record<string, boolean> = { true: true, 1: true, yes: true, false: false, 0: false, no: false };

/** Bodies that are not JSON: answered 422 not_json once the request is admitted. */
export const badJson = new WeakSet<FastifyRequest>();

interface Shape {
  type?: unknown;
  properties?: Record<string, Shape>;
  items?: Shape;
}

/**
 * A null member the schema declares, or an empty string where it declares text, is no value (as for a query),
 * unless the schema lets it be null: then the operation reads it (null clears). An empty string where a number,
 * flag or list is declared stays, for the schema to refuse. Members the schema does not declare are left as they are.
 */
const dropEmpty = (value: unknown, schema: Shape | undefined): void => {
  if (Array.isArray(value)) value.forEach((v) => dropEmpty(v, schema?.items));
  else if (isObject(value)) {
    for (const [k, v] of Object.entries(value)) {
      const prop = schema?.properties?.[k];
      const nullable = Array.isArray(prop?.type) && prop.type.includes('null');
      if (prop && (v === null || (v === '' && prop.type === 'string')) && !nullable) delete value[k];
      else if (prop) dropEmpty(v, prop);
    }
  }
};

/**
 * preValidation: the body as JSON (text from the content parser; none when empty), and the query's integers and
 * flags as the schema types them (what does not read stays text, for the schema to refuse). Nothing is answered
 * here: the route answers auth and ability first, then the schema's problems.
 */
export const prepare = (schema: FastifySchema | undefined) => async (req: FastifyRequest) => {
  const text = String(req.body ?? '').trim();
  try {
    req.body = text ? (JSON.parse(text) as unknown) : undefined;
  } catch {
    req.body = undefined;
    badJson.add(req);
  }
  if (schema?.body) dropEmpty(req.body, schema.body as Shape);
  const q = req.query as Record<string, unknown>;
  for (const [name, prop] of Object.entries((schema?.querystring as Shape | undefined)?.properties ?? {})) {
    const raw = q[name];
    if (typeof raw !== 'string') continue;
    if (prop.type === 'integer' && /^-?\d+$/.test(raw.trim())) q[name] = Number(raw);
    if (prop.type === 'boolean' && raw.toLowerCase() in FLAGS) q[name] = FLAGS[raw.toLowerCase()];
  }
};

const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);
