/**
 * n8n's REST interface as the editor uses it (a signed-in owner), and what the checks read back through it: the
 * workflows, the credentials, the executions and the items a node put out.
 */
import { randomUUID } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { request as httpRequest } from 'node:http';
import { createRequire } from 'node:module';
import { join } from 'node:path';
import type { Json } from '../../harness/call';
import { ClinicCashierTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node';
import { LANE } from './install';
import { until } from './processes';

const ROOT = join(__dirname, '..', '..');
const PACKAGE = JSON.parse(readFileSync(join(ROOT, 'n8n-nodes-clinic-cashier', 'package.json'), 'utf8')) as {
  name: string;
};

/** n8n names a community package's node types after the package. */
export const NODE_TYPES = {
  action: `${PACKAGE.name}.clinicCashier`,
  trigger: `${PACKAGE.name}.clinicCashierTrigger`,
  poller: `${PACKAGE.name}.clinicCashierStartingSoonTrigger`,
};
export const PACKAGE_NAME = PACKAGE.name;
/** The trigger's version n8n gives a node added in the editor today. */
const TRIGGER_VERSION = new ClinicCashierTrigger().description.defaultVersion ?? 1;

/** A Book Appointment node of the package for the sandbox's patient at `startsAt` (branch 1, appointment type 4). */
export const bookingNode = (
  name: string,
  patientId: string,
  startsAt: string,
  credentials: NodeSpec['credentials'],
): NodeSpec => ({
  name,
  type: NODE_TYPES.action,
  parameters: {
    resource: 'appointment',
    operation: 'book',
    patient_id: patientId,
    branch_id: '1',
    appointment_type_id: '4',
    starts_at: startsAt,
  },
  credentials,
});

const BROWSER_ID = 'n8n-lane-browser';
export const OWNER = {
  email: 'owner@clinic.example',
  firstName: 'Lane',
  lastName: 'Owner',
  password: 'Lane-Passw0rd!',
};

/**
 * One request on a connection of its own. Node's fetch keeps connections alive, and a busy machine makes it reuse
 * one just as n8n closes it ("other side closed"); a new connection each time cannot meet that.
 */
export const httpSend = (method: string, url: string, headers: Record<string, string>, body?: string) =>
  new Promise<{ status: number; text: string; cookies: string[] }>((resolve, reject) => {
    const req = httpRequest(url, { method, headers, agent: false }, (res) => {
      const chunks: Buffer[] = [];
      res.on('data', (c: Buffer) => chunks.push(c));
      res.on('error', reject);
      res.on('end', () =>
        resolve({
          status: res.statusCode ?? 0,
          text: Buffer.concat(chunks).toString('utf8'),
          cookies: res.headers['set-cookie'] ?? [],
        }),
      );
    });
    req.on('error', (e) => reject(new Error(`${method} ${url}: ${e.message}`)));
    req.end(body);
  });

/** n8n's REST interface on `baseUrl` (a function: where the main process is now), as one signed-in browser. */
export const rest = (base: string | (() => string)) => {
  const baseUrlOf = typeof base === 'string' ? () => base : base;
  let cookie = '';
  const send = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Json }> => {
    const outsideRest = path.startsWith('/types/') || path.startsWith('/icons/');
    const url = `${baseUrlOf()}${outsideRest ? '' : '/rest'}${path}`;
    const res = await httpSend(
      method,
      url,
      {
        'content-type': 'application/json',
        'browser-id': BROWSER_ID,
        ...(cookie ? { cookie } : {}),
      },
      body === undefined ? undefined : JSON.stringify(body),
    );
    const set = res.cookies.find((c) => c.startsWith('n8n-auth='));
    if (set) cookie = set.split(';')[0]!;
    const text = res.text;
    let parsed: Json = text;
    try {
      parsed = JSON.parse(text);
    } catch {
      /* not JSON */
    }
    return { status: res.status, body: parsed };
  };
  const ok = async (method: string, path: string, body?: unknown) => {
    const res = await send(method, path, body);
    if (res.status >= 300) {
      throw new Error(`${method} /rest${path}: ${res.status} ${JSON.stringify(res.body).slice(0, 300)}`);
    }
    return res.body?.data ?? res.body;
  };
  const text = async (path: string) => {
    const res = await send('GET', path);
    if (res.status !== 200) throw new Error(`GET ${path}: ${res.status}`);
    return typeof res.body === 'string' ? res.body : JSON.stringify(res.body);
  };
  /** Signs in as the owner: sets the owner up on a new database, logs in on one that has it. */
  const signIn = async () => {
    const setup = await send('POST', '/owner/setup', OWNER);
    if (setup.status < 300) return;
    await ok('POST', '/login', { emailOrLdapLoginId: OWNER.email, password: OWNER.password });
  };
  return { send, ok, text, signIn };
};

export type Rest = ReturnType<typeof rest>;

/** n8n stores an execution's data with `flatted`; the parser is n8n's own copy. */
const flatted = createRequire(join(LANE, 'n8n', 'node_modules', 'n8n', 'package.json'))('flatted') as {
  parse(text: string): Json;
};

/** A workflow's executions, newest first (up to `limit`, at most 100), and how many there are in all. */
export const executionsOf = async (api: Rest, workflowId: string, limit = 100, status?: string[]) => {
  const filter = encodeURIComponent(JSON.stringify({ workflowId, ...(status ? { status } : {}) }));
  const data = await api.ok('GET', `/executions?filter=${filter}&limit=${limit}`);
  const results = (data.results ?? data) as Json[];
  return { results, count: (data.count as number | undefined) ?? results.length };
};

