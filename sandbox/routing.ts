/** Routes on Fastify, one shape for both interfaces and the sandbox-only endpoints (sandbox/README.md). */
import type { FastifyInstance, FastifyReply, FastifyRequest, FastifySchema } from 'fastify';
import { authorize, countRequest, tokenOf } from './auth';
import { ApiError, byId, envelope, languageOf, refuse, schemaFailure, sendJson } from './errors';
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
 * A route, its path in the spec's form (/patients/{id}). Its handler answers the body (undefined: 204); a body's
 * `events` is shown by the sandbox-only endpoints only, and `duplicate: true` (an idempotent repeat) answers 200.
 */
export interface Route<C extends OpContext = RouteContext> {
  method: Method;
  path: string;
  /** The one ability the endpoint needs (null: any). */
  ability?: string | null;
  /** Clinic webhooks: only clients created by the account owner. */
  ownerOnly?: boolean;
  /** May be marked planned (501 not_implemented). */
  plannable?: boolean;
  schema?: FastifySchema;
  status?: number;
  handle(ctx: C): unknown;
}

export type PartnerRoute = Route;
type Handler = Route['handle'] | Pick<Route, 'schema' | 'handle'>;

/** A partner route: its handler, or an operation with its schema (validate.ts `op`). */
export const route = (
  method: Method,
  path: string,
  ability: string | null,
  handler: Handler,
  extra: Omit<Partial<Route>, 'handle'> = {},
): Route => {
  const operation = typeof handler === 'function' ? { handle: handler } : handler;
  return { method, path, ability, ...operation, ...extra };
};

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

/**
 * A route's Fastify handler. Under an interface (`api`) the gate comes first: a `before` fault answers at once, an
 * `after` one spoils whatever is answered later, refusals included. The sandbox-only endpoints take `?wait=true`:
 * the answer waits for the first delivery attempts.
 */
export const handlerOf =
  (route: Route<OpContext>, w: World, api?: Api) => async (req: FastifyRequest, reply: FastifyReply) => {
    const lang = languageOf(req.headers['accept-language']);
    let fault: Fault | undefined;
    const send = (status: number, body: unknown) =>
      fault ? applyFault(w, req, reply, fault, lang, { status, body }) : sendJson(reply, status, body);
    try {
      let caller: ReturnType<typeof authorize> | undefined;
      if (api) {
        const token = tokenOf(api, req.headers);
        const client = token ? w.store.clients.find((c) => c.api === api && c.token === token) : undefined;
        countRequest(w, req.ip, reply, client);
        fault = takeFault(w, req.method, req.url.split('?')[0] ?? '', token);
        if (fault && fault.when !== 'after') return await applyFault(w, req, reply, fault, lang);
        caller = authorize(w, route, token, client);
      }
      if (badJson.has(req)) throw refuse(lang, 'body', 'not_json');
      const problems = req.validationError?.validation;
      if (problems) throw schemaFailure(problems as Parameters<typeof schemaFailure>[0], lang);
      const query = (req.query ?? {}) as OpContext['query'];
      const params = (req.params ?? {}) as Record<string, string>;
      const answer = (await route.handle({ world: w, lang, params, query, body: req.body, ...caller })) as
        { events?: unknown; duplicate?: boolean } | undefined;
      if (!api && query.wait === 'true') await w.webhooks.settle();
      if (answer === undefined) return await send(204, undefined);
      const { events: _events, ...partner } = answer;
      return await send(answer.duplicate ? 200 : (route.status ?? 200), api ? partner : answer);
    } catch (err) {
      if (err instanceof ApiError) {
        reply.headers(err.headers);
        return send(err.status, envelope(err, lang));
      }
      w.log(`internal error: ${err instanceof Error ? (err.stack ?? err.message) : String(err)}`);
      return send(500, { error: 'internal_error', message: 'Internal error in the sandbox.', details: {} });
    }
  };

/** Mounts routes under `prefix`, each validated by its schema once `prepare` has read the body and query. */
export const mount = (
  app: FastifyInstance,
  w: World,
  prefix: string,
  routes: Route<OpContext>[],
  api?: Api,
) => {
  for (const route of routes) {
    app.route({
      method: route.method,
      url: prefix + route.path.replace(/\{(\w+)\}/g, ':$1'),
      schema: route.schema,
      attachValidation: true,
      preValidation: prepare(route.schema),
      handler: handlerOf(route, w, api),
    });
  }
};

/** What a path no route takes answers (404 not_found); under an interface's prefix, after the gate. */
export const notFound = (path: string): Route<OpContext> => ({
  method: 'GET',
  path: '',
  handle: () => {
    throw new ApiError('not_found', { path });
  },
});
