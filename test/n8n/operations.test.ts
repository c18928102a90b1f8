/*
 * Every operation of the n8n action node against the Zapier app: for the same inputs on the same recorded answers,
 * the node's items are what the Zap step answers. Then the inputs Book and Find did not have (line items, dropdowns)
 * and what the node gives of Zapier's lock and write memory.
 */
import nock from 'nock';
import {
  ClinicCashier,
  OPERATIONS,
} from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashier/ClinicCashier.node';
import { inputDataFrom, ROWS } from '../../n8n-nodes-clinic-cashier/src/fields';
import { lockKeyOf, underLock } from '../../n8n-nodes-clinic-cashier/src/in-process';
import {
  fieldsOf,
  fieldsOfDefinition,
  type Definition as ZapierDefinition,
  type Operation,
} from '../../n8n-nodes-clinic-cashier/src/operations';
import type { NodeProperty } from '../../n8n-nodes-clinic-cashier/src/n8n-types';
import { updateItem } from '../../creates/update_item';
import { bookAppointment } from '../../creates/book_appointment';
import { createOrder } from '../../creates/create_order';
import {
  data,
  definition,
  ITEM_INPUT,
  ORDER_INPUT,
  recorded,
  replay,
  sent,
  WATER_INPUT,
  type Definition,
} from '../fixtures';
import { clockAtRecording } from '../support/recorder';
import { App, appTester, AUTH, cashierApi, cashierPath, clinicApi, clinicPath, useNock } from '../helpers';
import { BOOKING_INPUT, credentials, hookContext } from './context';

useNock();
beforeEach(() => clockAtRecording());
afterEach(() => jest.useRealTimers());

const node = new ClinicCashier();
type Items = Array<Array<{ json: Record<string, unknown> }>>;
type Perform = { operation: { perform: unknown } };
const definitions = App as unknown as {
  creates: Record<string, Perform>;
  searches: Record<string, Perform>;
  searchOrCreates: Record<string, { search: string; create: string }>;
};

const idOf = (op: Operation) => `${op.resource}.${op.operation}`;

/** An input the app declares for an action: `key`, or `child` of the line items `key`. */
const inputOf = (def: ZapierDefinition, key: string, child?: string) => {
  const field = fieldsOfDefinition(def).find((f) => f.key === key)!;
  return child ? field.children!.find((c) => c.key === child)! : field;
};

/**
 * The parameters n8n gives the node for a step's inputData: every input the operation shows, '' when left empty,
 * line items as a collection's rows.
 */
const paramsOf = (op: Operation, inputData: Record<string, unknown>) => ({
  resource: op.resource,
  operation: op.operation,
  ...Object.fromEntries(
    fieldsOf(op).map((f) => {
      const v = inputData[f.key];
      return [f.key, f.children ? { [ROWS]: v ?? [] } : (v ?? '')];
    }),
  ),
});

const execute = (params: Record<string, unknown>) =>
  node.execute.call(hookContext(params).context as never) as Promise<Items>;

/** What the Zap step answers for the same inputs, in a Zap whose id is the workflow's; a search's list as it is. */
const zapAnswers = async (op: Operation, inputData: Record<string, unknown>): Promise<unknown[]> => {
  const bundle = { authData: AUTH, inputData, meta: { zap: { id: 'wf-1' } } };
  const run = (perform: Perform) => appTester(perform.operation.perform as never, bundle as never);
  if (op.kind === 'create') return [await run(definitions.creates[op.parts[0]!.key]!)];
  if (op.kind === 'search') return (await run(definitions.searches[op.parts[0]!.key]!)) as unknown[];
  // Search-or-create, as Zapier runs the pair the app registers: the search, then the create when nothing is found.
  const pair = definitions.searchOrCreates[op.parts[0]!.key]!;
  const found = (await run(definitions.searches[pair.search]!)) as unknown[];
  return found.length ? found.slice(0, 1) : [await run(definitions.creates[pair.create]!)];
};

interface Case {
  inputData: Record<string, unknown>;
  /** The recorded requests one run makes, in order (nock definitions). */
  requests: () => Definition[];
}

const scenario = (name: string) => () => recorded(name);

