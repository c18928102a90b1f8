/**
 * The static samples look like a clinic's and a shop's working day: every time in it is Riyadh time (+03:00),
 * between 08:00 and 23:00, not on a Friday (the Saudi weekend), and an event comes at or after what it says
 * happened to its object. Read from the app's definition, so a new trigger or resource sample is held to it.
 */
import App from '../index';
import { EVENTS } from '../lib/hooks/events';
import * as cashier from '../lib/resources/cashier';
import * as clinic from '../lib/resources/clinic';
import { TRIGGER } from '../lib/keys';
import { DATE_TIME, notAWorkingTime, offHours, timesIn } from './support/working-day';

type Sample = Record<string, unknown>;
type Operations = Record<string, { operation: { sample?: Sample } }>;

/** Times an object is planned for (an appointment's start): an event may come before them. */
// Times an appointment is planned for, now and before a reschedule (`previous_starts_at`): not times something happened.
const PLANNED = new Set(['starts_at', 'ends_at', 'previous_starts_at', 'previous_ends_at']);

const operations = (['triggers', 'searches', 'creates'] as const).flatMap((kind) =>
  Object.entries(App[kind] as unknown as Operations).flatMap(([key, { operation }]) =>
    operation.sample ? [[`${kind}.${key}`, operation.sample] as const] : [],
  ),
);
const resources = Object.entries({ ...clinic, ...cashier }).flatMap(([name, r]) =>
  r && typeof r === 'object' && 'sample' in r ? [[`resources.${name}`, r.sample as Sample] as const] : [],
);
const triggerSample = (key: string) => (App.triggers as unknown as Operations)[key]!.operation.sample!;

describe('static samples', () => {
  it('cover every row of the event table and the polling trigger', () => {
    const keys = [...EVENTS.map((e) => e.key), TRIGGER.appointmentStartingSoon];
    for (const key of keys) expect([key, triggerSample(key)]).toEqual([key, expect.any(Object)]);
    expect(operations.length).toBeGreaterThan(keys.length);
  });

  it.each([...operations, ...resources])(
    '%s: times in +03:00, between 08:00 and 23:00, not on a Friday',
    (_name, sample) => expect(offHours(sample)).toEqual([]),
  );

  it.each(EVENTS.map((e) => [e.key] as const))(
    '%s: occurred_at is at or after every time its object shows happened',
    (key) => {
      const sample = triggerSample(key);
      expect(sample.occurred_at).toEqual(expect.stringMatching(DATE_TIME));
      const occurred = Date.parse(String(sample.occurred_at));
      const happened = Object.entries(sample).filter(
        ([k, v]) => k.endsWith('_at') && k !== 'occurred_at' && !PLANNED.has(k) && typeof v === 'string',
      );
      const later = happened.filter(([, v]) => Date.parse(String(v)) > occurred);
      expect(later).toEqual([]);
    },
  );

  it('the rules catch what they are for', () => {
    expect(notAWorkingTime('2026-11-24T03:30:00+03:00')).toBe('outside 08:00–23:00');
    expect(notAWorkingTime('2026-11-27T10:00:00+03:00')).toBe('on a Friday');
    expect(notAWorkingTime('2026-11-24T07:00:00Z')).toBe('not in +03:00');
    expect(notAWorkingTime('2026-11-24T23:00:00+03:00')).toBeUndefined();
    expect(timesIn({ a: { b: ['2026-11-24T10:00:00+03:00'] }, d: '2026-11-24' })).toEqual([
      ['a.b[0]', '2026-11-24T10:00:00+03:00'],
    ]);
  });
});
