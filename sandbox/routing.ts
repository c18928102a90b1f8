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
import {
  ApiError,
  envelope,
  languageOf,
  schemaFailure,
  sendError,
  sendJson,
  type Lang,
  refuse,
} from './errors';
import { applyFault, takeFault } from './faults';
import type { ApiClientRecord, Api, Tenant } from './store';
import { badJson, prepare } from './validate';
import type { Fault, World } from './world';

export type Method = 'GET' | 'POST' | 'PUT' | 'DELETE' | 'PATCH';

export interface RouteContext {
  world: World;
  client: ApiClientRecord;
  tenant: Tenant;
  lang: Lang;
  params: Record<string, string>;
  /** The query as the route's schema checked and typed it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query: Record<string, any>;
  body: unknown;
}

export interface Answer {
  status?: number;
  body?: unknown;
}

export interface PartnerRoute {
  method: Method;
  /** Relative to the interface's prefix, in the spec's form: /patients/{id}. */
  path: string;
  /** The one ability the endpoint needs (null: any). */
  ability: string | null;
  /** Clinic webhooks: only clients created by the account owner. */
  ownerOnly?: boolean;
  /** Clinic patients, appointments and invoices groups: may be marked planned (501). */
  plannable?: boolean;
  /** What the route takes (validate.ts `query`, `body`), checked once the caller is admitted. */
  schema?: FastifySchema;
  handle: (ctx: RouteContext) => Answer | Promise<Answer>;
}

type RouteRest = [PartnerRoute['handle']] | [Partial<PartnerRoute>, PartnerRoute['handle']];

/** A partner route: method, path, ability, then what else it declares (schema, planned, owner only) and its handler. */
export const route = (
  method: Method,
  path: string,
  ability: string | null,
  ...rest: RouteRest
): PartnerRoute => {
  const [extra, handle] = rest.length === 1 ? [{}, rest[0]] : rest;
  return { method, path, ability, handle, ...extra };
};

export const get = (path: string, ability: string | null, ...rest: RouteRest) =>
  route('GET', path, ability, ...rest);

export const plannedKey = (method: string, path: string) => `${method.toUpperCase()} ${path}`;

/** The `after` fault a request carries from its admission to its answer. */
const pendingFaults = new WeakMap<FastifyRequest, Fault>();

/** Sends an interface's answer, spoiled by the request's `after` fault when it has one. */
const respond = async (
  gate: Gate,
  req: FastifyRequest,
  reply: FastifyReply,
  lang: Lang,
  status: number,
  body: unknown,
): Promise<FastifyReply> => {
  const fault = pendingFaults.get(req);
  if (!fault) return sendJson(reply, status, body);
  pendingFaults.delete(req);
  return applyFault(gate.world(), req, reply, fault, lang, { status, body });
};

const respondError = (gate: Gate, req: FastifyRequest, reply: FastifyReply, error: ApiError, lang: Lang) => {
  for (const [k, v] of Object.entries(error.headers)) reply.header(k, v);
  return respond(gate, req, reply, lang, error.status, envelope(error, lang));
};

/** Unexpected failures: a 500 in the envelope's shape, and a line in the log. */
const respondInternal = (gate: Gate, req: FastifyRequest, reply: FastifyReply, lang: Lang, err: unknown) => {
  gate.world().log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
  return respond(gate, req, reply, lang, 500, {
    error: 'internal_error',
    message: 'Internal error in the sandbox.',
    details: {},
  });
};

/**
 * A route's Fastify options for validation by its schema: the problems are attached, not answered, so that a
 * request is refused for its token, ability or planned endpoint first; `checked` then throws them.
 */
export const validation = (schema: FastifySchema | undefined) => ({
  schema,
  attachValidation: true,
  preValidation: prepare(schema),
});

/** Throws validation_failed for a body that is not JSON or what the route's schema refused. */
export const checked = (req: FastifyRequest, lang: Lang): void => {
  if (badJson.has(req)) {
    throw refuse(lang, 'body', 'not_json');
  }
  const problems = req.validationError?.validation;
  if (problems) throw schemaFailure(problems as Parameters<typeof schemaFailure>[0], lang);
};

export interface Gate {
  api: Api;
  prefix: string;
  world: () => World;
  limiter: RateLimiter;
}

/**
 * The steps every request to an interface takes before its route: rate limit (headers on every answer), faults
 * injected by a test (a `before` fault answers here; an `after` one waits for the answer it spoils), then the
 * token and account. Answers false when it already replied.
 */
const admit = async (
  gate: Gate,
  req: FastifyRequest,
  reply: FastifyReply,
  lang: Lang,
): Promise<{ client: ApiClientRecord; tenant: Tenant } | false> => {
  const world = gate.world();
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
    const headers = { 'Retry-After': String(retry_after) };
    sendError(reply, new ApiError('rate_limited', { retry_after }, { retry_after }, headers), lang);
    return false;
  }
  const fault = takeFault(world, { method: req.method, path: req.url.split('?')[0] ?? '', token });
  if (fault?.when === 'before') {
    await applyFault(world, req, reply, fault, lang);
    return false;
  }
  if (fault) pendingFaults.set(req, fault);
  try {
    return authenticate(world.store, token, client);
  } catch (err) {
    if (err instanceof ApiError) {
      await respondError(gate, req, reply, err, lang);
      return false;
    }
    throw err;
  }
};

export const mountPartner = (app: FastifyInstance, gate: Gate, routes: PartnerRoute[]): void => {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: gate.prefix + route.path.replace(/\{(\w+)\}/g, ':$1'),
      ...validation(route.schema),
      handler: async (req, reply) => {
        const world = gate.world();
        const lang = languageOf(req.headers['accept-language']);
        try {
          const caller = await admit(gate, req, reply, lang);
          if (!caller) return reply;
          requireAbility(caller.client, route.ability);
          if (route.ownerOnly && !caller.client.owner) throw new ApiError('forbidden');
          if (route.plannable && world.config.planned.has(plannedKey(route.method, route.path))) {
            throw new ApiError('not_implemented', { endpoint: plannedKey(route.method, route.path) });
          }
          checked(req, lang);
          const answer = await route.handle({
            world,
            client: caller.client,
            tenant: caller.tenant,
            lang,
            params: (req.params ?? {}) as Record<string, string>,
            query: (req.query ?? {}) as RouteContext['query'],
            body: req.body,
          });
          return await respond(gate, req, reply, lang, answer.status ?? 200, answer.body);
        } catch (err) {
          if (err instanceof ApiError) return respondError(gate, req, reply, err, lang);
          return respondInternal(gate, req, reply, lang, err);
        }
      },
    });
  }
};

/** A path under an interface's prefix that no route takes: checked like any call, then 404 not_found. */
export const unknownPartnerPath = async (gate: Gate, req: FastifyRequest, reply: FastifyReply) => {
  const lang = languageOf(req.headers['accept-language']);
  try {
    const caller = await admit(gate, req, reply, lang);
    if (!caller) return reply;
    return await respondError(
      gate,
      req,
      reply,
      new ApiError('not_found', { path: req.url.split('?')[0] }),
      lang,
    );
  } catch (err) {
    return respondInternal(gate, req, reply, lang, err);
  }
};
