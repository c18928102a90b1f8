import type { ThrottleObject } from 'zapier-platform-core';
import { SETTINGS } from './config';
import type { Api } from './partner-apis';

/**
 * Zapier's throttle for an action or search, read from its perform (`performOn` in lib/operation.ts gives a perform
 * the interface it speaks to, so a step names it once). Every step on that interface declares the same one, so they
 * share one allowance a connection (`auth`, not `action`: Zapier keys a throttle by its key, window, limit and
 * scope, and only identical ones share). Steps beyond it wait and are retried by Zapier
 * instead of meeting 429s one by one. Zapier's servers enforce it; core does not.
 */
export const throttleOf = ({ api }: { readonly api: Api }): ThrottleObject => ({
  key: api,
  window: 60,
  limit: SETTINGS.stepsPerMinute,
  scope: ['auth'],
});
