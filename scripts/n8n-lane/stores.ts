/**
 * The stores of n8n's queue mode: PostgreSQL (n8n's database) and Redis (the queue, and the store the nodes claim
 * events in), Debian's packages, installed with apt-get when missing (CI runs as root). Each runs for one lane run
 * only: on a free port, its data in a temporary folder removed when it stops. PostgreSQL refuses to run as root,
 * so under root it runs as the `postgres` user the package creates. Redis keeps nothing on disk: the checks restart
 * n8n, never Redis.
 */
import { execFileSync } from 'node:child_process';
import { chownSync, existsSync, mkdtempSync, readdirSync, rmSync } from 'node:fs';
import { connect } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { freePort, spawnGroup, until } from './processes';
import { onStop } from './report';

const PG_ROOT = '/usr/lib/postgresql';

/** The bin folder of the newest PostgreSQL installed the Debian way, if any. */
const pgBin = () => {
  if (!existsSync(PG_ROOT)) return undefined;
  const versions = readdirSync(PG_ROOT)
    .filter((v) => existsSync(join(PG_ROOT, v, 'bin', 'postgres')))
    .sort((a, b) => Number(b) - Number(a));
  return versions[0] ? join(PG_ROOT, versions[0], 'bin') : undefined;
};

const onPath = (command: string) => {
  try {
    execFileSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' });
    return true;
  } catch {
    return false;
  }
};

const isRoot = () => process.getuid?.() === 0;

/** Installs what is missing of PostgreSQL and Redis; answers what it installed. */
export const ensureStores = (log: (line: string) => void): string[] => {
  const missing = [...(pgBin() ? [] : ['postgresql']), ...(onPath('redis-server') ? [] : ['redis-server'])];
  if (!missing.length) return [];
  if (!isRoot()) {
    throw new Error(
      `queue mode needs ${missing.join(' and ')}: sudo apt-get install -y ${missing.join(' ')}`,
    );
  }
  log(`installing ${missing.join(', ')} with apt-get`);
  // Services are not started by the packages' scripts: the lane starts its own, and no daemon may outlive it.
  const env = { ...process.env, DEBIAN_FRONTEND: 'noninteractive', RUNLEVEL: '1' };
  const install = () =>
    execFileSync('apt-get', ['install', '-y', '--no-install-recommends', ...missing], {
      env,
      stdio: ['ignore', 'ignore', 'inherit'],
    });
  try {
    install();
  } catch {
    execFileSync('apt-get', ['update'], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    install();
  }
  if (!pgBin() || !onPath('redis-server')) throw new Error(`apt-get did not install ${missing.join(', ')}`);
  return missing;
};

/** Runs a PostgreSQL program as the user the server runs as. */
const asPostgres = (bin: string, args: string[]) =>
  isRoot() ? { command: 'runuser', args: ['-u', 'postgres', '--', bin, ...args] } : { command: bin, args };

export interface Postgres {
  port: number;
  database: string;
  /** The database as `pg_dump` writes it. */
  dump(): string;
  stop(): Promise<void>;
}

export const startPostgres = async (runDir: string): Promise<Postgres> => {
  const bin = pgBin();
  if (!bin) throw new Error('PostgreSQL is not installed');
  const dir = mkdtempSync(join(tmpdir(), 'n8n-lane-pg-'));
  const removeDir = onStop(async () => rmSync(dir, { recursive: true, force: true }));
  if (isRoot()) {
    const uid = Number(execFileSync('id', ['-u', 'postgres'], { encoding: 'utf8' }));
    const gid = Number(execFileSync('id', ['-g', 'postgres'], { encoding: 'utf8' }));
    chownSync(dir, uid, gid);
  }
  const initdb = asPostgres(join(bin, 'initdb'), [
    '-D',
    dir,
    '-U',
    'postgres',
    '-A',
    'trust',
    '-E',
    'UTF8',
    '--no-sync',
  ]);
  execFileSync(initdb.command, initdb.args, { stdio: 'ignore' });
  const port = await freePort();
  // A throwaway database: durability settings off, as for a test database.
  const server = asPostgres(join(bin, 'postgres'), [
    ...['-D', dir, '-p', String(port), '-k', dir],
    ...['-c', 'listen_addresses=127.0.0.1', '-c', 'fsync=off', '-c', 'synchronous_commit=off'],
    ...['-c', 'full_page_writes=off', '-c', 'max_connections=200'],
  ]);
  const { stop } = spawnGroup(server.command, server.args, process.env, join(runDir, 'postgres.log'));
  const client = (program: string, args: string[]) =>
    execFileSync(join(bin, program), ['-h', '127.0.0.1', '-p', String(port), '-U', 'postgres', ...args], {
      encoding: 'utf8',
      maxBuffer: 512 * 1024 * 1024,
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  await until(
    'PostgreSQL to accept connections',
    async () => client('pg_isready', []).includes('accepting'),
    30_000,
  );
  const database = 'n8n';
  client('createdb', [database]);
  return {
    port,
    database,
    dump: () => client('pg_dump', [database]),
    stop: async () => {
      await stop();
      await removeDir();
    },
  };
};

/** Whether Redis on `port` answers PING. */
const pong = (port: number) =>
  new Promise<boolean>((resolve) => {
    const socket = connect(port, '127.0.0.1');
    socket.setTimeout(1_000, () => socket.destroy());
    socket.once('error', () => resolve(false));
    socket.once('close', () => resolve(false));
    socket.once('connect', () => socket.write('PING\r\n'));
    socket.once('data', (d) => {
      resolve(d.toString().startsWith('+PONG'));
      socket.destroy();
    });
  });

export const startRedis = async (runDir: string) => {
  const dir = mkdtempSync(join(tmpdir(), 'n8n-lane-redis-'));
  const removeDir = onStop(async () => rmSync(dir, { recursive: true, force: true }));
  const port = await freePort();
  const args = [
    '--port',
    String(port),
    '--bind',
    '127.0.0.1',
    '--save',
    '',
    '--appendonly',
    'no',
    '--dir',
    dir,
  ];
  const { stop } = spawnGroup('redis-server', args, process.env, join(runDir, 'redis.log'));
  await until('Redis to answer PING', () => pong(port), 30_000);
  return {
    port,
    stop: async () => {
      await stop();
      await removeDir();
    },
  };
};
