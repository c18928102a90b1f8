import type { LockObject } from 'zapier-platform-core';
import { SETTINGS } from './config';

/**
 * Zapier's lock for an item write: runs of the action with the same value of `input` on the same connection run
 * one at a time. Zapier's servers enforce it (core does not), and without a scope a lock is app-wide, holding up
 * every account's runs that share the value; `auth` keeps it to the connection. `input` must be a required input:
 * an optional one can reach the key blank and lock unrelated runs together.
 */
export const writeLock = (action: string, input: string): LockObject => ({
  key: `${action}:{{bundle.inputData.${input}}}`,
  scope: ['auth'],
  timeout: SETTINGS.writeLockSeconds,
});
