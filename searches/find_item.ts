import { LIST } from '../lib/dropdown-lists';
import { choicesOf } from '../lib/dropdowns';
import { defineSearch } from 'zapier-platform-core';
import { anyOf, declareInputs, input } from '../lib/inputs';
import { SEARCH } from '../lib/keys';
import { withSar } from '../lib/money';
import { item, variantFields } from '../lib/resources/cashier';
import { f, outputFieldsOf } from '../lib/resources/define';
import { findOne, performOn } from '../lib/operation';
import { path } from '../lib/path';
import { throttleOf } from '../lib/throttle';

const inputs = declareInputs(
  {
    item_id: input.positiveInt({
      label: 'Item',
      helpText:
        'Choose the item from the catalogue, or map one from an earlier step (e.g. Create Item). Leave blank to find by SKU or Barcode.',
      placeholder: '311',
      ...choicesOf(LIST.items),
      type: 'integer',
    }),
    sku: input.text({
      label: 'SKU',
      helpText:
        'Used when no Item is chosen: the SKU of one of the item’s variants, as set in the back office catalogue, e.g. COF-AR-L.',
    }),
    barcode: input.text({
      label: 'Barcode',
      helpText:
        'Used when neither Item nor SKU is given: the barcode printed on the product and kept in the back office catalogue, e.g. 6281000001187.',
    }),
  },
  [
    anyOf(['item_id', 'sku', 'barcode'], {
      en: 'choose the Item, or give a SKU or a Barcode',
      ar: 'اختر الصنف، أو أدخل SKU أو الباركود',
    }),
  ],
);

/** The variant a SKU or barcode named (CONTRACT §8), labelled apart from the item's own variants. */
const matchedVariantFields = {
  id: { ...variantFields.id, label: 'Matched Variant ID' },
  plu: { ...variantFields.plu, label: 'Matched Variant PLU' },
  sku: { ...variantFields.sku, label: 'Matched Variant SKU' },
  barcode: { ...variantFields.barcode, label: 'Matched Variant Barcode' },
  name_ar: { ...variantFields.name_ar, label: 'Matched Variant Name (Arabic)' },
  price_halalas: { ...variantFields.price_halalas, label: 'Matched Variant Price' },
};

type Found = ReturnType<typeof item.present>;
type Variant = NonNullable<Found['variants']>[number];
type MatchedVariant = Pick<Variant, keyof typeof matchedVariantFields> & { price_sar?: string };

/**
 * The variant whose SKU or barcode is exactly the one searched (the input is trimmed; the comparison is of the
 * whole text, case included), or null: a server that matched loosely (other case, a prefix) does not make a
 * variant the one asked for.
 */
const matchedVariantOf = (found: Found, by: 'sku' | 'barcode', wanted: string): MatchedVariant | null => {
  const variant = found.variants?.find((v) => v[by] === wanted);
  if (!variant) return null;
  const { id, plu, sku, barcode, name_ar, price_halalas } = variant;
  return withSar({ id, plu, sku, barcode, name_ar, price_halalas });
};

export const performFindItem = performOn('cashier', inputs, async (_z, _bundle, input, client) => {
  if (input.item_id) {
    // Found by id, no variant was named: the fields stay empty rather than guess the default one.
    return findOne(client, path`/items/${input.item_id}`, (found) => ({
      ...item.present(found),
      matched_variant: null,
    }));
  }
  // SKUs and barcodes are unique per account (cashier spec §2): one of them names one item at most. An item the
  // list answered without a variant holding exactly the value (another case, a longer SKU) is not that item, and
  // returning it would make Find or Create skip the create.
  const [by, wanted] = input.sku
    ? (['sku', input.sku] as const)
    : (['barcode', input.barcode ?? ''] as const);
  const { data } = await client.page('/items', { [by]: wanted, per_page: 10 });
  return data.flatMap((i) => {
    const found = item.present(i);
    const matched = matchedVariantOf(found, by, wanted);
    return matched ? [{ ...found, matched_variant: matched }] : [];
  });
});

export const findItem = defineSearch({
  key: SEARCH.findItem,
  noun: 'Item',
  display: {
    label: 'Find Item',
    description:
      'Finds a catalogue item by the item chosen, an exact SKU or an exact barcode. Use it before Update Item, or with Create Item as Find or Create Item. Returns the item with its variants and, for a SKU or barcode, the variant that matched.',
  },
  operation: {
    throttle: throttleOf(performFindItem),
    inputFields: inputs.fields,
    perform: performFindItem,
    // As found by the SKU of the sample's second variant, so the sample shows a matched variant.
    sample: { ...item.sample, matched_variant: matchedVariantOf(item.sample, 'sku', 'COF-AR-L') },
    outputFields: [
      ...item.outputFields,
      ...outputFieldsOf({ matched_variant: f.object('Matched Variant', matchedVariantFields) }),
    ],
  },
});
