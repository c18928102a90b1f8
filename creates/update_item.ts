import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineCreate, defineInputFields } from 'zapier-platform-core';
import { clientFor, unwrapOne } from '../lib/http';
import { labelsOf, msg, oneOf, optional, parseInput, positiveInt, sar, text } from '../lib/inputs';
import { mergeVariants, VariantInput } from '../lib/items';
import { CREATE, DROPDOWN, SEARCH, dynamicRef, searchRef } from '../lib/keys';
import { item } from '../lib/resources/cashier';
import { itemFields, variantsField } from './item_fields';
import { lazy } from '../lib/zod';

const inputFields = defineInputFields([
  {
    key: 'item_id',
    label: 'Item',
    helpText: 'Choose the item, or map one found by the Find Item step (by SKU or barcode).',
    dynamic: dynamicRef(DROPDOWN.items),
    search: searchRef(SEARCH.findItem),
    required: true,
  },
  ...itemFields(false),
  variantsField(
    'Only rows you give are changed or added; leave empty to keep the variants as they are.',
    true,
  ),
  {
    key: 'variants_mode',
    label: 'Other Variants',
    helpText:
      'What happens to stored variants you did not list in Variants. Keep them (the safe default), or remove them so the item has exactly the variants listed.',
    choices: { merge: 'Keep them', replace: 'Remove them' },
    default: 'merge',
    required: false,
  },
]);

const Input = lazy((z) =>
  z
    .object({
      item_id: positiveInt(),
      name_ar: optional(text()),
      name_en: optional(text()),
      category_id: optional(positiveInt()),
      default_price_sar: optional(sar()),
      variants: optional(z.array(VariantInput())),
      variants_mode: optional(oneOf(['merge', 'replace'] as const)),
    })
    .refine(
      (i) =>
        [i.name_ar, i.name_en, i.category_id, i.default_price_sar].some((v) => v !== undefined) ||
        (i.variants ?? []).some((v) => Object.values(v).some((x) => x !== undefined)),
      {
        message: msg('give at least one field to change', 'أدخل حقلًا واحدًا على الأقل لتغييره'),
        path: ['item_id'],
      },
    ),
);

export const performUpdateItem = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const client = clientFor(z_, bundle, 'cashier');
  const given = (input.variants ?? []).filter((v) => Object.values(v).some((x) => x !== undefined));
  const body: Record<string, unknown> = {
    name_ar: input.name_ar,
    name_en: input.name_en,
    category_id: input.category_id,
    default_price_halalas: input.default_price_sar,
  };
  // Arrays replace what is stored (spec §4 rule 1): send one only when the user gave rows, and then only after
  // reading the stored variants, so their ids are kept and none is deleted by accident.
  if (given.length) {
    const stored = unwrapOne(await client.get(`/items/${input.item_id}`)).variants;
    body.variants = mergeVariants(Array.isArray(stored) ? stored : [], given, input.variants_mode ?? 'merge');
  }
  const { body: answer } = await client.put(`/items/${input.item_id}`, body);
  return item.present(unwrapOne(answer));
};

export const updateItem = defineCreate({
  key: CREATE.updateItem,
  noun: 'Item',
  display: {
    label: 'Update Item',
    description:
      'Updates a catalogue item’s names, category, price or variants; variants you do not mention are kept.',
  },
  operation: {
    inputFields,
    perform: performUpdateItem,
    sample: item.sample,
    outputFields: item.outputFields,
  },
});
