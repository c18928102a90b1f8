/*
 * The n8n trigger (n8n-nodes-clinic-cashier): subscribing and unsubscribing through /webhooks with the signing secret
 * sealed, each delivery checked as a Zap's is (refused: 401 and no run), each event id once through the node's store,
 * the item the Zap gets, and static data written by activation alone.
 */
import { signDelivery } from '../../sandbox/webhooks';
import { ClinicCashierTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node';
import { forgetDeliveryCredentials } from '../../n8n-nodes-clinic-cashier/src/delivery-credentials';
import { sealSecret } from '../../n8n-nodes-clinic-cashier/src/sealed-secret';
import { processStore } from '../../n8n-nodes-clinic-cashier/src/store';
import { EVENTS } from '../../lib/hooks/events';
import { delivered, reply } from '../fixtures';
import { CLOCK } from '../../lib/retry';
import { expectPatientCall, forgetDeliveries, op, run } from '../support/hooks';
import { AUTH, clinicApi, clinicPath, useNock } from '../helpers';
import { credentials, hookContext, watchedStaticData } from './context';

useNock();
beforeEach(() => {
  forgetDeliveries();
  forgetDeliveryCredentials();
  (processStore as typeof processStore & { clear(): void }).clear();
});

const node = new ClinicCashierTrigger();
const def = EVENTS.find((e) => e.key === 'appointment_created')!;
const HOOK_URL = 'https://n8n.clinic.example/webhook/7f3c/webhook';
const HOOK_PATH = new URL(HOOK_URL).pathname;
const SECRET = 'whsec_n8n_test_secret_0123456789abcdef';

/** What the core's subscribe returns. */
const subscribed = { id: 77, secret: SECRET, target_path: HOOK_PATH, event: def.event, api: 'clinic' };

/** What activation keeps: the subscription with its secret sealed by the node's credential. */
const kept = (authData: Record<string, string> = credentials) => {
  const { secret, ...rest } = subscribed;
  return { ...rest, target_url: HOOK_URL, sealed: sealSecret(secret, authData, 'clinic', HOOK_PATH)! };
};
const subscription = kept();

/** A delivery as the clinic sends it: the body, signed now by the sandbox's own signer. */
const deliveryOf = (body: string, overrides: Record<string, string> = {}) => {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    headers: {
      'content-type': 'application/json',
      'x-partner-timestamp': timestamp,
      'x-partner-signature': signDelivery(SECRET, timestamp, HOOK_PATH, body),
      'x-partner-event-id': (JSON.parse(body) as { id: string }).id,
      ...overrides,
    },
    rawBody: Buffer.from(body, 'utf8'),
  };
};

const receive = (
  request: ReturnType<typeof deliveryOf>,
  staticData: Record<string, unknown>,
  params = {},
) => {
  const { context, answered } = hookContext({ event: def.key, ...params }, { staticData, request });
  return { result: node.webhook.call(context as never), answered };
};

