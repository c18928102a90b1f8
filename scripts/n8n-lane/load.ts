/**
 * The trigger under load, the same in both modes: many distinct events at once each run once, the same events
 * re-sent run nothing, copies of one event arriving in the same instant run once, and the subscription's signing
 * secret is neither in the workflow n8n serves nor in its database. The events are genuine (made by the sandbox's
 * webhook engine), held at the gateway and sent on by the lane (deliveries.ts).
 */
import { randomUUID } from 'node:crypto';
import type { Sandbox } from '../../sandbox';
import { heldDeliveries, secretOf, sendAll, sendCopies, type Gateway, type Held } from './deliveries';
import { until } from './processes';
import { check, soft } from './report';
import { activate, awaitExecutions, createWorkflow, NODE_TYPES, settledCount, type Rest } from './rest';
import type { CredentialRefs } from './setup';

interface LoadChecks {
  distinct: string;
  resent: string;
  copies: string;
  secret: string;
}

/** How many events each mode sends, at what concurrency, and how many of them it re-sends. */
export const LOAD = {
  regular: { events: 100, concurrency: 10, resend: 30 },
  queue: { events: 30, concurrency: 5, resend: 30 },
};

const checksOf = (mode: keyof typeof LOAD): LoadChecks => {
  const { events, concurrency, resend } = LOAD[mode];
  return {
    distinct: `${mode} load: ${events} distinct events at concurrency ${concurrency} run ${events} executions`,
    resent: `${mode} load: ${resend} of them re-sent run none`,
    copies: `${mode} load: 3 copies of a new event sent in the same instant run one`,
    secret: `${mode} load: the signing secret is neither in the workflow n8n serves nor in its database`,
  };
};

export const LOAD_REGULAR = checksOf('regular');
export const LOAD_QUEUE = checksOf('queue');

export interface LoadContext {
  mode: keyof typeof LOAD;
  checks: LoadChecks;
  api: Rest;
  sb: Sandbox;
  gateway: Gateway;
  credentials: CredentialRefs;
  /** Where deliveries are sent: the process that answers production webhooks. */
  webhookBase: () => string;
  /** The database as text (a dump, or the file's bytes). */
  database: () => Promise<string>;
}

/** A trigger workflow on New Appointment, activated, once the sandbox holds its subscription. */
export const activeTrigger = async (ctx: LoadContext, name: string) => {
  const webhookId = randomUUID();
  const flow = await createWorkflow(ctx.api, name, [
    {
      name: 'New Appointment',
      type: NODE_TYPES.trigger,
      webhookId,
      parameters: { event: 'appointment_created' },
      credentials: ctx.credentials,
    },
  ]);
  const targetUrl = `${ctx.gateway.url}/webhook/${webhookId}/webhook`;
  await activate(ctx.api, flow);
  await until('the subscription at the sandbox', async () =>
    ctx.sb.subscriptions().some((s) => s.target_url === targetUrl && s.status === 'active'),
  );
  return { flow, targetUrl };
};

export interface LoadRun {
  flow: { id: string; versionId: string };
  targetUrl: string;
  sent: Held[];
  /** Executions the workflow has run so far. */
  count: number;
}

/** Runs the load checks; answers what later checks (a restart) build on, or nothing when the first failed. */
export const loadChecks = async (ctx: LoadContext): Promise<LoadRun | undefined> => {
  const { events, concurrency, resend } = LOAD[ctx.mode];
  const { api, sb } = ctx;
  const clock = () => sb.clock.nowSeconds();
  const run = await check(ctx.checks.distinct, async () => {
    const { flow, targetUrl } = await activeTrigger(ctx, `Lane: ${ctx.mode} load`);
    const secret = secretOf(sb, targetUrl);
    const sent = await heldDeliveries(sb, ctx.gateway, events);
    await sendAll(ctx.webhookBase(), sent, { secret, concurrency, clock });
    await awaitExecutions(api, flow.id, events, 180_000);
    const { count, failed } = await settledCount(api, flow.id);
    if (count !== events) throw new Error(`${count} executions`);
    if (failed) throw new Error(`${failed} executions did not succeed`);
    return { flow, targetUrl, sent, count, secret };
  }).catch(() => undefined);
  if (!run) {
    for (const name of [ctx.checks.resent, ctx.checks.copies, ctx.checks.secret]) {
      await soft(name, async () => {
        throw new Error(`needs "${ctx.checks.distinct}"`);
      });
    }
    return undefined;
  }

  await soft(ctx.checks.resent, async () => {
    await sendAll(ctx.webhookBase(), run.sent.slice(0, resend), { secret: run.secret, concurrency, clock });
    const { count } = await settledCount(api, run.flow.id);
    if (count !== run.count) throw new Error(`${count - run.count} executions ran`);
  });

  await soft(ctx.checks.copies, async () => {
    const before = (await settledCount(api, run.flow.id)).count;
    const [fresh] = await heldDeliveries(sb, ctx.gateway, 1);
    const answers = await sendCopies(ctx.webhookBase(), fresh!, { secret: run.secret, copies: 3, clock });
    const refused = answers.filter((a) => a.status !== 200);
    if (refused.length) throw new Error(`copies answered ${answers.map((a) => a.status).join(', ')}`);
    await awaitExecutions(api, run.flow.id, before + 1);
    const { count } = await settledCount(api, run.flow.id);
    run.count = count;
    if (count !== before + 1) throw new Error(`${count - before} executions ran`);
    run.sent.push(fresh!);
  });

  await soft(ctx.checks.secret, async () => {
    const workflow = JSON.stringify(await api.ok('GET', `/workflows/${run.flow.id}`));
    if (workflow.includes(run.secret)) throw new Error('GET /rest/workflows/:id shows the secret');
    const database = await ctx.database();
    // The read must hold what the workflow keeps, or finding no secret in it proves nothing.
    if (!database.includes(`Lane: ${ctx.mode} load`)) throw new Error('the database read holds no workflow');
    if (database.includes(run.secret)) throw new Error('the database holds the secret in clear');
  });

  return run;
};
