/**
 * `npm run bench`: the app's figures, measured on this machine in one run, printed as tables. The sections, each in a
 * file of its own:
 *   cold      cold start and size of the production build.zip against a one-trigger app's (bench/cold-start.ts);
 *   calls     calls per operation, counted at the sandbox, and Appointment Starting Soon polled ten times as Zapier
 *             polls (bench/calls.ts, bench/starting-soon.ts);
 *   floor     hook perform against its physical floor, in a fresh process of its own (bench/floor.ts);
 *   burst     300 actions against the 120-a-minute limit, every one done once by honouring Retry-After (bench/burst.ts);
 *   deliveries 300 New Appointment deliveries with their patients against the same limit: every one fires, the patient
 *             read within the step or `unavailable` (bench/deliveries.ts);
 *   transfer  Zapier Transfer of 1,000 receipts and of invoices with and without their patients (bench/transfer.ts).
 * `BENCH_ONLY=floor,cold npm run bench` runs some of them; all by default. Run after `npm run build` (the npm script
 * does it). Nothing here is a test: it prints what it measured.
 */
import { spawnSync } from 'node:child_process';
import { cpus } from 'node:os';
import { join } from 'node:path';
import { startSandbox } from '../sandbox';
import { helpIfAsked } from '../scripts/help';
import { burst } from './burst';
import { callsPerOperation } from './calls';
import { coldStart } from './cold-start';
import { deliveryBurst } from './deliveries';
import { nodeBin } from './shared';
import { transfer } from './transfer';

helpIfAsked(`npm run bench: builds, then measures the app on this machine and prints tables (cold start and size,
calls per operation, hook perform against its floor, bursts against the rate limit, Transfer).
BENCH_ONLY=cold,calls,floor,burst,deliveries,transfer runs some sections. docs/performance.md reads the figures.`);

const SECTIONS = ['cold', 'calls', 'floor', 'burst', 'deliveries', 'transfer'];

/** The floor section as a child (bench/floor.ts run directly, with the loader this process runs under). */
const floorInOwnProcess = () => {
  const child = spawnSync(nodeBin, [...process.execArgv, join(__dirname, 'floor.ts')], { stdio: 'inherit' });
  if (child.status !== 0) throw new Error(`the floor section failed (exit ${child.status ?? child.signal})`);
};

const main = async () => {
  const only = process.env.BENCH_ONLY?.split(',');
  const unknown = only?.filter((s) => !SECTIONS.includes(s)) ?? [];
  if (unknown.length)
    throw new Error(`BENCH_ONLY: no section ${unknown.join(', ')} (${SECTIONS.join(', ')})`);
  const runs = (section: string) => !only || only.includes(section);
  console.log(
    `# Benchmarks (${new Date().toISOString()}, Node ${process.versions.node}, ${cpus().length} cores)`,
  );
  if (runs('cold')) coldStart();
  let over = 0;
  if (runs('calls')) {
    const sb = await startSandbox({ port: 0, quiet: true, holdBackMs: 0 });
    try {
      over = await callsPerOperation(sb);
    } finally {
      await sb.close();
    }
  }
  if (runs('floor')) floorInOwnProcess();
  if (runs('burst')) await burst();
  if (runs('deliveries')) await deliveryBurst();
  if (runs('transfer')) await transfer();
  if (over) console.log(`\n${over} operation(s) over their calls goal.`);
};

main().catch((e: unknown) => {
  console.error(e);
  process.exit(1);
});
