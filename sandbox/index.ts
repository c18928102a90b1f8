/** The sandbox's programmatic entry, for end-to-end tests and scripts. */
export { startSandbox } from './server';
export type { DeliveryRecord, RequestFilter, Sandbox, SandboxClockApi, SandboxOptions } from './server';
export type { Fault, FaultKind, FaultWhen, SandboxConfig, RequestRecord } from './world';
export type { FaultSpec } from './faults';
export { FAULT_KINDS } from './world';
export type { SeedRefs, TokenName } from './store';
export { TOKEN_NAMES } from './store';
export { plannableEndpoints } from './clinic';