/** One case per operation, on the recordings the Zapier suites replay. */
const CASES: Record<string, Case> = {
  'appointment.book': { inputData: BOOKING_INPUT, requests: scenario('book-appointment') },
  'appointment.cancel': {
    inputData: { appointment_id: data('cancel-appointment').id, reason: 'no_show' },
    requests: scenario('cancel-appointment'),
  },
  'order.create': { inputData: ORDER_INPUT, requests: scenario('create-order') },
  'order.cancel': { inputData: { order_id: data('cancel-order').id }, requests: scenario('cancel-order') },
  'item.create': { inputData: ITEM_INPUT, requests: scenario('create-item') },
  'item.update': {
    inputData: {
      item_id: '311',
      variants: [
        { sku: 'COF-AR-L', price_sar: '13' },
        { variant_name_ar: 'وسط', sku: 'COF-AR-M', price_sar: '11' },
      ],
    },
    requests: scenario('update-item-variants'),
  },
  'patient.find': { inputData: { file_no: 'RYD-004501' }, requests: scenario('find-patient-by-file') },
  'appointment.find': {
    inputData: { appointment_id: data('find-appointment-by-id').id },
    requests: scenario('find-appointment-by-id'),
  },
  'invoice.find': {
    inputData: { invoice_id: data('find-invoice-by-id').id },
    requests: scenario('find-invoice-by-id'),
  },
  'item.find': { inputData: { sku: 'COF-AR-L' }, requests: scenario('find-item-by-sku') },
  'order.find': {
    inputData: { order_id: data('find-order-by-id').id },
    requests: scenario('find-order-by-id'),
  },
  'receipt.find': {
    inputData: { receipt_id: data('find-receipt-by-id').id },
    requests: scenario('find-receipt-by-id'),
  },
  'stockLevel.find': { inputData: { branch_id: '1' }, requests: scenario('find-stock-level-by-branch') },
  'zReport.find': {
    inputData: { session_id: data('find-z-report-closed').id },
    requests: scenario('find-z-report-closed'),
  },
  // Nothing has the SKU yet: the search's lookup finds nothing, then Create Item makes the item (its own SKU
  // lookup first, the same request).
  'item.findOrCreate': {
    inputData: { sku: 'COF-TR-S', ...ITEM_INPUT },
    requests: () => [definition('create-item', { method: 'GET' }), ...recorded('create-item')],
  },
};

describe('every operation answers what the Zap step answers', () => {
  it('has a case for every operation, and no case for an operation it lacks', () => {
    expect(Object.keys(CASES).sort()).toEqual(OPERATIONS.map(idOf).sort());
  });

  it.each(OPERATIONS.map((op) => [idOf(op), op] as const))('%s', async (id, op) => {
    const c = CASES[id]!;
    const scopes = nock.define(c.requests());
    const [items] = await execute(paramsOf(op, c.inputData));
    expect(scopes.every((s) => s.isDone())).toBe(true);
    nock.define(c.requests());
    const zap = await zapAnswers(op, c.inputData);
    expect(zap.length).toBeGreaterThan(0);
    expect(items!.map((i) => i.json)).toEqual(zap);
  });

  it('Find or Create answers the item found, and creates nothing', async () => {
    const op = OPERATIONS.find((o) => idOf(o) === 'item.findOrCreate')!;
    const search = cashierApi()
      .get(cashierPath('/items'))
      .query({ sku: 'COF-AR-L', per_page: '10' })
      .times(2)
      .reply(replay('find-item-by-sku'));
    const inputData = { ...ITEM_INPUT, sku: 'COF-AR-L' };
    const [items] = await execute(paramsOf(op, inputData));
    expect(items).toHaveLength(1);
    expect(items![0]!.json).toEqual((await zapAnswers(op, inputData))[0]);
    expect(items![0]!.json).toMatchObject({ id: data('find-item-by-sku')[0].id });
    search.done();
  });

  it('every action and search of the Zapier app is an operation, and every search-or-create pair', () => {
    const keysOf = (kind: Operation['kind']) =>
      OPERATIONS.filter((op) => op.kind === kind).map((op) => op.parts.map((p) => p.key).join('+'));
    expect(keysOf('create').sort()).toEqual(Object.keys(definitions.creates).sort());
    expect(keysOf('search').sort()).toEqual(Object.keys(definitions.searches).sort());
    expect(keysOf('searchOrCreate').sort()).toEqual(
      Object.values(definitions.searchOrCreates)
        .map((p) => `${p.search}+${p.create}`)
        .sort(),
    );
  });

  it('names each operation once, its inputs once, and every resource as the app’s noun', () => {
    expect(new Set(OPERATIONS.map(idOf)).size).toBe(OPERATIONS.length);
    for (const op of OPERATIONS) {
      const keys = fieldsOf(op).map((f) => f.key);
      expect(new Set(keys).size).toBe(keys.length);
    }
    const resource = node.description.properties.find((p) => p.name === 'resource')!;
    // In n8n's alphabetical order.
    expect(resource.options!.map((o) => o.name)).toEqual([
      'Appointment',
      'Invoice',
      'Item',
      'Order',
      'Patient',
      'Receipt',
      'Stock Level',
      'Z-Report',
    ]);
    expect(OPERATIONS.map((op) => `${op.name} ${op.parts[0]!.noun}`)).toEqual(
      OPERATIONS.map((op) => op.label),
    );
  });

  it('says the app’s error for a step the interface refuses (an order the till can no longer cancel)', async () => {
    const op = OPERATIONS.find((o) => idOf(o) === 'order.cancel')!;
    nock.define(recorded('cancel-order-not-cancellable'));
    await expect(execute(paramsOf(op, { order_id: data('cancel-order').id }))).rejects.toThrow(
      /^Nothing was done: the till can no longer cancel order/,
    );
  });
});

