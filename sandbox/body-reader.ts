/** Hand-written body reader, for the bodies not yet declared as route schemas. */
import { Checker, type Lang } from './errors';
import { parseDateTime, ULID_PATTERN } from './ids';
import { E164, isObject } from './validate';

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
