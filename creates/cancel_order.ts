import { defineCreate } from 'zapier-platform-core';
import { unwrapOne } from '../lib/http';
import { declareInputs, input } from '../lib/inputs';
import { CREATE, DROPDOWN, SEARCH, dynamicRef, searchRef } from '../lib/keys';
import { performOn } from '../lib/operation';
import { path } from '../lib/path';
import { order } from '../lib/resources/cashier';
import { throttleOf } from '../lib/throttle';

const inputs = declareInputs({
  order_id: input.segmentId({
    label: 'Order',
    helpText:
      'Map the Order ID from the Create Order step or the Order Status Changed trigger, or find it with a Find Order step. The cashier interface does not list its orders, so there is nothing to choose from here.',
    placeholder: '01JDAD4E5F6G7H8J9K0M1N2P3Q',
    dynamic: dynamicRef(DROPDOWN.orders),
    search: searchRef(SEARCH.findOrder),
    required: true,
  }),
});

export const performCancelOrder = performOn('cashier', inputs, async (_z, _bundle, { order_id }, client) => {
  // Cancelling a cancelled order answers the same order again (spec §3): a retried step is harmless. A 409 the
  // spec leaves unnamed says the till can no longer cancel it: the step ends there, the till's reason quoted after.
  const { body } = await client.post(path`/orders/${order_id}/cancel`, undefined, {
    409: {
      kind: 'halt',
      text: {
        en: `Nothing was done: the till can no longer cancel order ${order_id}. If its receipt was already issued, the cashier decides on a refund.`,
        ar: `لم يُنفَّذ شيء: لم يعد بإمكان الصندوق إلغاء الطلب ${order_id}. إن صدر إيصاله فالقرار في الاسترداد للكاشير.`,
      },
    },
  });
  return order.present(unwrapOne(body));
});

export const cancelOrder = defineCreate({
  key: CREATE.cancelOrder,
  noun: 'Order',
  display: {
    label: 'Cancel Order',
    description:
      'Cancels an order sent to a till and withdraws it from the incoming-orders panel. Use it when a web shop or delivery app cancels an order. Returns the order, now cancelled; a receipt the till already issued stays for the cashier to refund.',
  },
  operation: {
    throttle: throttleOf(performCancelOrder),
    inputFields: inputs.fields,
    perform: performCancelOrder,
    sample: { ...order.sample, status: 'cancelled' },
    outputFields: order.outputFields,
  },
});
