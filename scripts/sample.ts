/**
 * `npm run sample -- <trigger key> [--input '{"consent_channel":"sms"}']`: what a trigger's sample looks like in the
 * Zap editor, against the embedded sandbox (its seed, on a free port): the items of the trigger's performList
 * (perform for a polling trigger), with the trigger's inputs as given, and every dehydrated field (the patient of
 * Appointment Starting Soon) resolved as Zapier resolves it before a Zap's next step reads it. An unknown or missing
 * key lists the trigger keys.
 */
import { parseArgs } from 'node:util';
import { createAppTester } from 'zapier-platform-core';
import App from '../index';
import { appConnection, startSandbox } from '../sandbox';

type Fn = (z: unknown, bundle: unknown) => unknown;
const triggers = App.triggers as unknown as Record<string, { operation: { performList?: Fn; perform: Fn } }>;
const hydrators = (App.hydrators ?? {}) as Record<string, Fn>;

const USAGE = `Usage: npm run sample -- <trigger key> [--input '<JSON object of the trigger's inputs>']`;

const HELP = `${USAGE}

Prints a trigger's items as the Zap editor shows them, from a fresh local sandbox (its seed, any free port),
with the patient of Appointment Starting Soon resolved as Zapier resolves it. For example:

  npm run sample -- appointment_starting_soon --input '{"minutes_before":"1440"}'
  npm run sample -- customer_created --input '{"consent_channel":"sms"}'

Each trigger's inputs and outputs: docs/clinic.md and docs/cashier.md.`;

/** A pointer z.dehydrate wrote: `hydrate|||{"method":"hydrators.<name>","bundle":{…}}|||hydrate`. */
const POINTER = /^hydrate\|\|\|(.*)\|\|\|hydrate$/s;

/** The item with each pointer replaced by what its hydrator answers, as Zapier does before the next step. */
const hydrated = async (
  value: unknown,
  hydrate: (name: string, inputData: unknown) => Promise<unknown>,
): Promise<unknown> => {
  if (typeof value === 'string') {
    const pointer = POINTER.exec(value);
    if (!pointer) return value;
    const { method, bundle } = JSON.parse(pointer[1]!) as { method: string; bundle: unknown };
    return hydrate(method.replace(/^hydrators\./, ''), bundle);
  }
  if (Array.isArray(value)) return Promise.all(value.map((v) => hydrated(v, hydrate)));
  if (value && typeof value === 'object') {
    const entries = await Promise.all(
      Object.entries(value).map(async ([k, v]) => [k, await hydrated(v, hydrate)] as const),
    );
    return Object.fromEntries(entries);
  }
  return value;
};

const inputOf = (text: string | undefined): Record<string, unknown> => {
  if (text === undefined) return {};
  let input: unknown;
  try {
    input = JSON.parse(text);
  } catch {
    throw new Error(`--input is not JSON: ${text}\n${USAGE}`);
  }
  if (!input || typeof input !== 'object' || Array.isArray(input)) {
    throw new Error(`--input must be a JSON object of the trigger's inputs\n${USAGE}`);
  }
  return input as Record<string, unknown>;
};

const argsOf = (args: string[]) => {
  try {
    return parseArgs({
      args,
      allowPositionals: true,
      options: { input: { type: 'string', short: 'i' }, help: { type: 'boolean', short: 'h' } },
    });
  } catch (e) {
    // node:util's own words ("Unknown option '--x'…"), then how to call it.
    throw new Error(`${e instanceof Error ? e.message : String(e)}\n${USAGE} (--help says more)`);
  }
};

const main = async () => {
  const { positionals, values } = argsOf(process.argv.slice(2));
  if (values.help) {
    console.log(`${HELP}\n\nTrigger keys:\n  ${Object.keys(triggers).join('\n  ')}`);
    return;
  }
  const key = positionals[0] ?? '';
  const trigger = triggers[key];
  if (!trigger) {
    console.error(
      `${key ? `No trigger "${key}".` : 'Which trigger?'} ${USAGE}\n` +
        `Trigger keys:\n  ${Object.keys(triggers).join('\n  ')}`,
    );
    process.exitCode = 1;
    return;
  }
  const inputData = inputOf(values.input);
  const sb = await startSandbox({ port: 0, quiet: true });
  try {
    const authData = appConnection(sb);
    const tester = createAppTester(App);
    const fn = trigger.operation.performList ?? trigger.operation.perform;
    const items = await tester(fn as never, { authData, inputData } as never);
    const hydrate = (name: string, data: unknown) => {
      const hydrator = hydrators[name];
      if (!hydrator) throw new Error(`The app has no hydrator "${name}"`);
      return tester(hydrator as never, { authData, inputData: data } as never);
    };
    console.log(JSON.stringify(await hydrated(items, hydrate), null, 2));
  } finally {
    await sb.close();
  }
};

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
