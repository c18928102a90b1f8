/** Injected faults (sandbox/README.md, "Faults"): what a flaky network, a proxy or a broken server does. */
import { STATUS_CODES, type OutgoingHttpHeaders } from 'node:http';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { sendJson, type Lang } from './errors';
import type { Fault, FaultSpec, World } from './world';

/** The page a proxy (nginx) shows when the server behind it fails. */
const proxyPage = (status: number) => {
  const title = `${status} ${STATUS_CODES[status] ?? 'Error'}`;
  return `<html>\r\n<head><title>${title}</title></head>\r\n<body>\r\n<center><h1>${title}</h1></center>\r\n<hr><center>nginx</center>\r\n</body>\r\n</html>\r\n`;
};

export const makeFault = (world: World, spec: FaultSpec): Fault => {
  const fault = { ...spec, id: world.faults.length + 1, times: spec.times ?? 1 };
  world.faults.push(fault);
  return fault;
};

/** The next fault for this request, if any; it takes one of its `times`. */
export const takeFault = (world: World, method: string, path: string, token: string | undefined) => {
  const name = world.store.clients.find((c) => c.token === token)?.key;
  const fault = world.faults.find(
    (f) =>
      f.times > 0 &&
      path.startsWith(f.pathPrefix) &&
      (!f.method || f.method.toUpperCase() === method) &&
      (!f.token || f.token === token || f.token === name),
  );
  if (fault) fault.times -= 1;
  return fault;
};

/** A wait whose timer close() clears, so it cannot keep a test run alive (its connection is gone by then). */
const pause = (world: World, ms: number) =>
  new Promise<void>((resolve) => world.faultTimers.add(setTimeout(resolve, ms)));

const JSON_TYPE = 'application/json; charset=utf-8';

/** Sends the fault's answer instead of `real` (the processed request's answer an `after` fault spoils). */
export const applyFault = async (
  world: World,
  req: FastifyRequest,
  reply: FastifyReply,
  fault: Fault,
  lang: Lang,
  real?: { status: number; body: unknown },
): Promise<FastifyReply> => {
  const { kind = 'status', when = 'before' } = fault;
  const delayMs = fault.delayMs ?? (kind === 'slow' ? 30_000 : 0);
  if (delayMs) await pause(world, delayMs);
  const envelope = {
    error: fault.error ?? (kind === 'slow' ? 'gateway_timeout' : 'server_error'),
    message: lang === 'ar' ? 'خطأ مُحقَن في بيئة الاختبار.' : 'Fault injected in the sandbox.',
    details: { fault_id: fault.id },
  };
  // An `after` fault keeps the real status unless one was given; a `before` one has no real answer.
  const statusOr = (fallback: number) => fault.status ?? real?.status ?? fallback;
  const text = (status: number, type: string, body: string) => reply.code(status).type(type).send(body);
  world.log(`fault ${fault.id} (${kind}, ${when}) on ${req.method} ${req.url}`);
  switch (kind) {
    case 'status':
      return sendJson(reply, fault.status ?? 500, envelope);
    case 'slow':
      return real ? sendJson(reply, real.status, real.body) : sendJson(reply, fault.status ?? 504, envelope);
    case 'reset':
      reply.hijack();
      req.raw.socket.destroy();
      return reply;
    case 'malformed_json':
      return text(statusOr(200), JSON_TYPE, fault.body ?? '{"data": [');
    case 'html': {
      const status = fault.status ?? 502;
      return text(status, 'text/html; charset=utf-8', fault.body ?? proxyPage(status));
    }
    case 'empty':
      return text(statusOr(200), JSON_TYPE, '');
    case 'truncated': {
      const full = Buffer.from(JSON.stringify(real?.body ?? envelope), 'utf8');
      reply.hijack();
      // The headers already set (rate limits) go too: the answer is written on the raw socket.
      reply.raw.writeHead(statusOr(200), {
        ...(reply.getHeaders() as OutgoingHttpHeaders),
        'content-type': JSON_TYPE,
        'content-length': String(full.length),
      });
      // Half the promised bytes, then the connection closes.
      reply.raw.write(full.subarray(0, Math.floor(full.length / 2)), () => req.raw.socket.destroy());
      return reply;
    }
  }
};
