import {
  deliveryCredentials,
  forgetDeliveryCredentials,
  HOLD_MS,
} from '../../n8n-nodes-clinic-cashier/src/delivery-credentials';

beforeEach(() => forgetDeliveryCredentials());

/** A node's `this` whose credential reads are counted; `data` is what n8n holds now (an edit changes it). */
const nodeUsing = (ids: Record<string, string | undefined>, data: { token: string }) => {
  const reads: string[] = [];
  let failing = false;
  return {
    reads,
    data,
    fail: (on: boolean) => {
      failing = on;
    },
    ctx: {
      getNode: () => ({
        credentials: Object.fromEntries(Object.entries(ids).map(([name, id]) => [name, { id, name: 'x' }])),
      }),
      getCredentials: async (name: string) => {
        reads.push(name);
        if (failing) throw new Error('credential store down');
        return { token: data.token, name };
      },
    },
  };
};

describe("a delivery's credential reads", () => {
  it('are shared by deliveries arriving together: one read of each credential for a burst', async () => {
    const n = nodeUsing({ clinicCashierApi: 'c1', redis: 'r1' }, { token: 'a' });
    const got = await Promise.all(
      Array.from({ length: 10 }, async () => {
        const creds = deliveryCredentials(n.ctx);
        return [await creds.getCredentials('clinicCashierApi'), await creds.getCredentials('redis')];
      }),
    );
    expect(n.reads.sort()).toEqual(['clinicCashierApi', 'redis']);
    expect(got.every(([c, r]) => c!.token === 'a' && r!.name === 'redis')).toBe(true);
  });

  it('are made again once HOLD_MS has passed, so an edited credential reaches deliveries', async () => {
    let t = 1_000_000;
    const n = nodeUsing({ clinicCashierApi: 'c1' }, { token: 'old' });
    const read = () => deliveryCredentials(n.ctx, () => t).getCredentials('clinicCashierApi');
    await expect(read()).resolves.toMatchObject({ token: 'old' });
    n.data.token = 'edited';
    t += HOLD_MS - 1;
    await expect(read()).resolves.toMatchObject({ token: 'old' });
    t += 1;
    await expect(read()).resolves.toMatchObject({ token: 'edited' });
    expect(n.reads).toHaveLength(2);
  });

  it('are per credential: a node given another credential reads it at once', async () => {
    const a = nodeUsing({ clinicCashierApi: 'c1' }, { token: 'a' });
    const b = nodeUsing({ clinicCashierApi: 'c2' }, { token: 'b' });
    await deliveryCredentials(a.ctx).getCredentials('clinicCashierApi');
    await expect(deliveryCredentials(b.ctx).getCredentials('clinicCashierApi')).resolves.toMatchObject({
      token: 'b',
    });
  });

  it('keep no failed read: the next delivery asks n8n again', async () => {
    const n = nodeUsing({ clinicCashierApi: 'c1' }, { token: 'a' });
    n.fail(true);
    await expect(deliveryCredentials(n.ctx).getCredentials('clinicCashierApi')).rejects.toThrow(/down/);
    n.fail(false);
    await expect(deliveryCredentials(n.ctx).getCredentials('clinicCashierApi')).resolves.toMatchObject({
      token: 'a',
    });
    expect(n.reads).toHaveLength(2);
  });

  it('of a credential without an id are not shared', async () => {
    const n = nodeUsing({ clinicCashierApi: undefined }, { token: 'a' });
    await deliveryCredentials(n.ctx).getCredentials('clinicCashierApi');
    await deliveryCredentials(n.ctx).getCredentials('clinicCashierApi');
    expect(n.reads).toHaveLength(2);
  });
});
