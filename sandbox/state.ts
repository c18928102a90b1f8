import type { SandboxClock } from './clock';
import type { Random } from './ids';
import type { Store } from './store';

/** The config's settings at start unless options say otherwise (the specs' own figures where they give one). */
export const CONFIG_DEFAULTS = {
  /** Requests per minute per active API client (spec: 120). */
  rateLimitPerMinute: 120,
  /** Requests per minute, per address, whose token matches no active client (clinic spec: 30). */
  anonymousRateLimitPerMinute: 30,
  /** Receipts that arrived less than this long ago are held back from GET /receipts. */
  holdBackMs: 2000,
  /** Subscriptions per account (per interface) before POST /webhooks answers webhook_limit. */
  webhookLimit: 20,
  /** Accept http:// and https:// receivers on loopback addresses (127.0.0.0/8, ::1, localhost). */
  allowLoopbackReceivers: true,
  /** How long a receiver has to answer a delivery, in real milliseconds (spec: 10 s). */
  deliveryTimeoutMs: 10_000,
};

/**
 * What the sandbox lets a caller change while it runs (options at start, PATCH /sandbox/config later): the
 * settings above, and the clinic endpoints that answer 501 not_implemented, as "METHOD /path" (e.g. "GET /patients/{id}").
 */
export type SandboxConfig = typeof CONFIG_DEFAULTS & { planned: Set<string> };
export type Setting = keyof typeof CONFIG_DEFAULTS;

/** A setting's name in the sandbox-only endpoints (rateLimitPerMinute: rate_limit_per_minute). */
export const settingKey = (name: string) => name.replace(/[A-Z]/g, (ch) => `_${ch.toLowerCase()}`);

/**
 * What an injected fault does to the answer (sandbox/README.md, "Faults"):
 * - `status`: an error status with the error envelope;
 * - `slow`: the answer comes `delayMs` late (before: a 504 after the wait; after: the real answer after the wait);
 * - `reset`: the socket is destroyed without an answer;
 * - `malformed_json`: a JSON content type with a body that is not JSON (`{"data": [`);
 * - `html`: an HTML error page (a proxy's 502);
 * - `empty`: a status with an empty body;
 * - `truncated`: a JSON answer whose Content-Length promises more than is sent, then the socket closes.
 */
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

/**
 * When the fault strikes: `before` replaces the answer and the request is not processed; `after` processes the
 * request (an object is created, an order cancelled…) and then loses or garbles its answer.
 */
export type FaultWhen = 'before' | 'after';

/** A fault as a caller asks for it (injectFault, POST /sandbox/faults); everything but the path prefix is optional. */
export interface FaultSpec {
  /** Matches when the request path (without query) starts with it, e.g. /partner/v1/patients. */
  pathPrefix: string;
  /** Default `status`. */
  kind?: FaultKind;
  /** Default `before`. */
  when?: FaultWhen;
  /**
   * The answer's status. By default the kind's own (status 500, slow 504, html 502, empty, malformed_json and
   * truncated 200), except that an `after` fault of kind slow, empty, malformed_json or truncated keeps the real
   * answer's status.
   */
  status?: number;
  error?: string;
  method?: string;
  /** A token, or the name of a seeded or created client (e.g. clinicOwner): only its requests match. */
  token?: string;
  times?: number;
  /** Real ms to wait before the fault's answer (any kind). */
  delayMs?: number;
  /** The body of a malformed_json or html answer instead of the default one. */
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

/** The sandbox's state: everything an operation may touch but the webhook engine (which runs over it). */
export interface WorldState {
  /** The origin the sandbox listens on, e.g. http://127.0.0.1:4010. */
  baseUrl: string;
  clock: SandboxClock;
  random: Random;
  config: SandboxConfig;
  store: Store;
  faults: Fault[];
  /** Waits of injected faults still running (cleared on close). */
  faultTimers: Set<ReturnType<typeof setTimeout>>;
  requests: RequestRecord[];
  log: (line: string) => void;
}
