import { prepareApp } from './compile-once';
import { App, appTester } from '../helpers';

/*
 * The suites call the app through core's tester with each definition compiled once per file
 * (test/support/compile-once.ts). These show that what a call runs is what core's own compile makes, and that the
 * definition cannot change under the shared compile.
 */
// eslint-disable-next-line @typescript-eslint/no-require-imports
const schema = require('zapier-platform-core/src/tools/schema') as { prepareApp: (app: object) => object };

describe('the app as the suites call it', () => {
  it('is compiled as core compiles it', async () => {
    // A call through the tester compiles the definition, as on Zapier.
    await appTester(async () => 'ran', {});
    expect(schema.prepareApp(App)).toEqual(prepareApp(App));
    expect(Object.isFrozen(schema.prepareApp(App))).toBe(true);
  });

  it("runs a test's ad-hoc function, which core adds to the definition for that call", async () => {
    await expect(
      appTester(async (_z, bundle) => Number(bundle.inputData.n) * 2, {
        inputData: { n: 21 },
      }),
    ).resolves.toBe(42);
    expect(Object.keys(App)).not.toContain('_testRequest');
  });

  it('refuses a write into the definition once compiled', async () => {
    await appTester(async () => 'ran', {});
    const trigger = (App.triggers as Record<string, { operation: { sample: object } }>).invoice_issued!;
    expect(() => {
      trigger.operation.sample = {};
    }).toThrow(TypeError);
  });
});
