import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineInputFields, defineSearch } from 'zapier-platform-core';
import { clientFor } from '../lib/http';
import { labelsOf, parseInput, segmentId } from '../lib/inputs';
import { DROPDOWN, SEARCH, dynamicRef } from '../lib/keys';
import { path } from '../lib/paths';
import { receipt } from '../lib/resources/cashier';
import { lazy } from '../lib/zod';

const inputFields = defineInputFields([
  {
    key: 'receipt_id',
    label: 'Receipt',
    helpText:
      'Map the Receipt ID from an earlier step, e.g. the New Receipt trigger, or the Credit Note ID of the New Credit Note trigger: a credit note is found the same way. There is no list to choose from: the cashier interface lists receipts only from the oldest on.',
    placeholder: '01JDAB1C2D3E4F5G6H7J8K9M0N',
    dynamic: dynamicRef(DROPDOWN.receipts),
    required: true,
  },
]);

const Input = lazy((z) => z.object({ receipt_id: segmentId() }));

export const performFindReceipt = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  // The interface answers a credit note at the same address, with kind credit_note and refund_of set.
  const found = await clientFor(z_, bundle, 'cashier').find(path`/receipts/${input.receipt_id}`);
  return found ? [receipt.present(found)] : [];
};

export const findReceipt = defineSearch({
  key: SEARCH.findReceipt,
  noun: 'Receipt',
  display: {
    label: 'Find Receipt',
    description: 'Finds a sales receipt or credit note, with its lines and payments.',
  },
  operation: {
    inputFields,
    perform: performFindReceipt,
    sample: receipt.sample,
    outputFields: receipt.outputFields,
  },
});
