import http from 'node:http';
import https from 'node:https';

/**
 * Node's own modules are shared by every test file a jest worker runs (jest gives each file its own copy of the
 * project's modules, not of Node's). zapier-platform-core patches `request` of `http` and `https` once per process
 * (its request logger, marked `patchedByZapier`), over whatever is there, and nock puts its interceptor there too.
 * Each file puts back what it found, so the next file starts from Node's own: an end-to-end file's core patch,
 * holding the real `request`, cannot send a unit file's requests past nock to the network.
 */
type Patched = { request: unknown; get: unknown; patchedByZapier?: boolean; zapierLogger?: unknown };
const found = [http, https].map((module) => {
  const m = module as unknown as Patched;
  return { m, request: m.request, get: m.get, patched: m.patchedByZapier, logger: m.zapierLogger };
});

afterAll(() => {
  for (const { m, request, get, patched, logger } of found) {
    Object.assign(m, { request, get, patchedByZapier: patched, zapierLogger: logger });
    if (patched === undefined) delete m.patchedByZapier;
    if (logger === undefined) delete m.zapierLogger;
  }
});
