import { Checker, type Lang } from './errors';
import { parseDateOrDateTime, parseDateTime, startOfLocalDate, ULID_PATTERN } from './ids';

/** Query values as Fastify parses them; a repeated key keeps its first value. */
export type Query = Record<string, string | undefined>;

export const normalizeQuery = (raw: unknown): Query => {
  const out: Query = {};
  if (!raw || typeof raw !== 'object') return out;
  for (const [k, v] of Object.entries(raw as Record<string, unknown>)) {
    const first = Array.isArray(v) ? v[0] : v;
    if (first !== undefined && first !== null) out[k] = String(first);
  }
  return out;
};

export const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/* Query parameters: every reader returns undefined when the parameter is absent or wrong (and notes why). */

const INT = /^-?\d+$/;

export const queryInt = (
  q: Query,
  name: string,
  c: Checker,
  range: { min?: number; max?: number } = {},
): number | undefined => {
  const raw = q[name];
  if (raw === undefined || raw === '') return undefined;
  if (!INT.test(raw.trim())) {
    c.add(name, 'integer');
    return undefined;
  }
  const n = Number(raw);
  if ((range.min !== undefined && n < range.min) || (range.max !== undefined && n > range.max)) {
    if (range.max !== undefined) c.add(name, 'range', { min: range.min ?? 0, max: range.max });
    else c.add(name, 'min', { min: range.min ?? 0 });
    return undefined;
  }
  return n;
};

export const queryString = (q: Query, name: string): string | undefined => {
  const raw = q[name];
  return raw === undefined || raw === '' ? undefined : raw;
};

export const queryEnum = <T extends string>(
  q: Query,
  name: string,
  values: readonly T[],
  c: Checker,
): T | undefined => {
  const raw = queryString(q, name);
  if (raw === undefined) return undefined;
  if (!(values as readonly string[]).includes(raw)) {
    c.add(name, 'one_of', { values: values.join(', ') });
    return undefined;
  }
  return raw as T;
};

export const queryBool = (q: Query, name: string, c: Checker): boolean | undefined => {
  const raw = queryString(q, name);
  if (raw === undefined) return undefined;
  const v = raw.toLowerCase();
  if (['true', '1', 'yes'].includes(v)) return true;
  if (['false', '0', 'no'].includes(v)) return false;
  c.add(name, 'boolean');
  return undefined;
};

/** A date or date-time filter, as ms (a date is the branch's midnight). */
export const queryInstant = (q: Query, name: string, c: Checker): number | undefined => {
  const raw = queryString(q, name);
  if (raw === undefined) return undefined;
  const ms = parseDateOrDateTime(raw);
  if (ms === undefined) c.add(name, 'date_or_date_time');
  return ms;
};

/** A date filter (YYYY-MM-DD), as the branch's midnight in ms. */
export const queryDate = (q: Query, name: string, c: Checker): number | undefined => {
  const raw = queryString(q, name);
  if (raw === undefined) return undefined;
  if (!/^\d{4}-\d{2}-\d{2}$/.test(raw) || Number.isNaN(startOfLocalDate(raw))) {
    c.add(name, 'date');
    return undefined;
  }
  return startOfLocalDate(raw);
};

/* Paging (clinic spec §4: page ≥ 1, per_page 1 to 100, default 50; the cashier's is assumed the same). */

export const PER_PAGE_DEFAULT = 50;
export const PER_PAGE_MAX = 100;

export interface Paging {
  page: number;
  perPage: number;
}

export const queryPaging = (q: Query, c: Checker): Paging => ({
  page: queryInt(q, 'page', c, { min: 1 }) ?? 1,
  perPage: queryInt(q, 'per_page', c, { min: 1, max: PER_PAGE_MAX }) ?? PER_PAGE_DEFAULT,
});

