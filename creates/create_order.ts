import { LIST } from '../lib/dropdown-lists';
import { choicesOf } from '../lib/dropdowns';
import { defineCreate } from 'zapier-platform-core';
import { writeResult } from '../lib/idempotency';
import { anyOf, declareInputs, input } from '../lib/inputs';
import { CREATE } from '../lib/keys';
import { performOn } from '../lib/operation';
import { order } from '../lib/resources/cashier';
import { throttleOf } from '../lib/throttle';

const inputs = declareInputs({
  external_id: input.maxChars(100)({
    group: 'order',
    label: 'Order Reference',
    helpText:
      'Map your source’s own order number (e.g. the web shop’s order id). The till never accepts the same reference twice, so a retried step cannot place a second order. The app never makes one up, because two identical orders can both be genuine.',
    placeholder: 'SHOP-10025',
    required: true,
  }),
  branch_id: input.positiveInt({
    group: 'order',
    label: 'Branch',
    helpText: 'The branch whose till receives the order on its incoming-orders panel.',
    placeholder: '2',
    ...choicesOf(LIST.branches),
    type: 'integer',
    required: true,
  }),
  lines: input.lines(
    { label: 'Order Lines', required: true, group: 'order' },
    {
      qty: input.quantity({
        label: 'Quantity',
        helpText:
          'One line per product: how many of it, more than 0 (decimals allowed for weighed goods). Name the product by Variant, PLU, SKU or Barcode; a line that matches nothing is kept as an open item with its Name and Unit Price.',
        placeholder: '2',
        required: true,
      }),
      variant_id: input.positiveInt({
        label: 'Variant',
        helpText:
          'The product and size, from the catalogue. Leave blank to name the product by PLU, SKU or Barcode instead.',
        placeholder: '118',
        ...choicesOf(LIST.variants),
      }),
      plu: input.text({ label: 'PLU', helpText: 'The till’s product code, e.g. V118.' }),
      sku: input.text({ label: 'SKU', helpText: 'The product’s SKU, e.g. COF-AR-L.' }),
      barcode: input.text({
        label: 'Barcode',
        helpText: 'The product’s barcode (EAN/UPC), e.g. 6281007035431.',
      }),
      name: input.text({
        label: 'Name',
        helpText: 'Shown on the till; needed for an open item, e.g. Iced Latte (Large).',
      }),
      unit_price_sar: input.sar({
        label: 'Unit Price (SAR)',
        helpText: 'Price of one, VAT included, e.g. 12.50. Leave blank to use the catalogue price.',
        placeholder: '12.50',
        to: 'unit_price_halalas',
      }),
    },
    [
      anyOf(['variant_id', 'plu', 'sku', 'barcode', 'name'], {
        en: 'name the product by Variant, PLU, SKU, Barcode or Name',
        ar: 'حدّد المنتج بالصنف أو PLU أو SKU أو الباركود أو الاسم',
      }),
    ],
  ),
  customer_name: input.text({
    group: 'customer',
    label: 'Customer Name',
    helpText: 'Shown to the cashier with the order, e.g. Sara Alqahtani.',
    to: 'customer.name',
  }),
  customer_phone: input.phone({
    group: 'customer',
    label: 'Customer Phone',
    helpText: 'The customer’s mobile in any Saudi form (0501234567, +966 50 123 4567).',
    placeholder: '0501234567',
    to: 'customer.phone',
  }),
  order_type: input.text({
    group: 'order',
    label: 'Order Type',
    helpText: 'As your till names it, e.g. pickup or delivery. Leave blank for the till’s default.',
  }),
  prepaid: input.bool({
    group: 'order',
    label: 'Prepaid',
    helpText: 'Yes if the customer already paid (e.g. online), so the till does not ask for payment.',
    default: 'false',
  }),
});

export const performCreateOrder = performOn('cashier', inputs, async (_z, _bundle, input, client) => {
  const { status, body: answer } = await client.post('/orders', inputs.request(input));
  const { object, duplicate } = writeResult(status, answer);
  return { ...order.present(object), duplicate };
});

export const createOrder = defineCreate({
  key: CREATE.createOrder,
  noun: 'Order',
  display: {
    label: 'Create Order',
    description:
      'Sends an order to a branch till’s incoming-orders panel, where the cashier accepts it and the receipt is issued (no payment is taken). Use it for orders from a web shop, a delivery app or a form. Returns the order with its status; a replay with the same Order Reference returns the same order (duplicate true).',
  },
  operation: {
    throttle: throttleOf(performCreateOrder),
    inputFieldGroups: [
      { key: 'order', label: 'Order', emphasize: true },
      { key: 'customer', label: 'Customer' },
    ],
    inputFields: inputs.fields,
    perform: performCreateOrder,
    sample: { ...order.sample, duplicate: false },
    outputFields: [
      { key: 'duplicate', label: 'Already Sent Before (Same Order Reference)', type: 'boolean' },
      ...order.outputFields,
    ],
  },
});
