/**
 * What the core imports at run time from zapier-platform-core, for the node bundle (build.js aliases the package
 * here): the `define*` helpers only type their argument, and `errors` is the seam's. The bundle thus carries none of
 * Zapier's runtime (its request middleware, lambda wrapper and their dependencies).
 */
export { errors } from './errors';

const same = <T>(definition: T): T => definition;

export const defineApp = same;
export const defineCreate = same;
export const defineSearch = same;
export const defineTrigger = same;
export const version = 'n8n';
