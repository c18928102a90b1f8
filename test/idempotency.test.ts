import { derivedBookingRef, fingerprint, writeResult } from '../lib/idempotency';

/* Booking references derived through the app, replayed and varied field by field: test/hostile-writes.test.ts. */

describe('fingerprint', () => {
  it('is the same for the same Zap and inputs in any order, blanks counting as null', () => {
    const a = fingerprint('zap-1', { b: 2, a: { y: [1, undefined], x: null } });
    expect(fingerprint('zap-1', { a: { x: undefined, y: [1, null] }, b: 2 })).toBe(a);
    expect(a).toMatch(/^[0-9a-f]{64}$/);
  });

  it('differs for another Zap, another value or another key', () => {
    const a = fingerprint('zap-1', { a: 1 });
    expect(fingerprint('zap-2', { a: 1 })).not.toBe(a);
    expect(fingerprint(undefined, { a: 1 })).not.toBe(a);
    expect(fingerprint('zap-1', { a: 2 })).not.toBe(a);
    expect(fingerprint('zap-1', { b: 1 })).not.toBe(a);
    expect(fingerprint('zap-1', { a: '1' })).not.toBe(a);
  });
});

describe('derivedBookingRef', () => {
  it('is "zap-" and 32 hex digits of the fingerprint', () => {
    const parts = { starts_at: '2026-11-24T07:30:00.000Z', branch_id: 1 };
    expect(derivedBookingRef('zap-1', parts)).toBe(`zap-${fingerprint('zap-1', parts).slice(0, 32)}`);
  });
});

describe('writeResult', () => {
  it('reads a 201 as new and a 200 as a repeat, unless the answer says otherwise', () => {
    expect(writeResult(201, { data: { id: 7 } })).toEqual({ object: { id: 7 }, duplicate: false });
    expect(writeResult(200, { data: { id: 7 } })).toEqual({ object: { id: 7 }, duplicate: true });
    expect(writeResult(200, { data: { id: 7, duplicate: false } })).toEqual({
      object: { id: 7 },
      duplicate: false,
    });
    expect(writeResult(201, { data: { id: 7, duplicate: true } })).toEqual({
      object: { id: 7 },
      duplicate: true,
    });
  });
});
