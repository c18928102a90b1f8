/** The sandbox's state and settings, and the webhook engine that runs over them. */
import type { SandboxClock } from './clock';
import type { Lang } from './errors';
import type { Random } from './ids';
import type { Store } from './store';
import type { WebhookEngine } from './webhooks';

/** The settings at start unless options say otherwise: the specs' own figures where they give one. */
export const CONFIG_DEFAULTS = {
  rateLimitPerMinute: 120,
  anonymousRateLimitPerMinute: 30,
  holdBackMs: 2000,
  webhookLimit: 20,
  allowLoopbackReceivers: true,
  deliveryTimeoutMs: 10_000,
};

/** `planned` holds "METHOD /path" of the clinic endpoints answering 501. */
export type SandboxConfig = typeof CONFIG_DEFAULTS & { planned: Set<string> };

export type FaultWhen = 'before' | 'after';

/** A fault as a caller asks for it (sandbox/README.md, "Faults"). */
export interface FaultSpec {
  pathPrefix: string;
  kind?: 'status' | 'slow' | 'reset' | 'malformed_json' | 'html' | 'empty' | 'truncated';
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

export type Fault = FaultSpec & { id: number; times: number };

export interface RequestRecord {
  method: string;
  path: string;
  api: 'clinic' | 'cashier' | 'sandbox' | 'other';
  token: string | null;
  status: number | null;
}

export interface World {
  /** The origin the sandbox listens on, e.g. http://127.0.0.1:4010. */
  baseUrl: string;
  clock: SandboxClock;
  random: Random;
  config: SandboxConfig;
  store: Store;
  webhooks: WebhookEngine;
  faults: Fault[];
  /** Waits of injected faults still running, cleared on close. */
  faultTimers: Set<ReturnType<typeof setTimeout>>;
  /** Rate-limit windows by bucket (a client, or an address). */
  rateWindows: Map<string, { start: number; count: number }>;
  requests: RequestRecord[];
  log: (line: string) => void;
}

/** What the webhook engine runs over. */
export type WorldState = Omit<World, 'webhooks'>;

/** What an operation gets: the world, the caller's language, the path's parameters, the query and the body. */
export interface OpContext {
  world: World;
  lang: Lang;
  params: Record<string, string>;
  /** The query as the route's schema checked and typed it. */
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
  query: Record<string, any>;
  body: unknown;
}
