/**
 * Zapier's declared `lock`, held in the n8n process: within one process a lock lets one run at a time through. It is
 * not shared between processes; what must hold across queue workers is a claim or lock of the core in z.cache, which
 * the node's store shares (src/store.ts). Also the connection's scope, as Zapier's `auth` scope keys its cache.
 */
import { createHash } from 'node:crypto';
// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- types only, erased by the build
import type { LockObject } from 'zapier-platform-core';

/** A connection, as Zapier's `auth` scope keys it: its tokens and addresses, hashed (no secret is kept). */
export const connectionOf = (authData: Record<string, string>): string =>
  createHash('sha256')
    .update(JSON.stringify(Object.entries(authData).sort(([a], [b]) => a.localeCompare(b))))
    .digest('hex')
    .slice(0, 32);

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
  // Node's own timer: n8n-workflow's sleep helpers are not loaded at run time (the bundle has no runtime import), and
  // the wait must end early when the holder finishes.
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    before,
    // eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- see above
    new Promise<void>((resolve) => (timer = setTimeout(resolve, timeoutSeconds * 1000))),
  ]);
  // eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- see above
  clearTimeout(timer);
  try {
    return await run();
  } finally {
    release();
    if (held.get(key) === mine) held.delete(key);
  }
};
