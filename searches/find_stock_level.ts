import { LIST } from '../lib/dropdown-lists';
import { choicesOf } from '../lib/dropdowns';
import { defineSearch } from 'zapier-platform-core';
import { anyOf, declareInputs, input } from '../lib/inputs';
import { SEARCH } from '../lib/keys';
import { performOn } from '../lib/operation';
import { stockLevel } from '../lib/resources/cashier';
import { throttleOf } from '../lib/throttle';

const inputs = declareInputs(
  {
    branch_id: input.positiveInt({
      label: 'Branch',
      helpText:
        'The branch whose stock to read, as listed in the back office under Branches. Leave blank to read the Variant’s stock in every branch.',
      placeholder: '2',
      ...choicesOf(LIST.branches),
      type: 'integer',
    }),
    variant_id: input.positiveInt({
      label: 'Variant',
      helpText:
        'The product variant (e.g. a size) from the back office catalogue, or map the Variant ID of a receipt line or a Stock Low trigger. Leave blank for every variant of the Branch.',
      placeholder: '118',
      ...choicesOf(LIST.variants),
      type: 'integer',
    }),
    low_only: input.bool({
      label: 'Low Stock Only',
      helpText:
        'Yes to find only levels the cashier counts as low (at or under the reorder point set in the back office).',
    }),
  },
  [
    anyOf(['branch_id', 'variant_id'], {
      en: 'choose the Branch, the Variant or both',
      ar: 'اختر الفرع أو الصنف أو كليهما',
    }),
  ],
);

export const performFindStockLevel = performOn('cashier', inputs, async (_z, _bundle, input, client) => {
  const { data } = await client.page('/stock/levels', { ...inputs.request(input), per_page: 25 });
  return data.map((s) => stockLevel.present(s));
});

export const findStockLevel = defineSearch({
  key: SEARCH.findStockLevel,
  noun: 'Stock Level',
  display: {
    label: 'Find Stock Level',
    description:
      'Finds a branch’s stock levels: what it holds of a variant, with its reorder point and suggested order. Use it before promising an item, or to list what is low at a branch. Returns one level per branch and variant.',
  },
  operation: {
    throttle: throttleOf(performFindStockLevel),
    inputFields: inputs.fields,
    perform: performFindStockLevel,
    sample: stockLevel.sample,
    outputFields: stockLevel.outputFields,
  },
});
