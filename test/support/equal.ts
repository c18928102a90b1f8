import { isDeepStrictEqual } from 'node:util';

/*
 * jest's toEqual and toStrictEqual for loops that compare thousands of values (property tests): node's strict
 * deep equality decides the equal case first, and jest's matcher runs only when it fails, to decide and to say
 * where the two differ. Strictly equal (same prototypes, own keys with undefined values, holes, -0, NaN) implies
 * both matchers' equal; jest's matcher builds an Error for its stack and walks the values with its testers on
 * every call, which was about a quarter of the presenter suite's CPU (12.5 s against 9 s in band).
 */

export const expectEqual = (actual: unknown, expected: unknown) => {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toEqual(expected);
};

export const expectStrictEqual = (actual: unknown, expected: unknown) => {
  if (!isDeepStrictEqual(actual, expected)) expect(actual).toStrictEqual(expected);
};
