/**
 * What the action node can give of Zapier's shared state: a write memory (z.cache) and Zapier's `lock`, both held in
 * the n8n process. Within one process they are what Zapier's are: the cache's nx write is atomic (no await between
 * its read and its write) and a lock lets one run at a time through. They are not shared between processes (n8n's
 * queue mode runs executions on several workers) and are lost when n8n restarts; docs/n8n.md says what that leaves.
 */
import { createHash } from 'node:crypto';
import type { LockObject } from 'zapier-platform-core';
import type { Remembered } from './seam';

/** A connection, as Zapier's `auth` scope keys it: its tokens and addresses, hashed (no secret is kept). */
export const connectionOf = (authData: Record<string, string>): string =>
  createHash('sha256')
    .update(JSON.stringify(Object.entries(authData).sort(([a], [b]) => a.localeCompare(b))))
    .digest('hex')
    .slice(0, 32);

/** A connection's write memory: until when each key lives, and what was written under it. */
interface Memory {
  memory: Remembered;
  values: Map<string, unknown>;
}

const memories = new Map<string, Memory>();

/** The write memory of a connection, for every execution of the process (Zapier scopes it to the connection). */
export const memoryOf = (authData: Record<string, string>): Memory => {
  const id = connectionOf(authData);
  const found = memories.get(id);
  if (found) return found;
  const made: Memory = { memory: {}, values: new Map() };
  memories.set(id, made);
  return made;
};

/**
 * The key of a declared lock for these inputs, as Zapier renders it (`{{bundle.inputData.x}}`), scoped to the
 * connection when the lock's scope says `auth` (the app's do).
 */
export const lockKeyOf = (
  lock: LockObject,
  inputData: Record<string, unknown>,
  authData: Record<string, string>,
): string => {
  const key = lock.key.replace(/\{\{\s*bundle\.inputData\.(\w+)\s*\}\}/g, (_all, name: string) =>
    String(inputData[name] ?? ''),
  );
  return lock.scope?.includes('auth') ? `${connectionOf(authData)}:${key}` : key;
};

/** Runs waiting for or holding a lock, by key: the promise the next run waits for. */
const held = new Map<string, Promise<void>>();

/**
 * Runs `run` once every earlier run under the same key has ended, or once the lock's timeout has passed, as
 * Zapier's lock lapses after its timeout.
 */
export const underLock = async <T>(
  key: string,
  timeoutSeconds: number,
  run: () => Promise<T>,
): Promise<T> => {
  const before = held.get(key) ?? Promise.resolve();
  let release = () => {};
  const ended = new Promise<void>((resolve) => (release = resolve));
  const mine = Promise.all([before, ended]).then(() => undefined);
  held.set(key, mine);
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    before,
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutSeconds * 1000))),
  ]);
  clearTimeout(timer);
  try {
    return await run();
  } finally {
    release();
    if (held.get(key) === mine) held.delete(key);
  }
};
