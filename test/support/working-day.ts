/**
 * What a sample time of a clinic's or a shop's working day looks like: Riyadh time (+03:00), between 08:00 and
 * 23:00, not on a Friday (the Saudi weekend).
 */

type Json = unknown;

export const DATE_TIME = /^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(?:\.\d+)?(?:Z|[+-]\d\d:\d\d)$/;

/** Every date-time string in a value, with where it is. */
export const timesIn = (value: Json, at = ''): Array<[string, string]> => {
  if (typeof value === 'string') return DATE_TIME.test(value) ? [[at, value]] : [];
  if (Array.isArray(value)) return value.flatMap((v, i) => timesIn(v, `${at}[${i}]`));
  if (value && typeof value === 'object')
    return Object.entries(value).flatMap(([k, v]) => timesIn(v, at ? `${at}.${k}` : k));
  return [];
};

/** What is wrong with a time as a working-day time in Riyadh, or undefined. */
export const notAWorkingTime = (time: string): string | undefined => {
  if (!time.endsWith('+03:00')) return 'not in +03:00';
  const riyadh = new Date(Date.parse(time) + 3 * 3600_000);
  const minutes = riyadh.getUTCHours() * 60 + riyadh.getUTCMinutes();
  if (minutes < 8 * 60 || minutes > 23 * 60) return 'outside 08:00–23:00';
  if (riyadh.getUTCDay() === 5) return 'on a Friday';
  return undefined;
};

/** Each time of a value that is not a working-day time, with where it is and why. */
export const offHours = (value: Json): string[] =>
  timesIn(value).flatMap(([at, time]) => {
    const why = notAWorkingTime(time);
    return why ? [`${at} ${time}: ${why}`] : [];
  });
