/**
 * Hook perform against its physical floor (SHA-256 of the body, HMAC of the signed string, constant-time compare,
 * JSON.parse), 1 KB to 1 MB, in the steady state and for the early deliveries of a fresh process.
 *
 * The runner starts this file in a fresh process of its own, as a Zapier container runs perform: core and the app
 * loaded, no sandbox. Run after the calls section in one process, 1 KB deliveries measured 1.7–1.9× against 1.4–1.6×
 * fresh: the in-process sandbox and what the calls left raise the live heap from 23 to 39 MB, and perform's share of
 * garbage collection with it; the app's own code took the same time in both profiles.
 */
import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { errors as zErrors } from 'zapier-platform-core';
import { EVENTS } from '../lib/hooks/events';
import type { HookEvent, SubscribeData } from '../lib/hooks/types';
import { delivery } from '../harness/delivery';
import { median, table } from './shared';

type Perform = (z: never, bundle: never) => Promise<unknown[]>;

/**
 * The hook triggers' perform as it ships: from the bundle `npm run build` made (dist/index.js, what build.zip holds),
 * where the app's modules are one scope and call each other directly. The TypeScript sources run through tsx would
 * time the loader's cross-module accessors too, which no container runs.
 */
const shippedPerform = (key: string): Perform => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const app = require('../dist/index.js') as {
    triggers: Record<string, { operation: { perform: Perform } }>;
  };
  return app.triggers[key]!.operation.perform;
};

/**
 * The physical floor of a delivery: what any correct perform must do with its bytes. SHA-256 of the body, HMAC of the
 * signed string, a constant-time compare, JSON.parse. Nothing of the app's.
 */
const floorOf = (secret: string, path: string, timestamp: string, signature: string, rawBody: string) => {
  const digest = createHash('sha256').update(rawBody, 'utf8').digest('hex');
  const expected = `sha256=${createHmac('sha256', secret).update(`${timestamp}\nPOST\n${path}\n${digest}`).digest('hex')}`;
  if (!timingSafeEqual(Buffer.from(signature, 'utf8'), Buffer.from(expected, 'utf8')))
    throw new Error('floor');
  return JSON.parse(rawBody) as unknown;
};

/**
 * A z for perform alone: core's errors and a z.cache whose nx write answers as Zapier's does, counting round trips.
 * Zapier's cache is a service outside the container; a stand-in holding every key of the section in this process
 * (about 34,000 a case at 1 KB) would add its own growing table to the heap perform is timed in. Every delivery here
 * has an id of its own, so the stand-in keeps no more than the last `KEPT` keys: its answers are those of a store
 * that kept all.
 */
const KEPT = 1024;
const countingZ = () => {
  const store = new Set<string>();
  const counts = { roundTrips: 0 };
  const z = {
    errors: zErrors,
    cache: {
      get: async () => {
        counts.roundTrips += 1;
        return null;
      },
      set: async (k: string, _v: unknown, _ttl?: number, _scope?: string[], nx?: boolean) => {
        counts.roundTrips += 1;
        if (store.size === KEPT) store.clear();
        // One Set operation: the add tells by the size whether the key was there (nx: then it answers false).
        const size = store.size;
        store.add(k);
        return !nx || store.size !== size;
      },
    },
  };
  return { z, counts };
};

/** An envelope of the event with as many lines (copies of the sample's first, numbered) as make about `bytes`. */
const bodyOfSize = (def: HookEvent, bytes: number) => {
  const sample = def.resource.sample as Record<string, unknown>;
  const line = (sample.lines as Array<Record<string, unknown>>)[0]!;
  const lines: unknown[] = [];
  const envelope = (id: string) =>
    JSON.stringify({
      id,
      event: def.event,
      tenant_id: 1,
      occurred_at: '2026-11-21T10:00:00+03:00',
      api_version: 'v1',
      data: { ...sample, lines },
    });
  // Real lines carry more than the app shows (clinic: procedure codes and descriptions, dropped by the whitelist).
  while (envelope('evt_00000000').length < bytes)
    lines.push({ ...line, line_no: lines.length + 1, code: 'D1110', description: 'Prophylaxis - adult' });
  return { envelope, lines: lines.length };
};

/** One shape at one size: its trigger's perform, its own z (so its dedupe store), and the deliveries made so far. */
interface FloorCase {
  def: HookEvent;
  perform: Perform;
  sub: SubscribeData;
  envelope: (id: string) => string;
  lines: number;
  batch: number;
  z: ReturnType<typeof countingZ>['z'];
  counts: ReturnType<typeof countingZ>['counts'];
  n: number;
}

/**
 * `count` rounds of `c`'s deliveries, each timed against the floor, paired and interleaved delivery by delivery
 * (which goes first alternates), so load on the machine falls on both alike and cancels in the ratio. The times are
 * added to `into`.
 */
