import { validateAppDefinition } from 'zapier-platform-schema';
import { SETTINGS } from '../lib/config';
import { cloneDefinition, loadDefinition, type AppDefinition } from '../scripts/checks/definition';
import { App } from './helpers';
import { STEPS } from '../steps';

/*
 * Zapier's servers enforce `throttle`, not zapier-platform-core, so what a test can hold is the declaration: every
 * action and search shares its interface's allowance on the connection, and Zapier's schema accepts it. That the
 * app alone completes every write once under 429s is the burst benchmark's (`npm run bench`).
 */

const definition = loadDefinition(App);

type Operation = { operation: { throttle?: Record<string, unknown> } };
const steps = (d: AppDefinition) => ({ ...d.creates, ...d.searches }) as unknown as Record<string, Operation>;

describe('throttle: steps wait for the interface instead of meeting its 429s', () => {
  it('every action and search of the app is a step of the registry (steps.ts)', () => {
    expect(Object.keys(steps(definition)).sort()).toEqual(STEPS.map((step) => step.key).sort());
  });

  it.each(STEPS.map((step) => [step.key, step.api]))(
    "%s shares the %s interface's allowance on the connection",
    (key, api) => {
      expect(steps(definition)[key]!.operation.throttle).toEqual({
        key: api,
        window: 60,
        limit: SETTINGS.stepsPerMinute,
        scope: ['auth'],
      });
    },
  );

  it('stays under the interfaces’ 120 requests a minute, with room for a step of two requests', () => {
    expect(SETTINGS.stepsPerMinute * 2).toBeLessThanOrEqual(120);
  });

  it('triggers declare none (Zapier runs them; a polling trigger must not set retry)', () => {
    for (const trigger of Object.values(definition.triggers) as unknown as Operation[]) {
      expect(trigger.operation.throttle).toBeUndefined();
    }
  });

  it('Zapier’s schema accepts the declarations and refuses a broken one', () => {
    expect(validateAppDefinition(definition).errors).toEqual([]);
    const broken = cloneDefinition(definition);
    steps(broken).create_order!.operation.throttle!.scope = ['app'];
    expect(validateAppDefinition(broken).errors).not.toEqual([]);
  });
});
