import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineCreate, defineInputFields } from 'zapier-platform-core';
import { clientFor } from '../lib/http';
import { writeResult } from '../lib/idempotency';
import {
  bool,
  labelsOf,
  maxChars,
  msg,
  optional,
  parseInput,
  phone,
  positiveInt,
  quantity,
  sar,
  text,
} from '../lib/inputs';
import { CREATE, DROPDOWN, dynamicRef } from '../lib/keys';
import { order } from '../lib/resources/cashier';
import { lazy } from '../lib/zod';

const inputFields = defineInputFields([
  {
    key: 'external_id',
    label: 'Order Reference',
    helpText:
      'Map your source’s own order number (e.g. the web shop’s order id). The till never accepts the same reference twice, so a retried step cannot place a second order. The app never makes one up, because two identical orders can both be genuine.',
    placeholder: 'SHOP-10025',
    required: true,
  },
  {
    key: 'branch_id',
    label: 'Branch',
    helpText: 'The branch whose till receives the order on its incoming-orders panel.',
    placeholder: '2',
    dynamic: dynamicRef(DROPDOWN.branches),
    type: 'integer',
    required: true,
  },
  {
    key: 'lines',
    label: 'Order Lines',
    required: true,
    children: [
      {
        key: 'qty',
        label: 'Quantity',
        helpText:
          'One line per product: how many of it, more than 0 (decimals allowed for weighed goods). Name the product by Variant, PLU, SKU or Barcode; a line that matches nothing is kept as an open item with its Name and Unit Price.',
        placeholder: '2',
        type: 'number',
        required: true,
      },
      {
        key: 'variant_id',
        label: 'Variant',
        helpText:
          'The product and size, from the catalogue. Leave blank to name the product by PLU, SKU or Barcode instead.',
        placeholder: '118',
        dynamic: dynamicRef(DROPDOWN.variants),
        required: false,
      },
      { key: 'plu', label: 'PLU', helpText: 'The till’s product code, e.g. V118.', required: false },
      { key: 'sku', label: 'SKU', helpText: 'The product’s SKU, e.g. COF-AR-L.', required: false },
      { key: 'barcode', label: 'Barcode', helpText: 'The product’s barcode (EAN/UPC).', required: false },
      {
        key: 'name',
        label: 'Name',
        helpText: 'Shown on the till; needed for an open item.',
        required: false,
      },
      {
        key: 'unit_price_sar',
        label: 'Unit Price (SAR)',
        helpText: 'Price of one, VAT included, e.g. 12.50. Leave blank to use the catalogue price.',
        placeholder: '12.50',
        required: false,
      },
    ],
  },
  {
    key: 'customer_name',
    label: 'Customer Name',
    helpText: 'Shown to the cashier with the order.',
    required: false,
  },
  {
    key: 'customer_phone',
    label: 'Customer Phone',
    helpText: 'The customer’s mobile in any Saudi form (0501234567, +966 50 123 4567).',
    placeholder: '0501234567',
    required: false,
  },
  {
    key: 'order_type',
    label: 'Order Type',
    helpText: 'As your till names it, e.g. pickup or delivery. Leave blank for the till’s default.',
    required: false,
  },
  {
    key: 'prepaid',
    label: 'Prepaid',
    helpText: 'Yes if the customer already paid (e.g. online), so the till does not ask for payment.',
    type: 'boolean',
    default: 'false',
    required: false,
  },
]);

const Line = lazy((z) =>
  z
    .object({
      variant_id: optional(positiveInt()),
      plu: optional(text()),
      sku: optional(text()),
      barcode: optional(text()),
      name: optional(text()),
      qty: quantity(),
      unit_price_sar: optional(sar()),
    })
    .refine((l) => l.variant_id || l.plu || l.sku || l.barcode || l.name, {
      message: msg(
        'name the product by Variant, PLU, SKU, Barcode or Name',
        'حدّد المنتج بالصنف أو PLU أو SKU أو الباركود أو الاسم',
      ),
      path: ['variant_id'],
    }),
);

const Input = lazy((z) =>
  z.object({
    external_id: maxChars(100),
    branch_id: positiveInt(),
    lines: z
      .array(Line(), { error: msg('add at least one line', 'أضف بندًا واحدًا على الأقل') })
      .min(1, msg('add at least one line', 'أضف بندًا واحدًا على الأقل')),
    customer_name: optional(text()),
    customer_phone: optional(phone()),
    order_type: optional(text()),
    prepaid: optional(bool()),
  }),
);

export const performCreateOrder = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const customer =
    input.customer_name || input.customer_phone
      ? { name: input.customer_name, phone: input.customer_phone }
      : undefined;
  const body = {
    external_id: input.external_id,
    branch_id: input.branch_id,
    order_type: input.order_type,
    prepaid: input.prepaid,
    customer,
    lines: input.lines.map((l) => ({
      variant_id: l.variant_id,
      plu: l.plu,
      sku: l.sku,
      barcode: l.barcode,
      name: l.name,
      qty: l.qty,
      unit_price_halalas: l.unit_price_sar,
    })),
  };
  const { status, body: answer } = await clientFor(z_, bundle, 'cashier').post('/orders', body);
  const { object, duplicate } = writeResult(status, answer);
  return { ...order.present(object), duplicate };
};

export const createOrder = defineCreate({
  key: CREATE.createOrder,
  noun: 'Order',
  display: {
    label: 'Create Order',
    description:
      'Sends an order to a branch till’s incoming-orders panel, where the cashier accepts it and the receipt is issued.',
  },
  operation: {
    inputFields,
    perform: performCreateOrder,
    sample: { ...order.sample, duplicate: false },
    outputFields: [
      { key: 'duplicate', label: 'Already Sent Before (Same Order Reference)', type: 'boolean' },
      ...order.outputFields,
    ],
  },
});
