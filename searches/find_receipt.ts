import { input } from '../lib/inputs';
import { DROPDOWN, SEARCH, dynamicRef } from '../lib/keys';
import { searchById } from '../lib/operation';
import { path } from '../lib/path';
import { receipt } from '../lib/resources/cashier';

export const findReceipt = searchById({
  key: SEARCH.findReceipt,
  noun: 'Receipt',
  display: {
    label: 'Find Receipt',
    description:
      'Finds a sales receipt or credit note by its id. Use it to copy a sale’s lines and payments into an accounting or loyalty app. Returns the receipt with its lines, payments and amounts in SAR.',
  },
  api: 'cashier',
  input: {
    receipt_id: input.segmentId({
      label: 'Receipt',
      helpText:
        'Map the Receipt ID from an earlier step, e.g. the New Receipt trigger, or the Credit Note ID of the New Credit Note trigger: a credit note is found the same way. There is no list to choose from: the cashier interface lists receipts only from the oldest on.',
      placeholder: '01JDAB1C2D3E4F5G6H7J8K9M0N',
      dynamic: dynamicRef(DROPDOWN.receipts),
      required: true,
    }),
  },
  // The interface answers a credit note at the same address, with kind credit_note and refund_of set.
  path: (id) => path`/receipts/${id}`,
  resource: receipt,
});
