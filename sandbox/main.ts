/**
 * `npm run sandbox [-- --port 4010 --time-scale 1 --hold-back-ms 2000 --rate-limit 120 --webhook-limit 20
 * --planned "GET /patients" --start-time 2026-11-21T09:00:00+03:00 --no-seed --history --quiet]`
 * The port also comes from SANDBOX_PORT. Listens on 127.0.0.1 only.
 */
import { parseArgs } from 'node:util';
import { sandboxPort, startSandbox, type SandboxOptions } from './server';

/** The options: name, what it takes (none: a flag) and what it does, for parseArgs and the usage text at once. */
const OPTIONS: Array<[string, string, string]> = [
  ['port', 'N', 'port on 127.0.0.1 (default: SANDBOX_PORT or 4010; 0 picks a free one)'],
  ['time-scale', 'X', 'sandbox ms per real ms (default 1; 0 stands still)'],
  ['start-time', 'ISO', 'sandbox time at start (default: now)'],
  ['hold-back-ms', 'N', 'receipts hold-back (default 2000)'],
  ['rate-limit', 'N', 'requests per minute per API client (default 120)'],
  ['webhook-limit', 'N', 'subscriptions per account and interface (default 20)'],
  ['planned', '"GET /path"', 'mark a clinic endpoint planned (501); repeatable'],
  ['no-seed', '', 'tokens and reference data only'],
  ['history', '', 'months of past receipts, invoices, appointments and customers (for Zapier Transfer)'],
  ['quiet', '', 'no log lines'],
];

const USAGE = ['Usage: npm run sandbox -- [options]']
  .concat(OPTIONS.map(([name, arg, text]) => `  ${`--${name} ${arg}`.padEnd(23)}${text}`))
  .join('\n');

const options = (argv: string[]): SandboxOptions => {
  let values: Record<string, string | string[] | boolean | undefined>;
  try {
    ({ values } = parseArgs({
      args: argv,
      options: {
        ...Object.fromEntries(
          OPTIONS.map(([name, arg]) => [
            name,
            { type: arg ? 'string' : 'boolean', multiple: name === 'planned' },
          ]),
        ),
        help: { type: 'boolean', short: 'h' },
      },
    }));
  } catch (err) {
    throw new Error(`${(err as Error).message}\n${USAGE}`);
  }
  if (values.help) {
    console.log(USAGE);
    process.exit(0);
  }
  const num = (name: string): number | undefined => {
    const value = values[name] as string | undefined;
    const n = Number(value);
    if (value !== undefined && (value === '' || Number.isNaN(n))) throw new Error(`--${name} needs a number`);
    return value === undefined ? undefined : n;
  };
  return {
    port: num('port') ?? sandboxPort(),
    timeScale: num('time-scale'),
    startTime: values['start-time'] as string | undefined,
    holdBackMs: num('hold-back-ms'),
    rateLimitPerMinute: num('rate-limit'),
    webhookLimit: num('webhook-limit'),
    planned: values.planned as string[] | undefined,
    seed: values['no-seed'] ? false : undefined,
    history: values.history as boolean | undefined,
    quiet: values.quiet as boolean | undefined,
  };
};

const main = async () => {
  const sandbox = await startSandbox(options(process.argv.slice(2)));
  const res = await fetch(`${sandbox.controlUrl}/tokens`);
  const { data } = (await res.json()) as {
    data: Array<{
      name: string;
      interface: string;
      token: string;
      abilities: string[];
      owner: boolean;
      note: string;
    }>;
  };
  const lines = [
    `Partner interfaces sandbox on ${sandbox.url}`,
    `  clinic   ${sandbox.clinicBaseUrl}`,
    `  cashier  ${sandbox.cashierBaseUrl}`,
    `  control  ${sandbox.controlUrl}   (sandbox-only endpoints; see sandbox/README.md)`,
    '',
    'Tokens (Authorization: Bearer <token>):',
    ...data.map(
      (c) => `  ${c.name.padEnd(22)} ${c.token.padEnd(30)} ${c.abilities.join(' ') || '-'}  — ${c.note}`,
    ),
    '',
    `For the app: CLINIC_BASE_URL=${sandbox.clinicBaseUrl} CASHIER_BASE_URL=${sandbox.cashierBaseUrl}`,
  ];
  console.log(lines.join('\n'));
  const stop = () => {
    void sandbox.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
};

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
