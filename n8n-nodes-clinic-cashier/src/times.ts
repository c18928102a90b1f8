/**
 * Zapier hands a datetime input over as ISO-8601 with the Zap's timezone offset, so the app's checks
 * (lib/input-times.ts) require an offset. n8n hands a parameter over as typed; its equivalent of the Zap's timezone
 * is the workflow's (`this.getTimezone()`), so a local time is given that zone's offset here before the checks run.
 */

/** A local date and time: "2026-11-24 10:30", "2026-11-24T10:30", "2026-11-24T10:30:00". */
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[T ](\d{2}):(\d{2})(?::(\d{2}))?$/;

const MINUTE = 60_000;
const DAY = 24 * 60 * MINUTE;

const clockIn = (timeZone: string) =>
  new Intl.DateTimeFormat('en-US', {
    timeZone,
    hourCycle: 'h23',
    year: 'numeric',
    month: '2-digit',
    day: '2-digit',
    hour: '2-digit',
    minute: '2-digit',
    second: '2-digit',
  });

/** The zone's offset from UTC at an instant, in minutes: its wall clock then, read as if UTC, less the instant. */
const offsetAt = (clock: Intl.DateTimeFormat, instant: number): number => {
  const p = Object.fromEntries(clock.formatToParts(instant).map((part) => [part.type, Number(part.value)]));
  const wall = Date.UTC(p.year!, p.month! - 1, p.day!, p.hour!, p.minute!, p.second!);
  return Math.round((wall - Math.floor(instant / 1000) * 1000) / MINUTE);
};

/**
 * The offset a wall-clock time has in a zone. Around a change of offset: a time that occurs twice (clocks set back)
 * takes the first, the offset before the change; a time the change skips (clocks set forward) takes the offset
 * before it too, so it names the instant that far past the change, as JavaScript's Temporal does by default.
 */
const offsetOfWallClock = (clock: Intl.DateTimeFormat, wall: number): number => {
  const before = offsetAt(clock, wall - DAY);
  const after = offsetAt(clock, wall + DAY);
  const fits = (offset: number) => offsetAt(clock, wall - offset * MINUTE) === offset;
  return fits(before) || !fits(after) ? before : after;
};

const two = (n: number) => String(n).padStart(2, '0');

const isoOffset = (minutes: number) =>
  `${minutes < 0 ? '-' : '+'}${two(Math.floor(Math.abs(minutes) / 60))}:${two(Math.abs(minutes) % 60)}`;

/**
 * A date and time without an offset as ISO-8601 with the offset it has in `timeZone` (an IANA name); any other
 * value as it is: one with an offset or a plain date passes, and one that is not a real time is left for the app's
 * check to refuse with its message.
 */
export const withOffsetIn = (value: string, timeZone: string): string => {
  const p = LOCAL.exec(value.trim());
  if (!p) return value;
  const [year, month, day, hour, minute, second] = p.slice(1).map((x) => Number(x ?? 0)) as number[];
  const wall = Date.UTC(year!, month! - 1, day!, hour!, minute!, second!);
  const read = new Date(wall);
  const real =
    read.getUTCFullYear() === year &&
    read.getUTCMonth() === month! - 1 &&
    read.getUTCDate() === day &&
    hour! <= 23 &&
    minute! <= 59 &&
    second! <= 59;
  if (!real) return value;
  const offset = offsetOfWallClock(clockIn(timeZone), wall);
  return `${p[1]}-${p[2]}-${p[3]}T${p[4]}:${p[5]}:${p[6] ?? '00'}${isoOffset(offset)}`;
};
