import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineCreate, defineInputFields } from 'zapier-platform-core';
import { clientFor, unwrapOne } from '../lib/http';
import { labelsOf, msg, optional, parseInput, positiveInt, sar, text } from '../lib/inputs';
import { toVariantWrite, VariantInput } from '../lib/items';
import { CREATE } from '../lib/keys';
import { item } from '../lib/resources/cashier';
import { itemFields, variantsField } from './item_fields';
import { lazy } from '../lib/zod';

const inputFields = defineInputFields([
  ...itemFields(true),
  variantsField(
    'One row per size or flavour; leave empty for a single default variant at the Default Price. SKUs and barcodes must be unique in the account.',
    false,
  ),
]);

const Input = lazy((z) =>
  z
    .object({
      name_ar: text(),
      name_en: optional(text()),
      category_id: optional(positiveInt()),
      default_price_sar: optional(sar()),
      variants: optional(z.array(VariantInput())),
    })
    .refine(
      (i) => i.default_price_sar !== undefined || (i.variants ?? []).some((v) => v.price_sar !== undefined),
      {
        message: msg(
          'give a Default Price or a Price on at least one Variant',
          'أدخل السعر الافتراضي أو سعرًا لصنف فرعي واحد على الأقل',
        ),
        path: ['default_price_sar'],
      },
    ),
);

export const performCreateItem = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const variants = (input.variants ?? []).filter((v) => Object.values(v).some((x) => x !== undefined));
  const body = {
    name_ar: input.name_ar,
    name_en: input.name_en,
    category_id: input.category_id,
    default_price_halalas: input.default_price_sar,
    ...(variants.length
      ? { variants: variants.map((v) => toVariantWrite({ ...v, variant_id: undefined })) }
      : {}),
  };
  const { body: answer } = await clientFor(z_, bundle, 'cashier').post('/items', body);
  return item.present(unwrapOne(answer));
};

export const createItem = defineCreate({
  key: CREATE.createItem,
  noun: 'Item',
  display: {
    label: 'Create Item',
    description: 'Creates a catalogue item with its variants (sizes, SKUs, barcodes, prices) for the tills.',
  },
  operation: {
    inputFields,
    perform: performCreateItem,
    sample: item.sample,
    outputFields: item.outputFields,
  },
});
