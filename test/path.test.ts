import { isUnsafeSegment, path, UnsafePathError } from '../lib/path';

/* Ids refused by label before this last guard, through the app: test/hostile-writes.test.ts. */

describe('path', () => {
  it('makes each value exactly one encoded segment', () => {
    expect(path`/orders/${'A/B?c#d'}/cancel`).toBe('/orders/A%2FB%3Fc%23d/cancel');
    expect(path`/items/${42}`).toBe('/items/42');
    expect(path`/branches`).toBe('/branches');
  });

  it.each(['', ' ', '.', '..', '%2e%2e', '%2E', ' .. '])(
    'refuses %j, which the URL parser would resolve',
    (id) => {
      expect(isUnsafeSegment(id)).toBe(true);
      expect(() => path`/orders/${id}/cancel`).toThrow(UnsafePathError);
    },
  );

  it('refuses a number that is not a safe whole number, and anything not text or a number', () => {
    for (const id of [1.5, Number.NaN, 2 ** 60]) expect(() => path`/items/${id}`).toThrow(UnsafePathError);
    expect(() => path`/items/${null as never}`).toThrow(UnsafePathError);
  });

  it('keeps dots inside an id', () => {
    expect(isUnsafeSegment('a..b')).toBe(false);
    expect(path`/receipts/${'R.1'}`).toBe('/receipts/R.1');
  });
});
