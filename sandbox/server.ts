/**
 * The local sandbox of both partner interfaces: the clinic under /partner/v1, the cashier under /api/partner/v1
 * and the sandbox-only endpoints under /sandbox, on 127.0.0.1. A development tool: nothing in the app imports it.
 */
import type { AddressInfo } from 'node:net';
import Fastify from 'fastify';
import { tokenOf } from './auth';
import { CASHIER_PREFIX, cashierRoutes } from './cashier';
import { CLINIC_PREFIX, clinicRoutes, plannableEndpoints } from './clinic';
import { SandboxClock } from './clock';
import { CONTROL_PREFIX, controlRoutes } from './control';
import { sendJson } from './errors';
import { makeFault } from './faults';
import { Random } from './ids';
import { handlerOf, mount, notFound } from './routing';
import { createStore, DEFAULT_HISTORY, TOKEN_NAMES, type HistoryCounts, type TokenName } from './store';
import type { DeliveryStatus } from './store/types';
import { AJV_OPTIONS, parseQuery } from './validate';
import { deliveryView, WebhookEngine } from './webhooks';
import { CONFIG_DEFAULTS } from './world';
import type { FaultSpec, RequestRecord, SandboxConfig, WorldState } from './world';

/** Options of startSandbox, with their defaults in sandbox/README.md ("From tests"). */
export type SandboxOptions = Partial<Omit<SandboxConfig, 'planned'>> & {
  port?: number;
  timeScale?: number;
  startTime?: number | string;
  planned?: string[];
  seed?: boolean;
  history?: boolean | Partial<HistoryCounts>;
  randomSeed?: number;
  quiet?: boolean;
};

export interface RequestFilter {
  interface?: RequestRecord['api'];
  /** A token, or a seeded token's name (e.g. clinicOwner). */
  token?: string;
  method?: string;
  /** The full path without query (e.g. /partner/v1/patients), or a pattern. */
  path?: string | RegExp;
}

export type Sandbox = Awaited<ReturnType<typeof startSandbox>>;

const defaultConfig = (o: SandboxOptions): SandboxConfig => {
  const given = Object.entries(o).filter(([k, v]) => k in CONFIG_DEFAULTS && v !== undefined);
  return { ...CONFIG_DEFAULTS, ...Object.fromEntries(given), planned: new Set(o.planned ?? []) };
};

const PREFIXES = [
  ['clinic', CLINIC_PREFIX],
  ['cashier', CASHIER_PREFIX],
  ['sandbox', CONTROL_PREFIX],
] as const;
const apiOfPath = (path: string): RequestRecord['api'] =>
  PREFIXES.find(([, prefix]) => path === prefix || path.startsWith(`${prefix}/`))?.[0] ?? 'other';

export const sandboxPort = (value = process.env.SANDBOX_PORT): number => {
  if (value === undefined || value === '') return 4010;
  const port = Number(value);
  if (!Number.isInteger(port) || port < 0 || port > 65535)
    throw new Error(`SANDBOX_PORT must be a port number from 0 to 65535 (0: any free port), not "${value}"`);
  return port;
};

const startOf = ({ startTime }: SandboxOptions) => {
  const start = typeof startTime === 'string' ? Date.parse(startTime) : startTime;
  if (Number.isNaN(start)) throw new Error(`startTime is not a date: ${startTime}`);
  return start;
};

const DEFAULT_RANDOM_SEED = 20261121;

/**
 * The refs a sandbox started with `options` would answer, without starting it: the ids of its seeded objects
 * follow its start time and random seed, so a test can name them without writing them in.
 */
export const seedRefs = (options: SandboxOptions = {}) =>
  createStore(
    startOf(options) ?? Date.now(),
    new Random(options.randomSeed ?? DEFAULT_RANDOM_SEED),
    options.seed ?? true,
  ).refs;

