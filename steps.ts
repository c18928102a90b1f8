import { creates } from './creates';
import type { Api } from './lib/partner-apis';
import { apiOf, type StepDefinition } from './lib/operation';
import { searches } from './searches';

/** An action or search as the places beside the app read it: what it is, said once in its own file. */
export interface Step {
  kind: 'create' | 'search';
  key: string;
  noun: string;
  api: Api;
}

const stepsOf = (kind: Step['kind'], defs: readonly StepDefinition[]): Step[] =>
  defs.map((def) => ({ kind, key: def.key, noun: def.noun, api: apiOf(def) }));

/**
 * Every action and search of the app (CONTRACT §3 and §4), from the lists index.ts registers (creates/index.ts,
 * searches/index.ts). The docs pages, the throttle test and the bench's call table read it, and
 * test/steps.test.ts fails while one of those places lacks a step.
 */
export const STEPS: readonly Step[] = [...stepsOf('create', creates), ...stepsOf('search', searches)];