describe('subscription', () => {
  it('subscribes the node’s webhook address through POST /webhooks and keeps what unsubscribing and checking need', async () => {
    const list = clinicApi().get(clinicPath('/webhooks')).query(true).reply(200, { data: [], meta: {} });
    const post = clinicApi()
      .post(clinicPath('/webhooks'), { target_url: HOOK_URL, event: def.event })
      .reply(201, { data: { id: 77, secret: SECRET } });
    const { context, staticData } = hookContext({ event: def.key }, { webhookUrl: HOOK_URL });
    await expect(node.webhookMethods.default.checkExists.call(context as never)).resolves.toBe(false);
    await expect(node.webhookMethods.default.create.call(context as never)).resolves.toBe(true);
    expect(staticData.subscription).toEqual({ ...subscription, sealed: expect.any(Object) });
    // Nothing of the secret in what the workflow holds, which n8n stores in clear and shows to its readers.
    expect(JSON.stringify(staticData)).not.toContain(SECRET);
    expect(JSON.stringify(staticData)).not.toContain(SECRET.slice(6, 22));
    await expect(node.webhookMethods.default.checkExists.call(context as never)).resolves.toBe(true);
    list.done();
    post.done();
  });

  it('unsubscribes through DELETE /webhooks/{id} and forgets the subscription', async () => {
    const del = clinicApi().delete(clinicPath('/webhooks/77')).reply(204);
    const { context, staticData } = hookContext({ event: def.key }, { staticData: { subscription } });
    await expect(node.webhookMethods.default.delete.call(context as never)).resolves.toBe(true);
    expect(staticData.subscription).toBeUndefined();
    del.done();
  });

  it('keeps the subscription and logs why when DELETE /webhooks/{id} fails, so n8n knows it was not removed', async () => {
    const del = clinicApi().delete(clinicPath('/webhooks/77')).reply(500, { message: 'down' });
    const { context, staticData, warnings } = hookContext(
      { event: def.key },
      { staticData: { subscription } },
    );
    await expect(node.webhookMethods.default.delete.call(context as never)).resolves.toBe(false);
    expect(staticData.subscription).toEqual(subscription);
    expect(warnings).toEqual([expect.stringContaining('webhook 77')]);
    del.done();
  });

  it('refuses a subscription answer without a secret, as the Zap does, and deletes what it made', async () => {
    clinicApi().get(clinicPath('/webhooks')).query(true).reply(200, { data: [], meta: {} });
    clinicApi()
      .post(clinicPath('/webhooks'))
      .reply(201, { data: { id: 78 } });
    const del = clinicApi().delete(clinicPath('/webhooks/78')).reply(204);
    const { context, staticData } = hookContext({ event: def.key }, { webhookUrl: HOOK_URL });
    await expect(node.webhookMethods.default.create.call(context as never)).rejects.toThrow(
      /did not return its id and signing secret/,
    );
    expect(staticData.subscription).toBeUndefined();
    del.done();
  });
});

