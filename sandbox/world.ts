import type { WorldState } from './state';
import type { WebhookEngine } from './webhooks';

export * from './state';

/** Everything a request handler or an operation may touch. */
export interface World extends WorldState {
  webhooks: WebhookEngine;
}
