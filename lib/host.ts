/**
 * The engine the core runs in, in one place: Zapier, or n8n through its seam (n8n-nodes-clinic-cashier/src/seam.ts).
 * What differs between them is said here as data, and read where it matters, never by testing an engine's name.
 */
import type { Bundle } from 'zapier-platform-core';

export interface Host {
  readonly name: 'zapier' | 'n8n';
  /**
   * Whether a trigger run that fails comes again: a hook's event delivered again, a poll's new items seen again.
   * Zapier answers the interface's delivery with its own 200 before the trigger runs and never replays a trigger (a
   * replay re-runs failed action steps only), and it marks a poll's items seen before it hydrates them; n8n's node
   * answers the interface itself, so a 500 makes the interface deliver again, and a poll that fails runs again.
   */
  readonly replaysFailedTriggers: boolean;
}

export const ZAPIER: Host = Object.freeze({ name: 'zapier', replaysFailedTriggers: false });
export const N8N: Host = Object.freeze({ name: 'n8n', replaysFailedTriggers: true });

const HOSTS: Readonly<Record<Host['name'], Host>> = { zapier: ZAPIER, n8n: N8N };

/**
 * The host of a call: the one an adapter names in `bundle.meta.host`, Zapier otherwise (Zapier itself names none).
 * A name the core does not know counts as Zapier, whose rules lose nothing: a trigger fires rather than fails.
 */
export const hostOf = (bundle: Partial<Pick<Bundle, 'meta'>> | undefined): Host => {
  const name = (bundle?.meta as { host?: unknown } | undefined)?.host;
  return typeof name === 'string' && Object.hasOwn(HOSTS, name) ? HOSTS[name as Host['name']] : ZAPIER;
};
