/**
 * `npm run test:n8n`: the n8n nodes in a real n8n (2.41.1 on Node 24, scripts/n8n-lane/install.ts) against the
 * local sandbox, driven through n8n's own REST interface as a user's clicks would. The nodes are installed as
 * docs/n8n.md's first way says: the built package packed and `npm install`ed offline into n8n's nodes folder.
 *
 * n8n's public address (WEBHOOK_URL) is a loopback gateway in front of it, as a reverse proxy stands in front of a
 * self-hosted n8n: the subscription targets the gateway, which can lose n8n's acknowledgement of one delivery, so
 * the sandbox holds that delivery as failed and its resend endpoint re-sends the same event (the way
 * test/e2e/app-faults.test.ts makes a genuine redelivery; a delivery that was acknowledged cannot be re-sent).
 *
 * Everything started here is stopped in `finally`. One line per check, then `N passed, N failed`; the exit code is
 * the failures' count (at most 1).
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import { mkdirSync, rmSync, createWriteStream, readFileSync, writeFileSync } from 'node:fs';
import { createServer, request as httpRequest, type Server } from 'node:http';
import { createRequire } from 'node:module';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../sandbox';
import { call, type Json } from '../harness/call';
import { signDelivery } from '../sandbox/webhooks';
import { explain } from '../lib/errors';
import { ensureInstalled, LANE, N8N_BIN, N8N_VERSION, NODE_BIN, node24Env } from './n8n-lane/install';

const ROOT = join(__dirname, '..');
const PACKAGE_DIR = join(ROOT, 'n8n-nodes-clinic-cashier');
const PACKAGE = JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { name: string };
/** n8n names a community package's node types after the package. */
const TYPE = `${PACKAGE.name}.`;
const RUN_DIR = join(LANE, 'run');
const USER_FOLDER = join(RUN_DIR, 'user');
const BROWSER_ID = 'n8n-lane-browser';
const OWNER = {
  email: 'owner@clinic.example',
  firstName: 'Lane',
  lastName: 'Owner',
  password: 'Lane-Passw0rd!',
};
const EVENT_KEY = 'appointment_created';
const NODE_TYPES = {
  action: `${TYPE}clinicCashier`,
  trigger: `${TYPE}clinicCashierTrigger`,
  poller: `${TYPE}clinicCashierStartingSoonTrigger`,
};

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves with fn's first truthy answer, polling; throws `what` after timeoutMs. */
const until = async <T>(what: string, fn: () => Promise<T | undefined | false>, timeoutMs = 15_000) => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(150);
  }
};

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as AddressInfo;
      s.close(() => resolve(port));
    });
  });

// ---- what the run prints -------------------------------------------------------------------------------------

const results: Array<{ name: string; ok: boolean; detail?: string }> = [];
const PLANNED = [
  'install: n8n 2.41.1 on Node 24',
  'build: the nodes packed and installed offline into n8n’s nodes folder',
  'start: n8n ready',
  'start: the sandbox',
  'setup: the owner, the package’s nodes loaded, the Clinic & Cashier API credentials',
  'credentials: the Test button answers OK for the sandbox’s owner tokens',
  'credentials: the Test button answers the app’s message for a clinic token the sandbox refuses',
  'trigger: activation subscribes the webhook address at the sandbox',
  'trigger: a booking runs exactly one execution, its item the appointment with its patient',
  'trigger: a forged delivery is answered 401 and runs nothing',
  'trigger: the genuine delivery re-sent runs nothing more',
  'trigger: deactivation removes the sandbox’s subscription',
  'action: Book Appointment books, and the appointment is at the sandbox',
  'action: the same workflow run again books nothing more',
  'icon: the nodes and the credentials show the package’s icon, and n8n serves it',
  'polling: activation polls at once and runs the appointment booked to start within the hour, with its patient',
  'polling: activated again, its first poll runs only the appointment booked since',
];

