/**
 * `npm run test:n8n -- --bench`: what the trigger costs beside n8n's own Webhook node, on the same n8n and the same
 * load, in regular mode and in queue mode (workers at n8n's default concurrency of 10). The same genuine deliveries
 * (held at the gateway, deliveries.ts) go to three workflows: the Webhook node alone, the trigger with Include
 * Patient Details off, and with it on. Each is sent 200 deliveries at concurrency 10, in two halves taken in turn
 * (Webhook node, off, on, then again) so that a machine growing busier weighs on all three alike.
 *
 * Measured for each: executions finished per second (from the first delivery sent until the last execution ended)
 * and the 95th percentile of the time the sender waited for n8n's answer; printed as ratios to the Webhook node's.
 * The sandbox's request log gives what each delivery asked of the interfaces: with Include Patient Details on one
 * patient read and nothing more, with it off nothing. Ratios are printed, never held to a threshold here (a shared
 * machine's timings are no pass or fail); the request counts are checks.
 */
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../sandbox';
import { clusterOn, startCluster } from './cluster';
import { holdAll, sendAll, startGateway, type Gateway, type Held } from './deliveries';
import { cpuSeconds, startN8n, userFolderFor, type N8n } from './processes';
import { check, plan, soft, stage } from './report';
import { activate, awaitExecutions, createWorkflow, deactivate, NODE_TYPES, rest, type Rest } from './rest';
import { setUp, type CredentialRefs } from './setup';
import { startPostgres, startRedis, ensureStores } from './stores';

const DELIVERIES = 200;
const CONCURRENCY = 10;

type Mode = 'regular' | 'queue';

const checksOf = (mode: Mode) => ({
  measured: `bench ${mode}: the trigger beside n8n’s Webhook node, ${DELIVERIES} deliveries at concurrency ${CONCURRENCY} each (ratios above)`,
  requests: `bench ${mode}: Include Patient Details on asks one patient read a delivery and nothing more; off, nothing`,
});

export const BENCH = { regular: checksOf('regular'), queue: checksOf('queue') };

export const planBench = (only?: Mode) => {
  if (only !== 'queue') plan(BENCH.regular);
  if (only !== 'regular') plan(BENCH.queue);
};

interface Target {
  label: string;
  flow: { id: string };
  path: string;
  secret: string;
  /** Deliveries for it, one per event. */
  held: Held[];
  sent: number[];
  seconds: number;
  /** CPU seconds n8n's processes used for its deliveries and executions. */
  cpu: number;
  reads: number;
  requests: number;
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil(p * sorted.length) - 1)] ?? 0;
};

/** Sets up the three workflows on one n8n, makes the deliveries, and measures each. */
const measure = async (
  mode: Mode,
  o: {
    api: Rest;
    sb: Sandbox;
    gateway: Gateway;
    credentials: CredentialRefs;
    webhookBase: string;
    /** Every n8n process of the mode, whose CPU is counted. */
    n8n: N8n[];
  },
) => {
  const { api, sb, gateway } = o;
  const trigger = async (label: string, includePatient: boolean): Promise<Target> => {
    const webhookId = randomUUID();
    const flow = await createWorkflow(api, `Bench: ${label}`, [
      {
        name: 'New Appointment',
        type: NODE_TYPES.trigger,
        webhookId,
        parameters: { event: 'appointment_created', include_patient: includePatient },
        credentials: o.credentials,
      },
    ]);
    await activate(api, flow);
    const path = `/webhook/${webhookId}/webhook`;
    const sub = await new Promise<{ secret: string }>((resolve, reject) => {
      const end = Date.now() + 30_000;
      const look = () => {
        const found = sb.subscriptions().find((s) => s.target_url === `${gateway.url}${path}`);
        if (found) resolve(found);
        else if (Date.now() > end) reject(new Error(`${label}: no subscription`));
        else setTimeout(look, 150);
      };
      look();
    });
    return {
      label,
      flow,
      path,
      secret: sub.secret,
      held: [],
      sent: [],
      seconds: 0,
      cpu: 0,
      reads: 0,
      requests: 0,
    };
  };
  const hookPath = randomUUID();
  const webhookFlow = await createWorkflow(api, 'Bench: Webhook node', [
    {
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: hookPath,
      parameters: { httpMethod: 'POST', path: hookPath, responseMode: 'onReceived', options: {} },
    },
  ]);
  await activate(api, webhookFlow);
  const off = await trigger('trigger, Include Patient Details off', false);
  const on = await trigger('trigger, Include Patient Details on', true);
  const webhook: Target = {
    ...off,
    label: 'n8n’s Webhook node',
    flow: webhookFlow,
    path: `/webhook/${hookPath}`,
    sent: [],
  };
  const held = await holdAll(sb, gateway, DELIVERIES);
  for (const t of [off, on]) t.held = held.filter((d) => d.path === t.path);
  // The Webhook node is sent the very deliveries the trigger with the patient off is: same bodies, same headers.
  webhook.held = off.held.map((d) => ({ ...d, path: webhook.path }));
  for (const t of [webhook, off, on]) {
    if (t.held.length !== DELIVERIES) throw new Error(`${t.label}: ${t.held.length} deliveries held`);
  }

  const clock = () => sb.clock.nowSeconds();
  const half = DELIVERIES / 2;
  for (const part of [0, 1]) {
    for (const t of [webhook, off, on]) {
      const batch = t.held.slice(part * half, (part + 1) * half);
      const reads = sb.requestCount({ method: 'GET', path: /\/patients\/[^/]+$/ });
      const requests = sb.requestCount();
      const started = Date.now();
      const cpu = cpuSeconds(o.n8n);
      const answers = await sendAll(o.webhookBase, batch, {
        secret: t.secret,
        concurrency: CONCURRENCY,
        clock,
      });
      await awaitExecutions(api, t.flow.id, (part + 1) * half, 300_000);
      t.seconds += (Date.now() - started) / 1000;
      t.cpu += cpuSeconds(o.n8n) - cpu;
      t.sent.push(...answers.map((a) => a.ms));
      t.reads += sb.requestCount({ method: 'GET', path: /\/patients\/[^/]+$/ }) - reads;
      t.requests += sb.requestCount() - requests;
    }
  }

  const rate = (t: Target) => DELIVERIES / t.seconds;
  const p95 = (t: Target) => percentile(t.sent, 0.95) / 1000;
  const cpuMs = (t: Target) => (1000 * t.cpu) / DELIVERIES;
  for (const t of [webhook, off, on]) {
    const ratios =
      t === webhook
        ? ''
        : `: throughput ${(rate(t) / rate(webhook)).toFixed(2)}×, p95 ${(p95(t) / p95(webhook)).toFixed(2)}×, ` +
          `CPU ${(cpuMs(t) / cpuMs(webhook)).toFixed(2)}× the Webhook node's`;
    console.log(
      `  bench ${mode}, ${t.label}: ${rate(t).toFixed(1)} executions/s, p95 answer ${p95(t).toFixed(2)} s, ` +
        `n8n CPU ${cpuMs(t).toFixed(0)} ms a delivery, ` +
        `${t.requests} requests to the interfaces (${t.reads} patient reads)${ratios}`,
    );
  }
  // Unsubscribed, so the next mode's deliveries go to its own triggers only.
  for (const t of [webhook, off, on]) await deactivate(api, t.flow);
  return { off, on };
};

