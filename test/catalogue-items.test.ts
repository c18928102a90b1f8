import { itemHolds, mergeVariants, toVariantWrite } from '../lib/catalogue-items';

const stored = [
  { id: 1, name_ar: 'صغير', sku: 'S', barcode: null, price_halalas: 900, is_default: true, plu: '001' },
  { id: 2, name_ar: 'كبير', sku: 'L', barcode: '628', price_halalas: 1200, is_default: false },
  { id: 3, name_ar: 'عائلي', sku: null, barcode: null, price_halalas: 2000, is_default: false },
];

describe('toVariantWrite', () => {
  it('sends a variant row under ItemWrite’s names', () => {
    expect(toVariantWrite({ variant_id: 5, variant_name_ar: 'x', price_sar: 100, is_default: true })).toEqual(
      {
        id: 5,
        name_ar: 'x',
        sku: undefined,
        barcode: undefined,
        price_halalas: 100,
        is_default: true,
      },
    );
  });
});

describe('mergeVariants', () => {
  it('keeps the id of the stored variant a row names by id, SKU or barcode, laying the change over it', () => {
    const rows = mergeVariants(stored, [{ sku: 'L', price_sar: 1300 }, { barcode: '628' }], 'replace');
    expect(rows).toEqual([
      { id: 2, name_ar: 'كبير', sku: 'L', barcode: '628', price_halalas: 1300, is_default: false },
      {
        id: undefined,
        name_ar: undefined,
        sku: undefined,
        barcode: '628',
        price_halalas: undefined,
        is_default: undefined,
      },
    ]);
  });

  it('in merge mode sends back the stored variants not mentioned, without the server’s own plu', () => {
    const rows = mergeVariants(stored, [{ variant_id: 3, price_sar: 2100 }], 'merge');
    expect(rows.map((r) => [r.id, r.price_halalas])).toEqual([
      [1, 900],
      [2, 1200],
      [3, 2100],
    ]);
    expect(rows[0]).not.toHaveProperty('plu');
  });

  it('finds a row without SKU or barcode by its Arabic name and price, so a replay does not add it twice', () => {
    const rows = mergeVariants(stored, [{ variant_name_ar: 'عائلي', price_sar: 2000 }], 'merge');
    expect(rows).toHaveLength(3);
    expect(mergeVariants(stored, [{ variant_name_ar: 'عائلي', price_sar: 2500 }], 'merge')).toHaveLength(4);
  });

  it('gives the default to the row the user makes default, taking it from the others', () => {
    const rows = mergeVariants(stored, [{ sku: 'L', is_default: true }], 'merge');
    expect(rows.filter((r) => r.is_default === true).map((r) => r.id)).toEqual([2]);
  });
});

describe('itemHolds', () => {
  const item = { name_ar: 'قهوة', category_id: 4, default_price_halalas: 900, variants: stored };

  it('holds a write whose fields and variants it has, in any order', () => {
    const rows = [...stored].reverse().map(({ plu: _plu, ...v }) => v) as never;
    expect(itemHolds(item, { name_ar: 'قهوة', variants: rows })).toBe(true);
    expect(itemHolds(item, { name_ar: 'قهوة', category_id: 4 })).toBe(true);
  });

  it('does not hold a write with another field, another count of variants or a variant it lacks', () => {
    expect(itemHolds(item, { name_ar: 'شاي' })).toBe(false);
    expect(itemHolds(item, { variants: [{ sku: 'S' }] })).toBe(false);
    expect(itemHolds(item, { variants: [{ sku: 'S' }, { sku: 'S' }, { sku: 'L' }] })).toBe(false);
    expect(itemHolds(item, { default_price_halalas: 1000 })).toBe(false);
  });
});
