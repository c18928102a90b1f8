/**
 * `npm start`: the app's main job on its embedded default, the local sandbox. Starts the sandbox with its seed,
 * connects, subscribes to New Appointment through a stand-in of Zapier's hook intake, books an appointment through
 * the Book Appointment action, receives and verifies the signed delivery, prints the trigger's item, writes a
 * ready `.env` for `zapier-platform invoke`, and keeps the sandbox up until Ctrl-C or SIGTERM (either stops it,
 * also in the middle of the story).
 * (package.json runs it with NODE_ENV=test only to quiet core's per-run memory log lines.)
 */
import { existsSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { createAppTester } from 'zapier-platform-core';
import App from '../index';
import { appConnection, sandboxPort, startSandbox, type Sandbox } from '../sandbox';
import { startIntake, type Intake } from '../harness/intake';
import { saudiTime } from '../lib/time';

const root = join(__dirname, '..');
const ENV_MARK = '# written by npm start (local sandbox)';

const HELP = `npm start: the local sandbox of both interfaces, and a short story through the real app on it.

Connects, subscribes New Appointment, books with Book Appointment, receives and verifies the signed delivery and
prints the trigger's item; then prints the sandbox's tokens, writes a ready .env for zapier-platform invoke and keeps
the sandbox up until Ctrl-C.

  SANDBOX_PORT=4010   the sandbox's port (the default; 0 takes any free port)

The sandbox alone, with its options: npm run sandbox -- --help. A trigger's items: npm run sample -- --help.`;

const args = process.argv.slice(2);
if (args.includes('--help') || args.includes('-h')) {
  console.log(HELP);
  process.exit(0);
}
if (args.length) {
  console.error(`npm start takes no arguments (${args.join(' ')}).\n\n${HELP}`);
  process.exit(2);
}

const step = (n: number, text: string) => console.log(`\n${n}. ${text}`);

let sb: Sandbox | undefined;
let intake: Intake | undefined;
const stop = async (code: number) => {
  await intake?.close();
  await sb?.close();
  process.exit(code);
};
// Set before anything listens, so a signal in the middle of the story stops the servers as well.
process.once('SIGINT', () => void stop(0));
process.once('SIGTERM', () => void stop(0));

const main = async () => {
  sb = await startSandbox({ port: sandboxPort(), quiet: true });
  const authData = appConnection(sb);
  const tester = createAppTester(App);
  type Fn = (z: unknown, bundle: unknown) => unknown;
  const run = <T>(fn: unknown, bundle: object) => tester(fn as never, bundle as never) as Promise<T>;
  console.log(`Sandbox on ${sb.url}\n  clinic  ${sb.clinicBaseUrl}\n  cashier ${sb.cashierBaseUrl}`);

  step(1, 'Connect (the connection test pings both interfaces)');
  const auth = App.authentication!;
  const found = await run<Record<string, unknown>>(auth.test, { authData, inputData: {} });
  const label = await run<string>(auth.connectionLabel as Fn, { authData, inputData: found });
  console.log(`   connected as: ${label}`);

  step(2, 'Turn on a Zap with the New Appointment trigger (REST-hook subscribe)');
  intake = await startIntake({ app: App, authData });
  const hook = await intake.subscribe('appointment_created');
  console.log(`   subscribed: webhook ${String(intake.subscribeData(hook)?.id)} → ${intake.url}/hooks/…`);

  step(3, 'Book an appointment through the Book Appointment action');
  const refs = sb.refs.clinic;
  const book = (App.creates as Record<string, { operation: { perform: unknown } }>).book_appointment!
    .operation.perform;
  const start = new Date(Date.now() + 14 * 24 * 3600 * 1000);
  start.setUTCHours(10, 15, 0, 0);
  let booked: Record<string, unknown> | undefined;
  for (let attempt = 0; !booked && attempt < 8; attempt += 1) {
    const startsAt = saudiTime(new Date(start.getTime() + attempt * 30 * 60 * 1000));
    booked = await run<Record<string, unknown>>(book, {
      authData,
      inputData: {
        patient_phone: '0551234987',
        patient_name: 'ريم الحربي',
        branch_id: String(refs.branchRiyadh),
        appointment_type_id: String(refs.appointmentType),
        practitioner_id: refs.practitioner,
        starts_at: startsAt,
        note: 'Booked by npm start',
      },
      meta: { zap: { id: 'npm-start' } },
    }).catch((e: Error) => {
      if (/already taken/i.test(e.message)) return undefined; // that slot is taken: try the next one
      throw e;
    });
  }
  if (!booked) throw new Error('No free slot found in eight tries');
  console.log(
    `   booked ${String(booked.id)} at ${String(booked.starts_at)} (duplicate: ${String(booked.duplicate)})`,
  );

  step(4, 'Receive the signed delivery and run the trigger (signature, timestamp and event id checked)');
  const [runResult] = await intake.waitForRuns(hook, 1, 15_000);
  if (runResult?.error) throw new Error(`The trigger refused the delivery: ${runResult.error.message}`);
  console.log('   the trigger produced this item for the Zap:\n');
  console.log(JSON.stringify(runResult?.items[0], null, 2));

  const envPath = join(root, '.env');
  const env = [
    ENV_MARK,
    `CLINIC_BASE_URL=${sb.clinicBaseUrl}`,
    `CASHIER_BASE_URL=${sb.cashierBaseUrl}`,
    `authData_clinic_api_token=${sb.tokens.clinicOwner}`,
    `authData_cashier_api_token=${sb.tokens.cashierOwner}`,
    'authData_language=en',
    '',
  ].join('\n');
  const mine = !existsSync(envPath) || readFileSync(envPath, 'utf8').startsWith(ENV_MARK);
  writeFileSync(mine ? envPath : join(root, '.env.sandbox'), env);
  // The sandbox's tokens are local test tokens, so their values are printed: they are what a connection takes.
  const width = Math.max(...Object.keys(sb.tokens).map((name) => name.length));
  const tokens = Object.entries(sb.tokens).map(([name, token]) => `  ${name.padEnd(width)}  ${token}`);
  console.log(`
The sandbox keeps running on ${sb.url} (Ctrl-C stops it). Its tokens (local test tokens):
${tokens.join('\n')}

${mine ? 'A ready .env is written' : 'Your own .env is kept; the sandbox settings are in .env.sandbox (copy them to .env)'}. Next, in another terminal:

  npm run sample -- appointment_starting_soon --input '{"minutes_before":"1440"}'   # as the Zap editor shows it
  npm run sample -- customer_created --input '{"consent_channel":"sms"}'
  npm run build
  npx zapier-platform invoke auth test
  npx zapier-platform invoke search find_patient --non-interactive -i '{"phone":"0551234987"}'
  npx zapier-platform invoke trigger branch_list --isFillingDynamicDropdown

(zapier-platform invoke runs Appointment Starting Soon too, but leaves its patient a hydrate|||… pointer, which
Zapier resolves and invoke does not: npm run sample shows the patient.)

Zaps to build from these triggers and actions: docs/recipes.md.
`);
};

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  void stop(1);
});
