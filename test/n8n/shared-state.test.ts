/*
 * What holds where n8n runs several processes: the node's store (the process's memory, or Redis through n8n's own
 * credential, stood in for here by a store every "process" shares), activation in queue mode, a changed credential,
 * a store that cannot be reached, and writes derived from the event that started the execution.
 */
import { signDelivery } from '../../sandbox/webhooks';
import { ClinicCashier } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashier/ClinicCashier.node';
import { ClinicCashierTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node';
import { redisStore } from '../../n8n-nodes-clinic-cashier/src/redis-store';
import { sealSecret } from '../../n8n-nodes-clinic-cashier/src/sealed-secret';
import { memoryStore, processStore, type Store } from '../../n8n-nodes-clinic-cashier/src/store';
import { EVENTS } from '../../lib/hooks/events';
import { delivered, reply } from '../fixtures';
import { expectPatientCall } from '../support/hooks';
import { clockAtRecording } from '../support/recorder';
import { clinicApi, clinicPath, recordedPatientRead, useNock } from '../helpers';
import { BOOKING_INPUT, credentials, hookContext } from './context';

jest.mock('../../n8n-nodes-clinic-cashier/src/redis-store', () => ({
  ...jest.requireActual<object>('../../n8n-nodes-clinic-cashier/src/redis-store'),
  redisStore: jest.fn(),
}));

useNock();

/** The Redis every process reaches: one store, whatever process asks. */
let shared: Store & { clear(): void };
const REDIS = { host: 'redis.clinic.internal', port: 6379, database: 0, password: 'p', ssl: false };

beforeEach(() => {
  shared = { ...memoryStore(), reach: 'shared' as const };
  jest.mocked(redisStore).mockImplementation(() => shared);
  (processStore as typeof processStore & { clear(): void }).clear();
  delete process.env.EXECUTIONS_MODE;
});
afterAll(() => delete process.env.EXECUTIONS_MODE);

const trigger = new ClinicCashierTrigger();
const def = EVENTS.find((e) => e.key === 'appointment_created')!;
const HOOK_URL = 'https://n8n.clinic.example/webhook/7f3c/webhook';
const HOOK_PATH = new URL(HOOK_URL).pathname;
const SECRET = 'whsec_n8n_test_secret_0123456789abcdef';
const envelope = delivered(def.event);
const body = JSON.stringify(envelope);

const keptBy = (authData: Record<string, string>) => ({
  id: 77,
  target_path: HOOK_PATH,
  event: def.event,
  api: 'clinic',
  target_url: HOOK_URL,
  sealed: sealSecret(SECRET, authData, 'clinic', HOOK_PATH)!,
});

const signed = (raw = body) => {
  const timestamp = String(Math.floor(Date.now() / 1000));
  return {
    headers: {
      'content-type': 'application/json',
      'x-partner-timestamp': timestamp,
      'x-partner-signature': signDelivery(SECRET, timestamp, HOOK_PATH, raw),
      'x-partner-event-id': (JSON.parse(raw) as { id: string }).id,
    },
    rawBody: Buffer.from(raw, 'utf8'),
  };
};

/** One delivery as a process of n8n receives it (the main or a webhook processor). */
const receive = (options: Parameters<typeof hookContext>[1] = {}, params: Record<string, unknown> = {}) => {
  const { context, answered, warnings } = hookContext(
    { event: def.key, ...params },
    { staticData: { subscription: keptBy(credentials) }, request: signed(), ...options },
  );
  return { result: trigger.webhook.call(context as never) as Promise<object>, answered, warnings };
};

const checkExists = (options: Parameters<typeof hookContext>[1] = {}) =>
  trigger.webhookMethods.default.checkExists.call(
    hookContext({ event: def.key }, { webhookUrl: HOOK_URL, ...options }).context as never,
  );

describe('activation', () => {
  it('in queue mode without a Redis credential fails, saying what to add and why', async () => {
    process.env.EXECUTIONS_MODE = 'queue';
    await expect(checkExists({ staticData: { subscription: keptBy(credentials) } })).rejects.toThrow(
      /queue mode \(EXECUTIONS_MODE=queue\).*run the workflow twice.*add a Redis credential to this node/,
    );
  });

  it('in queue mode without a Redis credential still listens for the editor’s test event', async () => {
    process.env.EXECUTIONS_MODE = 'queue';
    const { context } = hookContext({ event: def.key }, { webhookUrl: HOOK_URL });
    Object.assign(context, { getMode: () => 'manual' });
    await expect(trigger.webhookMethods.default.checkExists.call(context as never)).resolves.toBe(false);
  });

  it('in queue mode with a Redis credential keeps the subscription it holds', async () => {
    process.env.EXECUTIONS_MODE = 'queue';
    await expect(
      checkExists({ staticData: { subscription: keptBy(credentials) }, redis: REDIS }),
    ).resolves.toBe(true);
    expect(redisStore).toHaveBeenCalledWith(REDIS);
  });

  it('fails in plain words when the Redis of the credential cannot be reached', async () => {
    jest.mocked(redisStore).mockImplementation(() => ({
      ...shared,
      get: () => Promise.reject(Object.assign(new Error('connect ECONNREFUSED'), { name: 'Error' })),
    }));
    await expect(checkExists({ redis: REDIS })).rejects.toThrow(
      /Redis of this node's Redis credential could not be reached.*host, port and password/,
    );
  });

  it('subscribes again when the credential changed: its token no longer opens the secret', async () => {
    const changed = { ...credentials, clinic_api_token: 'clk_live_rotated_token' };
    const staticData = { subscription: keptBy(credentials) };
    await expect(checkExists({ staticData })).resolves.toBe(true);
    await expect(checkExists({ staticData, credentials: changed })).resolves.toBe(false);
  });

  it('subscribes again over a secret an earlier version kept in clear, to keep it sealed from now on', async () => {
    const { sealed: _s, ...rest } = keptBy(credentials);
    await expect(checkExists({ staticData: { subscription: { ...rest, secret: SECRET } } })).resolves.toBe(
      false,
    );
  });
});

describe('a delivery', () => {
  it('through the main and a webhook processor at the same instant starts one execution', async () => {
    for (let i = 0; i < 2; i += 1) expectPatientCall(String(envelope.data.patient_id));
    const keys: string[] = [];
    const set = shared.set.bind(shared);
    shared.set = (key, ...rest) => (keys.push(key), set(key, ...rest));
    const copies = await Promise.all([receive({ redis: REDIS }).result, receive({ redis: REDIS }).result]);
    expect(copies.filter((c) => 'workflowData' in c)).toHaveLength(1);
    // The claim is in the shared store, under a hashed key: no event id is readable there.
    expect(keys).toEqual([expect.stringMatching(/^n8n-clinic-cashier:[0-9a-f]{64}$/), keys[0]]);
  });

  it('remembers every one of 200 distinct events delivered ten at a time: 30 re-sent run nothing', async () => {
    const bodies = Array.from({ length: 200 }, (_, i) =>
      JSON.stringify({ ...envelope, id: `evt_load_${i}` }),
    );
    const runs = async (batch: string[]) => {
      let started = 0;
      for (let i = 0; i < batch.length; i += 10) {
        const answers = await Promise.all(
          batch
            .slice(i, i + 10)
            .map((raw) => receive({ request: signed(raw) }, { include_patient: false }).result),
        );
        started += answers.filter((a) => 'workflowData' in a).length;
      }
      return started;
    };
    await expect(runs(bodies)).resolves.toBe(200);
    await expect(runs(bodies.filter((_, i) => i % 7 === 0).slice(0, 30))).resolves.toBe(0);
  });

  it('repeated after a restart is still not run again when the store is shared', async () => {
    expectPatientCall(String(envelope.data.patient_id));
    await expect(receive({ redis: REDIS }).result).resolves.toHaveProperty('workflowData');
    (processStore as typeof processStore & { clear(): void }).clear();
    expectPatientCall(String(envelope.data.patient_id));
    await expect(receive({ redis: REDIS }).result).resolves.toEqual({});
  });

  it('repeated after a restart runs again in regular mode without Redis (the process memory is gone)', async () => {
    for (let i = 0; i < 3; i += 1) expectPatientCall(String(envelope.data.patient_id));
    await expect(receive().result).resolves.toHaveProperty('workflowData');
    await expect(receive().result).resolves.toEqual({});
    (processStore as typeof processStore & { clear(): void }).clear();
    await expect(receive().result).resolves.toHaveProperty('workflowData');
  });

  it('is answered 503 and starts nothing when the store cannot be reached, so the interface delivers it again', async () => {
    expectPatientCall(String(envelope.data.patient_id));
    jest.mocked(redisStore).mockImplementation(() => ({
      ...shared,
      set: () => Promise.reject(new Error('Command timed out')),
    }));
    const { result, answered } = receive({ redis: REDIS });
    await expect(result).resolves.toEqual({ noWebhookResponse: true });
    expect(answered).toEqual({
      status: 503,
      body: { error: 'store_unreachable', message: expect.stringContaining('could not be reached') },
    });
  });

  it('for a subscription sealed under another credential is refused 401, saying to activate again', async () => {
    const changed = { ...credentials, clinic_api_token: 'clk_live_rotated_token' };
    const { result, answered } = receive({ credentials: changed });
    await expect(result).resolves.toEqual({ noWebhookResponse: true });
    expect(answered).toEqual({
      status: 401,
      body: {
        error: 'delivery_refused',
        message: expect.stringMatching(/connection of this trigger changed.*Deactivate and activate/),
      },
    });
  });

  it('in queue mode without Redis still runs (activated before the credential was needed), with a warning in the log', async () => {
    process.env.EXECUTIONS_MODE = 'queue';
    expectPatientCall(String(envelope.data.patient_id));
    const { result, warnings } = receive();
    await expect(result).resolves.toHaveProperty('workflowData');
    expect(warnings).toEqual([expect.stringContaining('Add a Redis credential to the trigger')]);
  });
});

describe('the action node', () => {
  const node = new ClinicCashier();
  beforeEach(() => clockAtRecording());
  afterEach(() => jest.useRealTimers());

  const run = (params: Record<string, unknown>, options: Parameters<typeof hookContext>[1] = {}) => {
    const { context } = hookContext(params, options);
    return { context, result: () => node.execute.call(context as never) };
  };

  it('in queue mode without Redis refuses Create Item without SKU or barcode before any request', async () => {
    process.env.EXECUTIONS_MODE = 'queue';
    const { result } = run({
      resource: 'item',
      operation: 'create',
      name_ar: 'قهوة عربية',
      default_price_sar: '12',
      variants: { rows: [{ variant_name_ar: 'كبير', price_sar: '12' }] },
    });
    await expect(result()).rejects.toThrow(
      /without a SKU or Barcode.*Give a variant a SKU or Barcode.*Redis/,
    );
  });

  it('in queue mode without Redis refuses Update Item, whose lock must hold across workers', async () => {
    process.env.EXECUTIONS_MODE = 'queue';
    const { result } = run({ resource: 'item', operation: 'update', item_id: '311', name_en: 'Latte' });
    await expect(result()).rejects.toThrow(/Update Item.*lock every worker sees.*add a Redis credential/);
  });

  describe('Book Appointment after this package’s trigger', () => {
    const booking = { resource: 'appointment', operation: 'book', ...BOOKING_INPUT, external_ref: '' };

    type Lineage = { event?: string; broken?: boolean; input?: string; trigger?: boolean };

    /** The reference each execution posts: the trigger's item paired with the node's input item, or not. */
    const refsOf = async (events: Array<string | undefined | Lineage>) => {
      const refs: unknown[] = [];
      clinicApi()
        .post(clinicPath('/appointments'), (b: Record<string, unknown>) => refs.push(b.external_ref) > 0)
        .times(events.length)
        .reply(...reply('book-appointment'));
      recordedPatientRead('book-appointment', events.length);
      for (const given of events) {
        const lineage = typeof given === 'object' ? given : { event: given };
        const { context, result } = run(booking);
        context.getParentNodes = () =>
          lineage.trigger === false
            ? [{ name: 'Webhook', type: 'n8n-nodes-base.webhook' }]
            : [{ name: 'New Appointment', type: 'n8n-nodes-clinic-cashier.clinicCashierTrigger' }];
        Object.assign(context, {
          getWorkflowDataProxy: () => ({
            $: () => {
              if (lineage.broken) throw new Error('Paired item data unavailable');
              return { item: { json: { event_id: lineage.event } } };
            },
          }),
          getInputData: () => [{ json: { event_id: lineage.input } }],
        });
        await result();
      }
      return refs;
    };

    it('derives the same reference for the same event, run twice (a doubled execution, a Retry)', async () => {
      const [first, second] = await refsOf(['evt_1', 'evt_1']);
      expect(first).toMatch(/^zap-[0-9a-f]{32}$/);
      expect(second).toBe(first);
    });

    it('derives another reference for another event asking for the same booking (a re-booking)', async () => {
      const [first, second, none] = await refsOf(['evt_1', 'evt_2', undefined]);
      expect(second).not.toBe(first);
      // Without an event on the item's lineage, the workflow and the inputs alone, as a Zap's.
      expect(none).not.toBe(first);
    });

    it('reads the input item’s event id where the lineage is broken, and none without this package’s trigger', async () => {
      const [lineage, input, foreign, none] = await refsOf([
        'evt_1',
        { broken: true, input: 'evt_1' },
        { trigger: false, input: 'evt_1' },
        undefined,
      ]);
      expect(input).toBe(lineage);
      expect(foreign).toBe(none);
      expect(foreign).not.toBe(lineage);
    });
  });
});
