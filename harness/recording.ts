/**
 * What a recording needs besides the test runner, shared by the unit suites' recorder (test/support/recorder.ts)
 * and `npm run record` (scripts/record.ts): the sandbox every recording starts from, the loopback receiver its
 * deliveries go to, where and in what shape a recorded delivery is kept, and the JSON writer that keeps
 * re-recordings byte-identical.
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join } from 'node:path';
import { text as readBody } from 'node:stream/consumers';
import type { SandboxOptions } from '../sandbox';
import type { Json } from './call';

/** Seed and start of every recording: 10:00 in Riyadh, the seed's appointments, receipts and sessions around it. */
export const RECORD_SANDBOX: SandboxOptions = {
  randomSeed: 20261121,
  startTime: '2026-11-24T07:00:00Z',
  timeScale: 0,
  holdBackMs: 0,
  rateLimitPerMinute: 100_000,
  anonymousRateLimitPerMinute: 100_000,
  quiet: true,
};

/**
 * Writes JSON files as Prettier formats them, so a re-recording without a change leaves git clean. Prettier's own
 * CLI, once for all the files: its API loads modules dynamically, which jest does not allow.
 */
export const writeJsonFiles = (files: Array<[string, unknown]>) => {
  if (!files.length) return;
  for (const [file, value] of files) {
    mkdirSync(join(file, '..'), { recursive: true });
    writeFileSync(file, JSON.stringify(value));
  }
  execFileSync(
    require.resolve('prettier/bin/prettier.cjs'),
    ['--log-level', 'warn', '--write', ...files.map(([f]) => f)],
    {
      stdio: 'inherit',
    },
  );
};

/** A POST the loopback receiver got: its path and query, headers (lower-case names) and raw body. */
export interface Received {
  path: string;
  headers: Record<string, string>;
  body: string;
}
let receiver: Promise<{ url: string; server: Server }> | undefined;
const receivedPosts: Received[] = [];
/**
 * A loopback receiver of the sandbox's deliveries, started on first use: 204 under /ok/, 410 under /gone/ (the
 * subscription is switched off), 500 under /fail/; `received()` lists what it got. `closeReceiver` (after the file)
 * stops it.
 */
export const receiverUrl = async (): Promise<string> => {
  receiver ??= new Promise((resolve) => {
    const server = createServer((req, res) => {
      const status = req.url?.startsWith('/gone/') ? 410 : req.url?.startsWith('/fail/') ? 500 : 204;
      void readBody(req).then((body) => {
        const headers = Object.fromEntries(
          Object.entries(req.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(', ') : String(v)]),
        );
        receivedPosts.push({ path: String(req.url), headers, body });
        res.writeHead(status).end();
      });
    });
    server.listen(0, '127.0.0.1', () =>
      resolve({ url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`, server }),
    );
  });
  return (await receiver).url;
};
export const received = (): Received[] => [...receivedPosts];
export const closeReceiver = async () => {
  const running = receiver;
  receiver = undefined;
  receivedPosts.length = 0;
  if (running) {
    const { server } = await running;
    await new Promise((resolve) => server.close(resolve));
  }
};

/** Where `npm run record` keeps one genuine delivery per event; the unit suites read them (test/fixtures). */
export const DELIVERIES_DIR = join(__dirname, '..', 'test', 'fixtures', 'deliveries');

/** A delivery the sandbox sent (scripts/record.ts): what it was sent from, its partner headers and its body. */
export interface RecordedDelivery {
  recorded_from: {
    event: string;
    delivery_id: number;
    /** The subscription as the sandbox signed for it: the signature covers `target_path`. */
    subscription: { id: number; interface: 'clinic' | 'cashier'; secret: string; target_path: string };
  };
  /** The partner headers as received (lower-case names): x-partner-signature, x-partner-timestamp… */
  headers: Record<string, string>;
  /** The body; the raw body sent is `JSON.stringify(envelope)`. */
  envelope: Json;
}

/** The customer of the recorded customer.created delivery: marketing consent for SMS and email, not WhatsApp. */
export const CONSENTING_CUSTOMER = {
  name: 'ريم الحربي',
  phone: '+966551234987',
  email: 'reem.h@example.com',
  marketing_consent: true,
  consent_channels: ['sms', 'email'],
};
