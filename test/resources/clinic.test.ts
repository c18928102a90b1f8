import { readableTimes } from '../../lib/readable-time';
import * as clinic from '../../lib/resources/clinic';

/* Every resource's fields, samples and presentation are held alike in define, fields and present's suites. */

describe('appointment (CONTRACT §8)', () => {
  it('carries its start in words, in the clinic’s time whatever offset the interface answers in', () => {
    // A 10:30 Riyadh booking that the interface echoes in UTC reads 10:30 in words, not 7:30; the time field keeps
    // the digits as the interface wrote them (CONTRACT §8).
    const echoed = clinic.appointment.present({
      ...clinic.appointment.sample,
      starts_at: '2026-11-24T07:30:00Z',
    });
    expect(echoed).toMatchObject({
      starts_at: '2026-11-24T07:30:00Z',
      starts_at_time: '07:30',
      starts_at_text_en: 'Tuesday 24 November 2026, 10:30 AM',
      starts_at_text_ar: 'الثلاثاء 24 نوفمبر 2026، 10:30 ص',
    });
  });

  it('carries its start in words', () => {
    const item = clinic.appointment.present({
      ...clinic.appointment.sample,
      starts_at: '2026-11-24T16:30:00+03:00',
    });
    const words = readableTimes('2026-11-24T16:30:00+03:00');
    expect(item).toMatchObject(words);
    expect(words.starts_at_text_en).toMatch(/4:30/);
    for (const field of Object.keys(words)) {
      expect(clinic.appointment.outputFields.map((o) => o.key)).toContain(field);
    }
  });

  it('moves its words with its start', () => {
    const at = (starts_at: string) => clinic.appointment.present({ ...clinic.appointment.sample, starts_at });
    expect(at('2026-11-24T16:30:00+03:00').starts_at_text_en).not.toBe(
      at('2026-11-25T09:00:00+03:00').starts_at_text_en,
    );
  });
});
