/**
 * The seam between n8n and the core: the `z` and `bundle` the core's functions take, made from what an n8n node
 * has. The core stays as the Zapier app runs it; only what Zapier's runtime would do around it is done here:
 * sending a request, and running the app's afterResponse list (lib/middleware.ts) on every answer, the list
 * index.ts registers for Zapier.
 */
// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- types only, erased by the build
import type { Bundle, HttpRequestOptions, HttpResponse, ZObject } from 'zapier-platform-core';
import { afterResponse } from '../../lib/middleware';
import { errors } from './errors';
import { N8N } from './host';
import { cacheOver, memoryStore, type SeamCache } from './store';

/** What a node's memory holds of a remembered key: when it expires (ms since the epoch). */
export type Remembered = Record<string, number>;

/**
 * The most keys a polling node remembers in its workflow's static data, which is saved with the workflow, so it
 * must stay small.
 */
export const MEMORY_LIMIT = 2000;

/** Drops the oldest keys of a store past MEMORY_LIMIT (keys keep their insertion order: the oldest first). */
const bound = (store: Remembered) => {
  const keys = Object.keys(store);
  for (const old of keys.slice(0, Math.max(0, keys.length - MEMORY_LIMIT))) delete store[old];
};

/** Writes remembered keys (with their expiry) into a store, as the nx writes that made them did. */
export const rememberAll = (store: Remembered, entries: Remembered) => {
  for (const [key, until] of Object.entries(entries)) {
    delete store[key];
    store[key] = until;
  }
  bound(store);
};

/** A transport failure as node-fetch names it, which is what lib/http.ts explains to the user. */
class FetchError extends Error {
  constructor(
    message: string,
    readonly type: string,
    readonly code?: string,
  ) {
    super(message);
    this.name = 'FetchError';
  }
}

const transportError = (err: unknown, timeoutMs: number): unknown => {
  if (!(err instanceof Error)) return err;
  if (err.name === 'TimeoutError' || err.name === 'AbortError') {
    return new FetchError(`network timeout after ${timeoutMs} ms`, 'request-timeout');
  }
  const cause = (err as Error & { cause?: { code?: unknown } }).cause;
  const code = typeof cause?.code === 'string' ? cause.code : undefined;
  return code ? new FetchError(`request failed, reason: ${code}`, 'system', code) : err;
};

type Request = HttpRequestOptions & { url: string; skipThrowForStatus?: boolean };

/** One request as z.request sends it for the core: never following a redirect, then the app's afterResponse. */
const sendWith =
  (z: () => ZObject, bundle: () => Bundle) =>
  async (request: Request): Promise<HttpResponse> => {
    const url = new URL(request.url);
    for (const [k, v] of Object.entries((request.params ?? {}) as Record<string, string>)) {
      url.searchParams.set(k, v);
    }
    const timeoutMs = request.timeout ?? 25_000;
    // A timer that ends with the answer: AbortSignal.timeout's runs its full time-out after every request, and
    // holds the request's async context (an n8n execution; a whole jest file) until then. Node's own timer, as in
    // in-process.ts: n8n-workflow's sleep helpers are not loaded at run time.
    const abort = new AbortController();
    // eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- see above
    const timer = setTimeout(
      () => abort.abort(new DOMException(`timed out after ${timeoutMs} ms`, 'TimeoutError')),
      timeoutMs,
    );
    let answer: Response;
    let content: string;
    try {
      answer = await fetch(url, {
        method: request.method ?? 'GET',
        headers: request.headers as Record<string, string>,
        body: typeof request.body === 'string' ? request.body : undefined,
        redirect: 'manual',
        signal: abort.signal,
      });
      content = await answer.text();
    } catch (err) {
      throw transportError(err, timeoutMs);
    } finally {
      // eslint-disable-next-line @n8n/community-nodes/no-restricted-globals -- see above
      clearTimeout(timer);
    }
    const response = {
      status: answer.status,
      content,
      headers: answer.headers,
      request,
      get json() {
        return JSON.parse(content) as unknown;
      },
      get data() {
        return JSON.parse(content) as unknown;
      },
      getHeader: (name: string) => answer.headers.get(name) ?? undefined,
      throwForStatus() {
        if (answer.status >= 400)
          throw new errors.Error(`HTTP ${answer.status}`, `http_${answer.status}`, answer.status);
      },
    } as unknown as HttpResponse;
    const mapped = afterResponse(response, z(), bundle());
    if (!request.skipThrowForStatus) mapped.throwForStatus();
    return mapped;
  };

