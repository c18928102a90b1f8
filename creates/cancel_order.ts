import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineCreate, defineInputFields } from 'zapier-platform-core';
import { clientFor, unwrapOne } from '../lib/http';
import { languageOf, say } from '../lib/i18n';
import { labelsOf, parseInput, segmentId } from '../lib/inputs';
import { CREATE, DROPDOWN, SEARCH, dynamicRef, searchRef } from '../lib/keys';
import { path } from '../lib/paths';
import { order } from '../lib/resources/cashier';
import { lazy } from '../lib/zod';

const inputFields = defineInputFields([
  {
    key: 'order_id',
    label: 'Order',
    helpText:
      'Map the Order ID from the Create Order step or the Order Status Changed trigger, or find it with a Find Order step. The cashier interface does not list its orders, so there is nothing to choose from here.',
    placeholder: '01JDAD4E5F6G7H8J9K0M1N2P3Q',
    dynamic: dynamicRef(DROPDOWN.orders),
    search: searchRef(SEARCH.findOrder),
    required: true,
  },
]);

const Input = lazy((z) => z.object({ order_id: segmentId() }));

export const performCancelOrder = async (z_: ZObject, bundle: Bundle) => {
  const { order_id } = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const { status, body } = await clientFor(z_, bundle, 'cashier').attempt(
    'POST',
    path`/orders/${order_id}/cancel`,
    { handle: [409] },
  );
  if (status === 409) {
    const message = unwrapOne(body).message;
    const said = typeof message === 'string' ? ` (${message})` : '';
    throw new z_.errors.HaltedError(
      say(languageOf(bundle), {
        en: `Nothing was done: the till can no longer cancel order ${order_id}${said}. If its receipt was already issued, the cashier decides on a refund.`,
        ar: `لم يُنفَّذ شيء: لم يعد بإمكان الصندوق إلغاء الطلب ${order_id}${said}. إن صدر إيصاله فالقرار في الاسترداد للكاشير.`,
      }),
    );
  }
  // Cancelling a cancelled order answers the same order again (spec §3): a retried step is harmless.
  return order.present(unwrapOne(body));
};

export const cancelOrder = defineCreate({
  key: CREATE.cancelOrder,
  noun: 'Order',
  display: {
    label: 'Cancel Order',
    description:
      'Cancels an order sent to a till and withdraws it from the incoming-orders panel; an issued receipt stays for the cashier to refund.',
  },
  operation: {
    inputFields,
    perform: performCancelOrder,
    sample: { ...order.sample, status: 'cancelled' },
    outputFields: order.outputFields,
  },
});
