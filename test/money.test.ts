import fc from 'fast-check';
import { halalasToSar, MoneyFormatError, sarToHalalas, withSar } from '../lib/money';

describe('money (CONTRACT §5)', () => {
  it.each([
    ['12.50', 1250],
    ['12.5', 1250],
    ['12', 1200],
    ['0.01', 1],
    ['0', 0],
    [' 1,250.75 ', 125075],
  ])('%s SAR is %d halalas', (text, halalas) => {
    expect(sarToHalalas(text)).toBe(halalas);
  });

  it.each([
    ['12.505', /more than two decimals/],
    ['-1', /negative/],
    ['abc', /not an amount/],
    ['', /not an amount/],
    ['1e3', /not an amount/],
    ['12,50', /not an amount/],
    ['1,25', /not an amount/],
    ['12.', /not an amount/],
  ])('refuses %p', (text, message) => {
    expect(() => sarToHalalas(text)).toThrow(MoneyFormatError);
    expect(() => sarToHalalas(text)).toThrow(message);
  });

  it('formats halalas with two decimals, negatives included', () => {
    expect(halalasToSar(1250)).toBe('12.50');
    expect(halalasToSar(5)).toBe('0.05');
    expect(halalasToSar(-250)).toBe('-2.50');
    expect(halalasToSar(0)).toBe('0.00');
  });

  it('round-trips every non-negative amount exactly (property)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 0, max: Number.MAX_SAFE_INTEGER }), (halalas) => {
        expect(sarToHalalas(halalasToSar(halalas))).toBe(halalas);
      }),
      { numRuns: 2000 },
    );
  });

  it('reads every two-decimal text to the same amount it writes (property)', () => {
    fc.assert(
      fc.property(fc.nat({ max: 10_000_000 }), fc.integer({ min: 0, max: 99 }), (riyals, cents) => {
        const text = `${riyals}.${String(cents).padStart(2, '0')}`;
        expect(halalasToSar(sarToHalalas(text))).toBe(text);
      }),
    );
  });

  it('adds a _sar sibling to every integer *_halalas field, nested ones too', () => {
    const out = withSar({
      total_halalas: 1250,
      label: 'x',
      lines: [{ unit_halalas: 5, net_halalas: null }],
      z_report: { sales: { total_halalas: -3 } },
    });
    expect(out).toEqual({
      total_halalas: 1250,
      total_sar: '12.50',
      label: 'x',
      lines: [{ unit_halalas: 5, unit_sar: '0.05', net_halalas: null }],
      z_report: { sales: { total_halalas: -3, total_sar: '-0.03' } },
    });
  });
});

it('recomputes a stale _sar that came in with the object', () => {
  expect(withSar({ total_sar: '35.00', total_halalas: 1100 })).toEqual({
    total_sar: '11.00',
    total_halalas: 1100,
  });
});
