import http from 'node:http';
import https from 'node:https';

/**
 * Node's own modules are shared by every test file a jest worker runs (jest gives each file its own copy of the
 * project's modules, not of Node's). zapier-platform-core patches `request` of `http` and `https` once per process
 * (its request logger, marked `patchedByZapier`), over whatever is there, and nock puts its interceptor on
 * `http.ClientRequest`. Each file puts back what it found, so the next file starts from Node's own: an end-to-end
 * file's core patch, holding the real `request`, cannot send a unit file's requests past nock to the network; and
 * a file's interceptor, holding that file's whole module registry, is not kept alive by the next file's wrapping
 * it (the worker's memory would grow with every file it runs).
 */
type Patched = {
  request: unknown;
  get: unknown;
  ClientRequest?: unknown;
  patchedByZapier?: boolean;
  zapierLogger?: unknown;
};
const found = [http, https].map((module) => {
  const m = module as unknown as Patched;
  const { request, get, ClientRequest, patchedByZapier: patched, zapierLogger: logger } = m;
  return { m, request, get, ClientRequest, patched, logger };
});

afterAll(() => {
  // A file that loaded nock (test/helpers.ts loads it for every importer, useNock or not) has it active until it is
  // restored: only nock's restore lets go of its interceptors, which keep the file's modules alive otherwise.
  // Required here, not imported: a file that never loaded nock must not load it (it would intercept its requests).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  if (http.ClientRequest !== found[0]!.ClientRequest) (require('nock') as { restore: () => void }).restore();
  for (const { m, request, get, ClientRequest, patched, logger } of found) {
    Object.assign(m, { request, get, patchedByZapier: patched, zapierLogger: logger });
    if (ClientRequest !== undefined) m.ClientRequest = ClientRequest;
    if (patched === undefined) delete m.patchedByZapier;
    if (logger === undefined) delete m.zapierLogger;
  }
});
