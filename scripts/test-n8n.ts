/**
 * `npm run test:n8n`: the n8n nodes in a real n8n (2.41.1 on Node 24, scripts/n8n-lane/install.ts) against the
 * local sandbox, driven through n8n's own REST interface as a user's clicks would, in both of n8n's modes:
 *
 * - regular mode (scripts/n8n-lane/regular.ts, polling.ts, load.ts): one `n8n start` on SQLite;
 * - queue mode (scripts/n8n-lane/queue.ts, queue-writes.ts): PostgreSQL and Redis (stores.ts), a main process, a
 *   webhook processor and two workers.
 *
 * `-- --regular` or `-- --queue` runs one mode; `-- --bench` runs the cost bench instead (scripts/n8n-lane/bench.ts).
 * Everything started is stopped on every exit (report.ts). One line per check, a line per stage with its time,
 * then `N passed, N failed`; the exit code is 1 on any failure.
 */
import { mkdirSync, rmSync } from 'node:fs';
import { basename, join } from 'node:path';
import { ensureInstalled, LANE, N8N_VERSION } from './n8n-lane/install';
import { planBench, runBench } from './n8n-lane/bench';
import { planQueue, runQueue } from './n8n-lane/queue';
import { planRegular, runRegular } from './n8n-lane/regular';
import { check, plan, runLane, section, stage } from './n8n-lane/report';
import { installNodes } from './n8n-lane/setup';

// A folder per checkout: worktrees of one machine share the install (.n8n-lane may be a link), never a run.
const RUN_DIR = join(LANE, 'runs', basename(join(__dirname, '..')));
const NODES_FOLDER = join(RUN_DIR, 'nodes');

const LANE_CHECKS = plan({
  install: 'install: n8n 2.41.1 on Node 24',
  build: 'build: the nodes packed and installed offline into n8n’s nodes folder',
});

const args = new Set(process.argv.slice(2));
const bench = args.has('--bench');
const only = args.has('--regular') ? 'regular' : args.has('--queue') ? 'queue' : undefined;
if (bench) planBench(only);
else {
  if (only !== 'queue') planRegular();
  if (only !== 'regular') planQueue();
}

const main = async () => {
  await stage('install', () =>
    check(LANE_CHECKS.install, async () => {
      const t = Date.now();
      const did = ensureInstalled((line) => console.log(`  ${line}`));
      console.log(
        `  install: ${did ? `done in ${((Date.now() - t) / 1000).toFixed(0)} s` : 'already there'}`,
      );
    }),
  );
  rmSync(RUN_DIR, { recursive: true, force: true });
  mkdirSync(RUN_DIR, { recursive: true });
  await stage('build', () => check(LANE_CHECKS.build, async () => installNodes(RUN_DIR, NODES_FOLDER)));
  if (bench) {
    await section('bench', () => runBench(RUN_DIR, NODES_FOLDER, only));
    return;
  }
  if (only !== 'queue') await section('regular mode', () => runRegular(RUN_DIR, NODES_FOLDER));
  if (only !== 'regular') await section('queue mode', () => runQueue(RUN_DIR, NODES_FOLDER));
};

console.log(`n8n lane: n8n ${N8N_VERSION}, logs in ${RUN_DIR}`);
runLane(main);
