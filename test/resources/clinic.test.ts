import { readableTimes } from '../../lib/readable-time';
import * as clinic from '../../lib/resources/clinic';

/* Every resource's fields, samples and presentation are held alike in define, fields and present's suites. */

describe('appointment (CONTRACT §8)', () => {
  it('carries its start in words, in the offset it was given', () => {
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