/** The connection as the Zapier app's authData holds it, from the n8n credentials (same keys). */
export const authDataOf = (credentials: Record<string, unknown>): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const key of [
    'clinic_api_token',
    'cashier_api_token',
    'clinic_base_url',
    'cashier_base_url',
    'language',
  ]) {
    const v = credentials[key];
    if (typeof v === 'string' && v.trim() !== '') out[key] = v;
  }
  return out;
};

/**
 * Node parameters as Zapier's inputData: a field left empty is absent, as Zapier leaves an untouched field out,
 * so the core's checks read it as not given.
 */
export const inputDataOf = (params: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(Object.entries(params).filter(([, v]) => v !== '' && v !== undefined && v !== null));

type Hydrator = (z: ZObject, bundle: Bundle) => Promise<unknown>;

/** What z.dehydrate gives on n8n: the function and its inputs, for `hydrator` to resolve later. */
export class Pointer {
  constructor(
    readonly fn: Hydrator,
    readonly inputData: Record<string, unknown>,
  ) {}
}

/**
 * Resolves the pointers among an item's values, as Zapier does for an item new to the Zap (only then: a poll that
 * sees an item again resolves nothing). The same pointer is resolved once per hydrator.
 */
export const hydrator = (z: ZObject, bundle: Bundle) => {
  const resolved = new Map<Hydrator, Map<string, Promise<unknown>>>();
  const resolve = (p: Pointer) => {
    const byInput = resolved.get(p.fn) ?? new Map<string, Promise<unknown>>();
    resolved.set(p.fn, byInput);
    const key = JSON.stringify(p.inputData);
    if (!byInput.has(key)) byInput.set(key, p.fn(z, { ...bundle, inputData: p.inputData } as Bundle));
    return byInput.get(key)!;
  };
  return async <T extends Record<string, unknown>>(item: T): Promise<T> => {
    const out: Record<string, unknown> = { ...item };
    for (const [k, v] of Object.entries(item)) if (v instanceof Pointer) out[k] = await resolve(v);
    return out as T;
  };
};

export interface SeamParts {
  authData: Record<string, string>;
  inputData?: Record<string, unknown>;
  /** The workflow, where Zapier gives the Zap: a derived booking reference is per workflow as it is per Zap. */
  workflowId?: string;
  /**
   * The core's z.cache (dedupe, write memory, locks) over the node's store (src/store.ts); a memory of this call
   * alone when none is given.
   */
  cache?: SeamCache;
  /** Members of bundle.meta besides the Zap (a dropdown's page). */
  meta?: Record<string, unknown>;
  extra?: Partial<Bundle>;
}

/** The `z` and `bundle` one call of a core function takes. */
export const seam = (parts: SeamParts): { z: ZObject; bundle: Bundle } => {
  const bundle = {
    authData: parts.authData,
    inputData: parts.inputData ?? {},
    inputDataRaw: parts.inputData ?? {},
    meta: {
      isLoadingSample: false,
      isFillingDynamicDropdown: false,
      zap: { id: parts.workflowId ?? '' },
      host: N8N, // lib/host.ts: n8n's rules and words (src/host.ts)
      ...parts.meta,
    },
    ...parts.extra,
  } as unknown as Bundle;
  const z = {
    request: sendWith(
      () => z,
      () => bundle,
    ),
    errors,
    cache: parts.cache ?? cacheOver(memoryStore(), ''),
    console: { log() {}, error() {}, warn() {} },
    JSON,
    dehydrate: (fn: Hydrator, inputData: Record<string, unknown>) => new Pointer(fn, inputData),
  } as unknown as ZObject;
  return { z, bundle };
};
