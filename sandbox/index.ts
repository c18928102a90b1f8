/** The sandbox package's one entry, for the end-to-end suites, the bench and the scripts. */
import type { Sandbox } from './server';

export { startSandbox, sandboxPort, seedRefs } from './server';
export type { Sandbox, SandboxOptions } from './server';
export type { FaultSpec, FaultWhen } from './world';
export type { TokenName } from './store';
export { abilitiesOf } from './auth';

/** A connection of the app to this sandbox, as a Zap holds it: the owner tokens and both base addresses. */
export const appConnection = (sb: Sandbox, language = 'en') => ({
  clinic_api_token: sb.tokens.clinicOwner,
  cashier_api_token: sb.tokens.cashierOwner,
  clinic_base_url: sb.clinicBaseUrl,
  cashier_base_url: sb.cashierBaseUrl,
  language,
});
