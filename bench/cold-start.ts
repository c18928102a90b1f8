/**
 * Cold start and size: the production build.zip of this app against a one-trigger app's on the same core, each loaded
 * from its unpacked zip in fresh Node processes, and the first delivery of every hook trigger.
 */
import { spawnSync } from 'node:child_process';
import { rmSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { EVENTS } from '../lib/hooks/events';
import type { HookEvent, SubscribeData } from '../lib/hooks/types';
import { delivery } from '../harness/delivery';
import { median, nodeBin, table } from './shared';

/* eslint-disable-next-line @typescript-eslint/no-require-imports */
const { productionBuild } = require('../scripts/production-build') as {
  productionBuild: () => {
    dir: string;
    app: { zip: string; bytes: number; unpacked: number; names: string[]; folder: string };
    oneTrigger: { zip: string; bytes: number; names: string[]; folder: string };
  };
};

/** What one fresh process spent, in ms: core's load, the app's (its bundle's compile and evaluation), deliveries. */
interface LoadParts {
  core: number;
  app: number;
  deliveries: number;
  total: number;
}

/**
 * A fresh Node 22 process that loads an entry (core included) and holds the app definition; with `deliveries` (a JSON
 * file of signed deliveries, signed beforehand), also runs `perform` on each, as a cold container's first deliveries:
 * what a first delivery loads (zod, if the hot path needed it) is counted. Core is required first, so its part is
 * told apart from the app's; the total is the same work as requiring the entry alone.
 *
 * Between core's part and the app's, the process collects (untimed) the garbage core's load left: otherwise the
 * young-generation collection that garbage owes (4–9 ms, `node --trace-gc`) lands in the first window that allocates
 * after it, which is this app's deliveries in about half the processes and never the one-trigger app's load, which
 * ends first. Collected in every process alike, it counts in neither app's part; what the app's own load and
 * deliveries allocate is still collected, and counted, where it falls due.
 */
const loadTime = (entry: string, deliveries?: string): LoadParts => {
  const probe = `(async () => { const ms = (a, b) => Number(b - a) / 1e6; const t0 = process.hrtime.bigint();
    const { errors } = require(require.resolve('zapier-platform-core', { paths: [${JSON.stringify(dirname(entry))}] }));
    const t1 = process.hrtime.bigint();
    global.gc();
    const t1g = process.hrtime.bigint();
    const app = require(${JSON.stringify(entry)});
    if (!app.triggers) throw new Error('no definition');
    const t2 = process.hrtime.bigint();
    ${
      deliveries
        ? `const store = new Set();
    const z = { errors, cache: { set: async (k) => (store.has(k) ? false : (store.add(k), true)) } };
    for (const d of require(${JSON.stringify(deliveries)})) {
      const items = await app.triggers[d.key].operation.perform(z, d.bundle);
      if (items.length !== 1) throw new Error('no item for ' + d.key);
    }`
        : ''
    }
    const t3 = process.hrtime.bigint();
    process.stdout.write(JSON.stringify({ core: ms(t0, t1), app: ms(t1g, t2), deliveries: ms(t2, t3), total: ms(t0, t1) + ms(t1g, t3) })); })();`;
  const out = spawnSync(nodeBin, ['--expose-gc', '-e', probe], {
    cwd: dirname(entry),
    encoding: 'utf8',
    env: { ...process.env, NODE_ENV: 'production' },
  });
  if (out.status !== 0) throw new Error(out.stderr);
  return JSON.parse(out.stdout) as LoadParts;
};

/** One signed delivery of every hook trigger (its sample, no patient read, no consent check), written to a file. */
const firstDeliveries = (file: string) => {
  const sub = (def: HookEvent): SubscribeData => ({
    id: 1,
    secret: 'whsec_bench_cold',
    target_path: '/hooks/standard/1/cold/',
    event: def.event,
    api: def.api,
  });
  const timestamp = String(Math.floor(Date.now() / 1000));
  const all = EVENTS.map((def) => {
    const rawBody = JSON.stringify({
      id: `evt_cold_${def.key}`,
      event: def.event,
      occurred_at: '2026-11-21T10:00:00+03:00',
      data: def.sampleData ?? def.resource.sample,
    });
    const s = sub(def);
    return {
      key: def.key,
      bundle: {
        authData: {},
        inputData: { include_patient: false },
        subscribeData: s,
        rawRequest: delivery({ secret: s.secret, path: s.target_path, rawBody, timestamp }).rawRequest,
      },
    };
  });
  writeFileSync(file, JSON.stringify(all));
  return all.length;
};

/**
 * The production build.zip of this app and of the one-trigger app on the same core (scripts/production-build.js, as
 * check:build makes them), unpacked: each process loads what ships, through its root index.js.
 */
export const coldStart = () => {
  const built = productionBuild();
  try {
    const entry = join(built.app.folder, 'index.js');
    const minimalEntry = join(built.oneTrigger.folder, 'index.js');
    const runs = Number(process.env.BENCH_COLD_RUNS ?? 20);
    const deliveries = join(built.dir, 'deliveries.json');
    const kinds = firstDeliveries(deliveries);
    // Each round runs the three processes back to back, in one of the six orders in turn, so no kind of process is
    // always first or last.
    const kindsOfProcess = {
      app: () => loadTime(entry),
      minimal: () => loadTime(minimalEntry),
      first: () => loadTime(entry, deliveries),
    };
    type Kind = keyof typeof kindsOfProcess;
    const orders: Kind[][] = [
      ['app', 'minimal', 'first'],
      ['minimal', 'first', 'app'],
      ['first', 'app', 'minimal'],
      ['app', 'first', 'minimal'],
      ['first', 'minimal', 'app'],
      ['minimal', 'app', 'first'],
    ];
    loadTime(entry, deliveries); // warm the disk cache for both
    loadTime(minimalEntry);
    const rounds: Array<Record<Kind, LoadParts>> = [];
    for (let i = 0; i < runs; i += 1) {
      // Signed again each round: the timestamp must stay within the 5 minutes a delivery is accepted.
      firstDeliveries(deliveries);
      const round = {} as Record<Kind, LoadParts>;
      for (const kind of orders[i % orders.length]!) round[kind] = kindsOfProcess[kind]();
      rounds.push(round);
    }
    const of = (kind: Kind, part: keyof LoadParts) => median(rounds.map((r) => r[kind][part]));
    // The ratio of the goal, taken within each process: its whole time over its own core load, against the same for
    // the one-trigger app. Core is the same code read from the same files in both, so this is (core + app + first
    // deliveries) / (core + one trigger), with the load of other processes at that moment on both of its terms.
    // Between processes the same ratio moves by ±0.2 on a shared machine (printed beside it as information).
    const overCore = (kind: Kind) => median(rounds.map((r) => r[kind].total / r[kind].core));
    const appRatio = overCore('app') / overCore('minimal');
    const firstRatio = overCore('first') / overCore('minimal');
    const between = rounds.map((r) => r.first.total / r.minimal.total).sort((x, y) => x - y);
    const spread = `${median(between).toFixed(2)}×, middle half of the rounds ${between[Math.floor(runs / 4)]!.toFixed(2)}–${between[Math.floor((3 * runs) / 4)]!.toFixed(2)}×`;
    const a = of('app', 'total');
    const m = of('minimal', 'total');
    const d = of('first', 'total');
    const mib = (n: number) => `${(n / 1024 / 1024).toFixed(2)} MiB`;
    const size = built.app.bytes / built.oneTrigger.bytes;
    table(
      `Cold start (${runs} rounds of 3 fresh Node ${process.versions.node} processes, each order in turn; times are medians; ratios of each process's time over its own core load) and size, production build.zip unpacked`,
      ['figure', 'value', 'goal', ''],
      [
        ['this app: load and return the definition', `${a.toFixed(1)} ms`, '', ''],
        ['minimal one-trigger app, same core', `${m.toFixed(1)} ms`, '', ''],
        ['ratio', `${appRatio.toFixed(2)}×`, '≤ 1.30×', appRatio <= 1.3 ? 'ok' : 'OVER'],
        [
          `this app: load and first delivery of each of the ${kinds} hook triggers`,
          `${d.toFixed(1)} ms`,
          '',
          '',
        ],
        [
          '  of which core (zapier-platform-core and its dependencies)',
          `${of('first', 'core').toFixed(1)} ms`,
          '',
          '',
        ],
        ['  of which the app (the bundle compiled and run)', `${of('first', 'app').toFixed(1)} ms`, '', ''],
        [`  of which the ${kinds} first deliveries`, `${of('first', 'deliveries').toFixed(1)} ms`, '', ''],
        [
          'ratio (load and first deliveries) / (one-trigger load)',
          `${firstRatio.toFixed(2)}×`,
          '≤ 1.10×',
          firstRatio <= 1.1 ? 'ok' : 'OVER',
        ],
        ['  the same, whole processes of a round divided', spread, '', ''],
        [
          'production build.zip',
          `${mib(built.app.bytes)} (${built.app.names.length} files, ${mib(built.app.unpacked)} unpacked)`,
          '',
          '',
        ],
        [
          'one-trigger app, production build.zip',
          `${mib(built.oneTrigger.bytes)} (${built.oneTrigger.names.length} files)`,
          '',
          '',
        ],
        ['ratio', `${size.toFixed(2)}×`, '≤ 1.50×', size <= 1.5 ? 'ok' : 'OVER'],
      ],
    );
  } finally {
    rmSync(built.dir, { recursive: true, force: true });
  }
};
