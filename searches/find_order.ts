import { input } from '../lib/inputs';
import { DROPDOWN, SEARCH, dynamicRef } from '../lib/keys';
import { searchById } from '../lib/operation';
import { path } from '../lib/path';
import { order } from '../lib/resources/cashier';

export const findOrder = searchById({
  key: SEARCH.findOrder,
  noun: 'Order',
  display: {
    label: 'Find Order',
    description:
      'Finds an order sent to a branch till by its id. Use it to check whether the cashier accepted an order before telling the customer. Returns the order with its current status and total.',
  },
  api: 'cashier',
  input: {
    order_id: input.segmentId({
      label: 'Order',
      helpText:
        'Map the Order ID from an earlier step: the Create Order action or the Order Status Changed trigger. The cashier interface does not list its orders, so there is nothing to choose from here.',
      placeholder: '01JDAD4E5F6G7H8J9K0M1N2P3Q',
      dynamic: dynamicRef(DROPDOWN.orders),
      required: true,
    }),
  },
  path: (id) => path`/orders/${id}`,
  resource: order,
});
