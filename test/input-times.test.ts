import { date, dateOrDatetime, datetime, START_LEAD_MINUTES, upcoming } from '../lib/input-times';

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
});
