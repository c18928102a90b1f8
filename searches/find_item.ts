import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineInputFields, defineSearch } from 'zapier-platform-core';
import { clientFor } from '../lib/http';
import { labelsOf, msg, optional, parseInput, positiveInt, text } from '../lib/inputs';
import { DROPDOWN, SEARCH, dynamicRef } from '../lib/keys';
import { item } from '../lib/resources/cashier';
import { lazy } from '../lib/zod';

const inputFields = defineInputFields([
  {
    key: 'item_id',
    label: 'Item',
    helpText:
      'Choose the item from the catalogue, or map one from an earlier step (e.g. Create Item). Leave blank to find by SKU or Barcode.',
    dynamic: dynamicRef(DROPDOWN.items),
    type: 'integer',
    required: false,
  },
  {
    key: 'sku',
    label: 'SKU',
    helpText:
      'Used when no Item is chosen: the SKU of one of the item’s variants, as set in the back office catalogue, e.g. COF-AR-L.',
    required: false,
  },
  {
    key: 'barcode',
    label: 'Barcode',
    helpText:
      'Used when neither Item nor SKU is given: the barcode printed on the product and kept in the back office catalogue, e.g. 6281000001187.',
    required: false,
  },
]);

const Input = lazy((z) =>
  z
    .object({ item_id: optional(positiveInt()), sku: optional(text()), barcode: optional(text()) })
    .refine((i) => i.item_id || i.sku || i.barcode, {
      message: msg('choose the Item, or give a SKU or a Barcode', 'اختر الصنف، أو أدخل SKU أو الباركود'),
      path: ['item_id'],
    }),
);

export const performFindItem = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const client = clientFor(z_, bundle, 'cashier');
  if (input.item_id) {
    const found = await client.find(`/items/${input.item_id}`);
    return found ? [item.present(found)] : [];
  }
  // SKUs and barcodes are unique per account (cashier spec §2): one of them names one item at most.
  const query = input.sku ? { sku: input.sku } : { barcode: input.barcode };
  const { data } = await client.page('/items', { ...query, per_page: 10 });
  return data.map((i) => item.present(i));
};

export const findItem = defineSearch({
  key: SEARCH.findItem,
  noun: 'Item',
  display: {
    label: 'Find Item',
    description: 'Finds an item of the catalogue, with its variants, by the item chosen, a SKU or a barcode.',
  },
  operation: {
    inputFields,
    perform: performFindItem,
    sample: item.sample,
    outputFields: item.outputFields,
  },
});
