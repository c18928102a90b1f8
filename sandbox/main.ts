/** `npm run sandbox -- [options]`: the sandbox on 127.0.0.1 until Ctrl-C. */
import { parseArgs } from 'node:util';
import { sandboxPort, startSandbox } from './server';

const USAGE = `Usage: npm run sandbox -- [options]
  --port N           port on 127.0.0.1 (default: SANDBOX_PORT or 4010; 0 picks a free one)
  --time-scale X     sandbox ms per real ms (default 1; 0 stands still)
  --start-time ISO   sandbox time at start (default: now)
  --history          months of past receipts, invoices, appointments and customers (for Zapier Transfer)
  --quiet            no log lines`;

const main = async () => {
  const { values } = parseArgs({
    options: {
      port: { type: 'string' },
      'time-scale': { type: 'string' },
      'start-time': { type: 'string' },
      history: { type: 'boolean' },
      quiet: { type: 'boolean' },
      help: { type: 'boolean', short: 'h' },
    },
  });
  if (values.help) return console.log(USAGE);
  const num = (name: 'port' | 'time-scale') => {
    const value = values[name];
    if (value !== undefined && (value === '' || Number.isNaN(Number(value))))
      throw new Error(`--${name} needs a number\n${USAGE}`);
    return value === undefined ? undefined : Number(value);
  };
  const { history, quiet } = values;
  const options = { timeScale: num('time-scale'), startTime: values['start-time'], history, quiet };
  const sandbox = await startSandbox({ port: num('port') ?? sandboxPort(), ...options });
  console.log(
    [
      `Partner interfaces sandbox on ${sandbox.url}`,
      `  clinic   ${sandbox.clinicBaseUrl}`,
      `  cashier  ${sandbox.cashierBaseUrl}`,
      `  control  ${sandbox.controlUrl}   (sandbox-only endpoints; see sandbox/README.md)`,
      '',
      'Tokens (Authorization: Bearer <token>; sandbox/README.md says what each is for):',
      ...Object.entries(sandbox.tokens).map(([name, token]) => `  ${name.padEnd(22)} ${token}`),
      '',
      `For the app: CLINIC_BASE_URL=${sandbox.clinicBaseUrl} CASHIER_BASE_URL=${sandbox.cashierBaseUrl}`,
    ].join('\n'),
  );
  const stop = () => void sandbox.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
};

main().catch((err: unknown) => {
  console.error(err instanceof Error ? err.message : err);
  process.exit(1);
});
