/**
 * `npm run sandbox [-- --port 4010 --time-scale 1 --hold-back-ms 2000 --rate-limit 120 --webhook-limit 20
 * --planned "GET /patients" --start-time 2026-11-21T09:00:00+03:00 --no-seed --history --quiet]`
 * The port also comes from SANDBOX_PORT. Listens on 127.0.0.1 only.
 */
import { sandboxPort, startSandbox, type SandboxOptions } from './server';

const USAGE = `Usage: npm run sandbox -- [options]
  --port N               port on 127.0.0.1 (default: SANDBOX_PORT or 4010; 0 picks a free one)
  --time-scale X         sandbox ms per real ms (default 1; 0 stands still)
  --start-time ISO       sandbox time at start (default: now)
  --hold-back-ms N       receipts hold-back (default 2000)
  --rate-limit N         requests per minute per API client (default 120)
  --webhook-limit N      subscriptions per account and interface (default 20)
  --planned "GET /path"  mark a clinic endpoint planned (501); repeatable
  --no-seed              tokens and reference data only
  --history              months of past receipts, invoices, appointments and customers (for Zapier Transfer)
  --quiet                no log lines`;

const parseArgs = (argv: string[]): SandboxOptions => {
  const options: SandboxOptions = { port: sandboxPort() };
  const planned: string[] = [];
  const num = (flag: string, value: string | undefined): number => {
    const n = Number(value);
    if (value === undefined || Number.isNaN(n)) throw new Error(`${flag} needs a number`);
    return n;
  };
  for (let i = 0; i < argv.length; i += 1) {
    const arg = argv[i] ?? '';
    const [flag, inline] = arg.includes('=')
      ? [arg.slice(0, arg.indexOf('=')), arg.slice(arg.indexOf('=') + 1)]
      : [arg, undefined];
    const value = () => inline ?? argv[++i];
    switch (flag) {
      case '--port':
        options.port = num(flag, value());
        break;
      case '--time-scale':
        options.timeScale = num(flag, value());
        break;
      case '--start-time':
        options.startTime = value();
        break;
      case '--hold-back-ms':
        options.holdBackMs = num(flag, value());
        break;
      case '--rate-limit':
        options.rateLimitPerMinute = num(flag, value());
        break;
      case '--webhook-limit':
        options.webhookLimit = num(flag, value());
        break;
      case '--planned':
        planned.push(value() ?? '');
        break;
      case '--no-seed':
        options.seed = false;
        break;
      case '--history':
        options.history = true;
        break;
      case '--quiet':
        options.quiet = true;
        break;
      case '--help':
      case '-h':
        console.log(USAGE);
        process.exit(0);
        break;
      default:
        throw new Error(`unknown option ${arg}\n${USAGE}`);
    }
  }
  if (planned.length) options.planned = planned;
  return options;
};

const main = async () => {
  const sandbox = await startSandbox(parseArgs(process.argv.slice(2)));
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
