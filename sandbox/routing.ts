/**
 * Partner routes on Fastify: every request to an interface goes through the same steps (rate limit, injected
 * faults, token, account, ability, owner rule, planned endpoints, body) before its handler, and every failure
 * is the error envelope.
 */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import {
  authenticate,
  clientOfToken,
  isActiveClient,
  requireAbility,
  tokenOf,
  type RateLimiter,
} from './auth';
import { ApiError, envelope, languageOf, schemaFailure, sendJson, type Lang, refuse, byId } from './errors';
import { applyFault, takeFault } from './faults';
import type { ApiClientRecord, Api, Tenant } from './store';
import { badJson, prepare } from './validate';
import type { Fault, OpContext, World } from './world';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

/** What a partner route's handler gets: an operation's context, and the caller the gate admitted. */
export interface RouteContext extends OpContext {
  client: ApiClientRecord;
  tenant: Tenant;
}

/**
 * A route of an interface or of the sandbox-only endpoints. Its handler answers the body (undefined: 204); a
 * body's `events` (what an operation emitted) is shown by the sandbox-only endpoints only, and a body with
 * `duplicate: true` (an idempotent repeat) answers 200 whatever `status` says.
 */
export interface Route<C extends OpContext = RouteContext> {
  method: Method;
  /** Relative to the prefix, in the spec's form: /patients/{id}. */
  path: string;
  /** The one ability the endpoint needs (null: any). */
  ability?: string | null;
  /** Clinic webhooks: only clients created by the account owner. */
  ownerOnly?: boolean;
  /** Clinic patients, appointments and invoices groups: may be marked planned (501). */
  plannable?: boolean;
  /** What the route takes (validate.ts `query`, `body`), checked once the caller is admitted. */
  schema?: FastifySchema;
  status?: number;
  handle(ctx: C): unknown;
}

export type PartnerRoute = Route;
type Handler = Route['handle'] | Pick<Route, 'schema' | 'handle'>;

/** A partner route: method, path, ability, its handler (or an operation with its schema), and what else it declares. */
export const route = (
  method: Method,
  path: string,
  ability: string | null,
  handler: Handler,
  extra: Omit<Partial<Route>, 'handle'> = {},
): Route => ({
  method,
  path,
  ability,
  ...(typeof handler === 'function' ? { handle: handler } : handler),
  ...extra,
});

export const get = (path: string, ability: string | null, handler: Handler) =>
  route('GET', path, ability, handler);

export const post = (path: string, ability: string | null, handler: Handler) =>
  route('POST', path, ability, handler, { status: 201 });

/** GET of the row whose id the path names (read by `id`), viewed; none is 404 not_found. */
export const one =
  <T extends { id: unknown }>(
    rows: (ctx: RouteContext) => T[],
    view: (row: T) => unknown,
    id: (raw: string | undefined) => unknown = (raw) => raw,
  ) =>
  (ctx: RouteContext) => ({ data: view(byId(rows(ctx), id(ctx.params.id))) });

export const plannedKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** The `after` fault a request carries from its admission to its answer. */
const pendingFaults = new WeakMap<FastifyRequest, Fault>();

/** Sends an interface's answer, spoiled by the request's `after` fault when it has one. */
const respond = async (
  world: World,
  req: FastifyRequest,
  reply: FastifyReply,
  lang: Lang,
  status: number,
  body: unknown,
): Promise<FastifyReply> => {
  const fault = pendingFaults.get(req);
  if (!fault) return sendJson(reply, status, body);
  pendingFaults.delete(req);
  return applyFault(world, req, reply, fault, lang, { status, body });
};

/** A failure's answer: an ApiError's envelope and headers, or (unexpected) a 500 in the envelope's shape and a log line. */
const respondError = (world: World, req: FastifyRequest, reply: FastifyReply, lang: Lang, err: unknown) => {
  if (err instanceof ApiError) {
    for (const [k, v] of Object.entries(err.headers)) reply.header(k, v);
    return respond(world, req, reply, lang, err.status, envelope(err, lang));
  }
  world.log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  const body = { error: 'internal_error', message: 'Internal error in the sandbox.', details: {} };
  return respond(world, req, reply, lang, 500, body);
};

