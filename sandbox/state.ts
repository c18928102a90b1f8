/**
 * The sandbox's state and settings without the webhook engine, which runs over them (sandbox/webhooks.ts reads them
 * from here; sandbox/world.ts adds the engine).
 */
import type { SandboxClock } from './clock';
import type { Random } from './ids';
import type { Store } from './store';

/** The settings at start unless options say otherwise: the specs' own figures where they give one. */
export const CONFIG_DEFAULTS = {
  rateLimitPerMinute: 120,
  /** Per address, for requests whose token matches no active client (clinic spec: 30). */
  anonymousRateLimitPerMinute: 30,
  holdBackMs: 2000,
  webhookLimit: 20,
  allowLoopbackReceivers: true,
  /** Real milliseconds a receiver has to answer (spec: 10 s). */
  deliveryTimeoutMs: 10_000,
};

/** What a caller may change while the sandbox runs; `planned` holds "METHOD /path" of clinic endpoints answering 501. */
export type SandboxConfig = typeof CONFIG_DEFAULTS & { planned: Set<string> };
export type Setting = keyof typeof CONFIG_DEFAULTS;

/** A setting's name in the sandbox-only endpoints (rateLimitPerMinute: rate_limit_per_minute). */
export const settingKey = (name: string) => name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);

/** What an injected fault does to the answer (sandbox/README.md, "Faults"). */
export const FAULT_KINDS = [
  'status',
  'slow',
  'reset',
  'malformed_json',
  'html',
  'empty',
  'truncated',
] as const;
export type FaultKind = (typeof FAULT_KINDS)[number];

/** `before` replaces the answer and the request is not processed; `after` processes it, then spoils the answer. */
export type FaultWhen = 'before' | 'after';

/** A fault as a caller asks for it; everything but the path prefix is optional (README, "Faults"). */
export interface FaultSpec {
  pathPrefix: string;
  kind?: FaultKind;
  when?: FaultWhen;
  status?: number;
  error?: string;
  method?: string;
  /** A token, or the name of a seeded or created client (e.g. clinicOwner). */
  token?: string;
  times?: number;
  delayMs?: number;
  body?: string;
}

type Stored<K extends keyof FaultSpec> = { [P in K]: Exclude<FaultSpec[P], undefined> | null };

/** A fault injected into the partner interfaces: what was asked, with its id and defaults (null: any, or none). */
export type Fault = { id: number } & Required<Omit<FaultSpec, 'method' | 'token' | 'status' | 'body'>> &
  Stored<'method' | 'token' | 'status' | 'body'>;

export interface RequestRecord {
  at: number;
  method: string;
  path: string;
  api: 'clinic' | 'cashier' | 'sandbox' | 'other';
  token: string | null;
  /** The seeded name of the token's client (e.g. clinicOwner), when the token is known. */
  tokenName: string | null;
  status: number | null;
}

/** Everything but the webhook engine, which runs over it. */
export interface WorldState {
  /** The origin the sandbox listens on, e.g. http://127.0.0.1:4010. */
  baseUrl: string;
  clock: SandboxClock;
  random: Random;
  config: SandboxConfig;
  store: Store;
  faults: Fault[];
  /** Waits of injected faults still running, cleared on close. */
  faultTimers: Set<ReturnType<typeof setTimeout>>;
  requests: RequestRecord[];
  log: (line: string) => void;
}
