/*
 * A datetime input without an offset, in n8n: read in the workflow's timezone and given its offset before the app's
 * checks run, as Zapier does with the Zap's timezone (n8n-nodes-clinic-cashier/src/times.ts).
 */
import { ClinicCashier } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashier/ClinicCashier.node';
import { ClinicCashierTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node';
import { ClinicCashierStartingSoonTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierStartingSoonTrigger/ClinicCashierStartingSoonTrigger.node';
import { withOffsetIn } from '../../n8n-nodes-clinic-cashier/src/times';
import { reply } from '../fixtures';
import { clockAtRecording } from '../support/recorder';
import { clinicApi, clinicPath, recordedPatientRead, useNock } from '../helpers';
import { BOOKING_INPUT, hookContext } from './context';

describe('a time without an offset, read in the workflow’s timezone', () => {
  it.each([
    ['2026-11-24 10:30', '2026-11-24T10:30:00+03:00'],
    ['2026-11-24T10:30', '2026-11-24T10:30:00+03:00'],
    ['2026-11-24T10:30:00', '2026-11-24T10:30:00+03:00'],
  ])('%s in Asia/Riyadh is %s', (local, iso) => {
    expect(withOffsetIn(local, 'Asia/Riyadh')).toBe(iso);
  });

  it('takes the offset of that local time in a zone with daylight saving, either side of its change', () => {
    // New York sets its clocks forward on 8 March 2026 at 02:00 and back on 1 November at 02:00.
    expect(withOffsetIn('2026-03-08 01:59', 'America/New_York')).toBe('2026-03-08T01:59:00-05:00');
    expect(withOffsetIn('2026-03-08 03:00', 'America/New_York')).toBe('2026-03-08T03:00:00-04:00');
    expect(withOffsetIn('2026-11-01 00:59', 'America/New_York')).toBe('2026-11-01T00:59:00-04:00');
    expect(withOffsetIn('2026-11-01 02:00', 'America/New_York')).toBe('2026-11-01T02:00:00-05:00');
    // Berlin changes on 29 March and 25 October 2026.
    expect(withOffsetIn('2026-03-28T12:00', 'Europe/Berlin')).toBe('2026-03-28T12:00:00+01:00');
    expect(withOffsetIn('2026-03-29T12:00', 'Europe/Berlin')).toBe('2026-03-29T12:00:00+02:00');
  });

  it('reads a time the clocks pass twice at its first, and one they skip with the offset before the change', () => {
    expect(withOffsetIn('2026-11-01 01:30', 'America/New_York')).toBe('2026-11-01T01:30:00-04:00');
    const skipped = withOffsetIn('2026-03-08 02:30', 'America/New_York');
    expect(skipped).toBe('2026-03-08T02:30:00-05:00');
    expect(new Date(skipped).toISOString()).toBe('2026-03-08T07:30:00.000Z');
  });

  it('gives offsets of half and quarter hours, and behind UTC', () => {
    expect(withOffsetIn('2026-06-01 12:00', 'Asia/Kolkata')).toBe('2026-06-01T12:00:00+05:30');
    expect(withOffsetIn('2026-06-01 12:00', 'Asia/Kathmandu')).toBe('2026-06-01T12:00:00+05:45');
    expect(withOffsetIn('2026-01-01 00:00', 'America/St_Johns')).toBe('2026-01-01T00:00:00-03:30');
    expect(withOffsetIn('2026-06-01 12:00', 'UTC')).toBe('2026-06-01T12:00:00+00:00');
  });

  it.each([
    '2026-11-24T10:30:00+03:00',
    '2026-11-24T10:30:00Z',
    '2026-11-24T10:30:00+0300',
    '2026-11-24',
    '2027-02-30 11:00',
    '2026-11-24 24:00',
    'tomorrow 10:30am',
    '24/11/2026 10:30',
  ])('leaves %s as it is: an offset or a date passes, the rest is for the app to refuse', (value) => {
    expect(withOffsetIn(value, 'Asia/Riyadh')).toBe(value);
  });
});

describe('Book Appointment with a Start Time without an offset', () => {
  useNock();
  beforeEach(() => clockAtRecording());
  afterEach(() => jest.useRealTimers());

  const node = new ClinicCashier();
  const execute = (params: Record<string, unknown>, timezone: string) =>
    node.execute.call(hookContext(params, { timezone }).context as never) as Promise<
      Array<Array<{ json: Record<string, unknown> }>>
    >;
  const booking = (startsAt: string) => ({
    resource: 'appointment',
    operation: 'book',
    ...BOOKING_INPUT,
    starts_at: startsAt,
  });

  it('sends it with the workflow’s offset: 12:30 in Asia/Riyadh is 12:30+03:00', async () => {
    expect(BOOKING_INPUT.starts_at).toBe('2026-11-26T12:30:00+03:00');
    const post = clinicApi()
      .post(
        clinicPath('/appointments'),
        (body: Record<string, unknown>) => body.starts_at === '2026-11-26T12:30:00+03:00',
      )
      .reply(...reply('book-appointment'));
    recordedPatientRead('book-appointment', 1);
    const [[out]] = (await execute(booking('2026-11-26 12:30'), 'Asia/Riyadh')) as [
      [{ json: Record<string, unknown> }],
    ];
    post.done();
    expect(out.json).toMatchObject({ starts_at_time: '12:30', duplicate: false });
  });

  it.each([
    ['2027-02-30 11:00', /Start Time: is not a real date or time/],
    ['tomorrow 10:30am', /Start Time: must be a date and time with its offset/],
  ])('refuses %s with the app’s message, before any request', async (value, message) => {
    await expect(execute(booking(value), 'Asia/Riyadh')).rejects.toThrow(message);
  });
});

describe('the datetime inputs in n8n', () => {
  const dateTimes = (properties: Array<{ name: string; type: string }>) =>
    properties.filter((p) => p.type === 'dateTime').map((p) => p.name);

  it('are n8n’s date and time fields, only on the action node, which reads them in the workflow’s timezone', () => {
    expect(dateTimes(new ClinicCashier().description.properties).sort()).toEqual(['from', 'starts_at', 'to']);
    expect(dateTimes(new ClinicCashierTrigger().description.properties)).toEqual([]);
    expect(dateTimes(new ClinicCashierStartingSoonTrigger().description.properties)).toEqual([]);
  });
});
