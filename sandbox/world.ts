/** The sandbox's world: its state and settings (sandbox/state.ts) and the webhook engine that runs over them. */
import type { Lang } from './errors';
import type { WorldState } from './state';
import type { WebhookEngine } from './webhooks';

export * from './state';

export interface World extends WorldState {
  webhooks: WebhookEngine;
}

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
