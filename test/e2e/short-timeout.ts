/**
 * Imported first by app-fault-injection.test.ts, so it runs before the app is loaded: the app's time-out for one
 * request to an interface (lib/config.ts, requestTimeoutMs), short enough that answers slower than it fail fast.
 */
export const REQUEST_TIMEOUT_MS = 3000;

process.env.PARTNER_REQUEST_TIMEOUT_MS = String(REQUEST_TIMEOUT_MS);