const requestsCheck = (name: string, r: { off: Target; on: Target }) =>
  soft(name, async () => {
    if (r.off.requests !== 0) throw new Error(`off: ${r.off.requests} requests for ${DELIVERIES} deliveries`);
    if (r.on.reads !== DELIVERIES || r.on.requests !== DELIVERIES) {
      throw new Error(
        `on: ${r.on.reads} patient reads, ${r.on.requests} requests for ${DELIVERIES} deliveries`,
      );
    }
  });

export const runBench = async (runDir: string, nodesFolder: string, only?: Mode) => {
  const sb = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 1_000_000 });
  try {
    if (only !== 'queue')
      await stage('bench regular mode', async () => {
        let target = '';
        const gateway = await startGateway(() => target);
        const n8n = await startN8n({
          name: 'bench-regular',
          role: 'main',
          runDir,
          env: {
            DB_TYPE: 'sqlite',
            N8N_USER_FOLDER: userFolderFor(runDir, 'bench-regular', nodesFolder),
            WEBHOOK_URL: `${gateway.url}/`,
          },
        });
        target = n8n.url;
        try {
          const api = rest(n8n.url);
          const { credentials } = await setUp(api, sb);
          const r = await check(BENCH.regular.measured, () =>
            measure('regular', { api, sb, gateway, credentials, webhookBase: n8n.url, n8n: [n8n] }),
          );
          await requestsCheck(BENCH.regular.requests, r);
        } finally {
          await n8n.stop();
          await gateway.close();
        }
      }).catch(() => undefined);

    if (only !== 'regular')
      await stage('bench queue mode', async () => {
        ensureStores((line) => console.log(`  ${line}`));
        const [pg, redis] = await Promise.all([startPostgres(runDir), startRedis(runDir)]);
        const holder: { url?: string } = {};
        const gateway = await startGateway(() => holder.url!);
        try {
          const cluster = await startCluster(
            clusterOn({ runDir, nodesFolder, gatewayUrl: gateway.url }, pg, redis, 10),
          );
          holder.url = cluster.webhook.url;
          const api = rest(cluster.main.url);
          const { withRedis } = await setUp(api, sb, redis.port);
          const r = await check(BENCH.queue.measured, () =>
            measure('queue', {
              api,
              sb,
              gateway,
              credentials: withRedis,
              webhookBase: cluster.webhook.url,
              n8n: [cluster.main, cluster.webhook, ...cluster.workers],
            }),
          );
          await requestsCheck(BENCH.queue.requests, r);
        } finally {
          await gateway.close();
        }
      });
  } finally {
    await sb.close();
  }
};
