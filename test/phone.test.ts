import { PhoneFormatError, toE164 } from '../lib/phone';

describe('phones (CONTRACT §5)', () => {
  it.each(['0501234567', '501234567', '00966501234567', '+966 50 123 4567', '+966501234567', '966501234567'])(
    '%s is sent as +966501234567',
    (input) => {
      expect(toE164(input)).toBe('+966501234567');
    },
  );

  it('keeps foreign numbers given with their prefix', () => {
    expect(toE164('+44 20 7946 0958')).toBe('+442079460958');
  });

  it.each(['12345', 'call me', '050123456789012', ''])('refuses %p', (input) => {
    expect(() => toE164(input)).toThrow(PhoneFormatError);
  });

  it('writes the phones of its Arabic message left to right, each between isolate marks', () => {
    let text = '';
    try {
      toE164('+966 12');
    } catch (e) {
      text = (e as PhoneFormatError).text.ar;
    }
    expect(text).toContain('"\u2066+966 12\u2069"');
    expect(text).toContain('\u20660501234567\u2069');
    expect(text).toContain('\u2066+966501234567\u2069');
    expect(text).not.toContain('966501234567+');
    // Every phone-like run sits inside a pair: an opening mark before it, its closing mark right after.
    for (const run of text.match(/\+?[\d ]*\d/g) ?? []) {
      expect(text).toMatch(new RegExp(`\u2066${run.replace('+', '\\+')}\u2069`));
    }
  });
});
