import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineInputFields, defineSearch } from 'zapier-platform-core';
import { clientFor } from '../lib/http';
import { bool, labelsOf, msg, optional, parseInput, positiveInt } from '../lib/inputs';
import { DROPDOWN, SEARCH, dynamicRef } from '../lib/keys';
import { stockLevel } from '../lib/resources/cashier';
import { lazy } from '../lib/zod';

const inputFields = defineInputFields([
  {
    key: 'branch_id',
    label: 'Branch',
    helpText:
      'The branch whose stock to read, as listed in the back office under Branches. Leave blank to read the Variant’s stock in every branch.',
    placeholder: '2',
    dynamic: dynamicRef(DROPDOWN.branches),
    type: 'integer',
    required: false,
  },
  {
    key: 'variant_id',
    label: 'Variant',
    helpText:
      'The product variant (e.g. a size) from the back office catalogue, or map the Variant ID of a receipt line or a Stock Low trigger. Leave blank for every variant of the Branch.',
    placeholder: '118',
    dynamic: dynamicRef(DROPDOWN.variants),
    type: 'integer',
    required: false,
  },
  {
    key: 'low_only',
    label: 'Low Stock Only',
    helpText:
      'Yes to find only levels the cashier counts as low (at or under the reorder point set in the back office).',
    type: 'boolean',
    required: false,
  },
]);

const Input = lazy((z) =>
  z
    .object({
      branch_id: optional(positiveInt()),
      variant_id: optional(positiveInt()),
      low_only: optional(bool()),
    })
    .refine((i) => i.branch_id || i.variant_id, {
      message: msg('choose the Branch, the Variant or both', 'اختر الفرع أو الصنف أو كليهما'),
      path: ['branch_id'],
    }),
);

export const performFindStockLevel = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const { data } = await clientFor(z_, bundle, 'cashier').page('/stock/levels', {
    branch_id: input.branch_id,
    variant_id: input.variant_id,
    low_only: input.low_only,
    per_page: 25,
  });
  return data.map((s) => stockLevel.present(s));
};

export const findStockLevel = defineSearch({
  key: SEARCH.findStockLevel,
  noun: 'Stock Level',
  display: {
    label: 'Find Stock Level',
    description: 'Finds a stock level: what a branch holds of a variant, with its reorder point.',
  },
  operation: {
    inputFields,
    perform: performFindStockLevel,
    sample: stockLevel.sample,
    outputFields: stockLevel.outputFields,
  },
});
