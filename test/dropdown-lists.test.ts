import { LIST } from '../lib/dropdown-lists';

/*
 * The lists behind every dropdown, on their own: the labels a Zap builder picks from and the queries each list asks.
 * test/dropdowns.test.ts runs them through the hidden triggers and the choices.perform dropdowns.
 */

describe('dropdown lists', () => {
  it('labels a branch with its main name and the Arabic beside it, or its number when it has no name', () => {
    expect(LIST.branches.label({ id: 2, name_en: 'Riyadh - Olaya', name_ar: 'الرياض - العليا' })).toBe(
      'Riyadh - Olaya (الرياض - العليا)',
    );
    expect(LIST.branches.label({ id: 2, name_ar: 'العليا' })).toBe('العليا');
    expect(LIST.branches.label({ id: 7 })).toBe('Branch 7');
  });

  it('labels a patient with the file number, and an invoice with its number, total in SAR and status', () => {
    expect(LIST.patients.label({ name_en: 'Reem Alharbi', name_ar: 'ريم الحربي', file_no: 'RYD-1' })).toBe(
      'Reem Alharbi (ريم الحربي) · File RYD-1',
    );
    expect(
      LIST.invoices.label({
        number: 'INV-1',
        total_halalas: 46000,
        status: 'partially_paid',
        issued_at: '2026-11-21T10:00:00+03:00',
      }),
    ).toBe('INV-1 · 460.00 SAR · partially paid 2026-11-21');
  });

  it('gives one option per variant, with the item, the variant, its SKU and its price', () => {
    const options = LIST.variants.options([
      {
        id: 311,
        name_en: 'Arabic Coffee',
        name_ar: 'قهوة عربية',
        variants: [
          { id: 118, name_ar: 'كبير', sku: 'COF-AR-L', price_halalas: 1200 },
          { id: 119, price_halalas: 900 },
        ],
      },
      { id: 312, name_en: 'No variants' },
    ]);
    expect(options).toEqual([
      { id: '118', label: 'Arabic Coffee (قهوة عربية) – كبير · SKU COF-AR-L · 12.00 SAR' },
      { id: '119', label: 'Arabic Coffee (قهوة عربية) · 9.00 SAR' },
    ]);
  });

  it('derives clinic branches, practitioners and types from recent appointments, busiest first, narrowed as given', () => {
    const rows = [{ branch_id: 1 }, { branch_id: 2 }, { branch_id: 1 }];
    expect(LIST.clinicBranches.options!(rows)).toEqual([
      { id: '1', label: 'Clinic Branch 1 · 2 recent appointments' },
      { id: '2', label: 'Clinic Branch 2 · 1 recent appointment' },
    ]);
    const query = LIST.practitioners.query!({ branch_id: '2' });
    expect(query).toMatchObject({ branch_id: '2', practitioner_id: undefined });
    expect(Date.parse(String(query.from))).toBeLessThan(Date.now() - 59 * 24 * 3600 * 1000);
  });

  it('the lists the cashier cannot give offer nothing: they have no path', () => {
    for (const list of [LIST.orders, LIST.receipts, LIST.tillSessions]) expect('path' in list).toBe(false);
  });
});
