import { readFileSync } from 'node:fs';
import path from 'node:path';
import { STEP_CALLS } from '../bench/step-calls';
import { CREATE, SEARCH } from '../lib/keys';
import { STEPS } from '../steps';

/*
 * Adding an action or a search touches the places docs/maintaining.md names, and no others: the places that are
 * not read from the step itself are held to the registry (steps.ts) here. The docs pages and the README's table
 * are held to the app by test/docs.test.ts, the throttle by test/throttle.test.ts.
 */

const maintaining = readFileSync(path.resolve(__dirname, '..', 'docs', 'maintaining.md'), 'utf8');

describe('the registry of actions and searches (steps.ts)', () => {
  it.each(STEPS.map((step) => [step.key, step]))('%s has its permanent key in lib/keys.ts', (key, step) => {
    expect(Object.values(step.kind === 'create' ? CREATE : SEARCH)).toContain(key);
  });

  it.each(STEPS.map((step) => [step.key]))('%s has its calls measured in bench/step-calls.ts', (key) => {
    expect(STEP_CALLS[key]?.length).toBeGreaterThan(0);
  });

  it('bench/step-calls.ts measures no step the app lacks', () => {
    expect(Object.keys(STEP_CALLS).sort()).toEqual(STEPS.map((step) => step.key).sort());
  });

  it('docs/maintaining.md names every place an action touches', () => {
    const steps = maintaining.slice(maintaining.indexOf('## Adding an action or a search'));
    for (const place of [
      'creates/index.ts',
      'searches/index.ts',
      'lib/keys.ts',
      'bench/step-calls.ts',
      'README.md',
    ])
      expect(steps).toContain(`\`${place}\``);
  });
});
