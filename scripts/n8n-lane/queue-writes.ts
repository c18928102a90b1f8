/**
 * The action node's writes across workers in queue mode: Create Item without a SKU started twice at once (its two
 * executions on the two workers, the sandbox answering slowly so they overlap) makes one item; a worker killed while
 * the sandbox holds its booking's answer leaves one appointment, while n8n gives the execution up and after n8n's
 * Retry of it. Create Item's workflow starts at n8n's own Webhook node, the booking's at the package's trigger (on a
 * cancellation, rebook); either way the webhook processor puts the execution on the queue.
 */
import { randomUUID } from 'node:crypto';
import { call, type Json } from '../../harness/call';
import type { Sandbox } from '../../sandbox';
import { startWorker, workerOf, type Cluster, type ClusterOptions } from './cluster';
import { bookAtDesk } from './deliveries';
import { killN8n, until } from './processes';
import { soft } from './report';
import {
  activate,
  bookingNode,
  awaitExecutions,
  createWorkflow,
  errorOf,
  executionsOf,
  finishedExecution,
  httpSend,
  NODE_TYPES,
  type NodeSpec,
  type Rest,
} from './rest';
import type { CredentialRefs } from './setup';

export const WRITES = {
  createItem:
    'queue: Create Item without a SKU started twice at once, on the two workers, leaves one item at the sandbox',
  killed:
    'queue: a worker killed mid-booking leaves one appointment once n8n has given its execution up (minutes later; the checks above ran meanwhile)',
  retried: 'queue: n8n’s Retry of the killed execution leaves one appointment',
};

interface WritesContext {
  api: Rest;
  sb: Sandbox;
  cluster: Cluster;
  credentials: CredentialRefs;
}

/** A workflow of n8n's Webhook node then `action`, active, once the webhook processor answers its address. */
const webhookWorkflow = async (ctx: WritesContext, name: string, action: NodeSpec) => {
  const path = randomUUID();
  const flow = await createWorkflow(ctx.api, name, [
    {
      name: 'Webhook',
      type: 'n8n-nodes-base.webhook',
      typeVersion: 2,
      webhookId: path,
      parameters: { httpMethod: 'POST', path, responseMode: 'onReceived', options: {} },
    },
    action,
  ]);
  await activate(ctx.api, flow);
  const url = () => `${ctx.cluster.webhook.url}/webhook/${path}`;
  // Activation ends after its answer. A GET, not among the webhook's methods, runs nothing; n8n answers it 404 either
  // way, naming the methods the path takes once it is registered.
  await until('the webhook processor to know the workflow', async () =>
    (await httpSend('GET', url(), {})).text.includes('not registered for GET'),
  );
  return { flow, url };
};

const JSON_TYPE = { 'content-type': 'application/json' };

const pathOf = (base: string, tail: string) => `${new URL(base).pathname}${tail}`;

export const createItemChecks = async (ctx: WritesContext) =>
  soft(WRITES.createItem, async () => {
    const { api, sb, cluster } = ctx;
    const name = `صنف المسار ${randomUUID().slice(0, 8)}`;
    const since = new Date(Date.now() - 60_000).toISOString();
    const { flow, url } = await webhookWorkflow(ctx, 'Lane: Create Item twice', {
      name: 'Create Item',
      type: NODE_TYPES.action,
      parameters: {
        resource: 'item',
        operation: 'create',
        name_ar: name,
        name_en: 'Lane item',
        category_id: 4,
        default_price_sar: '9.00',
      },
      credentials: ctx.credentials,
    });
    // The sandbox makes each item, then answers 3 s later: the two runs overlap whichever worker is faster.
    sb.injectFault({
      pathPrefix: pathOf(sb.cashierBaseUrl, '/items'),
      method: 'POST',
      kind: 'slow',
      when: 'after',
      delayMs: 3_000,
      times: 2,
    });
    const answers = await Promise.all([1, 2].map(() => httpSend('POST', url(), JSON_TYPE, '{}')));
    if (answers.some((a) => a.status !== 200))
      throw new Error(`the webhook answered ${answers.map((a) => a.status).join(', ')}`);
    await awaitExecutions(api, flow.id, 2, 60_000);
    const { results } = await executionsOf(api, flow.id);
    const on = results.map((e: Json) => workerOf(cluster, String(e.id))?.name);
    if (on.length !== 2 || !on[0] || on[0] === on[1])
      throw new Error(`the two executions ran on ${on.join(' and ')}`);
    const list = await call(
      `${sb.cashierBaseUrl}/items?updated_since=${encodeURIComponent(since)}&per_page=100`,
      {
        token: sb.tokens.cashierOwner,
      },
    );
    const made = (list.body.data as Json[]).filter((i) => i.name_ar === name);
    const outcomes = await Promise.all(results.map((e: Json) => finishedExecution(api, String(e.id))));
    const said = outcomes.map((e) => (e.status === 'success' ? 'success' : `${e.status}: ${errorOf(e)}`));
    if (made.length !== 1) throw new Error(`${made.length} items made; the executions: ${said.join('; ')}`);
  });

