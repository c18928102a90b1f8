import { BIDI_CONTROLS, plainText, shortened } from '../lib/plain-text';

/* Through the error mapper and the dropdowns: test/errors.test.ts, test/dropdowns.test.ts. */

describe('plainText', () => {
  it.each([
    ['\u202eevil', 'evil'],
    ['a\u2066b\u2067c\u2068d\u2069e', 'abcde'],
    ['\u200e\u200f\u061c\u202a\u202b\u202c\u202dx', 'x'],
    ['one\ntwo\r\nthree\u2028four\u2029five', 'one two three four five'],
    ['  tab\there  \u0000 nul ', 'tab here nul'],
    ['الرياض - العليا', 'الرياض - العليا'],
  ])('%j → %j', (text, plain) => {
    expect(plainText(text)).toBe(plain);
    expect(plainText(text)).not.toMatch(BIDI_CONTROLS);
  });
});

describe('shortened', () => {
  it('keeps text within the bound and ends longer text with an ellipsis at the bound', () => {
    expect(shortened('abc', 3)).toBe('abc');
    expect(shortened('abcd', 3)).toBe('ab…');
    expect(shortened('x'.repeat(20_000), 100)).toHaveLength(100);
  });
});
