import type { z } from 'zod';
import type { ZObject } from 'zapier-platform-core';
import { MoneyFormatError, sarToHalalas } from './money';
import { PhoneFormatError, toE164 } from './phone';
import { zod } from './zod';

/*
 * Input rules shared by every action and search (CONTRACT §5): each one turns what a Zap builder typed into what
 * the interface takes, or says in plain words what is wrong. They run before any request.
 */

const blankToUndefined = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

/** Optional: blank text counts as not given. */
export const optional = <S extends z.ZodType>(schema: S) =>
  zod().preprocess(blankToUndefined, schema.optional());

const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
export const ulid = () =>
  zod()
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .refine(
      (s) => ULID.test(s),
      'is not a valid id (26 letters and digits, like 01JDA3F7Q9B2C4D6E8G0H1J3K5)',
    );

export const text = () => zod().string().trim().min(1, 'is required');

export const positiveInt = () =>
  zod().preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    zod()
      .number({ error: 'must be a whole number' })
      .int('must be a whole number')
      .positive('must be 1 or more'),
  );

export const quantity = () =>
  zod().preprocess(
    (v) => (typeof v === 'string' && v.trim() !== '' ? Number(v) : v),
    zod().number({ error: 'must be a number' }).finite('must be a number').positive('must be more than 0'),
  );

export const bool = () =>
  zod().preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim().toLowerCase();
      return ['true', 'yes', '1'].includes(t) ? true : ['false', 'no', '0'].includes(t) ? false : v;
    },
    zod().boolean({ error: 'must be yes or no' }),
  );

/** Riyals as decimal text → integer halalas. */
export const sar = () =>
  zod()
    .union([zod().string(), zod().number()])
    .transform((v, ctx) => {
      try {
        return sarToHalalas(v);
      } catch (e) {
        ctx.addIssue({
          code: 'custom',
          message: e instanceof MoneyFormatError ? e.message : 'is not an amount in SAR',
        });
        return zod().NEVER;
      }
    });

/** A Saudi (or +-prefixed foreign) phone → E.164. */
export const phone = () =>
  zod()
    .string()
    .transform((v, ctx) => {
      try {
        return toE164(v);
      } catch (e) {
        ctx.addIssue({
          code: 'custom',
          message: e instanceof PhoneFormatError ? e.message : 'is not a phone number',
        });
        return zod().NEVER;
      }
    });

const DATETIME_WITH_OFFSET = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
/** "…T10:30:00+0300" → "…T10:30:00+03:00": the interfaces take ISO-8601 offsets with a colon only. */
const colonOffset = (s: string) => s.replace(/(T[\d:.]+[+-]\d{2})(\d{2})$/, '$1:$2');
/** A date and time that says its offset, so a booking never lands three hours off. */
export const datetime = () =>
  zod()
    .string()
    .trim()
    .refine(
      (s) => DATETIME_WITH_OFFSET.test(s) && !Number.isNaN(Date.parse(s)),
      'must be a date and time with its offset, like 2026-11-24T10:30:00+03:00',
    )
    .transform(colonOffset);

/** A date, or a date and time with its offset (range filters). */
export const dateOrDatetime = () =>
  zod()
    .string()
    .trim()
    .refine(
      (s) => (/^\d{4}-\d{2}-\d{2}$/.test(s) || DATETIME_WITH_OFFSET.test(s)) && !Number.isNaN(Date.parse(s)),
      'must be a date like 2026-11-24, or a date and time with its offset',
    )
    .transform(colonOffset);

export const date = () =>
  zod()
    .string()
    .trim()
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)),
      'must be a date like 2026-11-24',
    );

export const oneOf = <T extends string>(values: readonly [T, ...T[]]) =>
  zod().enum(values, { error: `must be one of: ${values.join(', ')}` });

interface Labelled {
  key: string;
  label?: string;
  children?: ReadonlyArray<{ key: string; label?: string }>;
}

/** Field labels of an operation's inputs, so messages say "Start Time", not "starts_at". */
export const labelsOf = (fields: readonly Labelled[]): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const f of fields) {
    out[f.key] = f.label ?? f.key;
    for (const c of f.children ?? []) out[c.key] = c.label ?? c.key;
  }
  return out;
};

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    input,
  );

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const describeIssue = (issue: z.core.$ZodIssue, labels: Record<string, string>, input: unknown): string => {
  const [head, index, leaf] = issue.path;
  const label = labels[String(head)] ?? String(head ?? 'Input');
  const where =
    typeof index === 'number' && leaf !== undefined
      ? `${label} #${index + 1}, ${labels[String(leaf)] ?? String(leaf)}`
      : label;
  const message =
    issue.code === 'invalid_type' && isBlank(valueAt(input, issue.path)) ? 'is required' : issue.message;
  return `${where}: ${message.replace(/\.$/, '')}`;
};

/**
 * Validates an operation's inputs. Throws one z.errors.Error naming every bad field by its label; nothing is sent.
 */
export const parseInput = <S extends z.ZodType>(
  z_: ZObject,
  schema: () => S,
  input: unknown,
  labels: Record<string, string>,
): z.infer<S> => {
  const result = schema().safeParse(input ?? {});
  if (result.success) return result.data;
  const problems = result.error.issues.map((i) => describeIssue(i, labels, input));
  throw new z_.errors.Error(`Please fix: ${problems.join('; ')}.`, 'invalid_input', 400);
};