const check = async <T>(name: string, fn: () => Promise<T>): Promise<T> => {
  const started = Date.now();
  try {
    const value = await fn();
    results.push({ name, ok: true, detail: `${((Date.now() - started) / 1000).toFixed(1)} s` });
    return value;
  } catch (err) {
    results.push({ name, ok: false, detail: err instanceof Error ? err.message : String(err) });
    throw new Stop();
  }
};

/** Ends the run after a failed check: what follows depends on it. */
class Stop extends Error {}

/** Runs `fn` as a check, recording a failure without stopping (the checks after it do not depend on it). */
const soft = async (name: string, fn: () => Promise<void>) => {
  await check(name, fn).catch((e) => {
    if (!(e instanceof Stop)) throw e;
  });
};

// ---- n8n ------------------------------------------------------------------------------------------------------

interface N8n {
  url: string;
  child: ChildProcess;
  env: NodeJS.ProcessEnv;
}

const n8nEnv = (port: number, brokerPort: number, webhookUrl: string): NodeJS.ProcessEnv =>
  node24Env({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DB_TYPE: 'sqlite',
    N8N_USER_FOLDER: USER_FOLDER,
    N8N_PORT: String(port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    N8N_PROTOCOL: 'http',
    WEBHOOK_URL: webhookUrl,
    N8N_WEBHOOK_URL: webhookUrl,
    N8N_SECURE_COOKIE: 'false',
    N8N_RUNNERS_BROKER_PORT: String(brokerPort),
    N8N_ENCRYPTION_KEY: 'n8n-lane-only-key-not-a-secret',
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_AI_ENABLED: 'false',
    N8N_HIRING_BANNER_ENABLED: 'false',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    N8N_LOG_LEVEL: 'info',
    N8N_LOG_OUTPUT: 'console',
    EXECUTIONS_DATA_SAVE_ON_SUCCESS: 'all',
    GENERIC_TIMEZONE: 'Asia/Riyadh',
  });

const startN8n = async (gatewayUrl: string): Promise<N8n> => {
  const port = await freePort();
  const env = n8nEnv(port, await freePort(), `${gatewayUrl}/`);
  const log = createWriteStream(join(RUN_DIR, 'n8n.log'));
  // A process group of its own, so stopping it stops its task runner too.
  const child = spawn(NODE_BIN, [N8N_BIN, 'start'], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const url = `http://127.0.0.1:${port}`;
  const n8n = { url, child, env };
  started.push(() => stopGroup(child));
  await until(
    'n8n /healthz/readiness',
    async () => {
      if (child.exitCode !== null) throw new Stop();
      return (await fetch(`${url}/healthz/readiness`)).status === 200;
    },
    90_000,
  ).catch((e) => {
    throw child.exitCode !== null ? new Error(`n8n exited (${child.exitCode}); see ${RUN_DIR}/n8n.log`) : e;
  });
  return n8n;
};

const stopGroup = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    if (child.exitCode !== null || child.signalCode !== null || !child.pid) return resolve();
    const kill = setTimeout(() => {
      try {
        process.kill(-child.pid!, 'SIGKILL');
      } catch {
        /* already gone */
      }
    }, 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    try {
      process.kill(-child.pid, 'SIGTERM');
    } catch {
      clearTimeout(kill);
      resolve();
    }
  });

/** n8n's REST interface as the signed-in owner. */
const rest = (n8n: N8n) => {
  let cookie = '';
  const send = async (
    method: string,
    path: string,
    body?: unknown,
  ): Promise<{ status: number; body: Json }> => {
    const outsideRest = path.startsWith('/types/') || path.startsWith('/icons/');
    const res = await fetch(`${n8n.url}${outsideRest ? '' : '/rest'}${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'browser-id': BROWSER_ID,
        ...(cookie ? { cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
    if (set) cookie = set.split(';')[0]!;
    const text = await res.text();
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
  return { send, ok, text };
};

type Rest = ReturnType<typeof rest>;

/** n8n stores an execution's data with `flatted`; the parser is n8n's own copy. */
const flatted = createRequire(join(LANE, 'n8n', 'node_modules', 'n8n', 'package.json'))('flatted') as {
  parse(text: string): Json;
};

const executionsOf = async (api: Rest, workflowId: string): Promise<Json[]> => {
  const data = await api.ok(
    'GET',
    `/executions?filter=${encodeURIComponent(JSON.stringify({ workflowId }))}`,
  );
  return data.results ?? data;
};

/** The items a node put out in a finished execution. */
const outputOf = async (api: Rest, executionId: string, nodeName: string): Promise<Json[]> => {
  const execution = await until(
    `execution ${executionId} to finish`,
    async () => {
      const e = await api.ok('GET', `/executions/${executionId}`);
      return e.finished || ['success', 'error', 'crashed'].includes(e.status) ? e : undefined;
    },
    20_000,
  );
  const data = flatted.parse(execution.data);
  if (execution.status !== 'success') {
    throw new Error(
      `execution ${executionId} ${execution.status}: ${JSON.stringify(data.resultData?.error ?? {}).slice(0, 400)}`,
    );
  }
  const runs = data.resultData?.runData?.[nodeName] as Json[] | undefined;
  return (runs?.[0]?.data?.main?.[0] ?? []).map((i: Json) => i.json);
};

// ---- the gateway in front of n8n ------------------------------------------------------------------------------

interface Gateway {
  url: string;
  /** The next `n` webhook deliveries reach n8n, but the sender gets 502 instead of n8n's answer. */
  loseNext(n: number): void;
  close(): Promise<void>;
}

const startGateway = async (target: () => string): Promise<Gateway> => {
  let lose = 0;
  const server: Server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const upstream = httpRequest(
        `${target()}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          const body: Buffer[] = [];
          answer.on('data', (c: Buffer) => body.push(c));
          answer.on('end', () => {
            if (lose > 0 && req.url?.startsWith('/webhook/')) {
              lose -= 1;
              res.writeHead(502, { 'content-type': 'text/plain' }).end('acknowledgement lost');
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(Buffer.concat(body));
          });
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end(Buffer.concat(chunks));
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    loseNext: (n) => {
      lose = n;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
};

// ---- the run --------------------------------------------------------------------------------------------------

const started: Array<() => Promise<unknown>> = [];

/** A time well clear of the seeded appointments (a week either side of now), on the hour, Saudi time. */
const slot = (daysAhead: number, hour: number) => {
  const d = new Date(Date.now() + daysAhead * 86_400_000);
  const day = d.toISOString().slice(0, 10);
  return `${day}T${String(hour).padStart(2, '0')}:00:00+03:00`;
};

/** A time `minutes` from now, to the minute, Saudi time. */
const inMinutes = (minutes: number) =>
  `${new Date(Math.ceil(Date.now() / 60_000 + minutes) * 60_000 + 3 * 3_600_000).toISOString().slice(0, 16)}:00+03:00`;

const main = async () => {
  await check(PLANNED[0]!, async () => {
    const t = Date.now();
    const did = ensureInstalled((line) => console.log(`  ${line}`));
    console.log(`  install: ${did ? `done in ${((Date.now() - t) / 1000).toFixed(0)} s` : 'already there'}`);
  });
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  await check(PLANNED[1]!, async () => {
    const npm = (cwd: string, args: string[]) =>
      execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
    npm(ROOT, ['run', '--silent', 'build', '-w', PACKAGE.name]);
    const [packed] = JSON.parse(
      npm(ROOT, ['pack', '--silent', '--json', '-w', PACKAGE.name, '--pack-destination', RUN_DIR]),
    ) as Array<{ filename: string }>;
    const nodesFolder = join(USER_FOLDER, '.n8n', 'nodes');
    mkdirSync(nodesFolder, { recursive: true });
    // The package.json n8n writes there at its first start: without one, npm installs into the nearest folder
    // above that has one (here the repository, whose checkout holds .n8n-lane/).
    writeFileSync(
      join(nodesFolder, 'package.json'),
      JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }),
    );
    npm(nodesFolder, ['install', '--offline', '--no-audit', '--no-fund', join(RUN_DIR, packed!.filename)]);
  });
  let n8nUrl = '';
  const gateway = await startGateway(() => n8nUrl);
  started.push(() => gateway.close());

  const n8n = await check(PLANNED[2]!, async () => {
    const n = await startN8n(gateway.url);
    n8nUrl = n.url;
    return n;
  });

  const sb: Sandbox = await check(PLANNED[3]!, async () => {
    const s = await startSandbox({ port: 0, quiet: true });
    started.push(() => s.close());
    return s;
  });

  const api = rest(n8n);
  const connection = {
    clinic_api_token: sb.tokens.clinicOwner,
    cashier_api_token: sb.tokens.cashierOwner,
    clinic_base_url: sb.clinicBaseUrl,
    cashier_base_url: sb.cashierBaseUrl,
    language: 'en',
  };
  const credential = await check(PLANNED[4]!, async () => {
    await api.ok('POST', '/owner/setup', OWNER);
    // The node types the editor is sent (signed in only); their shape differs between versions, the names do not.
    const types = await api.text('/types/nodes.json');
    for (const want of Object.values(NODE_TYPES)) {
      if (!types.includes(`"${want}"`)) throw new Error(`${want} not among n8n's node types`);
    }
    return api.ok('POST', '/credentials', {
      name: 'Sandbox',
      type: 'clinicCashierApi',
      data: connection,
    });
  });
  const credentials = { clinicCashierApi: { id: credential.id, name: credential.name } };

  /** The credential's Test button: n8n runs the test the nodes declare for it on the data given. */
  const testCredential = async (data: Json) =>
    api.ok('POST', '/credentials/test', {
      credentials: { id: credential.id, name: credential.name, type: 'clinicCashierApi', data },
    });

  await soft(PLANNED[5]!, async () => {
    const answer = await testCredential(connection);
    if (answer.status !== 'OK') throw new Error(`answered ${JSON.stringify(answer)}`);
  });

  await soft(PLANNED[6]!, async () => {
    const wrong = `${sb.tokens.clinicOwner}-revoked`;
    const refused = await call(`${sb.clinicBaseUrl}/ping`, { token: wrong });
    if (refused.status !== 401) throw new Error(`the sandbox answered the wrong token ${refused.status}`);
    const answer = await testCredential({ ...connection, clinic_api_token: wrong });
    const expected = explain('token_invalid', 'clinic', 401, undefined).text.en;
    if (answer.status !== 'Error' || !String(answer.message).includes(expected)) {
      throw new Error(`answered ${JSON.stringify(answer)}`);
    }
  });

  // -- the trigger
  const webhookId = randomUUID();
  const hookPath = `/webhook/${webhookId}/webhook`;
  const triggerName = 'New Appointment';
  const triggerFlow = await api.ok('POST', '/workflows', {
    name: 'Lane: New Appointment',
    active: false,
    settings: { executionOrder: 'v1' },
    connections: {},
    nodes: [
      {
        id: randomUUID(),
        name: triggerName,
        type: NODE_TYPES.trigger,
        typeVersion: 1,
        position: [0, 0],
        webhookId,
        parameters: { event: EVENT_KEY },
        credentials,
      },
    ],
  });

  const subscription = await check(PLANNED[7]!, async () => {
    await api.ok('POST', `/workflows/${triggerFlow.id}/activate`, { versionId: triggerFlow.versionId });
    const sub = await until('the subscription at the sandbox', async () =>
      sb.subscriptions().find((s) => s.target_url === `${gateway.url}${hookPath}` && s.status === 'active'),
    );
    const others = sb.subscriptions().filter((s) => s.id !== sub.id);
    if (others.length)
      throw new Error(`other subscriptions too: ${others.map((s) => s.target_url).join(', ')}`);
    return sub;
  });

  const patientId = sb.refs.clinic.patient;
  gateway.loseNext(1);
  const first = await check(PLANNED[8]!, async () => {
    const booked = await call(`${sb.controlUrl}/clinic/appointments?wait=true`, {
      body: { patient_id: patientId, branch_id: 1, appointment_type_id: 4, starts_at: slot(20, 10) },
    });
    if (booked.status !== 201 && booked.status !== 200) {
      throw new Error(`booking at the sandbox: ${booked.status} ${JSON.stringify(booked.body)}`);
    }
    const appointmentId = booked.body.data.id as string;
    const runs = await until('an execution', async () => {
      const list = await executionsOf(api, triggerFlow.id);
      return list.length ? list : undefined;
    });
    await sleep(1500);
    const all = await executionsOf(api, triggerFlow.id);
    if (all.length !== 1) throw new Error(`${all.length} executions`);
    const items = await outputOf(api, runs[0].id, triggerName);
    if (items.length !== 1) throw new Error(`${items.length} items`);
    const item = items[0];
    if (item.id !== appointmentId) throw new Error(`item id ${item.id}, booked ${appointmentId}`);
    const patient = item.patient ?? {};
    if (item.patient_id !== patientId && patient.id !== patientId) {
      throw new Error(`item has not patient ${patientId}: ${JSON.stringify(item).slice(0, 300)}`);
    }
    const [delivery] = sb.deliveries({ subscriptionId: subscription.id });
    if (!delivery || delivery.status !== 'failed') {
      throw new Error(`the delivery whose acknowledgement was lost is ${delivery?.status}`);
    }
    return delivery;
  });

  await soft(PLANNED[9]!, async () => {
    const body = first.body as string;
    const timestamp = String(sb.clock.nowSeconds());
    const forged = await fetch(`${n8n.url}${hookPath}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-partner-event': 'appointment.created',
        'x-partner-event-id': JSON.parse(body).id,
        'x-partner-timestamp': timestamp,
        'x-partner-signature': signDelivery(
          `whsec_${randomBytes(16).toString('hex')}`,
          timestamp,
          hookPath,
          body,
        ),
      },
      body,
    });
    await sleep(1500);
    const all = await executionsOf(api, triggerFlow.id);
    if (forged.status !== 401) throw new Error(`answered ${forged.status}: ${await forged.text()}`);
    if (all.length !== 1) throw new Error(`${all.length} executions after it`);
  });

  await soft(PLANNED[10]!, async () => {
    const resent = await call(`${sb.controlUrl}/deliveries/${first.id}/resend`, { method: 'POST' });
    if (resent.status !== 200 || resent.body.data.status !== 'sent') {
      throw new Error(`resend: ${resent.status} ${JSON.stringify(resent.body).slice(0, 300)}`);
    }
    await sleep(1500);
    const all = await executionsOf(api, triggerFlow.id);
    if (all.length !== 1) throw new Error(`${all.length} executions after it`);
  });

  await soft(PLANNED[11]!, async () => {
    await api.ok('POST', `/workflows/${triggerFlow.id}/deactivate`);
    await until(
      'the subscription to go',
      async () => !sb.subscriptions().some((s) => s.id === subscription.id),
    );
  });

  // -- the action
  const actionName = 'Book Appointment';
  const startsAt = slot(21, 11);
  const actionFlow = await api.ok('POST', '/workflows', {
    name: 'Lane: Book Appointment',
    active: false,
    settings: { executionOrder: 'v1' },
    nodes: [
      {
        id: randomUUID(),
        name: 'Start',
        type: 'n8n-nodes-base.manualTrigger',
        typeVersion: 1,
        position: [0, 0],
        parameters: {},
      },
      {
        id: randomUUID(),
        name: actionName,
        type: NODE_TYPES.action,
        typeVersion: 1,
        position: [220, 0],
        parameters: {
          resource: 'appointment',
          operation: 'book',
          patient_id: patientId,
          branch_id: '1',
          appointment_type_id: '4',
          starts_at: startsAt,
        },
        credentials,
      },
    ],
    connections: { Start: { main: [[{ node: actionName, type: 'main', index: 0 }]] } },
  });

  const bookingsAt = async () => {
    const list = await call(`${sb.clinicBaseUrl}/appointments?patient_id=${patientId}&per_page=100`, {
      token: sb.tokens.clinicOwner,
    });
    return (list.body.data as Json[]).filter((a) => Date.parse(a.starts_at) === Date.parse(startsAt));
  };

  const runAction = async () => {
    const before = new Set((await executionsOf(api, actionFlow.id)).map((e: Json) => e.id));
    // `n8n execute` beside the server: the same database, a task-runner port of its own.
    const env = { ...n8n.env, N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
    const child = spawn(NODE_BIN, [N8N_BIN, 'execute', `--id=${actionFlow.id}`], {
      env,
      detached: true,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    started.push(() => stopGroup(child));
    const out: string[] = [];
    child.stdout?.on('data', (c: Buffer) => out.push(c.toString()));
    child.stderr?.on('data', (c: Buffer) => out.push(c.toString()));
    const ended = await new Promise<string>((r) => child.on('exit', (c, signal) => r(signal ?? String(c))));
    if (ended !== '0') throw new Error(`n8n execute ended with ${ended}: ${out.join('').slice(-600)}`);
    const fresh = (await executionsOf(api, actionFlow.id)).filter((e: Json) => !before.has(e.id));
    if (fresh.length !== 1) throw new Error(`${fresh.length} new executions`);
    return outputOf(api, fresh[0].id, actionName);
  };

  const firstBooking = await check(PLANNED[12]!, async () => {
    const [item, ...rest] = await runAction();
    if (!item || rest.length) throw new Error('not one item');
    if (item.duplicate !== false) throw new Error(`duplicate: ${item.duplicate}`);
    const at = await bookingsAt();
    if (at.length !== 1 || at[0].id !== item.id) {
      throw new Error(`the sandbox has ${at.length} appointments at ${startsAt} (${item.id} answered)`);
    }
    return item;
  });

  await soft(PLANNED[13]!, async () => {
    const [item] = await runAction();
    if (item?.id !== firstBooking.id || item?.duplicate !== true) {
      throw new Error(`answered ${item?.id} (duplicate ${item?.duplicate}), first ${firstBooking.id}`);
    }
    const at = await bookingsAt();
    if (at.length !== 1) throw new Error(`the sandbox has ${at.length} appointments at ${startsAt}`);
  });

  await soft(PLANNED[14]!, async () => {
    const listed = [
      ...(JSON.parse(await api.text('/types/nodes.json')) as Json[]),
      ...(JSON.parse(await api.text('/types/credentials.json')) as Json[]),
    ];
    for (const name of [...Object.values(NODE_TYPES), 'clinicCashierApi']) {
      const url = listed.find((t) => t.name === name)?.iconUrl;
      if (typeof url !== 'string' || !url.endsWith('/clinic-cashier.svg')) {
        throw new Error(`${name}: iconUrl ${JSON.stringify(url)}`);
      }
      if (!(await api.text(`/${url}`)).includes('<svg')) throw new Error(`${url} is not the SVG`);
    }
  });

  // -- the polling trigger: n8n polls once as it activates a workflow, then on its Poll Times (here every minute).
  /** Books an appointment for the lane's patient at the first free slot within the poll's hour. */
  const bookSoon = async () => {
    for (const branch of [1, 2]) {
      for (let m = 5; m < 58; m += 1) {
        const booked = await call(`${sb.controlUrl}/clinic/appointments`, {
          body: { patient_id: patientId, branch_id: branch, appointment_type_id: 4, starts_at: inMinutes(m) },
        });
        if (booked.status === 201) return booked.body.data.id as string;
      }
    }
    throw new Error('no free slot within the hour');
  };
  const pollName = 'Appointment Starting Soon';
  const pollFlow = await api.ok('POST', '/workflows', {
    name: 'Lane: Appointment Starting Soon',
    active: false,
    settings: { executionOrder: 'v1' },
    connections: {},
    nodes: [
      {
        id: randomUUID(),
        name: pollName,
        type: NODE_TYPES.poller,
        typeVersion: 1,
        position: [0, 0],
        parameters: { minutes_before: '60', pollTimes: { item: [{ mode: 'everyMinute' }] } },
        credentials,
      },
    ],
  });
  /** Activates the polling workflow and answers the items of the one execution its first poll starts. */
  const activatePoller = async () => {
    const before = new Set((await executionsOf(api, pollFlow.id)).map((e: Json) => e.id));
    await api.ok('POST', `/workflows/${pollFlow.id}/activate`, { versionId: pollFlow.versionId });
    const fresh = await until('an execution of the first poll', async () => {
      const list = (await executionsOf(api, pollFlow.id)).filter((e: Json) => !before.has(e.id));
      return list.length ? list : undefined;
    });
    if (fresh.length !== 1) throw new Error(`${fresh.length} executions`);
    return outputOf(api, fresh[0].id, pollName);
  };

  const firstSoon = await check(PLANNED[15]!, async () => {
    const id = await bookSoon();
    const items = await activatePoller();
    const item = items.find((i) => i.id === id);
    if (!item) throw new Error(`not among the ${items.length} items: ${id}`);
    if (!item.patient?.name_en) throw new Error(`no patient: ${JSON.stringify(item).slice(0, 300)}`);
    const late = items.filter((i) => Date.parse(i.starts_at) > Date.now() + 3_600_000);
    if (late.length) throw new Error(`beyond the hour: ${late.map((i) => i.starts_at).join(', ')}`);
    return id;
  });

  await soft(PLANNED[16]!, async () => {
    await api.ok('POST', `/workflows/${pollFlow.id}/deactivate`);
    const id = await bookSoon();
    const items = await activatePoller();
    if (items.some((i) => i.id === firstSoon)) throw new Error(`${firstSoon} ran again`);
    if (!items.some((i) => i.id === id)) throw new Error(`not among the items: ${id}`);
    await api.ok('POST', `/workflows/${pollFlow.id}/deactivate`);
  });
};

const finish = async () => {
  for (const stop of started.reverse()) await stop().catch(() => undefined);
  for (const name of PLANNED) {
    if (!results.some((r) => r.name === name)) results.push({ name, ok: false, detail: 'not reached' });
  }
  for (const r of results)
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}${r.detail ? ` (${r.detail})` : ''}`);
  const passed = results.filter((r) => r.ok).length;
  console.log(`${passed} passed, ${results.length - passed} failed`);
  return results.length - passed;
};

let stopping = false;
for (const signal of ['SIGINT', 'SIGTERM'] as const) {
  process.on(signal, () => {
    if (stopping) return;
    stopping = true;
    void finish().then(() => process.exit(130));
  });
}

console.log(`n8n lane: n8n ${N8N_VERSION}, logs in ${RUN_DIR}`);
main()
  .catch((err) => {
    if (!(err instanceof Stop))
      results.push({ name: 'the run itself', ok: false, detail: String(err?.stack ?? err) });
  })
  .finally(async () => {
    if (stopping) return;
    const failed = await finish();
    process.exit(failed ? 1 : 0);
  });
