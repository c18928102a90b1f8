import * as cashier from '../../lib/resources/cashier';
import { decoratedKeys, type AnyResource } from '../support/schemas';

/* Every resource's fields, samples and presentation are held alike in define, fields and present's suites. */

describe('stock level (CONTRACT §2)', () => {
  it('gets the id <branch_id>:<variant_id>', () => {
    const level = cashier.stockLevel.present({
      branch_id: 3,
      variant_id: 41,
      sku: 'DATE-CAKE',
      name_ar: 'كعكة التمر',
      qty: 2,
      reorder_point: '5',
      suggested_qty: '20',
    });

    expect(level.id).toBe('3:41');
    expect(decoratedKeys(cashier.stockLevel as unknown as AnyResource)).toEqual(['id']);
    expect(cashier.stockLevel.outputFields.map((o) => o.key)).toContain('id');
    // Quantities are decimal strings; a number is read as one.
    expect(level.qty).toBe('2');
  });

  it('two variants of one branch get different ids', () => {
    const a = cashier.stockLevel.present({ branch_id: 1, variant_id: 118 });
    const b = cashier.stockLevel.present({ branch_id: 11, variant_id: 18 });
    expect(a.id).not.toBe(b.id);
  });
});
