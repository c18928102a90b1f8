import type { Lang } from './errors';
import type { WorldState } from './state';
import type { WebhookEngine } from './webhooks';

export * from './state';

/** Everything a request handler or an operation may touch. */
export interface World extends WorldState {
  webhooks: WebhookEngine;
}

/** What a sandbox-only operation gets: the world, the caller's language, the path's parameters and the body. */
export interface OpContext {
  world: World;
  lang: Lang;
  params: Record<string, string>;
  body: unknown;
}
