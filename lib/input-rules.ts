import type { z as Zod } from 'zod';
import { holdsCoreTemplate } from './curlies';
import { BilingualError } from './i18n';
import type { InputMessage } from './input-messages';
import { sarToHalalas } from './money';
import { toE164 } from './phone';
import { zod } from './zod';

/*
 * The rules of inputs (lib/inputs.ts declares them): each turns what a Zap builder typed into what the interface
 * takes, or says what is wrong, before any request. Dates and times have theirs in lib/input-times.ts.
 */

/** A rule's message: a key of INPUT_MESSAGES, carried by zod as the issue's message. */
export const m = (key: InputMessage): string => key;

/*
 * The rules: each one turns what a Zap builder typed into what the interface takes, or says what is wrong. They
 * run before any request.
 */

const blankToUndefined = (v: unknown) =>
  v === null || (typeof v === 'string' && v.trim() === '') ? undefined : v;

/** Optional: blank text counts as not given. */
export const optional = <S extends Zod.ZodType>(schema: S) =>
  zod().preprocess(blankToUndefined, schema.optional());

/** Trimmed text; what core would refuse to send (lib/curlies.ts) is refused here, naming the field. */
export const text = () =>
  zod()
    .string()
    .trim()
    .min(1, m('required'))
    .refine((s) => !holdsCoreTemplate(s), m('curlies'));

/** Text of at most `n` characters. */
export const maxChars = (n: number) => text().max(n, m('max_chars'));

/**
 * An id field with a dropdown is filled by choosing or mapping, not typing: its message says so (a name typed where
 * the id goes, "Olaya" for a branch, is the usual mistake).
 */
const hasList = (shown: { dynamic?: unknown; choices?: unknown }) =>
  shown.dynamic !== undefined || shown.choices !== undefined;

/** A clinic id (clinic spec §1): 26 Crockford base-32 characters, the first at most 7. */
export const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;
export const ulid = (shown: { dynamic?: unknown; choices?: unknown }) =>
  zod()
    .string()
    .trim()
    .transform((s) => s.toUpperCase())
    .refine((s) => ULID.test(s), m(hasList(shown) ? 'ulid_from_list' : 'ulid'));

/**
 * An id that goes into a request path as one segment (cashier order, receipt and session ids are strings of a
 * form the spec does not show): letters, digits and - _ . ~ : @ only, not made of dots alone, so it can never
 * turn into another path ("..", "/", "?", "#", "%2e").
 */
export const segmentId = () =>
  text()
    .max(100, m('max_id_chars'))
    .refine((s) => /^[A-Za-z0-9._~:@-]+$/.test(s) && !/^\.+$/.test(s), m('segment_id'));

export const positiveInt = (shown: { dynamic?: unknown; choices?: unknown }) => {
  const notWhole = m(hasList(shown) ? 'id_from_list' : 'whole_number');
  return zod().preprocess(
    (v) => (typeof v === 'string' && /^\s*\d+\s*$/.test(v) ? Number(v) : v),
    zod().number({ error: notWhole }).int(notWhole).positive(m('one_or_more')),
  );
};

export const quantity = () =>
  zod().preprocess(
    // Plain decimals only: Number() would also read "0x10" as 16 and "1e2" as 100.
    (v) => (typeof v === 'string' && /^\s*\d+(\.\d+)?\s*$/.test(v) ? Number(v) : v),
    zod()
      .number({ error: m('number') })
      .finite(m('number'))
      .positive(m('more_than_zero')),
  );

export const bool = () =>
  zod().preprocess(
    (v) => {
      if (typeof v !== 'string') return v;
      const t = v.trim().toLowerCase();
      return ['true', 'yes', '1'].includes(t) ? true : ['false', 'no', '0'].includes(t) ? false : v;
    },
    zod().boolean({ error: m('yes_or_no') }),
  );

/**
 * A conversion whose failure explains itself (money, phone: a BilingualError with its own words), carried in the
 * issue's `params`; any other failure gets the rule's message.
 */
const converted = <T>(
  convert: (v: string | number) => T,
  fallback: InputMessage,
  input: Zod.ZodType<string | number>,
) =>
  input.transform((v, ctx) => {
    try {
      return convert(v);
    } catch (e) {
      ctx.addIssue({
        code: 'custom',
        message: m(fallback),
        params: e instanceof BilingualError ? { words: e.text } : undefined,
      });
      return zod().NEVER;
    }
  });

/** Riyals as decimal text → integer halalas. */
export const sar = () => converted(sarToHalalas, 'sar', zod().union([zod().string(), zod().number()]));

/** A Saudi (or +-prefixed foreign) phone → E.164. */
export const phone = () => converted((v) => toE164(String(v)), 'phone', zod().string());

export const oneOf = <T extends string>(values: readonly [T, ...T[]]) =>
  zod().enum(values, { error: m('one_of') });