// ------------------------------------------------------------------------------------------------ the input kinds

/** The property the node shows for an input of an operation. */
const propertyOf = (id: string, key: string): NodeProperty => {
  const op = OPERATIONS.find((o) => idOf(o) === id)!;
  return node.description.properties.find(
    (p) =>
      p.name === key &&
      (p.displayOptions?.show?.resource as string[] | undefined)?.[0] === op.resource &&
      (p.displayOptions?.show?.operation as string[] | undefined)?.[0] === op.operation,
  )!;
};

describe('line items', () => {
  it('shows Order Lines as rows of the app’s line inputs, and gives the perform Zapier’s array of rows', () => {
    const lines = propertyOf('order.create', 'lines');
    expect(lines).toMatchObject({
      type: 'fixedCollection',
      typeOptions: { multipleValues: true },
      required: true,
    });
    const [rows] = lines.options as Array<{ name: string; values: NodeProperty[] }>;
    expect(rows!.name).toBe(ROWS);
    // The app's line inputs, in n8n's alphabetical order of their labels.
    const children = inputOf(createOrder, 'lines').children!;
    expect(rows!.values.map((v) => v.name).sort()).toEqual(children.map((c) => c.key).sort());
    expect(rows!.values.map((v) => v.displayName)).toEqual([
      'Barcode',
      'Name',
      'PLU',
      'Quantity',
      'SKU',
      'Unit Price (SAR)',
      'Variant',
    ]);
    const op = OPERATIONS.find((o) => idOf(o) === 'order.create')!;
    // As n8n holds a row: every input of it, '' when left empty.
    const blankRow = Object.fromEntries(rows!.values.map((v) => [v.name, '']));
    const params: Record<string, unknown> = {
      ...paramsOf(op, ORDER_INPUT),
      lines: { [ROWS]: ORDER_INPUT.lines.map((line) => ({ ...blankRow, ...line })) },
    };
    expect(inputDataFrom(fieldsOf(op), (key) => params[key], 'Asia/Riyadh')).toEqual(ORDER_INPUT);
  });

  it('sends the order the Zap sends from the same rows', async () => {
    const op = OPERATIONS.find((o) => idOf(o) === 'order.create')!;
    const post = cashierApi()
      .post(cashierPath('/orders'), sent('create-order'))
      .reply(replay('create-order'));
    const [[out]] = (await execute(paramsOf(op, ORDER_INPUT))) as [[{ json: Record<string, unknown> }]];
    expect(out.json).toMatchObject({ id: data('create-order').id, duplicate: false });
    post.done();
  });

  it('an unset Yes/No in a row stays unset (Zapier leaves it out), unlike No', () => {
    const variants = propertyOf('item.update', 'variants');
    const [rows] = variants.options as Array<{ values: NodeProperty[] }>;
    const isDefault = rows!.values.find((v) => v.name === 'is_default')!;
    expect(isDefault).toMatchObject({ type: 'options', default: '' });
    expect(isDefault.options!.map((o) => (o as { value: string }).value)).toEqual(['', 'true', 'false']);
  });
});

