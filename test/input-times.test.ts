import {
  boundInstant,
  date,
  dateOrDatetime,
  datetime,
  START_HORIZON_DAYS,
  START_LEAD_MINUTES,
  upcoming,
} from '../lib/input-times';
import { INPUT_MESSAGES } from '../lib/input-messages';

/* The inputs declared with these, through the app with their labels: test/creates.test.ts, test/hostile-writes.test.ts. */

/** What a rule makes of `text`: its value, or its one message key. */
const read = (rule: () => { safeParse: (v: unknown) => unknown }, text: string) => {
  const result = rule().safeParse(text) as {
    success: boolean;
    data?: unknown;
    error?: { issues: Array<{ message: string }> };
  };
  return result.success ? result.data : result.error!.issues.map((i) => i.message).join(',');
};

describe('datetime', () => {
  it('takes a date and time with its offset, writing the offset with a colon', () => {
    expect(read(datetime, ' 2026-11-24T10:30:00+0300 ')).toBe('2026-11-24T10:30:00+03:00');
    expect(read(datetime, '2026-11-24T07:30Z')).toBe('2026-11-24T07:30Z');
  });

  it.each([
    '2027-02-29T10:00:00+03:00',
    '2026-04-31T10:00+03:00',
    '2026-11-24T24:00+03:00',
    '2026-11-24T10:00+15:00',
  ])('says %s is not real', (text) => expect(read(datetime, text)).toBe('not_real'));

  it('asks for the offset, unless the time without it does not exist either', () => {
    expect(read(datetime, '2026-11-24T10:30:00')).toBe('datetime');
    expect(read(datetime, '2026-11-24 10:30')).toBe('datetime');
    expect(read(datetime, '2027-02-30T11:00')).toBe('not_real');
    expect(read(datetime, 'next tuesday')).toBe('datetime');
  });
});

describe('date and dateOrDatetime', () => {
  it('take a real date, leap days included', () => {
    expect(read(date, '2028-02-29')).toBe('2028-02-29');
    expect(read(date, '2027-02-29')).toBe('not_real');
    expect(read(date, '2026-11-24T10:00+03:00')).toBe('date');
    expect(read(dateOrDatetime, '2026-11-24')).toBe('2026-11-24');
    expect(read(dateOrDatetime, '2026-11-24T10:00+0300')).toBe('2026-11-24T10:00+03:00');
    expect(read(dateOrDatetime, '24/11/2026')).toBe('date_or_datetime');
  });
});

describe('upcoming', () => {
  const NOW = Date.parse('2026-11-24T07:00:00Z');
  beforeEach(() => jest.useFakeTimers({ now: NOW }));
  afterEach(() => jest.useRealTimers());
  const minutesFromNow = (n: number) => new Date(NOW + n * 60_000).toISOString().replace('.000Z', 'Z');

  it(`takes a start at least ${START_LEAD_MINUTES} minutes ahead`, () => {
    expect(read(upcoming, minutesFromNow(START_LEAD_MINUTES))).toBe(minutesFromNow(START_LEAD_MINUTES));
    expect(read(upcoming, minutesFromNow(START_LEAD_MINUTES - 1))).toBe('too_soon');
  });

  it('reads a time about now as one Zapier could not read, and one before that as past', () => {
    expect(read(upcoming, minutesFromNow(0))).toBe('too_soon');
    expect(read(upcoming, minutesFromNow(-START_LEAD_MINUTES))).toBe('too_soon');
    expect(read(upcoming, minutesFromNow(-START_LEAD_MINUTES - 1))).toBe('past');
  });

  it(`refuses a start more than ${START_HORIZON_DAYS} days ahead (a mistyped year), and takes one at the horizon`, () => {
    const day = 24 * 60;
    expect(read(upcoming, minutesFromNow(START_HORIZON_DAYS * day))).toBe(
      minutesFromNow(START_HORIZON_DAYS * day),
    );
    expect(read(upcoming, minutesFromNow(START_HORIZON_DAYS * day + 1))).toBe('too_far');
    for (const typo of ['2066-11-24T10:30:00+03:00', '9999-11-24T10:30:00+03:00']) {
      expect(read(upcoming, typo)).toBe('too_far');
    }
    // A year ahead (an annual check-up) is booked.
    expect(read(upcoming, '2027-11-24T10:30:00+03:00')).toBe('2027-11-24T10:30:00+03:00');
  });

  /** The English message a start time is refused with. */
  const said = (text: string) => {
    const result = upcoming().safeParse(text);
    if (result.success) throw new Error(`${text} was accepted`);
    const [issue] = result.error.issues;
    const words = INPUT_MESSAGES[issue!.message as 'past' | 'too_far'];
    return words(issue as never).en;
  };

  it('words the past-start message by the offset the time came with', () => {
    // In Riyadh's offset: the time was read as meant; nothing about a missing offset.
    expect(said('2026-11-23T10:00:00+03:00')).toBe(
      'is in the past (read as Monday 23 November 2026, 10:00 AM, Riyadh time): give a time ahead',
    );
    // In another offset: the one it came with, and what that likely means.
    expect(said('2026-11-23T10:00:00-06:00')).toBe(
      "is in the past (read as Monday 23 November 2026, 7:00 PM, Riyadh time): give a time ahead. It came with the offset -06:00, not Riyadh's +03:00. A time typed without an offset is read in the Zap's timezone: set it to Asia/Riyadh, or write the offset",
    );
    expect(said('2026-11-23T07:00:00Z')).toMatch(/It came with the offset Z, not Riyadh's \+03:00/);
  });

  it('says a start too far ahead is a year to check, with the time as read', () => {
    expect(said('2066-11-24T10:30:00+03:00')).toBe(
      'is more than 2 years ahead (read as Wednesday 24 November 2066, 10:30 AM, Riyadh time): check the year. The app books at most that far ahead, so a mistyped year is never booked',
    );
  });
});

describe('boundInstant: where a range bound begins', () => {
  it('reads a plain date as the start of that day in Riyadh, not UTC midnight', () => {
    expect(boundInstant('2026-11-24')).toBe(Date.parse('2026-11-23T21:00:00Z'));
    expect(boundInstant('2026-11-24T02:00:00+03:00')).toBe(Date.parse('2026-11-23T23:00:00Z'));
  });
});
