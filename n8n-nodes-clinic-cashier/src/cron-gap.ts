/**
 * The longest time between two firings of a cron expression as n8n's Poll Times read it (Custom mode; the `cron`
 * package n8n's scheduler runs): 5 fields (minute hour day month weekday) or 6 (second first), lists, ranges and
 * steps, month and weekday names, @presets, weekday 7 as Sunday, and a day that matches when either its day of the
 * month or its weekday does, if both are restricted.
 */

const PRESETS: Record<string, string> = {
  '@yearly': '0 0 0 1 1 *',
  '@monthly': '0 0 0 1 * *',
  '@weekly': '0 0 0 * * 0',
  '@daily': '0 0 0 * * *',
  '@hourly': '0 0 * * * *',
  '@minutely': '0 * * * * *',
  '@secondly': '* * * * * *',
  '@weekdays': '0 0 0 * * 1-5',
  '@weekends': '0 0 0 * * 0,6',
};

const NAMES = ['jan', 'feb', 'mar', 'apr', 'may', 'jun', 'jul', 'aug', 'sep', 'oct', 'nov', 'dec'];
const DAYS = ['sun', 'mon', 'tue', 'wed', 'thu', 'fri', 'sat'];
const alias = (name: string): number | undefined => {
  const month = NAMES.indexOf(name);
  if (month >= 0) return month + 1;
  const day = DAYS.indexOf(name);
  return day >= 0 ? day : undefined;
};

/** second, minute, hour, day of month, month, weekday: their bounds. */
const BOUNDS: ReadonlyArray<readonly [number, number]> = [
  [0, 59],
  [0, 59],
  [0, 23],
  [1, 31],
  [1, 12],
  [0, 7],
];

/** Why an expression cannot be read, in words for the user. */
export class CronUnreadable extends Error {}

const fieldValues = (field: string, [low, high]: readonly [number, number]): Set<number> => {
  const values = new Set<number>();
  for (const part of field.replace(/\*/g, `${low}-${high}`).split(',')) {
    const m = /^(\d+)(?:-(\d+))?(?:\/(\d+))?$/.exec(part);
    if (!m) throw new CronUnreadable(`“${field}” is not a number, range, list or step`);
    const from = Number(m[1]);
    const step = Number(m[3] ?? 1);
    const to = m[2] !== undefined ? Number(m[2]) : m[3] !== undefined ? high : from;
    if (step === 0) throw new CronUnreadable(`“${field}” has a step of 0`);
    if (from < low || to > high || from > to) {
      throw new CronUnreadable(`“${field}” is outside ${low}–${high}`);
    }
    for (let v = from; v <= to; v += step) values.add(v);
  }
  return values;
};

interface Schedule {
  /** Minutes of the day (0–1439) at which it fires at least once, ascending. */
  times: number[];
  days: Set<number>;
  months: Set<number>;
  weekdays: Set<number>;
  /** Whether the day of the month, the weekday, are restricted (not every value). */
  daysRestricted: boolean;
  weekdaysRestricted: boolean;
}

export const parseCron = (expression: string): Schedule => {
  let source = expression.trim().toLowerCase();
  source = PRESETS[source] ?? source;
  source = source.replace(/[a-z]{1,3}/g, (name) => {
    const n = alias(name);
    if (n === undefined) throw new CronUnreadable(`“${name}” is not a month or weekday name`);
    return String(n);
  });
  const fields = source.split(/\s+/).filter(Boolean);
  if (fields.length < 5 || fields.length > 6) {
    throw new CronUnreadable(`it has ${fields.length} fields, where 5 or 6 are read`);
  }
  const [second, minute, hour, day, month, weekday] = (fields.length === 5 ? ['0', ...fields] : fields).map(
    (f, i) => fieldValues(f, BOUNDS[i]!),
  ) as [Set<number>, Set<number>, Set<number>, Set<number>, Set<number>, Set<number>];
  if (weekday.has(7)) weekday.add(0);
  weekday.delete(7);
  const times: number[] = [];
  if (second.size)
    for (const h of [...hour].sort((a, b) => a - b)) {
      for (const m of [...minute].sort((a, b) => a - b)) times.push(h * 60 + m);
    }
  return {
    times,
    days: day,
    months: month,
    weekdays: weekday,
    daysRestricted: day.size !== 31,
    weekdaysRestricted: weekday.size !== 7,
  };
};

const firesOn = (s: Schedule, date: Date): boolean => {
  if (!s.months.has(date.getUTCMonth() + 1)) return false;
  const byDay = s.days.has(date.getUTCDate());
  const byWeekday = s.weekdays.has(date.getUTCDay());
  if (s.daysRestricted && s.weekdaysRestricted) return byDay || byWeekday;
  return byDay && byWeekday;
};

/**
 * Four years from a leap year's start: every day of the month meets every month and weekday in it, and 29 February
 * comes once, so every gap a schedule repeats is seen.
 */
const WINDOW_START = Date.UTC(2024, 0, 1);
const WINDOW_DAYS = 4 * 365 + 1;
const DAY_MINUTES = 1440;

/**
 * The longest gap between two firings, in minutes (a firing's second does not count: n8n polls once a minute at
 * most); Infinity when it fires on one day of four years or none. Daylight-saving shifts are not counted (an hour at most).
 */
export const longestCronGap = (expression: string): number => {
  const s = parseCron(expression);
  if (!s.times.length) return Infinity;
  const first = s.times[0]!;
  const last = s.times[s.times.length - 1]!;
  let inDay = 0;
  for (let i = 1; i < s.times.length; i += 1) inDay = Math.max(inDay, s.times[i]! - s.times[i - 1]!);
  const firingDays: number[] = [];
  for (let d = 0; d < WINDOW_DAYS; d += 1) {
    if (firesOn(s, new Date(WINDOW_START + d * DAY_MINUTES * 60_000))) firingDays.push(d);
  }
  // Firing on one day of four years: its next firing is years away.
  if (firingDays.length < 2) return Infinity;
  let gap = inDay;
  for (let i = 1; i < firingDays.length; i += 1) {
    gap = Math.max(gap, (firingDays[i]! - firingDays[i - 1]!) * DAY_MINUTES + first - last);
  }
  return gap;
};