export const startSandbox = async (options: SandboxOptions = {}) => {
  const start = startOf(options);
  const unknown = options.planned?.find((p) => !plannableEndpoints().includes(p));
  if (unknown) throw new Error(`not a plannable endpoint: ${unknown} (${plannableEndpoints().join(', ')})`);
  const clock = new SandboxClock({ start, timeScale: options.timeScale });
  const randomSeed = options.randomSeed ?? DEFAULT_RANDOM_SEED;
  const random = new Random(randomSeed);
  // History draws from a sequence of its own: the seed's objects and the ids later calls make stay as without it.
  const counts = options.history === true ? {} : options.history;
  const history = counts
    ? { counts: { ...DEFAULT_HISTORY, ...counts }, historySeed: randomSeed + 1 }
    : undefined;
  const state: WorldState = {
    baseUrl: '',
    clock,
    random,
    config: defaultConfig(options),
    store: createStore(clock.now(), random, options.seed ?? true, history),
    faults: [],
    faultTimers: new Set(),
    rateWindows: new Map(),
    requests: [],
    log: options.quiet ? () => undefined : (line) => console.log(`[sandbox] ${line}`),
  };
  const world = Object.assign(state, { webhooks: new WebhookEngine(state) });

  const app = Fastify({
    forceCloseConnections: true,
    ajv: AJV_OPTIONS,
    routerOptions: { querystringParser: parseQuery },
  });
  app.removeAllContentTypeParsers();
  // Bodies reach the handlers as text: an empty body is "no body", and bad JSON is a 422 in the envelope.
  app.addContentTypeParser('*', { parseAs: 'string' }, (_req, body, done) => done(null, body));

  app.addHook('onRequest', async (req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    // Read as the clinic reads it (Bearer, or X-Api-Key), whichever interface the path names.
    const token = tokenOf('clinic', req.headers) ?? null;
    const record: RequestRecord = { method: req.method, path, api: apiOfPath(path), token, status: null };
    world.requests.push(record);
    reply.raw.once('finish', () => (record.status = reply.statusCode));
  });

  mount(app, world, CLINIC_PREFIX, clinicRoutes, 'clinic');
  mount(app, world, CASHIER_PREFIX, cashierRoutes, 'cashier');
  mount(app, world, CONTROL_PREFIX, controlRoutes);
  app.setNotFoundHandler((req, reply) => {
    const path = req.url.split('?')[0] ?? '';
    const api = apiOfPath(path);
    const gate = api === 'clinic' || api === 'cashier' ? api : undefined;
    return handlerOf(notFound(path), world, gate)(req, reply);
  });
  // What fails before a route's handler runs (a body over the size limit) answers in the envelope too.
  app.setErrorHandler(async (err: { statusCode?: number; message?: string }, _req, reply) => {
    const status = err.statusCode && err.statusCode < 500 ? err.statusCode : 500;
    if (status === 500) world.log(`error: ${String(err.message)}`);
    const error = status === 500 ? 'internal_error' : 'bad_request';
    return sendJson(reply, status, { error, message: String(err.message ?? ''), details: {} });
  });

  const stop = async () => {
    clock.dispose();
    await world.webhooks.settle();
    await app.close();
    // Slow answers still waiting are dropped with their connections; once the server is closed no request can start
    // another wait, and a request that came in while the deliveries settled has started its own by then.
    for (const timer of world.faultTimers) clearTimeout(timer);
  };
  try {
    await app.listen({ host: '127.0.0.1', port: options.port ?? 4010 });
  } catch (e) {
    await stop();
    if ((e as NodeJS.ErrnoException).code !== 'EADDRINUSE') throw e;
    const port = options.port ?? 4010;
    throw new Error(
      `Port ${port} on 127.0.0.1 is already in use (another sandbox or npm start may still be running). ` +
        `Stop it, or choose another port with SANDBOX_PORT, e.g. SANDBOX_PORT=${port + 10} npm start ` +
        `(SANDBOX_PORT=0 takes any free port; npm run sandbox also takes --port).`,
    );
  }
  const { port } = app.server.address() as AddressInfo;
  const url = `http://127.0.0.1:${port}`;
  world.baseUrl = url;

  const requests = ({ interface: api, token, method, path }: RequestFilter = {}) => {
    const named = world.store.clients.find((c) => c.key === token)?.token ?? token;
    return world.requests.filter(
      (r) =>
        (api ? r.api === api : r.api === 'clinic' || r.api === 'cashier') &&
        (!named || r.token === named) &&
        (!method || r.method === method.toUpperCase()) &&
        (!path || (typeof path === 'string' ? r.path === path : path.test(r.path))),
    );
  };
  const tokens = Object.fromEntries(
    TOKEN_NAMES.map((name) => [name, world.store.clients.find((c) => c.key === name)?.token ?? '']),
  ) as Record<TokenName, string>;

  return {
    url,
    port,
    clinicBaseUrl: `${url}${CLINIC_PREFIX}`,
    cashierBaseUrl: `${url}${CASHIER_PREFIX}`,
    controlUrl: `${url}${CONTROL_PREFIX}`,
    tokens,
    refs: world.store.refs,
    clock: {
      now: () => clock.now(),
      nowSeconds: () => clock.nowSeconds(),
      /** Moves sandbox time forward, running (and waiting for) every retry that falls due. */
      advance: async (ms: number) => {
        await clock.advance(ms);
        await world.webhooks.settle();
      },
      setTimeScale: (scale: number) => clock.setTimeScale(scale),
    },
    config: world.config,
    requestCount: (filter?: RequestFilter) => requests(filter).length,
    requests: (filter?: RequestFilter) => requests(filter).map((r) => ({ ...r })),
    resetRequests: () => {
      world.requests.length = 0;
    },
    /** Deliveries as tests see them: the spec's delivery record, plus what the sandbox keeps beside it. */
    deliveries: (filter: { event?: string; subscriptionId?: number; status?: DeliveryStatus } = {}) =>
      world.webhooks.deliveries(filter).map((d) => ({
        ...deliveryView(d),
        interface: d.api,
        next_attempt_at: d.next_attempt_at,
        body: d.body,
        log: d.log.map((a) => ({ ...a })),
      })),
    subscriptions: () => world.store.subscriptions.map((s) => ({ ...s, events: [...s.events] })),
    settle: () => world.webhooks.settle(),
    injectFault: (f: FaultSpec) => makeFault(world, f).id,
    faults: () => world.faults.map((f) => ({ ...f })),
    close: stop,
  };
};
