import { randomBytes } from 'node:crypto';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { text as readBody } from 'node:stream/consumers';
import { createAppTester } from 'zapier-platform-core';

/**
 * A local stand-in for Zapier's hook intake: it hands every delivery to the app's trigger `perform` exactly as
 * Zapier does (`bundle.rawRequest` with `Http-` prefixed Camel-Case headers and the raw body, `cleanedRequest`,
 * `subscribeData`), and answers 410 Gone for a hook that was unsubscribed or never existed.
 */

type Fn = (z: unknown, bundle: unknown) => unknown;
interface HookOperation {
  perform: Fn;
  performSubscribe: Fn;
  performUnsubscribe: Fn;
}
interface AppLike {
  triggers?: Record<string, { operation: unknown }>;
}

export interface HookRun {
  at: number;
  items: Array<Record<string, unknown>>;
  error?: { name: string; message: string };
}

interface Hook {
  id: string;
  path: string;
  triggerKey: string;
  inputData: Record<string, unknown>;
  subscribeData?: Record<string, unknown>;
  active: boolean;
  runs: HookRun[];
  waiters: Array<() => void>;
}

export interface Intake {
  url: string;
  /** Subscribes a trigger as turning a Zap on does; returns the hook id. */
  subscribe(triggerKey: string, inputData?: Record<string, unknown>): Promise<string>;
  /** Unsubscribes as turning the Zap off does; later deliveries to the hook get 410. */
  unsubscribe(hookId: string): Promise<unknown>;
  /** Forgets a hook without telling the interface, as when a Zap is deleted: deliveries get 410. */
  drop(hookId: string): void;
  subscribeData(hookId: string): Record<string, unknown> | undefined;
  runs(hookId: string): HookRun[];
  items(hookId: string): Array<Record<string, unknown>>;
  /** Resolves once the hook has received `count` deliveries (whatever their outcome). */
  waitForRuns(hookId: string, count: number, timeoutMs?: number): Promise<HookRun[]>;
  close(): Promise<void>;
}

/** `x-partner-event-id` → `Http-X-Partner-Event-Id`; Content-Type and Content-Length keep their own names. */
export const zapierHeaderName = (name: string): string => {
  const camel = name
    .split('-')
    .map((w) => (w ? w[0]!.toUpperCase() + w.slice(1).toLowerCase() : w))
    .join('-');
  return ['content-type', 'content-length'].includes(name.toLowerCase()) ? camel : `Http-${camel}`;
};

export const startIntake = async (opts: {
  app: AppLike;
  authData: Record<string, string>;
  port?: number;
}): Promise<Intake> => {
  const tester = createAppTester(opts.app);
  const run = (fn: Fn, bundle: object) => tester(fn as never, bundle as never) as Promise<unknown>;
  // Zapier's z.cache answers an nx write of a key it holds with false; appTester's ignores nx (PLATFORM-NOTES), so
  // perform runs with a cache that honours it, as on Zapier (the dedupe is the nx write alone).
  const held = new Set<string>();
  type Cache = {
    set: (key: string, value: unknown, ttl?: number, scope?: string[], nx?: boolean) => Promise<unknown>;
  };
  const withNx =
    (fn: Fn): Fn =>
    (z, bundle) => {
      const cache = (z as { cache: Cache }).cache;
      const nxCache: Cache = {
        ...cache,
        set: async (key, value, ttl, scope, nx) => {
          if (nx && held.has(key)) return false;
          held.add(key);
          return cache.set(key, value, ttl, scope, nx);
        },
      };
      return fn({ ...(z as object), cache: nxCache }, bundle);
    };
  const operation = (key: string): HookOperation => {
    const trigger = opts.app.triggers?.[key];
    if (!trigger) throw new Error(`The app has no trigger ${key}`);
    return trigger.operation as HookOperation;
  };
  const hooks = new Map<string, Hook>();
  const byPath = new Map<string, Hook>();
  let counter = 0;

  const server: Server = createServer((req, res) => {
    void (async () => {
      const url = new URL(req.url ?? '/', 'http://127.0.0.1');
      const hook = byPath.get(url.pathname);
      const content = await readBody(req);
      if (req.method !== 'POST' || !hook || !hook.active) {
        res.writeHead(410, { 'content-type': 'application/json' }).end('{"status":"gone"}');
        return;
      }
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (v !== undefined) headers[zapierHeaderName(k)] = Array.isArray(v) ? v.join(', ') : v;
      }
      let cleanedRequest: unknown;
      try {
        cleanedRequest = JSON.parse(content);
      } catch {
        cleanedRequest = {};
      }
      const record: HookRun = { at: Date.now(), items: [] };
      try {
        record.items = (await run(withNx(operation(hook.triggerKey).perform), {
          authData: opts.authData,
          inputData: hook.inputData,
          subscribeData: hook.subscribeData,
          rawRequest: { method: 'POST', querystring: url.search.replace(/^\?/, ''), headers, content },
          cleanedRequest,
        })) as Array<Record<string, unknown>>;
      } catch (e) {
        const err = e as Error;
        record.error = { name: err.name, message: err.message };
      }
      hook.runs.push(record);
      hook.waiters.splice(0).forEach((w) => w());
      // Zapier acknowledges every delivery it accepted; what perform made of it shows in the Zap's history.
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"success"}');
    })().catch(() => res.writeHead(500).end());
  });
  await new Promise<void>((resolve) => server.listen(opts.port ?? 0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;

  const hookOf = (id: string): Hook => {
    const hook = hooks.get(id);
    if (!hook) throw new Error(`No hook ${id}`);
    return hook;
  };

  return {
    url: origin,
    async subscribe(triggerKey, inputData = {}) {
      counter += 1;
      const id = String(counter);
      const path = `/hooks/standard/${counter}/${randomBytes(8).toString('hex')}/`;
      const hook: Hook = { id, path, triggerKey, inputData, active: true, runs: [], waiters: [] };
      hooks.set(id, hook);
      byPath.set(path, hook);
      hook.subscribeData = (await run(operation(triggerKey).performSubscribe, {
        authData: opts.authData,
        inputData,
        targetUrl: `${origin}${path}`,
      })) as Record<string, unknown>;
      return id;
    },
    async unsubscribe(id) {
      const hook = hookOf(id);
      hook.active = false;
      return run(operation(hook.triggerKey).performUnsubscribe, {
        authData: opts.authData,
        inputData: hook.inputData,
        subscribeData: hook.subscribeData,
      });
    },
    drop(id) {
      hookOf(id).active = false;
    },
    subscribeData: (id) => hookOf(id).subscribeData,
    runs: (id) => hookOf(id).runs,
    items: (id) => hookOf(id).runs.flatMap((r) => r.items),
    waitForRuns(id, count, timeoutMs = 5000) {
      const hook = hookOf(id);
      return new Promise((resolve, reject) => {
        const timer = setTimeout(
          () =>
            reject(new Error(`Hook ${id} got ${hook.runs.length} of ${count} deliveries in ${timeoutMs} ms`)),
          timeoutMs,
        );
        const check = () => {
          if (hook.runs.length >= count) {
            clearTimeout(timer);
            resolve(hook.runs);
          } else hook.waiters.push(check);
        };
        check();
      });
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        // The sandbox's deliveries keep their connections alive: end them so close does not wait for them.
        server.closeAllConnections();
      }),
  };
};
