import { errors, type ZObject } from 'zapier-platform-core';
import { declareInputs, input } from '../lib/inputs';
import { apiOf, findOne, findOneOrList, performOn } from '../lib/operation';
import { throttleOf } from '../lib/throttle';

/* Each search made of these, against recorded answers: test/searches.test.ts. */

const client = (found: Record<string, unknown> | undefined, rows: Array<Record<string, unknown>> = []) => ({
  find: jest.fn(async () => found),
  page: jest.fn(async () => ({ data: rows })),
});

describe('findOne and findOneOrList', () => {
  it('answer the object found, presented, or nothing on a 404', async () => {
    const c = client({ id: 1 });
    expect(await findOne(c as never, '/patients/1', (o) => ({ ...o, shown: true }))).toEqual([
      { id: 1, shown: true },
    ]);
    expect(c.find).toHaveBeenCalledWith('/patients/1', undefined, undefined);
    expect(await findOne(client(undefined) as never, '/patients/2', (o) => o)).toEqual([]);
  });

  it('read one by id when given, else the first page of the list with its query', async () => {
    const c = client({ id: 1 }, [{ id: 2 }, { id: 3 }]);
    expect(await findOneOrList(c as never, '/orders/1', { path: '/orders', query: {} }, (o) => o.id)).toEqual(
      [1],
    );
    expect(c.page).not.toHaveBeenCalled();
    const list = { path: '/orders', query: { status: 'open' } };
    expect(await findOneOrList(c as never, undefined, list, (o) => o.id)).toEqual([2, 3]);
    expect(c.page).toHaveBeenCalledWith('/orders', { status: 'open' });
  });
});

describe('performOn', () => {
  it('checks the inputs before any request: bad input makes no client and reaches no run', async () => {
    const inputs = declareInputs({ id: input.positiveInt({ label: 'Order', required: true }) });
    const run = jest.fn();
    const request = jest.fn();
    const z = { errors, request } as unknown as ZObject;
    const perform = performOn('cashier', inputs, run);
    await expect(perform(z, { authData: {}, inputData: { id: 'x' } } as never)).rejects.toThrow(/Order/);
    expect(run).not.toHaveBeenCalled();
    expect(request).not.toHaveBeenCalled();
  });
});

describe('the interface a step names once (performOn, throttleOf, apiOf)', () => {
  const inputs = declareInputs({ id: input.positiveInt({ label: 'Order', required: true }) });

  it('the throttle is the perform’s interface, and the registry reads it back', () => {
    const perform = performOn('clinic', inputs, jest.fn());
    const step = { key: 'find_thing', noun: 'Thing', operation: { throttle: throttleOf(perform), perform } };
    expect(step.operation.throttle.key).toBe('clinic');
    expect(apiOf(step)).toBe('clinic');
  });

  it('a step that declares no interface fails loudly, saying what to write', () => {
    expect(() => apiOf({ key: 'find_thing', noun: 'Thing', operation: {} })).toThrow(
      'find_thing declares no interface: build its perform with `performOn(api, inputs, …)` (lib/operation.ts) and give its operation `throttle: throttleOf(perform)` (lib/throttle.ts)',
    );
  });
});
