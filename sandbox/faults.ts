/**
 * Injected faults (sandbox/README.md, "Faults"): what a flaky network, a proxy or a broken server does to an
 * answer. A fault matches by path prefix, method and token, takes the next `times` matching requests, and either
 * replaces the answer (`before`: the request is not processed) or processes the request and then spoils its
 * answer (`after`: the object exists, the caller never learns it).
 */
import { STATUS_CODES } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendJson, type Lang } from './errors';
import { FAULT_KINDS, type Fault, type FaultSpec, type World } from './world';

/** A slow answer's wait when none is given. */
export const DEFAULT_SLOW_MS = 30_000;

/** The page a proxy (nginx) shows when the server behind it fails. */
const proxyPage = (status: number) => {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
};

export const makeFault = (world: World, spec: FaultSpec): Fault => {
  const kind = spec.kind ?? 'status';
  if (!FAULT_KINDS.includes(kind))
    throw new Error(`not a fault kind: ${String(kind)} (${FAULT_KINDS.join(', ')})`);
  const when = spec.when ?? 'before';
  if (when !== 'before' && when !== 'after') throw new Error(`fault "when" is before or after, not ${when}`);
  const fault: Fault = {
    id: world.faults.length + 1,
    kind,
    when,
    method: spec.method?.toUpperCase() ?? null,
    pathPrefix: spec.pathPrefix,
    token: spec.token ?? null,
    status: spec.status ?? (kind === 'status' ? 500 : null),
    error: spec.error ?? (kind === 'slow' ? 'gateway_timeout' : 'server_error'),
    times: spec.times ?? 1,
    delayMs: spec.delayMs ?? (kind === 'slow' ? DEFAULT_SLOW_MS : 0),
    body: spec.body ?? null,
  };
  world.faults.push(fault);
  return fault;
};

export const takeFault = (
  world: World,
  request: { method: string; path: string; token: string | undefined },
): Fault | undefined => {
  const client = request.token ? world.store.clients.find((c) => c.token === request.token) : undefined;
  const fault = world.faults.find(
    (f) =>
      f.times > 0 &&
      request.path.startsWith(f.pathPrefix) &&
      (!f.method || f.method === request.method) &&
      (!f.token || f.token === request.token || (!!client && f.token === client.key)),
  );
  if (fault) fault.times -= 1;
  return fault;
};

/** A wait whose timer close() clears, so it cannot keep a test run alive (its connection is gone by then). */
const pause = (world: World, ms: number): Promise<void> =>
  new Promise((resolve) => {
    const timer = setTimeout(() => {
      world.faultTimers.delete(timer);
      resolve();
    }, ms);
    world.faultTimers.add(timer);
  });

const JSON_TYPE = 'application/json; charset=utf-8';

/** Headers already set on the reply (rate limits), for answers written on the raw socket. */
const headersOf = (reply: FastifyReply): Record<string, string> =>
  Object.fromEntries(
    Object.entries(reply.getHeaders()).flatMap(([k, v]) => (v === undefined ? [] : [[k, String(v)]])),
  );

/**
 * Sends the fault's answer instead of `real` (the processed request's answer an `after` fault spoils). Answers the
 * reply Fastify must return from the handler.
 */
export const applyFault = async (
  world: World,
  req: FastifyRequest,
  reply: FastifyReply,
  fault: Fault,
  lang: Lang,
  real?: { status: number; body: unknown },
): Promise<FastifyReply> => {
  if (fault.delayMs) await pause(world, fault.delayMs);
  const envelope = {
    error: fault.error,
    message: lang === 'ar' ? 'خطأ مُحقَن في بيئة الاختبار.' : 'Fault injected in the sandbox.',
    details: { fault_id: fault.id },
  };
  // An `after` fault keeps the real status unless one was given; a `before` one has no real answer.
  const statusOr = (fallback: number) => fault.status ?? real?.status ?? fallback;
  world.log(`fault ${fault.id} (${fault.kind}, ${fault.when}) on ${req.method} ${req.url}`);
  switch (fault.kind) {
    case 'status':
      return sendJson(reply, fault.status ?? 500, envelope);
    case 'slow':
      return real ? sendJson(reply, real.status, real.body) : sendJson(reply, fault.status ?? 504, envelope);
    case 'reset':
      reply.hijack();
      req.raw.socket.destroy();
      return reply;
    case 'malformed_json':
      return reply
        .code(statusOr(200))
        .type(JSON_TYPE)
        .send(fault.body ?? '{"data": [');
    case 'html':
      return reply
        .code(fault.status ?? 502)
        .type('text/html; charset=utf-8')
        .send(fault.body ?? proxyPage(fault.status ?? 502));
    case 'empty':
      return reply.code(statusOr(200)).type(JSON_TYPE).send('');
    case 'truncated': {
      const full = Buffer.from(JSON.stringify(real?.body ?? envelope), 'utf8');
      reply.hijack();
      const res = reply.raw;
      res.writeHead(statusOr(200), {
        ...headersOf(reply),
        'content-type': JSON_TYPE,
        'content-length': String(full.length),
      });
      // Half the promised bytes, then the connection closes.
      res.write(full.subarray(0, Math.floor(full.length / 2)), () => req.raw.socket.destroy());
      return reply;
    }
  }
};
