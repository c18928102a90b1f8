/**
 * Queue mode (cluster.ts) on PostgreSQL and Redis (stores.ts), the sandbox in-process, the gateway in front of the
 * webhook processor. In order: a trigger without n8n's Redis credential is refused at activation; a worker is killed
 * mid-booking (queue-writes.ts), and while n8n waits to give its execution up, the trigger under load (load.ts) and
 * Create Item run on the two workers; the killed execution is retried; then every n8n process restarts, Redis and
 * PostgreSQL staying up, and the events already run are sent again.
 */
import { randomUUID } from 'node:crypto';
import { startSandbox, type Sandbox } from '../../sandbox';
import { clusterOn, startCluster, stopCluster, type Cluster } from './cluster';
import { bookAtDesk, sendAll, startGateway } from './deliveries';
import { loadChecks, LOAD_QUEUE } from './load';
import { checkMcp, mcpChecks } from './mcp-check';
import { createItemChecks, killWorkerMidBooking, WRITES } from './queue-writes';
import { until } from './processes';
import { check, onStop, plan, soft } from './report';
import {
  activate,
  activationError,
  awaitExecutions,
  createWorkflow,
  deactivate,
  NODE_TYPES,
  PACKAGE_NAME,
  rest,
  settledCount,
} from './rest';
import { connectionOf, setUp } from './setup';
import { ensureStores, startPostgres, startRedis } from './stores';

export const QUEUE = {
  stores: 'queue: PostgreSQL and Redis running (installed with apt-get when missing)',
  start: 'queue: n8n main, a webhook processor and two workers ready on PostgreSQL and Redis',
  setup: 'queue: the owner, the package’s nodes, the Clinic & Cashier API and Redis credentials',
  noRedis:
    'queue: the trigger without a Redis credential fails to activate, saying so, and leaves no subscription',
  restartOld:
    'queue restart: after every n8n process restarted, the events already run, sent again, run none',
  restartNew: 'queue restart: a new event then runs once',
};

const MCP_LABEL = 'queue mcp';

export const planQueue = () => {
  plan({ stores: QUEUE.stores, start: QUEUE.start, setup: QUEUE.setup, noRedis: QUEUE.noRedis });
  plan(Object.fromEntries(mcpChecks(MCP_LABEL).map((name, i) => [`mcp${i}`, name])));
  plan(LOAD_QUEUE);
  plan({ createItem: WRITES.createItem, killed: WRITES.killed, retried: WRITES.retried });
  plan({ restartOld: QUEUE.restartOld, restartNew: QUEUE.restartNew });
};

export const runQueue = async (runDir: string, nodesFolder: string) => {
  const { pg, redis } = await check(QUEUE.stores, async () => {
    const installed = ensureStores((line) => console.log(`  ${line}`));
    if (installed.length) console.log(`  installed ${installed.join(', ')}`);
    const [p, r] = await Promise.all([startPostgres(runDir), startRedis(runDir)]);
    return { pg: p, redis: r };
  });
  onStop(() => redis.stop());
  onStop(() => pg.stop());

  const live: { cluster?: Cluster } = {};
  const gateway = await startGateway(() => live.cluster!.webhook.url);
  onStop(() => gateway.close());
  const options = clusterOn({ runDir, nodesFolder, gatewayUrl: gateway.url }, pg, redis);
  const cluster = await check(QUEUE.start, () => startCluster(options));
  live.cluster = cluster;

  const sb: Sandbox = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 100_000 });
  onStop(() => sb.close());
  // The main process's address changes when it restarts.
  const api = rest(() => cluster.main.url);
  const { credentials, withRedis } = await check(QUEUE.setup, () => setUp(api, sb, redis.port));

  await soft(QUEUE.noRedis, async () => {
    const webhookId = randomUUID();
    const flow = await createWorkflow(api, 'Lane: trigger without Redis', [
      {
        name: 'New Appointment',
        type: NODE_TYPES.trigger,
        webhookId,
        parameters: { event: 'appointment_created' },
        credentials,
      },
    ]);
    await activate(api, flow);
    const said = await activationError(api, flow.id).finally(() =>
      deactivate(api, flow).catch(() => undefined),
    );
    if (!/redis/i.test(said)) throw new Error(`activation failed with "${said.slice(0, 300)}"`);
    const target = `${gateway.url}/webhook/${webhookId}/webhook`;
    const left = sb.subscriptions().filter((s) => s.target_url === target);
    if (left.length) throw new Error(`${left.length} subscriptions left at the sandbox`);
  });

  // An AI assistant over MCP: its requests reach the webhook processor, its tools run on the workers.
  await checkMcp({
    n8nUrl: cluster.webhook.url,
    rest: api.ok,
    typePrefix: `${PACKAGE_NAME}.`,
    connection: connectionOf(sb),
    check: soft,
    label: MCP_LABEL,
  });

  // Restarting replaces the processes in place: everything holding `c` reaches the new ones.
  const c = cluster;
  const killed = await killWorkerMidBooking({
    api,
    sb,
    cluster: c,
    options,
    credentials: withRedis,
    gatewayUrl: gateway.url,
  });

  const ctx = {
    mode: 'queue' as const,
    checks: LOAD_QUEUE,
    api,
    sb,
    gateway,
    credentials: withRedis,
    webhookBase: () => c.webhook.url,
    database: async () => pg.dump(),
  };
  const load = await loadChecks(ctx);
  await createItemChecks({ api, sb, cluster: c, credentials: withRedis });
  await killed.retry();

  await soft(QUEUE.restartOld, async () => {
    if (!load) throw new Error(`needs "${LOAD_QUEUE.distinct}"`);
    await stopCluster(c);
    Object.assign(c, await startCluster(options));
    await api.signIn();
    await activeTriggerStill(sb, load.targetUrl);
    // The newest subscription's: the restart may have subscribed again.
    const secret = sb
      .subscriptions()
      .filter((s) => s.target_url === load.targetUrl && s.status === 'active')
      .at(-1)!.secret;
    const clock = () => sb.clock.nowSeconds();
    await sendAll(c.webhook.url, load.sent, { secret, concurrency: 5, clock });
    const { count } = await settledCount(api, load.flow.id);
    if (count !== load.count) throw new Error(`${count - load.count} executions ran`);
  });

  await soft(QUEUE.restartNew, async () => {
    if (!load) throw new Error(`needs "${LOAD_QUEUE.distinct}"`);
    const before = (await settledCount(api, load.flow.id)).count;
    await bookAtDesk(sb, sb.refs.clinic.patient);
    await sb.settle();
    await awaitExecutions(api, load.flow.id, before + 1);
    const { count } = await settledCount(api, load.flow.id);
    if (count !== before + 1) throw new Error(`${count - before} executions ran`);
  });
};

/** After a restart the trigger's subscription is there: kept, or made again by the restarted main process. */
const activeTriggerStill = (sb: Sandbox, targetUrl: string) =>
  until('the trigger’s subscription after the restart', async () =>
    sb.subscriptions().some((s) => s.target_url === targetUrl && s.status === 'active'),
  );
