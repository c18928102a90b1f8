/**
 * Where the lane's deliveries come from and how they reach n8n.
 *
 * n8n's public address (WEBHOOK_URL) is a loopback gateway in front of it, as a reverse proxy stands in front of a
 * self-hosted n8n: the subscription targets the gateway. The gateway can lose n8n's acknowledgement of a delivery
 * (the sandbox then holds it as failed and its resend endpoint re-sends the same event, as
 * test/e2e/app-faults.test.ts makes a genuine redelivery), or hold deliveries back: it answers the sandbox and
 * keeps them, and the lane sends them on itself, signed anew with the sandbox's own signer (sandbox/webhooks.ts,
 * written from the specs, never the app's), at the concurrency a check asks for, as many copies as it asks for.
 */
import { createServer, request as httpRequest, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Sandbox } from '../../sandbox';
import { call } from '../../harness/call';
import { send } from '../../sandbox/sender';
import { signDelivery } from '../../sandbox/webhooks';

/** A delivery as the sandbox's webhook engine sent it. */
export interface Held {
  path: string;
  headers: Record<string, string>;
  body: string;
  eventId: string;
}

export interface Gateway {
  url: string;
  /** The next `n` webhook deliveries reach n8n, but the sender gets 502 instead of n8n's answer. */
  loseNext(n: number): void;
  /** From now on webhook deliveries are answered 200 and kept, not passed on, until `release`. */
  hold(): void;
  /** Ends holding; answers what was held. */
  release(): Held[];
  /** What n8n answered the deliveries the gateway passed on (status and the start of the body), oldest first. */
  answered: Array<{ status: number; body: string }>;
  close(): Promise<void>;
}

const readBody = (req: NodeJS.ReadableStream) =>
  new Promise<Buffer>((resolve) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => resolve(Buffer.concat(chunks)));
  });

export const startGateway = async (target: () => string): Promise<Gateway> => {
  let lose = 0;
  let held: Held[] | undefined;
  const answered: Gateway['answered'] = [];
  const server: Server = createServer((req, res) => {
    void readBody(req).then((body) => {
      const isDelivery = req.url?.startsWith('/webhook/') ?? false;
      if (held && isDelivery) {
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : (v ?? '')]),
        );
        const text = body.toString('utf8');
        held.push({ path: req.url!, headers, body: text, eventId: headers['x-partner-event-id'] ?? '' });
        res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
        return;
      }
      const upstream = httpRequest(
        `${target()}${req.url}`,
        { method: req.method, headers: req.headers },
        (answer) => {
          void readBody(answer).then((answerBody) => {
            if (isDelivery) {
              answered.push({
                status: answer.statusCode ?? 0,
                body: answerBody.toString('utf8').slice(0, 300),
              });
            }
            if (lose > 0 && isDelivery) {
              lose -= 1;
              res.writeHead(502, { 'content-type': 'text/plain' }).end('acknowledgement lost');
              return;
            }
            res.writeHead(answer.statusCode ?? 502, answer.headers).end(answerBody);
          });
        },
      );
      upstream.on('error', () => res.writeHead(502).end());
      upstream.end(body);
    });
  });
  await new Promise<void>((r) => server.listen(0, '127.0.0.1', r));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    answered,
    loseNext: (n) => {
      lose = n;
    },
    hold: () => {
      held = [];
    },
    release: () => {
      const out = held ?? [];
      held = undefined;
      return out;
    },
    close: () =>
      new Promise<void>((r) => {
        server.close(() => r());
        server.closeAllConnections();
      }),
  };
};

/** A time well clear of the seeded appointments and of each other: the lane's `n`th booking, on the hour. */
const slotOf = (n: number) => {
  const day = new Date(Date.now() + (30 + Math.floor(n / 20)) * 86_400_000).toISOString().slice(0, 10);
  return `${day}T${String(2 + (n % 20)).padStart(2, '0')}:00:00+03:00`;
};

let bookings = 0;

