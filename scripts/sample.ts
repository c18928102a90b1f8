/**
 * `npm run sample -- <trigger key>`: what a trigger's sample looks like in the Zap editor, against the embedded
 * sandbox (its seed, on a free port): the items of the trigger's performList (perform for a polling trigger).
 * An unknown or missing key lists the trigger keys.
 */
import { createAppTester } from 'zapier-platform-core';
import App from '../index';
import { appConnection, startSandbox } from '../sandbox';

type Fn = (z: unknown, bundle: unknown) => unknown;
const triggers = App.triggers as unknown as Record<string, { operation: { performList?: Fn; perform: Fn } }>;

const main = async () => {
  const key = process.argv[2] ?? '';
  const trigger = triggers[key];
  if (!trigger) {
    console.error(
      `${key ? `No trigger "${key}".` : 'Which trigger?'} Usage: npm run sample -- <trigger key>\n` +
        `Trigger keys:\n  ${Object.keys(triggers).join('\n  ')}`,
    );
    process.exitCode = 1;
    return;
  }
  const sb = await startSandbox({ port: 0, quiet: true });
  try {
    const fn = trigger.operation.performList ?? trigger.operation.perform;
    const items = await createAppTester(App)(
      fn as never,
      { authData: appConnection(sb), inputData: {} } as never,
    );
    console.log(JSON.stringify(items, null, 2));
  } finally {
    await sb.close();
  }
};

main().catch((e: unknown) => {
  console.error(e instanceof Error ? e.message : e);
  process.exitCode = 1;
});
