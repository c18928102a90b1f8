/**
 * The processes the lane starts: n8n in each of its roles (`start`, `webhook`, `worker`, `execute`) on Node 24,
 * each in a process group of its own so that stopping it stops its task runner too, with its own ports and log
 * file. Everything started is registered with report.ts, which stops it on every exit.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, mkdirSync, readdirSync, readFileSync, symlinkSync } from 'node:fs';
import { createServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { N8N_BIN, NODE_BIN, node24Env } from './install';
import { onStop } from './report';

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

/** Resolves with fn's first truthy answer, polling; throws `what` after timeoutMs. */
export const until = async <T>(
  what: string,
  fn: () => Promise<T | undefined | false>,
  timeoutMs = 15_000,
) => {
  const end = Date.now() + timeoutMs;
  for (;;) {
    const value = await fn().catch(() => undefined);
    if (value) return value;
    if (Date.now() > end) throw new Error(`timed out waiting for ${what}`);
    await sleep(150);
  }
};

/** Ports handed out in this run: a port freed a moment ago may be handed out again to a process starting beside. */
const handedOut = new Set<number>();

/** A port free now and not handed out before in this run. */
export const freePort = async (): Promise<number> => {
  const port = await new Promise<number>((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port: p } = s.address() as AddressInfo;
      s.close(() => resolve(p));
    });
  });
  if (handedOut.has(port)) return freePort();
  handedOut.add(port);
  return port;
};

/** Signals a process group; false when it is gone. */
const signalGroup = (child: ChildProcess, signal: NodeJS.Signals) => {
  try {
    process.kill(-child.pid!, signal);
    return true;
  } catch {
    return false;
  }
};

const ended = (child: ChildProcess) => child.exitCode !== null || child.signalCode !== null || !child.pid;

/** Stops a process group: SIGTERM (`signal`), then SIGKILL after `graceMs`. */
export const stopGroup = (child: ChildProcess, signal: NodeJS.Signals = 'SIGTERM', graceMs = 10_000) =>
  new Promise<void>((resolve) => {
    if (ended(child)) return resolve();
    const kill = setTimeout(() => signalGroup(child, 'SIGKILL'), graceMs);
    child.once('exit', () => {
      clearTimeout(kill);
      resolve();
    });
    if (!signalGroup(child, signal)) {
      clearTimeout(kill);
      resolve();
    }
  });

/** Starts a command in a process group of its own, its output into `logFile`; stopped on every exit of the run. */
export const spawnGroup = (command: string, args: string[], env: NodeJS.ProcessEnv, logFile: string) => {
  const log = createWriteStream(logFile, { flags: 'a' });
  const child = spawn(command, args, { env, detached: true, stdio: ['ignore', 'pipe', 'pipe'] });
  child.stdout?.pipe(log);
  child.stderr?.pipe(log);
  const stop = onStop(() => stopGroup(child));
  return { child, stop };
};

export type Role = 'main' | 'webhook' | 'worker';

const COMMAND: Record<Role, string> = { main: 'start', webhook: 'webhook', worker: 'worker' };

/** What every n8n process of the lane runs with: headless, offline, quiet, one encryption key. */
export const n8nEnv = (settings: Record<string, string>): NodeJS.ProcessEnv =>
  node24Env({
    PATH: process.env.PATH,
    HOME: process.env.HOME,
    N8N_LISTEN_ADDRESS: '127.0.0.1',
    N8N_HOST: '127.0.0.1',
    N8N_PROTOCOL: 'http',
    N8N_SECURE_COOKIE: 'false',
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
    // n8n's expression-engine settings, passed through so that the bench can measure them (docs/n8n-production.md).
    ...Object.fromEntries(
      Object.entries(process.env).filter(([k]) => k.startsWith('N8N_EXPRESSION_ENGINE_')),
    ),
    ...settings,
  });

export interface N8n {
  name: string;
  role: Role;
  /** Where its HTTP server answers (a worker's: its health check). */
  url: string;
  env: NodeJS.ProcessEnv;
  log: string;
  child: ChildProcess;
  stop: () => Promise<void>;
}

/**
 * A user folder of its own for each process (n8n writes its event log and settings there), whose nodes folder is
 * the one the package was installed into: every process loads the same community package.
 */
export const userFolderFor = (runDir: string, name: string, nodesFolder: string) => {
  const folder = join(runDir, `user-${name}`);
  mkdirSync(join(folder, '.n8n'), { recursive: true });
  try {
    symlinkSync(nodesFolder, join(folder, '.n8n', 'nodes'));
  } catch (e) {
    if ((e as NodeJS.ErrnoException).code !== 'EEXIST') throw e;
  }
  return folder;
};