/** A slot no other check books: a booking found there was made by this check. */
const killSlot = () => {
  const day = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
  return `${day}T10:00:00+03:00`;
};

/**
 * Starts a booking on a worker, kills that worker once the sandbox holds the booking (its answer held back), and
 * starts another in its place. Answers `retry`, which waits for n8n to give the execution up, retries it and
 * records both checks; in between, other checks run.
 */
export const killWorkerMidBooking = async (
  ctx: WritesContext & { options: ClusterOptions; gatewayUrl: string },
) => {
  const { api, sb, cluster } = ctx;
  const patientId = sb.refs.clinic.patient;
  const startsAt = killSlot();
  const appointmentsAt = async () => {
    const list = await call(`${sb.clinicBaseUrl}/appointments?patient_id=${patientId}&per_page=100`, {
      token: sb.tokens.clinicOwner,
    });
    return (list.body.data as Json[]).filter((a) => Date.parse(a.starts_at) === Date.parse(startsAt));
  };
  let executionId = '';
  let killedAt = 0;
  let failure: Error | undefined;
  try {
    // The package's trigger first: Book Appointment's reference then derives from the event, which a Retry repeats.
    const webhookId = randomUUID();
    const flow = await createWorkflow(api, 'Lane: rebook a cancelled appointment, worker killed', [
      {
        name: 'Appointment Cancelled',
        type: NODE_TYPES.trigger,
        webhookId,
        parameters: { event: 'appointment_cancelled' },
        credentials: ctx.credentials,
      },
      bookingNode('Book Appointment', patientId, startsAt, ctx.credentials),
    ]);
    await activate(api, flow);
    const target = `${ctx.gatewayUrl}/webhook/${webhookId}/webhook`;
    await until('the subscription at the sandbox', async () =>
      sb.subscriptions().some((s) => s.target_url === target && s.status === 'active'),
    );
    const cancelled = await bookAtDesk(sb, patientId);
    const cancel = await call(`${sb.clinicBaseUrl}/appointments/${cancelled.id}/cancel`, {
      method: 'POST',
      token: sb.tokens.clinicOwner,
    });
    if (cancel.status !== 200) throw new Error(`cancelling at the sandbox: ${cancel.status}`);
    // The next booking is made, its answer held back far longer than the check lasts (the sandbox drops it on
    // close). Set once the cancellation (under the same prefix) is answered; its delivery reaches a worker later.
    sb.injectFault({
      pathPrefix: pathOf(sb.clinicBaseUrl, '/appointments'),
      method: 'POST',
      kind: 'slow',
      when: 'after',
      delayMs: 3_600_000,
      times: 1,
    });
    await until('the booking at the sandbox', async () => (await appointmentsAt()).length > 0, 60_000);
    const [execution] = (await executionsOf(api, flow.id)).results;
    executionId = String(execution?.id ?? '');
    const worker = await until('the worker running the booking', async () => workerOf(cluster, executionId));
    await killN8n(worker);
    killedAt = Date.now();
    cluster.workers = [...cluster.workers.filter((w) => w !== worker), await startWorker(ctx.options)];
  } catch (e) {
    failure = e instanceof Error ? e : new Error(String(e));
  }

  const retry = async () => {
    let ended: Json;
    await soft(WRITES.killed, async () => {
      if (failure) throw failure;
      ended = await finishedExecution(api, executionId, 300_000);
      const at = await appointmentsAt();
      const took = ((Date.now() - killedAt) / 1000).toFixed(0);
      console.log(`  the killed execution ${executionId} ended ${ended.status} ${took} s after the kill`);
      if (at.length !== 1) throw new Error(`${at.length} appointments at ${startsAt}`);
    });
    await soft(WRITES.retried, async () => {
      if (!ended) throw new Error(`needs "${WRITES.killed}"`);
      if (ended.status === 'success') throw new Error('the killed execution succeeded: nothing to retry');
      const retried = await api.send('POST', `/executions/${executionId}/retry`, { loadWorkflow: false });
      if (retried.status >= 300)
        throw new Error(`retry answered ${retried.status} ${JSON.stringify(retried.body).slice(0, 300)}`);
      const again = await until('the retry’s execution', async () =>
        (await executionsOf(api, String(ended.workflowId))).results.find(
          (e: Json) => String(e.retryOf) === executionId,
        ),
      );
      const outcome = await finishedExecution(api, String(again.id), 120_000);
      // n8n 2.41's Retry of an execution whose worker died resumes after the last node it recorded; a worker saves
      // nothing before it ends, so none is recorded and the retry may end at once. What it ran is printed.
      const ran = Object.keys(outcome.data.resultData?.runData ?? {});
      console.log(`  the retry ${again.id} ended ${outcome.status}, nodes run: ${ran.join(', ') || 'none'}`);
      const at = await appointmentsAt();
      if (at.length !== 1)
        throw new Error(`${at.length} appointments at ${startsAt} after the retry (${outcome.status})`);
    });
  };
  return { retry };
};
