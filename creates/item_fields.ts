import { DROPDOWN, dynamicRef } from '../lib/keys';

/** Inputs create_item and update_item share: one definition, so both read the same. */
export const itemFields = (required: boolean) => [
  {
    key: 'name_ar',
    label: 'Name (Arabic)',
    helpText: 'The item’s name as printed on Arabic receipts, e.g. `قهوة عربية`.',
    required,
  },
  {
    key: 'name_en',
    label: 'Name (English)',
    helpText: 'The item’s English name, e.g. Arabic Coffee.',
    required: false,
  },
  {
    key: 'category_id',
    label: 'Category',
    helpText: 'The catalogue category the item is listed under on the till.',
    placeholder: '4',
    dynamic: dynamicRef(DROPDOWN.categories),
    type: 'integer' as const,
    required: false,
  },
  {
    key: 'default_price_sar',
    label: 'Default Price (SAR)',
    helpText:
      'VAT-inclusive price, e.g. 9.00. Used for the single default variant when you give no Variants.',
    placeholder: '9.00',
    required: false,
  },
];

/**
 * The variants line items. Zapier forbids help text on a line-items field itself, so the first child carries the
 * guidance. Its Arabic name is `variant_name_ar`: keys must be unique across an action, children included, and
 * `name_ar` is the item's own (README, Assumptions).
 */
export const variantsField = (help: string, withExisting: boolean) => ({
  key: 'variants',
  label: 'Variants',
  required: false,
  children: [
    ...(withExisting
      ? [
          {
            key: 'variant_id',
            label: 'Existing Variant',
            helpText: `${help} Choose the stored variant this row changes, or leave blank to match by SKU or Barcode.`,
            placeholder: '118',
            dynamic: dynamicRef(DROPDOWN.variants),
            required: false,
          },
        ]
      : []),
    {
      key: 'variant_name_ar',
      label: 'Variant Name (Arabic)',
      helpText: withExisting
        ? 'The variant’s Arabic name, e.g. `كبير` (large).'
        : `${help} The variant’s Arabic name, e.g. \`كبير\` (large).`,
      required: false,
    },
    { key: 'sku', label: 'SKU', helpText: 'Unique in the account, e.g. COF-AR-L.', required: false },
    { key: 'barcode', label: 'Barcode', helpText: 'Unique in the account (EAN/UPC).', required: false },
    {
      key: 'price_sar',
      label: 'Price (SAR)',
      helpText: 'VAT-inclusive, e.g. 12.00.',
      placeholder: '12.00',
      required: false,
    },
    {
      key: 'is_default',
      label: 'Default Variant',
      helpText: 'Yes for the variant the till picks first.',
      type: 'boolean' as const,
      required: false,
    },
  ],
});
