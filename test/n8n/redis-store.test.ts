/*
 * The Redis store against a real redis-server, started here on a free port: the atomic claim between two processes
 * (two copies of the package's modules, each with its own client and memory), values, expiry, and an unreachable
 * server. Skipped where redis-server is not installed (CI installs it: `apt-get install -y redis-server`).
 */
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { createServer } from 'node:net';
import Redis from 'ioredis';
import { signDelivery } from '../../sandbox/webhooks';
import { EVENTS } from '../../lib/hooks/events';
import { delivered } from '../fixtures';
import { expectPatientCall } from '../support/hooks';
import { useNock } from '../helpers';
import { credentials, hookContext } from './context';

type RedisModule = typeof import('../../n8n-nodes-clinic-cashier/src/redis-store');
type TriggerModule =
  typeof import('../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node');
type SealModule = typeof import('../../n8n-nodes-clinic-cashier/src/sealed-secret');

const installed = spawnSync('redis-server', ['--version']).status === 0;
const suite = installed ? describe : describe.skip;

/** The package's modules as one n8n process loads them: its own Redis clients and its own memory. */
const aProcess = () => {
  let loaded: { redis: RedisModule; trigger: TriggerModule } | undefined;
  jest.isolateModules(() => {
    loaded = {
      redis: jest.requireActual<RedisModule>('../../n8n-nodes-clinic-cashier/src/redis-store'),
      trigger: jest.requireActual<TriggerModule>(
        '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node',
      ),
    };
  });
  return loaded!;
};

const freePort = () =>
  new Promise<number>((resolve) => {
    const probe = createServer().listen(0, '127.0.0.1', () => {
      const { port } = probe.address() as { port: number };
      probe.close(() => resolve(port));
    });
  });

suite(
  `the Redis store against redis-server${installed ? '' : ' (skipped: redis-server is not installed)'}`,
  () => {
    useNock();
    let server: ChildProcess;
    let port: number;
    let admin: Redis;
    const processes: Array<ReturnType<typeof aProcess>> = [];
    const credential = () => ({ host: '127.0.0.1', port, database: 0, user: '', password: '', ssl: false });

    beforeAll(async () => {
      port = await freePort();
      server = spawn('redis-server', ['--port', String(port), '--save', '', '--appendonly', 'no'], {
        stdio: ['ignore', 'pipe', 'inherit'],
      });
      await new Promise<void>((resolve) => {
        server.stdout!.on('data', (chunk: Buffer) => {
          if (chunk.toString().includes('Ready to accept connections')) resolve();
        });
      });
      admin = new Redis({ host: '127.0.0.1', port });
      processes.push(aProcess(), aProcess());
    });

    afterAll(async () => {
      for (const p of processes) p.redis.closeRedisClients();
      await admin?.quit();
      server?.kill();
    });

    it('grants a claim to exactly one of twenty made at once from two processes', async () => {
      const stores = processes.map((p) => p.redis.redisStore(credential()));
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => stores[i % 2]!.set('claim', { n: i }, 60, true)),
      );
      expect(answers.filter(Boolean)).toHaveLength(1);
      const winner = answers.indexOf(true);
      await expect(stores[1 - (winner % 2)]!.get('claim')).resolves.toEqual({ n: winner });
    });

    it('keeps a value for its time to live, and deletes it', async () => {
      const store = processes[0]!.redis.redisStore(credential());
      await expect(store.set('record', { state: 'pending', at: 'x' }, 120, false)).resolves.toBe(true);
      const ttl = await admin.pttl('record');
      expect(ttl).toBeGreaterThan(110_000);
      expect(ttl).toBeLessThanOrEqual(120_000);
      await expect(store.delete('record')).resolves.toBe(true);
      await expect(store.get('record')).resolves.toBeNull();
      await expect(store.delete('record')).resolves.toBe(false);
    });

    it('rejects, never hangs, when the server cannot be reached', async () => {
      const closed = await freePort();
      const store = processes[0]!.redis.redisStore({ ...credential(), port: closed });
      await expect(store.set('claim', 1, 60, true)).rejects.toThrow();
    });

    it('starts one execution for copies of an event received by two n8n processes', async () => {
      const def = EVENTS.find((e) => e.key === 'appointment_created')!;
      const hookUrl = 'https://n8n.clinic.example/webhook/7f3c/webhook';
      const path = new URL(hookUrl).pathname;
      const secret = 'whsec_n8n_test_secret_0123456789abcdef';
      const { sealSecret } = jest.requireActual<SealModule>(
        '../../n8n-nodes-clinic-cashier/src/sealed-secret',
      );
      const envelope = delivered(def.event);
      const body = JSON.stringify(envelope);
      const timestamp = String(Math.floor(Date.now() / 1000));
      const subscription = {
        id: 77,
        target_path: path,
        event: def.event,
        api: 'clinic',
        target_url: hookUrl,
        sealed: sealSecret(secret, credentials, 'clinic', path),
      };
      const copy = (p: ReturnType<typeof aProcess>, redis?: Record<string, unknown>) => {
        const { context } = hookContext(
          { event: def.key },
          {
            staticData: { subscription },
            redis,
            request: {
              headers: {
                'x-partner-timestamp': timestamp,
                'x-partner-signature': signDelivery(secret, timestamp, path, body),
                'x-partner-event-id': envelope.id,
              },
              rawBody: Buffer.from(body),
            },
          },
        );
        return new p.trigger.ClinicCashierTrigger().webhook.call(context as never) as Promise<object>;
      };
      for (let i = 0; i < 4; i += 1) expectPatientCall(String(envelope.data.patient_id));
      // Each process's own memory: both run.
      const apart = await Promise.all(processes.map((p) => copy(p)));
      expect(apart.filter((r) => 'workflowData' in r)).toHaveLength(2);
      // Through the Redis both reach: one runs.
      const shared = await Promise.all(processes.map((p) => copy(p, credential())));
      expect(shared.filter((r) => 'workflowData' in r)).toHaveLength(1);
    });
  },
);