/** Throws validation_failed for a body that is not JSON or what the route's schema refused. */
const checked = (req: FastifyRequest, lang: Lang): void => {
  if (badJson.has(req)) throw refuse(lang, 'body', 'not_json');
  const problems = req.validationError?.validation;
  if (problems) throw schemaFailure(problems as Parameters<typeof schemaFailure>[0], lang);
};

export interface Gate {
  api: Api;
  limiter: RateLimiter;
}

/**
 * The steps every request to an interface takes before its route: rate limit (headers on every answer), faults
 * injected by a test (a `before` fault answers here; an `after` one waits for the answer it spoils), then the
 * token and account. Answers false when a fault already replied; throws the ApiError of a refusal.
 */
const admit = async (world: World, gate: Gate, req: FastifyRequest, reply: FastifyReply, lang: Lang) => {
  const token = tokenOf(gate.api, req.headers);
  const client = clientOfToken(world.store, gate.api, token);
  const active = isActiveClient(client);
  const rate = gate.limiter.hit(
    active ? `client:${client.id}` : `address:${req.ip}`,
    active ? world.config.rateLimitPerMinute : world.config.anonymousRateLimitPerMinute,
    world.clock.now(),
  );
  reply.header('X-RateLimit-Limit', String(rate.limit));
  reply.header('X-RateLimit-Remaining', String(rate.remaining));
  reply.header('X-RateLimit-Reset', String(rate.resetSeconds));
  if (!rate.allowed) {
    const retry_after = rate.resetSeconds;
    throw new ApiError(
      'rate_limited',
      { retry_after },
      { retry_after },
      { 'Retry-After': String(retry_after) },
    );
  }
  const fault = takeFault(world, { method: req.method, path: req.url.split('?')[0] ?? '', token });
  if (fault?.when === 'before') {
    await applyFault(world, req, reply, fault, lang);
    return false;
  }
  if (fault) pendingFaults.set(req, fault);
  return authenticate(world.store, token, client);
};

/**
 * A route's Fastify handler. With a gate (the partner interfaces), every request is admitted first (rate limit,
 * faults, token, account), then checked for the route's ability, owner rule and planned mark; without one (the
 * sandbox-only endpoints), `?wait=true` answers only once the first delivery attempts are done. Then the body:
 * what the route's schema found (attached, not answered, by Fastify) is thrown here.
 */
export const handlerOf =
  (route: Route<OpContext>, world: () => World, gate?: Gate) =>
  async (req: FastifyRequest, reply: FastifyReply) => {
    const w = world();
    const lang = languageOf(req.headers['accept-language']);
    try {
      const caller = gate && (await admit(w, gate, req, reply, lang));
      if (caller === false) return reply;
      if (caller) {
        requireAbility(caller.client, route.ability ?? null);
        if (route.ownerOnly && !caller.client.owner) throw new ApiError('forbidden');
        const key = plannedKey(route.method, route.path);
        if (route.plannable && w.config.planned.has(key))
          throw new ApiError('not_implemented', { endpoint: key });
      }
      checked(req, lang);
      const query = (req.query ?? {}) as OpContext['query'];
      const params = (req.params ?? {}) as Record<string, string>;
      const answer = (await route.handle({ world: w, lang, params, query, body: req.body, ...caller })) as
        { events?: unknown; duplicate?: boolean } | undefined;
      if (!gate && query.wait === 'true') await w.webhooks.settle();
      if (answer === undefined) return await respond(w, req, reply, lang, 204, undefined);
      const { events: _events, ...partner } = answer;
      const status = answer.duplicate ? 200 : (route.status ?? 200);
      return await respond(w, req, reply, lang, status, gate ? partner : answer);
    } catch (err) {
      return respondError(w, req, reply, lang, err);
    }
  };

/** Mounts routes under `prefix`, each validated by its schema (`prepare` readies the body and query first). */
export const mount = (
  app: FastifyInstance,
  world: () => World,
  prefix: string,
  routes: Array<Route<OpContext>>,
  gate?: Gate,
): void => {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: prefix + route.path.replace(/\{(\w+)\}/g, ':$1'),
      schema: route.schema,
      attachValidation: true,
      preValidation: prepare(route.schema),
      handler: handlerOf(route, world, gate),
    });
  }
};

/** What a path no route takes answers (404 not_found); under an interface's prefix, after the gate's checks. */
export const notFound = (path: string): Route<OpContext> => ({
  method: 'GET',
  path: '',
  handle: () => {
    throw new ApiError('not_found', { path });
  },
});
