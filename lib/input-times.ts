import type { InputMessage } from './input-messages';
import { readableTimes } from './readable-time';
import { saudiTime } from './time';
import { zod } from './zod';

/*
 * The rules of date and time inputs (lib/inputs.ts declares the inputs). Zapier hands a datetime input over as
 * ISO-8601 with the Zap's offset, and hands a value it cannot read (30 February, "next blursday") over as the
 * current time; a value that reaches the app raw (an API call, `invoke`, a text field mapped in) is checked here
 * for its shape and for being a real calendar value.
 */

/** A rule's message: a key of INPUT_MESSAGES, carried by zod as the issue's message. */
const m = (key: InputMessage): string => key;

/**
 * How far ahead a start time must be. A value Zapier could not read arrives as the moment the step runs, so a time
 * this close to now is far likelier a parse failure than a real request; no clinic books a walk-in through a Zap.
 */
export const START_LEAD_MINUTES = 5;

/**
 * How far ahead a start time may be: two years (a leap day included). Clinics book recalls and annual check-ups up
 * to a year ahead; a start beyond this is a mistyped year (2066 for 2026, 9999), which the interface would book
 * silently and no one would ever see in the appointment book.
 */
export const START_HORIZON_DAYS = 2 * 366;

const DATE = /^(\d{4})-(\d{2})-(\d{2})$/;
const DATETIME_WITH_OFFSET =
  /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?(?:Z|[+-](\d{2}):?(\d{2}))$/;
/** The same without an offset (or with a space for the T): a shape refused, but first checked for being real. */
const DATETIME_WITHOUT_OFFSET = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2})(?:\.\d+)?)?$/;

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

/** Whether a "YYYY-MM-DD" date is real; undefined when the text is not of that shape. */
const realDate = (s: string): boolean | undefined => {
  const p = DATE.exec(s);
  return p ? realDay(p[1]!, p[2]!, p[3]!) : undefined;
};

const realClock = (parts: Array<string | undefined>) => {
  const [hour, minute, second] = parts.map((x) => Number(x ?? 0));
  return hour! <= 23 && minute! <= 59 && second! <= 59;
};

/** A real day, hours 00–23, minutes and seconds 00–59 (no leap second), offsets up to ±14:00; undefined: not this shape. */
const realDatetime = (s: string): boolean | undefined => {
  const p = DATETIME_WITH_OFFSET.exec(s);
  if (!p) return undefined;
  return (
    realDay(p[1]!, p[2]!, p[3]!) &&
    realClock([p[4], p[5], p[6]]) &&
    Number(p[7] ?? 0) <= 14 &&
    Number(p[8] ?? 0) <= 59
  );
};

/**
 * False for a date and time without an offset that does not exist (2027-02-30T11:00): "not real" says more than
 * "give the offset" about it. Undefined otherwise, so a real one still gets the shape's message.
 */
const impossibleWithoutOffset = (s: string): false | undefined => {
  const p = DATETIME_WITHOUT_OFFSET.exec(s);
  return p && !(realDay(p[1]!, p[2]!, p[3]!) && realClock([p[4], p[5], p[6]])) ? false : undefined;
};

/**
 * A string of one of the given shapes that names a real calendar value: a wrong shape gets `shape`, a real-looking
 * value that does not exist (2027-02-29, 2026-04-31, T24:00) gets `not_real`. One message per field, never both.
 */
const calendar = (checks: Array<(s: string) => boolean | undefined>, shape: InputMessage) =>
  zod()
    .string()
    .trim()
    .superRefine((s, ctx) => {
      const verdicts = checks.map((check) => check(s)).filter((v) => v !== undefined);
      if (verdicts.includes(true)) return;
      ctx.addIssue({ code: 'custom', message: m(verdicts.length ? 'not_real' : shape) });
    });

/** "…T10:30:00+0300" → "…T10:30:00+03:00": the interfaces take ISO-8601 offsets with a colon only. */
const colonOffset = (s: string) => s.replace(/(T[\d:.]+[+-]\d{2})(\d{2})$/, '$1:$2');

/** A date and time that says its offset, so a booking never lands three hours off, nor on a day that is not. */
export const datetime = () =>
  calendar([realDatetime, impossibleWithoutOffset], 'datetime').transform(colonOffset);

/**
 * A date and time with its offset, at least START_LEAD_MINUTES ahead of the moment the step runs and at most
 * START_HORIZON_DAYS. Within the lead either side of now, the value is most likely Zapier's stand-in for a date it
 * could not read, and says so; earlier than that, it is in the past; beyond the horizon, a mistyped year. Each
 * message shows the time as read, in Riyadh, and the offset it came with, so a wrong Zap timezone shows.
 */
export const upcoming = () =>
  datetime().superRefine((s, ctx) => {
    const at = Date.parse(s);
    const ahead = at - Date.now();
    const lead = START_LEAD_MINUTES * 60_000;
    const horizon = START_HORIZON_DAYS * 86_400_000;
    if (ahead >= lead && ahead <= horizon) return;
    const read = readableTimes(saudiTime(new Date(at)));
    ctx.addIssue({
      code: 'custom',
      message: m(ahead > horizon ? 'too_far' : ahead < -lead ? 'past' : 'too_soon'),
      params: {
        read: { en: read.starts_at_text_en, ar: read.starts_at_text_ar },
        minutes: START_LEAD_MINUTES,
        days: START_HORIZON_DAYS,
        offset: /(?:Z|[+-]\d{2}:\d{2})$/i.exec(s)?.[0].toUpperCase(),
      },
    });
  });

/**
 * The instant a range bound names: a date and time as given; a plain date as the start of the day it names in the
 * clinic's time (Riyadh), as the interfaces read it, not UTC midnight. NaN when it is neither.
 */
export const boundInstant = (value: string): number =>
  DATE.test(value) ? Date.parse(`${value}T00:00:00+03:00`) : Date.parse(value);

/** A date, or a date and time with its offset (range filters). */
export const dateOrDatetime = () =>
  calendar([realDate, realDatetime, impossibleWithoutOffset], 'date_or_datetime').transform(colonOffset);

export const date = () => calendar([realDate], 'date');