/** Books an appointment for `patientId` at the front desk, at a slot no other booking of the lane takes. */
export const bookAtDesk = async (sb: Sandbox, patientId: string) => {
  const startsAt = slotOf((bookings += 1));
  const booked = await call(`${sb.controlUrl}/clinic/appointments`, {
    body: { patient_id: patientId, branch_id: 1, appointment_type_id: 4, starts_at: startsAt },
  });
  if (booked.status !== 201)
    throw new Error(`booking at the sandbox: ${booked.status} ${JSON.stringify(booked.body)}`);
  return booked.body.data as { id: string; starts_at: string };
};

/** Makes `count` genuine appointment.created events and answers every delivery of them, held, not sent to n8n. */
export const holdAll = async (sb: Sandbox, gateway: Gateway, count: number) => {
  gateway.hold();
  try {
    for (let i = 0; i < count; i += 1) await bookAtDesk(sb, sb.refs.clinic.patient);
    await sb.settle();
  } catch (e) {
    gateway.release();
    throw e;
  }
  return gateway.release();
};

/** Makes `count` genuine appointment.created events and answers one delivery of each, held, not sent to n8n. */
export const heldDeliveries = async (sb: Sandbox, gateway: Gateway, count: number) => {
  const held = await holdAll(sb, gateway, count);
  // One per event: a trigger subscribed twice (a restart that subscribed again) is delivered each event twice.
  const events = [...new Map(held.map((d) => [d.eventId, d])).values()];
  if (events.length !== count) throw new Error(`${events.length} events held, ${count} expected`);
  return events;
};

/** The signing secret of the sandbox's subscription to `targetUrl`. */
export const secretOf = (sb: Sandbox, targetUrl: string) => {
  const sub = sb.subscriptions().find((s) => s.target_url === targetUrl && s.status === 'active');
  if (!sub) throw new Error(`no active subscription to ${targetUrl}`);
  return sub.secret;
};

export interface Sent {
  /** 0: no answer (`error` says why). */
  status: number;
  error: string | null;
  ms: number;
  at: number;
}

/**
 * Sends one delivery to `baseUrl`, signed anew now with `secret`, as the sandbox's engine signs, through the
 * sandbox's own sender (a connection of its own each, as the interface's attempts are).
 */
export const sendSigned = async (
  baseUrl: string,
  d: Held,
  secret: string,
  nowSeconds: number,
): Promise<Sent> => {
  const timestamp = String(nowSeconds);
  const headers = {
    'Content-Type': 'application/json',
    'X-Partner-Event': d.headers['x-partner-event'] ?? '',
    'X-Partner-Event-Id': d.eventId,
    'X-Partner-Delivery': d.headers['x-partner-delivery'] ?? '',
    'X-Partner-Timestamp': timestamp,
    'X-Partner-Signature': signDelivery(secret, timestamp, d.path, d.body),
  };
  const at = Date.now();
  const answer = await send(new URL(`${baseUrl}${d.path}`), headers, d.body, 120_000);
  return { status: answer.http ?? 0, error: answer.error_code, ms: answer.duration_ms, at };
};

/** Sends every delivery, `concurrency` at a time; the answers in the deliveries' order. */
export const sendAll = async (
  baseUrl: string,
  deliveries: Held[],
  o: { secret: string; concurrency: number; clock: () => number },
): Promise<Sent[]> => {
  const answers: Sent[] = new Array(deliveries.length);
  let next = 0;
  const lane = async () => {
    while (next < deliveries.length) {
      const i = next++;
      answers[i] = await sendSigned(baseUrl, deliveries[i]!, o.secret, o.clock());
    }
  };
  await Promise.all(Array.from({ length: Math.min(o.concurrency, deliveries.length) }, lane));
  const refused = answers.filter((a) => a.status !== 200);
  if (refused.length) {
    const first = refused[0]!;
    throw new Error(`${refused.length} deliveries answered ${first.status || first.error}`);
  }
  return answers;
};

/** Sends `copies` copies of one delivery in the same instant (each signed alike, all requests opened at once). */
export const sendCopies = (
  baseUrl: string,
  d: Held,
  o: { secret: string; copies: number; clock: () => number },
) => {
  const now = o.clock();
  return Promise.all(Array.from({ length: o.copies }, () => sendSigned(baseUrl, d, o.secret, now)));
};
