/**
 * The error envelope `{error, message, details}` of both interfaces. Every code and field problem is data
 * (data/messages.json), in English and Arabic: the clinic spec's codes (§7), the codes the sandbox uses where a
 * spec says an answer exists but does not name its code (sandbox/README.md, "Assumptions"), the sandbox-only ones.
 */
import type { FastifyReply } from 'fastify';
import MESSAGES from './data/messages.json';

export type Lang = 'en' | 'ar';
export const CODES = { ...MESSAGES.codes, ...MESSAGES.unnamed, ...MESSAGES.sandbox_only };
export type ErrorCode = keyof typeof CODES;
type Problem = keyof typeof MESSAGES.problems;
type Vars = Record<string, string | number>;

export const found = <T>(x: T | undefined): T => {
  if (x === undefined) throw new ApiError('not_found');
  return x;
};

export const byId = <T extends { id: unknown }>(rows: readonly T[], id: unknown): T =>
  found(rows.find((r) => r.id === id));

/** 403 insufficient_ability unless the client holds `ability` (none: nothing needed); `extra` joins the details. */
export const requireAbility = (
  client: { abilities: readonly string[] },
  ability: string | null | undefined,
  extra: Vars = {},
) => {
  if (ability && !client.abilities.includes(ability))
    throw new ApiError('insufficient_ability', { required_ability: ability, ...extra }, { ability });
};

/** A numeric id in a path; anything else names nothing (404 not_found). */
export const idParam = (raw: string | undefined): number => {
  if (!raw || !/^\d+$/.test(raw)) throw new ApiError('not_found');
  return Number(raw);
};

/** A failure a handler throws; the route wrapper turns it into the envelope. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly details: Record<string, unknown> = {},
    /** Values for the message's {placeholders}. */
    readonly vars: Vars = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
  }

  get status(): number {
    return CODES[this.code].status;
  }
}

export const languageOf = (acceptLanguage: string | undefined): Lang =>
  acceptLanguage?.trim().toLowerCase().startsWith('ar') ? 'ar' : 'en';

const fill = (text: string, vars: Vars): string =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));

export const envelope = (error: ApiError, lang: Lang) => ({
  error: error.code,
  message: fill(CODES[error.code][lang], error.vars),
  details: error.details,
});

/** Collects the field problems of one request (validation_failed's `details.errors`); `done()` throws them. */
export class Checker {
  readonly errors: Array<{ field: string; message: string; code: Problem }> = [];

  constructor(readonly lang: Lang) {}

  add(field: string, code: Problem, vars: Vars = {}): this {
    this.errors.push({ field, code, message: fill(MESSAGES.problems[code][this.lang], vars) });
    return this;
  }

  failure = (): ApiError => new ApiError('validation_failed', { errors: this.errors });

  done(): void {
    if (this.errors.length) throw this.failure();
  }
}

/** validation_failed with one field problem, to throw. */
export const refuse = (lang: Lang, field: string, problem: Problem, vars: Vars = {}): ApiError =>
  new Checker(lang).add(field, problem, vars).failure();

/** 409 invalid_transition of a sandbox-only status change. */
export const invalidTransition = (from: string, to: string) =>
  new ApiError('invalid_transition', { from, to }, { from, to });

/* What a route schema finds (Fastify's Ajv errors), as validation_failed. */

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  parentSchema?: Record<string, unknown>;
}

/** A member of the wrong type: the problem named after the declared type (objects and the rest: 'object'). */
const TYPE_PROBLEMS: string[] = ['integer', 'number', 'string', 'boolean', 'array'] satisfies Problem[];

/** `/lines/0/unit_price_halalas` → `lines[0].unit_price_halalas`; the root is `body`. */
const fieldOf = (path: string, member?: unknown): string =>
  [...path.split('/').slice(1), ...(member === undefined ? [] : [String(member)])].reduce(
    (f, part) => (/^\d+$/.test(part) ? `${f}[${part}]` : f ? `${f}.${part}` : part),
    '',
  ) || 'body';

/** One problem per field (the first the schema finds), in the order of the schema's properties. */
export const schemaFailure = (errors: readonly SchemaError[], lang: Lang): ApiError => {
  const c = new Checker(lang);
  for (const e of errors) {
    const s = e.parentSchema ?? {};
    const field = fieldOf(e.instancePath, e.keyword === 'required' ? e.params.missingProperty : undefined);
    if (c.errors.some((known) => known.field === field)) continue;
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (e.keyword === 'required') c.add(field, 'required');
    else if (e.keyword === 'type' && type === 'number' && s.minimum !== undefined)
      c.add(field, 'min', { min: Number(s.minimum) });
    else if (e.keyword === 'type')
      c.add(field, TYPE_PROBLEMS.includes(String(type)) ? (type as Problem) : 'object');
    else if (e.keyword === 'enum') c.add(field, 'one_of', { values: (s.enum as string[]).join(', ') });
    else if (e.keyword === 'format') c.add(field, e.params.format as Problem);
    else if (e.keyword === 'maxLength') c.add(field, 'range', { min: 1, max: Number(s.maxLength) });
    else if (e.keyword === 'exclusiveMinimum') c.add(field, 'number');
    else if (s.maximum !== undefined)
      c.add(field, 'range', { min: Number(s.minimum ?? 0), max: Number(s.maximum) });
    else c.add(field, 'min', { min: Number(s.minimum ?? 0) });
  }
  return c.failure();
};

export const sendJson = (reply: FastifyReply, status: number, body: unknown): FastifyReply => {
  if (status === 204 || body === undefined) return reply.code(status).send();
  return reply.code(status).type('application/json; charset=utf-8').send(JSON.stringify(body));
};