/**
 * Starts one n8n process and waits until it is ready: `/healthz/readiness` on its port (a worker's health-check
 * port, which it serves when QUEUE_HEALTH_CHECK_ACTIVE is set). A port another program took between its choice and
 * n8n's listening is chosen again, twice at most.
 */
export const startN8n = async (
  o: {
    name: string;
    role: Role;
    runDir: string;
    env: Record<string, string>;
    args?: string[];
  },
  attempt = 1,
): Promise<N8n> => {
  const port = await freePort();
  const own: Record<string, string> = {
    N8N_PORT: String(port),
    N8N_RUNNERS_BROKER_PORT: String(await freePort()),
    ...(o.role === 'worker'
      ? { QUEUE_HEALTH_CHECK_ACTIVE: 'true', QUEUE_HEALTH_CHECK_PORT: String(port) }
      : {}),
  };
  const env = n8nEnv({ ...o.env, ...own });
  const log = join(o.runDir, `n8n-${o.name}.log`);
  // N8N_LANE_CPU_PROFILE=<folder>: each n8n process writes a CPU profile there when it stops (docs/n8n-maintaining.md).
  const profile = process.env.N8N_LANE_CPU_PROFILE;
  const node = profile
    ? ['--cpu-prof', `--cpu-prof-dir=${profile}`, `--cpu-prof-name=${o.name}.cpuprofile`]
    : [];
  const { child, stop } = spawnGroup(
    NODE_BIN,
    [...node, N8N_BIN, COMMAND[o.role], ...(o.args ?? [])],
    env,
    log,
  );
  const url = `http://127.0.0.1:${port}`;
  await until(
    `n8n ${o.name} /healthz/readiness`,
    async () => {
      if (child.exitCode !== null) return true;
      return (await fetch(`${url}/healthz/readiness`)).status === 200;
    },
    300_000,
  );
  if (child.exitCode !== null) {
    await stop();
    if (attempt < 3 && /already in use|EADDRINUSE/.test(readFileSync(log, 'utf8')))
      return startN8n(o, attempt + 1);
    throw new Error(`n8n ${o.name} exited (${child.exitCode}); see ${log}`);
  }
  return { name: o.name, role: o.role, url, env, log, child, stop };
};

/** Kills an n8n process group at once, as a crash or an out-of-memory kill would. */
export const killN8n = async (n8n: N8n) => {
  await stopGroup(n8n.child, 'SIGKILL', 1_000);
  await n8n.stop();
};

/** `n8n execute --id` beside the running server(s): the same database, a task-runner port of its own. */
export const executeWorkflow = async (from: N8n, runDir: string, workflowId: string) => {
  const env = { ...from.env, N8N_RUNNERS_BROKER_PORT: String(await freePort()) };
  const log = join(runDir, 'n8n-execute.log');
  const { child, stop } = spawnGroup(NODE_BIN, [N8N_BIN, 'execute', `--id=${workflowId}`], env, log);
  const out: string[] = [];
  child.stdout?.on('data', (c: Buffer) => out.push(c.toString()));
  child.stderr?.on('data', (c: Buffer) => out.push(c.toString()));
  const code = await new Promise<string>((r) => child.on('exit', (c, signal) => r(signal ?? String(c))));
  await stop();
  if (code !== '0') throw new Error(`n8n execute ended with ${code}: ${out.join('').slice(-600)}`);
};

/**
 * CPU seconds (user and system) the process groups of these n8n processes have used so far: each process, its task
 * runner and any other child, from /proc (Linux). A cost the machine's other load does not change, unlike a rate.
 */
export const cpuSeconds = (processes: N8n[]): number => {
  const groups = new Set(processes.map((p) => p.child.pid));
  let ticks = 0;
  for (const pid of readdirSync('/proc')) {
    if (!/^\d+$/.test(pid)) continue;
    let stat: string;
    try {
      stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    } catch {
      continue; // ended meanwhile
    }
    // Fields after the command's closing parenthesis: state, ppid, pgrp, … utime (14th field), stime (15th).
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    if (groups.has(Number(fields[2]))) ticks += Number(fields[11]) + Number(fields[12]);
  }
  return ticks / CLOCK_TICKS;
};

/** Linux's USER_HZ, the unit of /proc's CPU times. */
const CLOCK_TICKS = 100;