const floorRounds = async (c: FloorCase, count: number, into: { floors: number[]; performs: number[] }) => {
  const { sub } = c;
  for (let round = 0; round < count; round += 1) {
    // Signed outside the timed region; each delivery its own event id, so the dedupe never drops one.
    const timestamp = String(Math.floor(Date.now() / 1000));
    const made = Array.from({ length: c.batch }, () => {
      const id = `evt_${String((c.n += 1)).padStart(8, '0')}`;
      const rawBody = c.envelope(id);
      const { rawRequest } = delivery({ secret: sub.secret, path: sub.target_path, rawBody, timestamp });
      return {
        rawBody,
        signature: rawRequest.headers['Http-X-Partner-Signature']!,
        bundle: {
          authData: {},
          // The patient's read is a request, not work on the delivery: left out here, counted in section 2.
          inputData: { include_patient: false },
          subscribeData: sub,
          rawRequest,
        },
      };
    });
    // As Zapier hands a bundle to the app: parsed from JSON, so every string is flat, as the app meets them (a
    // signature joined by a template literal would be flattened by whichever of the floor and perform read it first).
    const signed = JSON.parse(JSON.stringify(made)) as typeof made;
    for (const [i, d] of signed.entries()) {
      const t0 = process.hrtime.bigint();
      if (i % 2) floorOf(sub.secret, sub.target_path, timestamp, d.signature, d.rawBody);
      const t1 = process.hrtime.bigint();
      const items = await c.perform(c.z as never, d.bundle as never);
      const t2 = process.hrtime.bigint();
      if (!(i % 2)) floorOf(sub.secret, sub.target_path, timestamp, d.signature, d.rawBody);
      const t3 = process.hrtime.bigint();
      if (items.length !== 1) throw new Error('a delivery was not accepted');
      into.floors.push(Number(i % 2 ? t1 - t0 : t3 - t2) / 1e3);
      into.performs.push(Number(t2 - t1) / 1e3);
    }
  }
};

/**
 * Goal 1 is about the steady state: a container serves many deliveries, and the floor's work is native code that
 * needs no warm-up while perform's JavaScript does. So every shape and size first gets `warmup` rounds untimed
 * for the figure (enough that V8 optimises perform), then `rounds` timed rounds each. The first `rounds` rounds of
 * the fresh process (the start of the warm-up) are printed beside it as the early deliveries' ratio.
 */
export const hookFloor = async () => {
  const rounds = Number(process.env.BENCH_FLOOR_ROUNDS ?? 21);
  const warmup = Math.max(rounds, Number(process.env.BENCH_FLOOR_WARMUP ?? 150));
  const cases: FloorCase[] = [];
  for (const key of ['invoice_paid', 'receipt_issued'] as const) {
    const def = EVENTS.find((e) => e.key === key)!;
    const perform = shippedPerform(key);
    const sub: SubscribeData = {
      id: 7,
      secret: 'whsec_bench_floor',
      target_path: '/hooks/standard/7/x/',
      event: def.event,
      api: def.api,
    };
    for (const bytes of [1024, 10 * 1024, 100 * 1024, 1024 * 1024]) {
      const { envelope, lines } = bodyOfSize(def, bytes);
      // Enough deliveries a round that a round takes a few milliseconds at least.
      const batch = Math.max(3, Math.round((200 * 1024) / bytes));
      cases.push({ def, perform, sub, envelope, lines, batch, ...countingZ(), n: 0 });
    }
  }
  // The early deliveries: each case's first rounds in this process, in the order a fresh process meets them.
  const early = cases.map(() => ({ floors: [] as number[], performs: [] as number[] }));
  for (const [i, c] of cases.entries()) {
    await floorRounds(c, rounds, early[i]!);
    await floorRounds(c, warmup - rounds, { floors: [], performs: [] });
  }
  /**
   * The guard: perform within 1.5× its floor from 10 KB up, where the body's hashing and parsing dominate; within
   * 2.5× at 1 KB, where a few microseconds of the app's own work (presenting, one cache write) weigh more against a
   * floor of about 10 µs and no Zap can feel the difference.
   */
  const goalFor = (bytes: number) => (bytes < 5 * 1024 ? 2.5 : 1.5);
  const steady = cases.map(() => ({ floors: [] as number[], performs: [] as number[] }));
  const tripsBefore = cases.reduce((s, c) => s + c.counts.roundTrips, 0);
  const deliveriesBefore = cases.reduce((s, c) => s + c.n, 0);
  for (const [i, c] of cases.entries()) await floorRounds(c, rounds, steady[i]!);
  const roundTrips = cases.reduce((s, c) => s + c.counts.roundTrips, 0) - tripsBefore;
  const deliveries = cases.reduce((s, c) => s + c.n, 0) - deliveriesBefore;
  // Medians of every delivery's pair: a pause (GC, another process) lands on one delivery, not on the figure.
  const ratioOf = (t: { floors: number[]; performs: number[] }) => median(t.performs) / median(t.floors);
  const rows = cases.map((c, i) => {
    const s = steady[i]!;
    const ratio = ratioOf(s);
    const size = c.envelope('evt_00000000').length;
    const goal = goalFor(size);
    return [
      c.def.key,
      size >= 1024 * 1024 ? `${(size / 1024 / 1024).toFixed(2)} MB` : `${(size / 1024).toFixed(1)} KB`,
      c.lines,
      median(s.floors).toFixed(1),
      median(s.performs).toFixed(1),
      `${ratio.toFixed(2)}×`,
      `≤ ${goal.toFixed(2)}×`,
      ratio <= goal ? 'ok' : 'OVER',
      `${ratioOf(early[i]!).toFixed(2)}×`,
    ];
  });
  table(
    `Hook perform against its floor (SHA-256 + HMAC + compare + JSON.parse), paired delivery by delivery: steady state, medians of ${rounds} rounds after ${warmup} rounds' warm-up; early deliveries, the first ${rounds} rounds of the process`,
    ['shape', 'body', 'lines', 'floor µs', 'perform µs', 'ratio', 'goal', '', 'early deliveries: ratio'],
    rows,
  );
  console.log(`\nz.cache round trips per new delivery: ${(roundTrips / deliveries).toFixed(2)} (goal 1)`);
};

if (require.main === module) {
  hookFloor().catch((e: unknown) => {
    console.error(e);
    process.exit(1);
  });
}