describe('a delivery', () => {
  const envelope = delivered(def.event);
  const body = JSON.stringify(envelope);

  it('gives the workflow the item the Zap gets, and runs nothing for the same event id again', async () => {
    const patientId = String(envelope.data.patient_id);
    // The n8n run, the Zap's, and the redelivery: the core makes the item before it knows the id is a repeat.
    for (let i = 0; i < 3; i += 1) expectPatientCall(patientId);
    const { staticData, writes } = watchedStaticData({ subscription });
    const first = await receive(deliveryOf(body), staticData).result;
    const zap = await run<unknown[]>(op(def.key).perform, {
      authData: AUTH,
      inputData: {},
      subscribeData: subscribed,
      rawRequest: { method: 'POST', headers: deliveryOf(body).headers, content: body, querystring: '' },
    });
    expect(first).toEqual({ workflowData: [[{ json: zap[0] }]] });
    // A redelivery of the event, freshly signed: verified, and not run twice.
    await expect(receive(deliveryOf(body), staticData).result).resolves.toEqual({});
    // The claim is in the node's store, not in the workflow: a delivery writes no static data.
    expect(writes).toEqual([]);
  });

  it('starts one execution for two copies arriving at the same instant', async () => {
    const patientId = String(envelope.data.patient_id);
    for (let i = 0; i < 2; i += 1) expectPatientCall(patientId);
    const copies = await Promise.all(
      [0, 1].map(() => receive(deliveryOf(body), { subscription }).result as Promise<object>),
    );
    expect(copies.filter((c) => 'workflowData' in c)).toHaveLength(1);
    expect(copies.filter((c) => !('workflowData' in c))).toEqual([{}]);
  });

  it('reads its credentials once for deliveries arriving together (n8n resolves each read in an isolate of its own)', async () => {
    const reads: string[] = [];
    const distinct = Array.from({ length: 5 }, (_, i) => ({
      ...delivered(def.event),
      id: `evt_together_${i}`,
    }));
    const copies = distinct.map((envelope) => {
      const { context } = hookContext(
        { event: def.key, include_patient: false },
        {
          staticData: { subscription },
          request: deliveryOf(JSON.stringify(envelope)),
        },
      );
      const read = context.getCredentials;
      context.getCredentials = async (name: string) => {
        reads.push(name);
        return read(name);
      };
      return node.webhook.call(context as never);
    });
    const results = await Promise.all(copies);
    expect(results.filter((r) => 'workflowData' in r)).toHaveLength(5);
    expect(reads).toEqual(['clinicCashierApi']);
  });

  it('passes items on in the execution without reading or writing static data', async () => {
    const execution = hookContext({ event: def.key });
    execution.context.getWorkflowStaticData = () => {
      throw new Error('static data read in an execution');
    };
    execution.context.getInputData = () => [{ json: { id: 'a' } }, { json: { id: 'b' } }] as never;
    await expect(node.execute.call(execution.context as never)).resolves.toEqual([
      [
        { json: { id: 'a' }, pairedItem: { item: 0 } },
        { json: { id: 'b' }, pairedItem: { item: 1 } },
      ],
    ]);
  });

  it('keeps the subscription through any number of deliveries, refused ones included', async () => {
    const { staticData, writes } = watchedStaticData({ subscription });
    for (let i = 0; i < 3; i += 1) {
      const { result, answered } = receive(
        deliveryOf(body, { 'x-partner-signature': `sha256=${'0'.repeat(64)}` }),
        staticData,
      );
      await result;
      expect(answered.status).toBe(401);
    }
    expect(writes).toEqual([]);
    expect(staticData).toEqual({ subscription });
  });

  it.each([
    ['a signature by another secret', { 'x-partner-signature': `sha256=${'0'.repeat(64)}` }],
    ['no signature', { 'x-partner-signature': '' }],
    ['a timestamp ten minutes old', { 'x-partner-timestamp': String(Math.floor(Date.now() / 1000) - 600) }],
    ['an event id header other than the body’s', { 'x-partner-event-id': 'evt_other' }],
  ])('with %s is answered 401 and runs nothing', async (_name, overrides) => {
    const staticData: Record<string, unknown> = { subscription };
    const { result, answered } = receive(deliveryOf(body, overrides), staticData);
    await expect(result).resolves.toEqual({ noWebhookResponse: true });
    expect(answered.status).toBe(401);
    expect(answered.body).toMatchObject({
      error: 'delivery_refused',
      message: expect.stringMatching(/^Delivery refused/),
    });
    expect(staticData).toEqual({ subscription });
  });

  it('is refused when the node holds no subscription', async () => {
    const { result, answered } = receive(deliveryOf(body), {});
    await expect(result).resolves.toEqual({ noWebhookResponse: true });
    expect(answered.status).toBe(401);
  });

  it('runs nothing when its object does not pass the node’s filters, and reads no patient', async () => {
    const other = Number(envelope.data.branch_id) + 1;
    const staticData: Record<string, unknown> = { subscription };
    await expect(receive(deliveryOf(body), staticData, { branch_id: String(other) }).result).resolves.toEqual(
      {},
    );
  });

  it('fails when its patient read fails for now (n8n answers the interface 500), remembering nothing, and fires with the patient when delivered again', async () => {
    // On n8n the node answers the interface, which delivers again: no retry within the call (lib/host.ts).
    const sleep = jest.spyOn(CLOCK, 'sleep').mockImplementation(async () => undefined);
    const patientPath = clinicPath(`/patients/${String(envelope.data.patient_id)}`);
    const failed = clinicApi()
      .get(patientPath)
      .reply(...reply('server-error'));
    const staticData: Record<string, unknown> = { subscription };
    await expect(receive(deliveryOf(body), staticData).result).rejects.toThrow(/500/);
    expect(failed.isDone()).toBe(true);
    expect(sleep).not.toHaveBeenCalled();
    expect(staticData.delivered).toBeUndefined();
    expectPatientCall(String(envelope.data.patient_id));
    const again = (await receive(deliveryOf(body), staticData).result) as unknown as {
      workflowData: Array<Array<{ json: { patient: { status: string } } }>>;
    };
    expect(again.workflowData[0]![0]!.json.patient.status).toBe('found');
    sleep.mockRestore();
  });

  it('keeps Include Patient Details: off, the patient is not read', async () => {
    const staticData: Record<string, unknown> = { subscription };
    const out = (await receive(deliveryOf(body), staticData, { include_patient: false })
      .result) as unknown as {
      workflowData: Array<Array<{ json: { patient: unknown } }>>;
    };
    expect(out.workflowData[0]![0]!.json.patient).toMatchObject({ name_en: null, status: 'off' });
  });
});
