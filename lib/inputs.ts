import type { z } from 'zod';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { BilingualError, joined, languageOf, say, type Bilingual } from './i18n';
import { sarToHalalas } from './money';
import { toE164 } from './phone';
import { zod } from './zod';

/*
 * Validation messages are written in both languages (CONTRACT §1: the app's own messages follow the connection's
 * language, and always carry their English). zod carries one string per issue, so `msg` packs both into it and
 * `parseInput` unpacks them for `say`.
 */
const PACKED = '\u0000i18n:';

/** A validation message in English and Arabic, as a zod message string. */
export const msg = (en: string, ar: string): string => `${PACKED}${JSON.stringify({ en, ar })}`;

const unpack = (message: string): Bilingual =>
  message.startsWith(PACKED)
    ? (JSON.parse(message.slice(PACKED.length)) as Bilingual)
    : { en: message, ar: message };

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

/**
 * An id that goes into a request path as one segment (cashier order, receipt and session ids are strings of a
 * form the spec does not show): letters, digits and - _ . ~ : @ only, not made of dots alone, so it can never
 * turn into another path ("..", "/", "?", "#", "%2e").
 */
export const segmentId = () =>
  zod()
    .string()
    .trim()
    .min(1, REQUIRED)
    .max(100, msg('must be at most 100 characters', 'يجب ألا يتجاوز 100 حرف'))
    .refine(
      (s) => /^[A-Za-z0-9._~:@-]+$/.test(s) && !/^\.+$/.test(s),
      msg(
        'is not a valid id (letters, digits and - _ . ~ : @ only, e.g. 01JDAD4E5F6G7H8J9K0M1N2P3Q)',
        'ليس معرّفًا صالحًا (حروف وأرقام و - _ . ~ : @ فقط، مثل 01JDAD4E5F6G7H8J9K0M1N2P3Q)',
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

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;

const daysIn = (year: number, month: number) =>
  month === 2
    ? year % 4 === 0 && (year % 100 !== 0 || year % 400 === 0)
      ? 29
      : 28
    : [4, 6, 9, 11].includes(month)
      ? 30
      : 31;

/**
 * Whether "YYYY-MM-DD" digits name a real calendar day (leap years included). Date.parse is lenient
 * ("2026-04-31" is read as 1 May, "T24:00" as the next midnight), so the parts are checked themselves.
 */
const realDay = (y: string, m: string, d: string) =>
  Number(m) >= 1 && Number(m) <= 12 && Number(d) >= 1 && Number(d) <= daysIn(Number(y), Number(m));

const NOT_REAL = msg(
  'is not a real date or time (e.g. 31 April, 29 February outside a leap year, hour 24, minute or second 60)',
  'ليس تاريخًا أو وقتًا حقيقيًا (مثل 31 أبريل، أو 29 فبراير في سنة غير كبيسة، أو الساعة 24، أو الدقيقة أو الثانية 60)',
);

/** Whether a "YYYY-MM-DD" date is real; undefined when the text is not of that shape. */
const realDate = (s: string): boolean | undefined => {
  const p = DATE.exec(s);
  return p ? realDay(p[1]!, p[2]!, p[3]!) : undefined;
};

/** A real day, hours 00–23, minutes and seconds 00–59 (no leap second), offsets up to ±14:00; undefined: not this shape. */
const realDatetime = (s: string): boolean | undefined => {
  const p = DATETIME_WITH_OFFSET.exec(s);
  if (!p) return undefined;
  const [hour, minute, second, offH, offM] = [p[4], p[5], p[6], p[7], p[8]].map((x) => Number(x ?? 0));
  return (
    realDay(p[1]!, p[2]!, p[3]!) &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59 &&
    offH! <= 14 &&
    offM! <= 59
  );
};

/**
 * A string of one of the given shapes that names a real calendar value: a wrong shape gets `shape`, a real-looking
 * value that does not exist (2027-02-29, 2026-04-31, T24:00) gets NOT_REAL. One message per field, never both.
 */
const calendar = (checks: Array<(s: string) => boolean | undefined>, shape: string) =>
  zod()
    .string()
    .trim()
    .superRefine((s, ctx) => {
      const verdicts = checks.map((check) => check(s)).filter((v) => v !== undefined);
      if (verdicts.includes(true)) return;
      ctx.addIssue({ code: 'custom', message: verdicts.length ? NOT_REAL : shape });
    });

/** "…T10:30:00+0300" → "…T10:30:00+03:00": the interfaces take ISO-8601 offsets with a colon only. */
const colonOffset = (s: string) => s.replace(/(T[\d:.]+[+-]\d{2})(\d{2})$/, '$1:$2');

/** A date and time that says its offset, so a booking never lands three hours off, nor on a day that is not. */
export const datetime = () =>
  calendar(
    [realDatetime],
    msg(
      'must be a date and time with its offset, like 2026-11-24T10:30:00+03:00',
      'يجب أن يكون تاريخًا ووقتًا مع فرق التوقيت، مثل 2026-11-24T10:30:00+03:00',
    ),
  ).transform(colonOffset);

/** A date, or a date and time with its offset (range filters). */
export const dateOrDatetime = () =>
  calendar(
    [realDate, realDatetime],
    msg(
      'must be a date like 2026-11-24, or a date and time with its offset',
      'يجب أن يكون تاريخًا مثل 2026-11-24، أو تاريخًا ووقتًا مع فرق التوقيت',
    ),
  ).transform(colonOffset);

export const date = () =>
  calendar([realDate], msg('must be a date like 2026-11-24', 'يجب أن يكون تاريخًا مثل 2026-11-24'));

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
): Bilingual => {
  const [head, index, leaf] = issue.path;
  const label = labels[String(head)] ?? String(head ?? 'Input');
  const where =
    typeof index === 'number' && leaf !== undefined
      ? `${label} #${index + 1}, ${labels[String(leaf)] ?? String(leaf)}`
      : label;
  const message =
    issue.code === 'invalid_type' && isBlank(valueAt(input, issue.path)) ? REQUIRED : issue.message;
  const { en, ar } = unpack(message);
  return { en: `${where}: ${en.replace(/\.$/, '')}`, ar: `${where}: ${ar.replace(/\.$/, '')}` };
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
  const problems = joined(
    result.error.issues.map((i) => describeIssue(i, labels, input)),
    { en: '; ', ar: '؛ ' },
  );
  throw new z_.errors.Error(
    say(languageOf(bundle), { en: `Please fix: ${problems.en}.`, ar: `يرجى تصحيح ما يلي: ${problems.ar}.` }),
    'invalid_input',
    400,
  );
};
