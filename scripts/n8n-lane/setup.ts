/**
 * What every mode of the lane sets up the same way: the nodes installed as docs/n8n.md's first way says (the built
 * package packed and `npm install`ed offline into n8n's nodes folder), the owner signed in, the package's node types
 * listed, and the credentials (the sandbox's, and n8n's own Redis type where the mode has a Redis).
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { Sandbox } from '../../sandbox';
import { NODE_TYPES, PACKAGE_NAME, type Rest } from './rest';

const ROOT = join(__dirname, '..', '..');

/** Builds and packs the package, and installs it offline into `nodesFolder` (created). */
export const installNodes = (runDir: string, nodesFolder: string) => {
  const npm = (cwd: string, args: string[]) =>
    execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });
  npm(ROOT, ['run', '--silent', 'build', '-w', PACKAGE_NAME]);
  const [packed] = JSON.parse(
    npm(ROOT, ['pack', '--silent', '--json', '-w', PACKAGE_NAME, '--pack-destination', runDir]),
  ) as Array<{ filename: string }>;
  mkdirSync(nodesFolder, { recursive: true });
  // The package.json n8n writes there at its first start: without one, npm installs into the nearest folder
  // above that has one (here the repository, whose checkout holds .n8n-lane/).
  writeFileSync(
    join(nodesFolder, 'package.json'),
    JSON.stringify({ name: 'installed-nodes', private: true, dependencies: {} }),
  );
  npm(nodesFolder, ['install', '--offline', '--no-audit', '--no-fund', join(runDir, packed!.filename)]);
};

/** The connection a clinic's user enters: the sandbox's base addresses and owner tokens. */
export const connectionOf = (sb: Sandbox) => ({
  clinic_api_token: sb.tokens.clinicOwner,
  cashier_api_token: sb.tokens.cashierOwner,
  clinic_base_url: sb.clinicBaseUrl,
  cashier_base_url: sb.cashierBaseUrl,
  language: 'en',
});

export type CredentialRefs = Record<string, { id: string; name: string }>;

/**
 * Signs the owner in, checks n8n lists the package's node types (the editor's list: its shape differs between
 * versions, the names do not) and creates the sandbox's credential, and Redis's when `redisPort` is given. Answers
 * the credentials as nodes name them, with and without Redis.
 */
export const setUp = async (api: Rest, sb: Sandbox, redisPort?: number) => {
  await api.signIn();
  const types = await api.text('/types/nodes.json');
  for (const want of Object.values(NODE_TYPES)) {
    if (!types.includes(`"${want}"`)) throw new Error(`${want} not among n8n's node types`);
  }
  const clinic = await api.ok('POST', '/credentials', {
    name: 'Sandbox',
    type: 'clinicCashierApi',
    data: connectionOf(sb),
  });
  const credentials: CredentialRefs = { clinicCashierApi: { id: clinic.id, name: clinic.name } };
  if (redisPort === undefined) return { clinic, credentials, withRedis: credentials };
  const redis = await api.ok('POST', '/credentials', {
    name: 'Queue Redis',
    type: 'redis',
    data: { host: '127.0.0.1', port: redisPort, database: 0, password: '', user: '', ssl: false },
  });
  return { clinic, credentials, withRedis: { ...credentials, redis: { id: redis.id, name: redis.name } } };
};
