import type { SandboxClock } from './clock';
import type { Random } from './ids';
import type { Store } from './store';
import type { WebhookEngine } from './webhooks';

/** What the sandbox lets a caller change while it runs (options at start, PATCH /sandbox/config later). */
export interface SandboxConfig {
  /** Requests per minute per active API client (spec: 120). */
  rateLimitPerMinute: number;
  /** Requests per minute, per address, whose token matches no active client (clinic spec: 30). */
  anonymousRateLimitPerMinute: number;
  /** Receipts that arrived less than this long ago are held back from GET /receipts. */
  holdBackMs: number;
  /** Subscriptions per account (per interface) before POST /webhooks answers webhook_limit. */
  webhookLimit: number;
  /** Accept http:// and https:// receivers on loopback addresses (127.0.0.0/8, ::1, localhost). */
  allowLoopbackReceivers: boolean;
  /** How long a receiver has to answer a delivery, in real milliseconds (spec: 10 s). */
  deliveryTimeoutMs: number;
  /** Clinic endpoints that answer 501 not_implemented, as "METHOD /path" (e.g. "GET /patients/{id}"). */
  planned: Set<string>;
}

/** A fault injected into the partner interfaces: the next `times` matching requests get this answer. */
export interface Fault {
  id: number;
  method: string | null;
  /** Matches when the request path (without query) starts with it, e.g. /partner/v1/patients. */
  pathPrefix: string;
  status: number;
  error: string;
  times: number;
  delayMs: number;
}

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

/** Everything a request handler or an operation may touch. */
export interface World {
  /** The origin the sandbox listens on, e.g. http://127.0.0.1:4010. */
  baseUrl: string;
  clock: SandboxClock;
  random: Random;
  config: SandboxConfig;
  store: Store;
  webhooks: WebhookEngine;
  faults: Fault[];
  requests: RequestRecord[];
  log: (line: string) => void;
}
