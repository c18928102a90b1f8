/**
 * The MCP check (scripts/n8n-lane/mcp-check.ts) run on its own: the built package installed into an n8n of its own,
 * started from `.n8n-lane` on free ports with a user folder in a temporary folder, the sandbox beside it; both
 * stopped at the end, whatever happened.
 */
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Json } from '../../harness/call';
import { appConnection, startSandbox } from '../../sandbox';
import { ensureInstalled, N8N_BIN, NODE_BIN, node24Env } from './install';
import type { McpLane } from './mcp-check';

const ROOT = join(__dirname, '..', '..');
const PACKAGE = 'n8n-nodes-clinic-cashier';

const freePort = () =>
  new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address() as { port: number };
      s.close(() => resolve(port));
    });
  });

/** The built package packed and installed offline into an n8n user folder's nodes, as the lane installs it. */
const installNodes = (dir: string, userFolder: string) => {
  const npm = (cwd: string, args: string[]) =>
    execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  npm(ROOT, ['run', '--silent', 'build', '-w', PACKAGE]);
  const [packed] = JSON.parse(
    npm(ROOT, ['pack', '--silent', '--json', '-w', PACKAGE, '--pack-destination', dir]),
  ) as [{ filename: string }];
  const nodes = join(userFolder, '.n8n', 'nodes');
  mkdirSync(nodes, { recursive: true });
  writeFileSync(join(nodes, 'package.json'), JSON.stringify({ name: 'installed-nodes', private: true }));
  npm(nodes, ['install', '--offline', '--no-audit', '--no-fund', join(dir, packed.filename)]);
};

/** Starts n8n; `onStarted` gets its stop at once, so a start that fails still stops it. */
const startN8n = async (dir: string, userFolder: string, onStarted: (stop: () => Promise<void>) => void) => {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  const env = node24Env({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    DB_TYPE: 'sqlite',
    N8N_USER_FOLDER: userFolder,
    N8N_PORT: String(port),
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    WEBHOOK_URL: `${url}/`,
    N8N_SECURE_COOKIE: 'false',
    N8N_RUNNERS_BROKER_PORT: String(await freePort()),
    N8N_ENCRYPTION_KEY: 'n8n-lane-only-key-not-a-secret',
    N8N_DIAGNOSTICS_ENABLED: 'false',
    N8N_VERSION_NOTIFICATIONS_ENABLED: 'false',
    N8N_TEMPLATES_ENABLED: 'false',
    N8N_PERSONALIZATION_ENABLED: 'false',
    N8N_AI_ENABLED: 'false',
    N8N_ENFORCE_SETTINGS_FILE_PERMISSIONS: 'false',
    GENERIC_TIMEZONE: 'Asia/Riyadh',
  });
  // A process group of its own, so stopping it stops its task runner too.
  const child = spawn(NODE_BIN, [N8N_BIN, 'start'], {
    env,
    detached: true,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  onStarted(() => stop(child));
  const log = createWriteStream(join(dir, 'n8n.log'));
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  // Seven to eleven seconds on an idle machine; minutes when the machine is shared and loaded.
  for (const end = Date.now() + 300_000; ;) {
    if (child.exitCode !== null) throw new Error(`n8n exited (${child.exitCode}); see ${dir}/n8n.log`);
    if ((await fetch(`${url}/healthz/readiness`).catch(() => undefined))?.status === 200) break;
    if (Date.now() > end) throw new Error(`n8n not ready; see ${dir}/n8n.log`);
    await new Promise((r) => setTimeout(r, 250));
  }
  return url;
};

/** SIGTERM to n8n's process group (n8n and its task runner), SIGKILL if it is still there after 10 s. */
const stop = (child: ChildProcess) =>
  new Promise<void>((resolve) => {
    const pid = child.pid;
    if (child.exitCode !== null || child.signalCode !== null || !pid) return resolve();
    const signal = (name: NodeJS.Signals) => {
      try {
        process.kill(-pid, name);
      } catch {
        // already gone
      }
    };
    const kill = setTimeout(() => signal('SIGKILL'), 10_000);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    signal('SIGTERM');
  });

/** n8n's REST interface as a new owner (the session cookie n8n sets on setup). */
const ownerRest = (url: string) => {
  let cookie = '';
  return async (method: string, path: string, body?: unknown): Promise<Json> => {
    const res = await fetch(`${url}/rest${path}`, {
      method,
      headers: {
        'content-type': 'application/json',
        'browser-id': 'n8n-lane-mcp',
        ...(cookie ? { cookie } : {}),
      },
      body: body === undefined ? undefined : JSON.stringify(body),
    });
    const set = res.headers.getSetCookie().find((c) => c.startsWith('n8n-auth='));
    if (set) cookie = set.split(';')[0]!;
    const answer = (await res.json().catch(() => ({}))) as Json;
    if (res.status >= 300)
      throw new Error(`${method} /rest${path}: ${res.status} ${JSON.stringify(answer).slice(0, 300)}`);
    return answer?.data ?? answer;
  };
};

/**
 * Runs `checks` against a sandbox and an n8n of their own, prints one line per check and answers the failures'
 * count; the folder (n8n's user folder and log) is kept when a check failed.
 */
export const runAlone = async (checks: (lane: McpLane) => Promise<void>, names: readonly string[]) => {
  ensureInstalled();
  const dir = mkdtempSync(join(tmpdir(), 'n8n-mcp-check-'));
  const userFolder = join(dir, 'user');
  const results: Array<{ name: string; ok: boolean; detail?: string }> = [];
  const stops: Array<() => Promise<unknown>> = [];
  const stopAll = async () => {
    for (const s of stops.splice(0).reverse()) await s();
  };
  // Interrupted, it still stops what it started.
  for (const signal of ['SIGINT', 'SIGTERM'] as const) {
    process.once(signal, () => void stopAll().then(() => process.exit(130)));
  }
  try {
    installNodes(dir, userFolder);
    const sandbox = await startSandbox({ port: 0, quiet: true });
    stops.push(() => sandbox.close());
    const n8nUrl = await startN8n(dir, userFolder, (stopIt) => stops.push(stopIt));
    const rest = ownerRest(n8nUrl);
    await rest('POST', '/owner/setup', {
      email: 'owner@clinic.example',
      firstName: 'Lane',
      lastName: 'Owner',
      password: 'Lane-Passw0rd!',
    });
    await checks({
      n8nUrl,
      rest,
      typePrefix: `${PACKAGE}.`,
      connection: appConnection(sandbox),
      check: async (name, fn) => {
        const started = Date.now();
        await fn().then(
          () => results.push({ name, ok: true, detail: `${((Date.now() - started) / 1000).toFixed(1)} s` }),
          (err: unknown) =>
            results.push({ name, ok: false, detail: err instanceof Error ? err.message : String(err) }),
        );
      },
    });
  } finally {
    await stopAll();
  }
  for (const name of names)
    if (!results.some((r) => r.name === name)) results.push({ name, ok: false, detail: 'not reached' });
  for (const r of results)
    console.log(`${r.ok ? 'ok  ' : 'FAIL'} ${r.name}${r.detail ? ` (${r.detail})` : ''}`);
  const failed = results.filter((r) => !r.ok).length;
  console.log(`${results.length - failed} passed, ${failed} failed (n8n's log: ${dir}/n8n.log)`);
  if (!failed) rmSync(dir, { recursive: true, force: true });
  return failed;
};
