import type { z } from 'zod';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { BilingualError, languageOf, type Bilingual, type Lang } from './i18n';
import { sarToHalalas } from './money';
import { toE164 } from './phone';
import { zod } from './zod';

/*
 * Validation messages are written in both languages (CONTRACT §1: the app's own messages follow the connection's
 * language). zod carries one string per issue, so `msg` packs both into it and `parseInput` unpacks the one asked.
 */
const PACKED = '\u0000i18n:';

/** A validation message in English and Arabic, as a zod message string. */
export const msg = (en: string, ar: string): string => `${PACKED}${JSON.stringify({ en, ar })}`;

const unpack = (message: string, lang: Lang): string =>
  message.startsWith(PACKED) ? (JSON.parse(message.slice(PACKED.length)) as Bilingual)[lang] : message;

const REQUIRED = msg('is required', 'مطلوب');
const WHOLE = msg('must be a whole number', 'يجب أن يكون عددًا صحيحًا');
const NUMBER = msg('must be a number', 'يجب أن يكون رقمًا');

/** A money or phone error's own words, packed for zod. */
const bilingual = (e: unknown, en: string, ar: string): string =>
  e instanceof BilingualError ? msg(e.text.en, e.text.ar) : msg(en, ar);

/*
 * Input rules shared by every action and search (CONTRACT §5): each one turns what a Zap builder typed into what
 * the interface takes, or says in plain words what is wrong. They run before any request.
 */

const blankToUndefined = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

/** Text of at most `n` characters. */
export const maxChars = (n: number) =>
  zod()
    .string()
    .trim()
    .min(1, REQUIRED)
    .max(n, msg(`must be at most ${n} characters`, `يجب ألا يتجاوز ${n} حرفًا`));

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
      msg(
        'is not a valid id (26 letters and digits, like 01JDA3F7Q9B2C4D6E8G0H1J3K5)',
        'ليس معرّفًا صالحًا (26 حرفًا ورقمًا، مثل 01JDA3F7Q9B2C4D6E8G0H1J3K5)',
      ),
    );

export const text = () => zod().string().trim().min(1, REQUIRED);

export const positiveInt = () =>
  zod().preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    zod().number({ error: WHOLE }).int(WHOLE).positive(msg('must be 1 or more', 'يجب أن يكون 1 أو أكثر')),
  );

export const quantity = () =>
  zod().preprocess(
    // Plain decimals only: Number() would also read "0x10" as 16 and "1e2" as 100.
    (v) => (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    zod()
      .number({ error: NUMBER })
      .finite(NUMBER)
      .positive(msg('must be more than 0', 'يجب أن يكون أكبر من 0')),
  );

export const bool = () =>
  zod().preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim().toLowerCase();
      return ['true', 'yes', '1'].includes(t) ? true : ['false', 'no', '0'].includes(t) ? false : v;
    },
    zod().boolean({ error: msg('must be yes or no', 'يجب أن يكون نعم أو لا') }),
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
          message: bilingual(e, 'is not an amount in SAR', 'ليس مبلغًا بالريال'),
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
          message: bilingual(e, 'is not a phone number', 'ليس رقم هاتف'),
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
      msg(
        'must be a date and time with its offset, like 2026-11-24T10:30:00+03:00',
        'يجب أن يكون تاريخًا ووقتًا مع فرق التوقيت، مثل 2026-11-24T10:30:00+03:00',
      ),
    )
    .transform(colonOffset);

/** A date, or a date and time with its offset (range filters). */
export const dateOrDatetime = () =>
  zod()
    .string()
    .trim()
    .refine(
      (s) => (/^\d{4}-\d{2}-\d{2}$/.test(s) || DATETIME_WITH_OFFSET.test(s)) && !Number.isNaN(Date.parse(s)),
      msg(
        'must be a date like 2026-11-24, or a date and time with its offset',
        'يجب أن يكون تاريخًا مثل 2026-11-24، أو تاريخًا ووقتًا مع فرق التوقيت',
      ),
    )
    .transform(colonOffset);

export const date = () =>
  zod()
    .string()
    .trim()
    .refine(
      (s) => /^\d{4}-\d{2}-\d{2}$/.test(s) && !Number.isNaN(Date.parse(s)),
      msg('must be a date like 2026-11-24', 'يجب أن يكون تاريخًا مثل 2026-11-24'),
    );

export const oneOf = <T extends string>(values: readonly [T, ...T[]]) =>
  zod().enum(values, {
    error: msg(`must be one of: ${values.join(', ')}`, `يجب أن يكون أحد: ${values.join('، ')}`),
  });

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

const describeIssue = (
  issue: z.core.$ZodIssue,
  labels: Record<string, string>,
  input: unknown,
  lang: Lang,
): string => {
  const [head, index, leaf] = issue.path;
  const label = labels[String(head)] ?? String(head ?? 'Input');
  const where =
    typeof index === 'number' && leaf !== undefined
      ? `${label} #${index + 1}, ${labels[String(leaf)] ?? String(leaf)}`
      : label;
  const message =
    issue.code === 'invalid_type' && isBlank(valueAt(input, issue.path)) ? REQUIRED : issue.message;
  return `${where}: ${unpack(message, lang).replace(/\.$/, '')}`;
};

/**
 * Validates an operation's inputs (`bundle.inputData`). Throws one z.errors.Error naming every bad field by its
 * label, in the connection's language; nothing is sent.
 */
export const parseInput = <S extends z.ZodType>(
  z_: ZObject,
  schema: () => S,
  bundle: Pick<Bundle, 'inputData' | 'authData'>,
  labels: Record<string, string>,
): z.infer<S> => {
  const input: unknown = bundle.inputData;
  const result = schema().safeParse(input ?? {});
  if (result.success) return result.data;
  const lang = languageOf(bundle);
  const problems = result.error.issues.map((i) => describeIssue(i, labels, input, lang));
  throw new z_.errors.Error(
    lang === 'ar' ? `يرجى تصحيح ما يلي: ${problems.join('؛ ')}.` : `Please fix: ${problems.join('; ')}.`,
    'invalid_input',
    400,
  );
};