const UNFINISHED = ['new', 'running', 'waiting', 'unknown'];

/** How many executions a workflow has run, and how many of them have not ended. */
const tally = async (api: Rest, workflowId: string) => {
  const [all, open] = await Promise.all([
    executionsOf(api, workflowId, 1),
    executionsOf(api, workflowId, 1, UNFINISHED),
  ]);
  return { count: all.count, running: open.count };
};

/** Waits until a workflow has run `count` executions and none is still running. */
export const awaitExecutions = async (api: Rest, workflowId: string, count: number, timeoutMs = 60_000) =>
  until(
    `${count} finished executions`,
    async () => {
      const t = await tally(api, workflowId);
      return t.count >= count && t.running === 0 ? t : undefined;
    },
    timeoutMs,
  );

/**
 * How many executions a workflow has run, and how many of them did not succeed, once nothing new has started for
 * `quietMs` and none is running: a delivery that should start nothing may start it an instant after its answer,
 * so "none" is read after a quiet time, not at once.
 */
export const settledCount = async (api: Rest, workflowId: string, quietMs = 1_500) => {
  let last = -1;
  for (;;) {
    const t = await tally(api, workflowId);
    if (t.count === last && t.running === 0) {
      const failed = await executionsOf(api, workflowId, 1, ['error', 'crashed', 'canceled']);
      return { count: t.count, failed: failed.count };
    }
    last = t.count;
    await new Promise((r) => setTimeout(r, quietMs));
  }
};

/** An execution once it has ended, with its data parsed. */
export const finishedExecution = async (api: Rest, executionId: string, timeoutMs = 30_000) => {
  const execution = await until(
    `execution ${executionId} to finish`,
    async () => {
      const e = await api.ok('GET', `/executions/${executionId}`);
      return e.finished || ['success', 'error', 'crashed', 'canceled'].includes(e.status) ? e : undefined;
    },
    timeoutMs,
  );
  return { ...execution, data: flatted.parse(execution.data) as Json };
};

/** The error an ended execution stopped on, as a line. */
export const errorOf = (execution: Json): string =>
  JSON.stringify(execution.data?.resultData?.error ?? {}).slice(0, 400);

/** The items a node put out in a finished, successful execution. */
export const outputOf = async (api: Rest, executionId: string, nodeName: string): Promise<Json[]> => {
  const execution = await finishedExecution(api, executionId);
  if (execution.status !== 'success') {
    throw new Error(`execution ${executionId} ${execution.status}: ${errorOf(execution)}`);
  }
  const runs = execution.data.resultData?.runData?.[nodeName] as Json[] | undefined;
  return (runs?.[0]?.data?.main?.[0] ?? []).map((i: Json) => i.json);
};

export interface NodeSpec {
  name: string;
  type: string;
  parameters: Record<string, unknown>;
  credentials?: Record<string, { id: string; name: string }>;
  webhookId?: string;
  typeVersion?: number;
}

/** Creates a workflow of nodes one after another (the first the trigger), inactive. */
export const createWorkflow = async (api: Rest, name: string, nodes: NodeSpec[]) => {
  const connections: Record<string, unknown> = {};
  nodes.slice(1).forEach((node, i) => {
    connections[nodes[i]!.name] = { main: [[{ node: node.name, type: 'main', index: 0 }]] };
  });
  return api.ok('POST', '/workflows', {
    name,
    active: false,
    settings: { executionOrder: 'v1' },
    connections,
    nodes: nodes.map((n, i) => ({
      id: randomUUID(),
      typeVersion: n.type === NODE_TYPES.trigger ? TRIGGER_VERSION : 1,
      position: [i * 220, 0],
      ...n,
    })),
  }) as Promise<{ id: string; versionId: string; name: string }>;
};

export const activate = (api: Rest, flow: { id: string; versionId: string }) =>
  api.ok('POST', `/workflows/${flow.id}/activate`, { versionId: flow.versionId });

export const deactivate = (api: Rest, flow: { id: string }) =>
  api.ok('POST', `/workflows/${flow.id}/deactivate`);

interface Publication {
  status: string;
  triggers: Array<{ nodeId: string; status: string; errorMessage?: string | null }>;
}

/**
 * How activating a workflow ended, trigger by trigger. n8n 2.41 activates in the background after answering
 * `activate` (a failed trigger is tried 5 times over ~15 s) and reports the outcome as the workflow's publication
 * status: `published`, or `failed`/`partial` with each failed trigger's message.
 */
export const publication = (api: Rest, workflowId: string, timeoutMs = 60_000): Promise<Publication> =>
  until(
    'the activation to end',
    async () => {
      const p = (await api.ok('GET', `/workflows/${workflowId}/publication-status`)) as Publication;
      return p.status === 'in_progress' || p.status === 'not_published' ? undefined : p;
    },
    timeoutMs,
  );

/** The message a workflow's activation failed with; throws if it did not fail. */
export const activationError = async (api: Rest, workflowId: string): Promise<string> => {
  const p = await publication(api, workflowId);
  const said = p.triggers
    .map((t) => t.errorMessage)
    .filter(Boolean)
    .join('; ');
  if (p.status === 'published' || !said)
    throw new Error(`activation ended ${p.status}${said ? `: ${said}` : ''}`);
  return said;
};
