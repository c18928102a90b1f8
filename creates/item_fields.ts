import { LIST } from '../lib/dropdown-lists';
import { choicesOf } from '../lib/dropdowns';
import { input } from '../lib/inputs';

/** Inputs create_item and update_item share: one declaration, so both read the same. */
export const itemInputs = <const R extends boolean>(required: R) => ({
  name_ar: input.text({
    label: 'Name (Arabic)',
    helpText: 'The item’s name as printed on Arabic receipts, e.g. `قهوة عربية`.',
    required,
  }),
  name_en: input.text({
    label: 'Name (English)',
    helpText: 'The item’s English name, e.g. Arabic Coffee.',
  }),
  category_id: input.positiveInt({
    label: 'Category',
    helpText: 'The catalogue category the item is listed under on the till.',
    placeholder: '4',
    ...choicesOf(LIST.categories),
    type: 'integer',
  }),
  default_price_sar: input.sar({
    label: 'Default Price (SAR)',
    helpText:
      'VAT-inclusive price, e.g. 9.00. Used for the single default variant when you give no Variants.',
    placeholder: '9.00',
    to: 'default_price_halalas',
  }),
});

/** A variant row's own inputs; `nameHelp` is the help of its Arabic name. */
const variantRow = (nameHelp: string) => ({
  variant_name_ar: input.text({ label: 'Variant Name (Arabic)', helpText: nameHelp }),
  sku: input.text({ label: 'SKU', helpText: 'Unique in the account, e.g. COF-AR-L.' }),
  barcode: input.text({ label: 'Barcode', helpText: 'Unique in the account (EAN/UPC), e.g. 6281007035431.' }),
  price_sar: input.sar({
    label: 'Price (SAR)',
    helpText: 'VAT-inclusive, e.g. 12.00.',
    placeholder: '12.00',
  }),
  is_default: input.bool({ label: 'Default Variant', helpText: 'Yes for the variant the till picks first.' }),
});

const ARABIC_NAME = 'The variant’s Arabic name, e.g. `كبير` (large).';

/*
 * The variants line items. Zapier forbids help text on a line-items field itself, so the first child carries the
 * guidance. Its Arabic name is `variant_name_ar`: keys must be unique across an action, children included, and
 * `name_ar` is the item's own (docs/assumptions.md).
 */

/** New variants (Create Item). */
export const variantsInput = (help: string) =>
  input.lines({ label: 'Variants' }, variantRow(`${help} ${ARABIC_NAME}`));

/** Variants that change stored ones (chosen, or matched by SKU or Barcode) or add new ones (Update Item). */
export const existingVariantsInput = (help: string) =>
  input.lines(
    { label: 'Variants' },
    {
      variant_id: input.positiveInt({
        label: 'Existing Variant',
        helpText: `${help} Choose the stored variant of the Item this row changes, or leave blank to match by SKU or Barcode.`,
        placeholder: '118',
        // The chosen item's own variants; every item's while the Item is mapped rather than chosen.
        ...choicesOf((given) => (given.item_id ? LIST.variantsOfItem : LIST.variants), {
          dependsOn: ['item_id'],
        }),
      }),
      ...variantRow(ARABIC_NAME),
    },
  );
