import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineInputFields, defineSearch } from 'zapier-platform-core';
import { clientFor } from '../lib/http';
import { labelsOf, parseInput, segmentId } from '../lib/inputs';
import { DROPDOWN, SEARCH, dynamicRef } from '../lib/keys';
import { path } from '../lib/paths';
import { order } from '../lib/resources/cashier';
import { lazy } from '../lib/zod';

const inputFields = defineInputFields([
  {
    key: 'order_id',
    label: 'Order',
    helpText:
      'Map the Order ID from an earlier step: the Create Order action or the Order Status Changed trigger. The cashier interface does not list its orders, so there is nothing to choose from here.',
    placeholder: '01JDAD4E5F6G7H8J9K0M1N2P3Q',
    dynamic: dynamicRef(DROPDOWN.orders),
    required: true,
  },
]);

const Input = lazy((z) => z.object({ order_id: segmentId() }));

export const performFindOrder = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const found = await clientFor(z_, bundle, 'cashier').find(path`/orders/${input.order_id}`);
  return found ? [order.present(found)] : [];
};

export const findOrder = defineSearch({
  key: SEARCH.findOrder,
  noun: 'Order',
  display: {
    label: 'Find Order',
    description: 'Finds an order sent to a branch till, with its current status.',
  },
  operation: {
    inputFields,
    perform: performFindOrder,
    sample: order.sample,
    outputFields: order.outputFields,
  },
});
