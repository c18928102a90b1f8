import fc from 'fast-check';

/**
 * Strings of any code points, lone surrogates included: what `fc.string({ unit: 'binary' })` generates, without the
 * reverse map of all 1.1 million code points that fast-check builds when that arbitrary is made (1.3 s of CPU in
 * each test file that makes it).
 */
export const anyCodePoints = (constraints: { minLength?: number; maxLength?: number } = {}) =>
  fc.string({
    ...constraints,
    unit: fc.integer({ min: 0, max: 0x10ffff }).map((cp) => String.fromCodePoint(cp)),
  });
