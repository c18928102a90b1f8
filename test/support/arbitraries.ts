import fc from 'fast-check';

/**
 * Strings of any code points, lone surrogates included: the range of `fc.string({ unit: 'binary' })`, without the
 * reverse map of all 1.1 million code points that fast-check builds when that arbitrary is made (1.3 s of CPU in
 * each test file that makes it), and without the tricky strings (`__proto__`…) it mixes in, which need that map.
 */
export const anyCodePoints = () =>
  fc.string({ unit: fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)) });