describe('dropdowns', () => {
  const loadOptions = node.methods.loadOptions as Record<string, (this: unknown) => Promise<unknown>>;
  const load = (method: string, params: Record<string, unknown>) =>
    loadOptions[method]!.call({
      getCredentials: async () => credentials,
      getCurrentNodeParameters: () => params,
    });
  /** What the field's dropdown offers on Zapier for the same inputs (its choices perform, first page). */
  const zapierChoices = async (field: { choices?: unknown }, inputData: Record<string, unknown>) => {
    const { perform } = field.choices as { perform: unknown };
    const page = (await appTester(perform as never, { authData: AUTH, inputData } as never)) as {
      results: Array<{ id: string; label: string }>;
    };
    return page.results.map((o) => ({ name: o.label, value: o.id }));
  };

  it('lists Create Order’s branches from the cashier, as the Zap’s dropdown does', async () => {
    const branch = propertyOf('order.create', 'branch_id');
    expect(branch).toMatchObject({
      type: 'options',
      typeOptions: { loadOptionsMethod: 'create_order.branch_id' },
    });
    expect(branch.description).toMatch(/specify an ID using an expression/);
    const list = cashierApi()
      .get(cashierPath('/branches'))
      .query({ page: '1', per_page: '100' })
      .times(2)
      .reply(replay('dropdown-branches'));
    const options = await load('create_order.branch_id', { resource: 'order', operation: 'create' });
    const field = inputOf(createOrder, 'branch_id');
    expect(options).toEqual(await zapierChoices(field, {}));
    expect(options).toHaveLength(data('dropdown-branches').length);
    list.done();
  });

  it('narrows Book’s appointment types by the chosen branch, reloading when it changes', async () => {
    const types = propertyOf('appointment.book', 'appointment_type_id');
    expect(types.typeOptions).toEqual({
      loadOptionsMethod: 'book_appointment.appointment_type_id',
      loadOptionsDependsOn: ['branch_id', 'practitioner_id'],
    });
    const list = clinicApi()
      .get(clinicPath('/appointments'))
      .query((q) => q.branch_id === '2' && q.page === '1')
      .times(2)
      .reply(replay('choices-types-branch-2'));
    const options = await load('book_appointment.appointment_type_id', {
      resource: 'appointment',
      operation: 'book',
      branch_id: '2',
      practitioner_id: '',
    });
    const field = inputOf(bookAppointment, 'appointment_type_id');
    expect(options).toEqual(await zapierChoices(field, { branch_id: '2' }));
    list.done();
  });

  it('lists Update Item’s variant rows from the chosen item, with (None) for an optional row input', async () => {
    const variants = propertyOf('item.update', 'variants');
    const [rows] = variants.options as Array<{ values: NodeProperty[] }>;
    expect(rows!.values.find((v) => v.name === 'variant_id')!.typeOptions).toEqual({
      loadOptionsMethod: 'update_item.variant_id',
      loadOptionsDependsOn: ['item_id'],
    });
    const read = cashierApi()
      .get(cashierPath('/items/311'))
      .times(2)
      .reply(replay('choices-variants-item-311'));
    const options = (await load('update_item.variant_id', { item_id: '311', variants: {} })) as unknown[];
    const field = inputOf(updateItem, 'variants', 'variant_id');
    expect(options).toEqual([
      { name: '(None)', value: '' },
      ...(await zapierChoices(field, { item_id: '311' })),
    ]);
    expect(options.length).toBeGreaterThan(1);
    read.done();
  });

  it('leaves an id the interface cannot list (orders, receipts, till sessions) as text to map', () => {
    expect(propertyOf('order.cancel', 'order_id')).toMatchObject({ type: 'string' });
    expect(propertyOf('zReport.find', 'session_id')).toMatchObject({ type: 'string' });
  });
});

// ------------------------------------------------------------------------------------------------ idempotency

describe('idempotency and concurrency in one n8n process', () => {
  it('renders the app’s declared lock (Update Item: per item, per connection)', () => {
    const lock = updateItem.operation.lock!;
    const key = lockKeyOf(lock, { item_id: 311 }, AUTH);
    expect(key).toMatch(/^[0-9a-f]{32}:update_item:311$/);
    expect(lockKeyOf(lock, { item_id: 311 }, { ...AUTH, cashier_api_token: 'other' })).not.toBe(key);
  });

  it('lets one run at a time through a lock; other keys do not wait', async () => {
    const order: string[] = [];
    let open = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    const first = underLock('k', 60, async () => {
      order.push('first starts');
      await gate;
      order.push('first ends');
    });
    const second = underLock('k', 60, async () => order.push('second starts'));
    const other = underLock('other', 60, async () => order.push('other runs'));
    await other;
    expect(order).toEqual(['first starts', 'other runs']);
    open();
    await Promise.all([first, second]);
    expect(order).toEqual(['first starts', 'other runs', 'first ends', 'second starts']);
  });

  it('two identical Create Item runs without SKU make one item: the second answers the first’s', async () => {
    const op = OPERATIONS.find((o) => idOf(o) === 'item.create')!;
    const water = data('create-item-default-price');
    const post = cashierApi()
      .post(cashierPath('/items'), sent('create-item-default-price'))
      .reply(replay('create-item-default-price'));
    const readBack = cashierApi()
      .get(cashierPath(`/items/${water.id}`))
      .reply(200, { data: water });
    const params = paramsOf(op, WATER_INPUT);
    const [[a], [b]] = await Promise.all([execute(params), execute(params)]);
    expect([a![0]!.json.duplicate, b![0]!.json.duplicate].sort()).toEqual([false, true]);
    expect([a![0]!.json.id, b![0]!.json.id]).toEqual([water.id, water.id]);
    post.done();
    readBack.done();
  });
});