/** The list envelope: `{data, meta: {total, page, per_page}}`. */
export const pageOf = <T>(items: readonly T[], { page, perPage }: Paging) => ({
  data: items.slice((page - 1) * perPage, page * perPage),
  meta: { total: items.length, page, per_page: perPage },
});

/* Request bodies. */

export class BodyReader {
  readonly c: Checker;
  readonly obj: Record<string, unknown>;

  constructor(body: unknown, lang: Lang, options: { optional?: boolean } = {}) {
    this.c = new Checker(lang);
    if (body === undefined || body === null) {
      if (!options.optional) this.c.add('body', 'object');
      this.obj = {};
    } else if (!isObject(body)) {
      this.c.add('body', 'object');
      this.obj = {};
    } else {
      this.obj = body;
    }
  }

  has(field: string): boolean {
    return this.obj[field] !== undefined;
  }

  int(field: string, opts: { required?: boolean; min?: number; max?: number } = {}): number | undefined {
    const v = this.obj[field];
    if (v === undefined || v === null) {
      if (opts.required) this.c.add(field, 'required');
      return undefined;
    }
    if (typeof v !== 'number' || !Number.isInteger(v)) {
      this.c.add(field, 'integer');
      return undefined;
    }
    if ((opts.min !== undefined && v < opts.min) || (opts.max !== undefined && v > opts.max)) {
      if (opts.max !== undefined) this.c.add(field, 'range', { min: opts.min ?? 0, max: opts.max });
      else this.c.add(field, 'min', { min: opts.min ?? 0 });
      return undefined;
    }
    return v;
  }

  string(field: string, opts: { required?: boolean; max?: number } = {}): string | undefined {
    const v = this.obj[field];
    if (v === undefined || v === null || v === '') {
      if (opts.required) this.c.add(field, 'required');
      return undefined;
    }
    if (typeof v !== 'string') {
      this.c.add(field, 'string');
      return undefined;
    }
    if (opts.max !== undefined && v.length > opts.max) {
      this.c.add(field, 'range', { min: 1, max: opts.max });
      return undefined;
    }
    return v;
  }

  bool(field: string): boolean | undefined {
    const v = this.obj[field];
    if (v === undefined || v === null) return undefined;
    if (typeof v !== 'boolean') {
      this.c.add(field, 'boolean');
      return undefined;
    }
    return v;
  }

  oneOf<T extends string>(
    field: string,
    values: readonly T[],
    opts: { required?: boolean } = {},
  ): T | undefined {
    const v = this.string(field, opts);
    if (v === undefined) return undefined;
    if (!(values as readonly string[]).includes(v)) {
      this.c.add(field, 'one_of', { values: values.join(', ') });
      return undefined;
    }
    return v as T;
  }

  dateTime(field: string, opts: { required?: boolean } = {}): number | undefined {
    const v = this.string(field, opts);
    if (v === undefined) return undefined;
    const ms = parseDateTime(v);
    if (ms === undefined) this.c.add(field, 'date_time');
    return ms;
  }

  phone(field: string): string | undefined {
    const v = this.string(field);
    if (v === undefined) return undefined;
    if (!E164.test(v)) {
      this.c.add(field, 'phone');
      return undefined;
    }
    return v;
  }

  ulid(field: string, opts: { required?: boolean } = {}): string | undefined {
    const v = this.string(field, opts);
    if (v === undefined) return undefined;
    if (!ULID_PATTERN.test(v)) {
      this.c.add(field, 'ulid');
      return undefined;
    }
    return v;
  }

  array(field: string, opts: { required?: boolean } = {}): unknown[] | undefined {
    const v = this.obj[field];
    if (v === undefined || v === null) {
      if (opts.required) this.c.add(field, 'required');
      return undefined;
    }
    if (!Array.isArray(v)) {
      this.c.add(field, 'array');
      return undefined;
    }
    return v;
  }

  done(): void {
    this.c.done();
  }
}

export const E164 = /^\+[1-9]\d{7,14}$/;
