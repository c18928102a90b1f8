/**
 * The shared store over Redis, reached through n8n's own Redis credential (type `redis`), with ioredis (the client
 * n8n's queue uses, bundled into dist/ by build.js). `SET key value PX ttl NX` is atomic in Redis, so a claim made
 * by one process is seen by every other at once.
 */
import { createHash } from 'node:crypto';
// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- bundled into dist/ by build.js: no runtime dependency
import Redis from 'ioredis';
import type { Store } from './store';

/** The fields of n8n's Redis credential (n8n-nodes-base, credentials/Redis.credentials). */
export interface RedisCredential {
  host?: unknown;
  port?: unknown;
  database?: unknown;
  user?: unknown;
  password?: unknown;
  ssl?: unknown;
  disableTlsVerification?: unknown;
}

export const REDIS_CREDENTIAL = 'redis';

/** A claim waits no longer than this for Redis: a delivery answered 500 is delivered again, a hung one is not. */
const TIMEOUT_MS = 5_000;

const text = (v: unknown) => (typeof v === 'string' && v !== '' ? v : undefined);
const whole = (v: unknown, fallback: number) => {
  const n = Number(v);
  return Number.isInteger(n) && n >= 0 ? n : fallback;
};

const optionsOf = (c: RedisCredential) => ({
  host: text(c.host) ?? 'localhost',
  port: whole(c.port, 6379),
  db: whole(c.database, 0),
  username: text(c.user),
  password: text(c.password),
  tls: c.ssl === true ? { rejectUnauthorized: c.disableTlsVerification !== true } : undefined,
  connectTimeout: TIMEOUT_MS,
  commandTimeout: TIMEOUT_MS,
  // One attempt a command: a claim that cannot be made is reported at once, never queued for later.
  maxRetriesPerRequest: 1,
  lazyConnect: true,
  // No reconnecting in the background: a client whose connection ended is replaced at the next call (clientOf), so
  // a Redis that is down costs each call one attempt and leaves no timers behind in n8n.
  retryStrategy: () => null,
});

/** One client per credential in this process, kept open: executions reuse it, none is closed per call. */
const clients = new Map<string, Redis>();

const clientOf = (credential: RedisCredential): Redis => {
  const options = optionsOf(credential);
  const id = createHash('sha256').update(JSON.stringify(options)).digest('hex');
  const found = clients.get(id);
  if (found && found.status !== 'end') return found;
  const client = new Redis(options);
  // Without a listener an 'error' event would end the n8n process; each failed command rejects with its error.
  client.on('error', () => {});
  clients.set(id, client);
  return client;
};

/** The store of a Redis credential. */
export const redisStore = (credential: RedisCredential): Store => {
  const client = clientOf(credential);
  return {
    reach: 'shared',
    async get(key) {
      const raw = await client.get(key);
      return raw === null ? null : (JSON.parse(raw) as unknown);
    },
    async set(key, value, ttlSeconds, nx) {
      const ms = Math.max(1, Math.round(ttlSeconds * 1000));
      const json = JSON.stringify(value ?? null);
      const answer = nx ? await client.set(key, json, 'PX', ms, 'NX') : await client.set(key, json, 'PX', ms);
      return answer === 'OK';
    },
    async delete(key) {
      return (await client.del(key)) > 0;
    },
  };
};

/** Closes every client, reconnecting ones included (tests; n8n itself ends the process). */
export const closeRedisClients = () => {
  for (const client of clients.values()) if (client.status !== 'end') client.disconnect();
  clients.clear();
};
