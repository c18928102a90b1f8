/**
 * Bursts of 300 New Appointment deliveries with Include Patient Details, as Zapier runs them after answering the
 * interface: every one must fire (Zapier never runs a trigger again); the patient is read within the step while the
 * interface's 120 requests a minute allow it (lib/retry.ts), and is `unavailable` after. Time is the sandbox's, stood
 * still and moved by this file only: a request takes none of it, a wait (Retry-After, backoff) and the gap between
 * two arrivals take exactly theirs, so the counts are the same on any machine.
 */
import { createAppTester } from 'zapier-platform-core';
import { delivery } from '../harness/delivery';
import App from '../index';
import { SETTINGS } from '../lib/config';
import { CLOCK } from '../lib/retry';
import { startSandbox, type Sandbox } from '../sandbox';
import { ops, table } from './shared';

const COUNT = 300;
/** Deliveries Zapier runs at once for one Zap: not published; ten is an assumption the figures depend on. */
const AT_ONCE = 10;
const SECRET = 'whsec_bench_burst';
const TARGET_PATH = '/hooks/catch/1/bench/';

type Item = { patient: { status: string } };

/**
 * Virtual time over the sandbox's clock: `sleep` parks its caller; when every worker is parked, the clock moves to
 * the earliest wake-up and that worker goes on.
 */
const virtualTime = (sb: Sandbox, workers: number) => {
  const parked: Array<{ at: number; wake: () => void }> = [];
  let running = workers;
  let moving = false;
  const move = async () => {
    if (moving) return;
    moving = true;
    while (running === 0 && parked.length) {
      parked.sort((a, b) => a.at - b.at);
      const next = parked.shift()!;
      await sb.clock.advance(Math.max(0, next.at - sb.clock.now()));
      running += 1;
      next.wake();
    }
    moving = false;
  };
  return {
    sleep: (ms: number) =>
      new Promise<void>((wake) => {
        parked.push({ at: sb.clock.now() + ms, wake });
        running -= 1;
        void move();
      }),
    done: () => {
      running -= 1;
      void move();
    },
  };
};

/** One burst: delivery i arrives `gapMs`·i after the first, and runs on the first of the workers free. */
const burstAt = async (gapMs: number) => {
  const sb = await startSandbox({ port: 0, quiet: true, timeScale: 0, holdBackMs: 0 });
  const real = { ...CLOCK };
  const time = virtualTime(sb, AT_ONCE);
  CLOCK.now = () => sb.clock.now();
  CLOCK.sleep = time.sleep;
  try {
    // The appointments the events are about, read with another API client: the Zap's starts with its whole allowance.
    const listed = await fetch(`${sb.clinicBaseUrl}/appointments?per_page=100`, {
      headers: { authorization: `Bearer ${sb.tokens.clinicReadOnly}` },
    });
    const appointments = ((await listed.json()) as { data: Array<Record<string, unknown>> }).data.filter(
      (a) => typeof a.patient_id === 'string',
    );
    const authData = { clinic_api_token: sb.tokens.clinicOwner, clinic_base_url: sb.clinicBaseUrl };
    const perform = ops('triggers').appointment_created!.operation.perform!;
    const tester = createAppTester(App);
    const subscribeData = { id: 1, secret: SECRET, target_path: TARGET_PATH, event: 'appointment.created' };
    const fired: Item[] = [];
    let failed = 0;
    const start = sb.clock.now();
    const one = async (i: number) => {
      const arrives = start + i * gapMs;
      if (arrives > sb.clock.now()) await time.sleep(arrives - sb.clock.now());
      const envelope = {
        id: `evt_bench_burst_${i}`,
        event: 'appointment.created',
        occurred_at: new Date(sb.clock.now()).toISOString(),
        data: appointments[i % appointments.length],
      };
      try {
        const items = (await tester(
          perform as never,
          {
            authData,
            inputData: { include_patient: true },
            subscribeData,
            ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
          } as never,
        )) as Item[];
        fired.push(...items);
      } catch {
        failed += 1;
      }
    };
    const queue = Array.from({ length: COUNT }, (_, i) => i);
    await Promise.all(
      Array.from({ length: AT_ONCE }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) await one(i);
        time.done();
      }),
    );
    const reads = sb.requests({ path: /\/partner\/v1\/patients\// });
    const by = (status: string) => fired.filter((item) => item.patient.status === status).length;
    return {
      fired: fired.length,
      failed,
      found: by('found'),
      unavailable: by('unavailable'),
      reads: reads.length,
      limited: reads.filter((r) => r.status === 429).length,
      minutes: (sb.clock.now() - start) / 60_000,
    };
  } finally {
    Object.assign(CLOCK, real);
    await sb.close();
  }
};

export const deliveryBurst = async () => {
  const paces: Array<[string, number]> = [
    ['all at once (a clinic moves 300 appointments)', 0],
    ['200 a minute', 300],
    ['150 a minute', 400],
    ['100 a minute', 600],
  ];
  const rows: Array<Array<string | number>> = [];
  const pct = (n: number) => `${n} (${((100 * n) / COUNT).toFixed(0)} %)`;
  for (const [pace, gapMs] of paces) {
    const r = await burstAt(gapMs);
    rows.push([
      pace,
      `${r.fired} of ${COUNT}`,
      pct(r.found),
      pct(r.unavailable),
      (r.reads / COUNT).toFixed(2),
      r.limited,
      r.minutes.toFixed(1),
      r.fired === COUNT && !r.failed ? 'none' : `${COUNT - r.fired}`,
    ]);
  }
  table(
    `Bursts of ${COUNT} New Appointment deliveries with Include Patient Details against 120 requests a minute, ${AT_ONCE} run at a time (the patient read retried within the step for ${SETTINGS.triggerReadBudgetMs / 1000} s at most; sandbox time, stood still but for arrivals and waits)`,
    [
      'deliveries arrive',
      'fired',
      'with the patient',
      'patient unavailable',
      'patient requests per delivery',
      '429 answers',
      'minutes',
      'lost',
    ],
    rows,
  );
};
