import type { Bundle, HttpRequestOptions, HttpResponse, ZObject } from 'zapier-platform-core';
import { requestTimeoutMs, SETTINGS } from './config';
import { errorHandlingOf, toZapierError, type OwnAnswers } from './errors';
import { hostOf } from './host';
import { AppMessageError, joined, languageOf, say, type Bilingual, type Lang } from './i18n';
import { APIS, connectionTokens, requireBaseUrl, requireToken, type Api } from './partner-apis';

export type Query = Record<string, string | number | boolean | undefined | null>;

/** A list page as both interfaces answer it: `{data, meta}`. */
export interface Page<T = unknown> {
  data: T[];
  meta: Record<string, unknown>;
}

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';

const isPlainObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * A single object arrives as `{data: {...}}` on the clinic and, where the cashier spec does not show it,
 * either wrapped or bare: accept both. A top-level `duplicate` (idempotent repeat) stays on the object.
 */
export const unwrapOne = (body: unknown): Record<string, unknown> => {
  if (!isPlainObject(body)) return {};
  if (isPlainObject(body.data) && !('id' in body)) {
    return body.duplicate === undefined ? { ...body.data } : { ...body.data, duplicate: body.duplicate };
  }
  return body;
};

const compactQuery = (query: Query | undefined): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const [k, v] of Object.entries(query ?? {})) {
    if (v !== undefined && v !== null && v !== '') out[k] = String(v);
  }
  return out;
};

/**
 * Whether a page of a `{data, meta}` list is its last, as the interface shows it: an empty page, or meta's `total`
 * reached at meta's `per_page`. A page shorter than asked is not the end: a server may cap its pages.
 */
export const isLastPage = (
  page: number,
  rows: readonly unknown[],
  meta: Record<string, unknown>,
): boolean => {
  if (!rows.length) return true;
  const size = typeof meta.per_page === 'number' && meta.per_page > 0 ? meta.per_page : undefined;
  return typeof meta.total === 'number' && size !== undefined && page * size >= meta.total;
};

export interface ApiClient {
  readonly api: Api;
  /** GET one object, unwrapped. */
  get(path: string, query?: Query): Promise<Record<string, unknown>>;
  /**
   * GET one object; `undefined` when the interface answers 404 (searches: nothing found). `own`: error answers the
   * operation words itself (lib/errors.ts, OwnAnswers).
   */
  find(path: string, query?: Query, own?: OwnAnswers): Promise<Record<string, unknown> | undefined>;
  /** GET one list page; `per_page` is capped at the interfaces' maximum. */
  page<T = unknown>(path: string, query?: Query): Promise<Page<T>>;
  /**
   * GET successive pages until `limit` objects or the last page: the one meta shows is last (total, per_page), or,
   * without them, an empty page. A short page is not the end: a server may give fewer than asked.
   */
  all<T = unknown>(path: string, query: Query, limit: number): Promise<T[]>;
  /** POST; without a body nothing is sent (e.g. "empty body" cancels). `own`: as for `find`. */
  post(path: string, body?: unknown, own?: OwnAnswers): Promise<{ status: number; body: unknown }>;
  put(path: string, body: unknown): Promise<{ status: number; body: unknown }>;
  /** DELETE; `true` when it was there, `false` on 404. */
  remove(path: string): Promise<boolean>;
  /** The raw answer, for callers that read the whole envelope. `own`: as for `find`. */
  raw(
    method: Method,
    path: string,
    options?: { query?: Query; body?: unknown; own?: OwnAnswers },
  ): Promise<unknown>;
}

const SUPPORT: Bilingual = {
  en: "Try again later; if it persists, contact the vendor's support.",
  ar: 'حاول لاحقًا؛ وإن تكرر فتواصل مع دعم المزوّد.',
};
const REPLAY_SAFE: Bilingual = {
  en: "Try again later; replaying the step is safe for bookings, orders, cancellations and item updates, and for new items with a SKU or barcode; if it persists, contact the vendor's support.",
  ar: 'حاول لاحقًا؛ إعادة تشغيل الخطوة آمنة للحجوزات والطلبات والإلغاءات وتعديل الأصناف، وللأصناف الجديدة ذات SKU أو الباركود؛ وإن تكرر فتواصل مع دعم المزوّد.',
};

/** An error of the app's own, in the connection's language (and always in English). */
const appError = (lang: Lang, text: Bilingual, then: Bilingual = SUPPORT): Error =>
  new AppMessageError(say(lang, joined([text, then])));

/** No answer, or half of one: the interface may answer a moment later (lib/retry.ts tries again). */
export class TransportError extends AppMessageError {}

const transportError = (lang: Lang, text: Bilingual, then: Bilingual = SUPPORT): Error =>
  new TransportError(say(lang, joined([text, then])));

/**
 * The body as JSON. A 204 has none (undefined); any other answer without a body, or with one that is not JSON,
 * is an error that says so.
 */
const readJson = (response: HttpResponse, api: Api, lang: Lang): unknown => {
  if (response.status === 204) return undefined;
  const n = APIS[api].name;
  if (!response.content?.trim()) {
    throw appError(lang, {
      en: `The ${n.en} interface sent an empty answer (HTTP ${response.status}) where JSON was expected.`,
      ar: `أرسلت واجهة ${n.ar} ردًا فارغًا (HTTP ${response.status}) حيث يُنتظر JSON.`,
    });
  }
  try {
    return JSON.parse(response.content);
  } catch {
    throw appError(lang, {
      en: `The ${n.en} interface sent an answer that is not JSON (HTTP ${response.status}).`,
      ar: `أرسلت واجهة ${n.ar} ردًا ليس بصيغة JSON (HTTP ${response.status}).`,
    });
  }
};

/** The one HTTP client of an interface: base address, token, language, envelopes and paging live here. */
export const clientFor = (
  z: ZObject,
  bundle: Pick<Bundle, 'authData'>,
  api: Api,
  /** Shorter than the usual time-out when a caller has less time left (lib/retry.ts). */
  timeoutMs = requestTimeoutMs(),
): ApiClient => {
  const lang = languageOf(bundle);
  const send = async (
    method: Method,
    path: string,
    options: { query?: Query; body?: unknown; handle?: readonly number[]; own?: OwnAnswers } = {},
  ): Promise<HttpResponse> => {
    // The answers the operation words itself come back here, past core's afterResponse, and are mapped below with
    // its words by the one mapper: the words stay with the call, never in core's request options.
    const ownStatuses = Object.keys(options.own ?? {}).map(Number);
    const handle = [...(options.handle ?? []), ...ownStatuses];
    // The token first: a connection without it is told to add it (CONTRACT §1), whatever the base address.
    const token = requireToken(bundle, api);
    const base = requireBaseUrl(bundle, api);
    const request: HttpRequestOptions & { url: string } = {
      url: `${base}${path}`,
      method,
      params: compactQuery(options.query),
      headers: {
        Authorization: `Bearer ${token}`,
        Accept: 'application/json',
        'Accept-Language': lang,
        ...(options.body === undefined ? {} : { 'Content-Type': 'application/json' }),
      },
      timeout: timeoutMs,
      // node-fetch would follow a 3xx to any address, over plain http too, with the token (kept for sub-domains)
      // and a booking's body; the error mapper refuses the 3xx instead (lib/errors.ts, mapErrors).
      redirect: 'manual',
      // The error mapper (lib/errors.ts, mapErrors) leaves the statuses the caller handles to it; core must too.
      skipThrowForStatus: handle.length > 0,
      ...errorHandlingOf(api, handle.length ? handle : undefined),
    };
    if (options.body !== undefined) request.body = JSON.stringify(options.body);
    let response: HttpResponse;
    try {
      response = await z.request(request);
    } catch (err) {
      throw describeTransportError(err, api, lang, timeoutMs);
    }
    if (ownStatuses.includes(response.status))
      throw toZapierError(z, response, api, lang, options.own, connectionTokens(bundle), hostOf(bundle));
    return response;
  };

  const client: ApiClient = {
    api,
    async get(path, query) {
      return unwrapOne(readJson(await send('GET', path, { query }), api, lang));
    },
    async find(path, query, own) {
      const response = await send('GET', path, { query, handle: [404], own });
      return response.status === 404 ? undefined : unwrapOne(readJson(response, api, lang));
    },
    async page<T>(path: string, query?: Query) {
      const perPage = Math.min(Number(query?.per_page ?? SETTINGS.maxPerPage), SETTINGS.maxPerPage);
      const body = readJson(await send('GET', path, { query: { ...query, per_page: perPage } }), api, lang);
      const data = isPlainObject(body) && Array.isArray(body.data) ? (body.data as T[]) : [];
      const meta = isPlainObject(body) && isPlainObject(body.meta) ? body.meta : {};
      return { data, meta };
    },
    async all<T>(path: string, query: Query, limit: number) {
      const out: T[] = [];
      const perPage = Math.min(limit, SETTINGS.maxPerPage);
      for (let page = 1; out.length < limit; page += 1) {
        const { data, meta } = await client.page<T>(path, { ...query, page, per_page: perPage });
        out.push(...data);
        if (isLastPage(page, data, meta)) break;
      }
      return out.slice(0, limit);
    },
    async post(path, body, own) {
      const response = await send('POST', path, { body, own });
      return { status: response.status, body: readJson(response, api, lang) };
    },
    async put(path, body) {
      const response = await send('PUT', path, { body });
      return { status: response.status, body: readJson(response, api, lang) };
    },
    async remove(path) {
      const response = await send('DELETE', path, { handle: [404] });
      return response.status !== 404;
    },
    async raw(method, path, options) {
      return readJson(await send(method, path, options), api, lang);
    },
  };
  return client;
};

/**
 * Network failures as a message a Zap builder can act on: no answer in time, an answer that stopped half-way
 * (node-fetch notices a body cut short only when the time-out ends it), a connection closed before the answer,
 * or an interface that cannot be reached at all (refused, unknown host).
 */
const describeTransportError = (err: unknown, api: Api, lang: Lang, timeoutMs: number): unknown => {
  if (!(err instanceof Error) || 'status' in err || err.constructor.name !== 'FetchError') return err;
  const n = APIS[api].name;
  const seconds = Number((timeoutMs / 1000).toFixed(1));
  const { type, code } = err as Error & { type?: string; code?: string };
  if (type === 'body-timeout') {
    return transportError(
      lang,
      {
        en: `The ${n.en} interface began to answer, but the rest of its answer did not arrive within ${seconds} seconds (the connection may have been cut).`,
        ar: `بدأت واجهة ${n.ar} بالرد، لكن بقية الرد لم تصل خلال ${seconds} ثانية (ربما انقطع الاتصال).`,
      },
      REPLAY_SAFE,
    );
  }
  if (/timeout|timed out/i.test(err.message)) {
    return transportError(
      lang,
      {
        en: `The ${n.en} interface did not answer within ${seconds} seconds.`,
        ar: `لم ترد واجهة ${n.ar} خلال ${seconds} ثانية.`,
      },
      REPLAY_SAFE,
    );
  }
  if (code === 'ECONNRESET' || code === 'EPIPE' || /socket hang up/i.test(err.message)) {
    const how = code === 'ECONNRESET' || code === 'EPIPE' ? code : 'socket hang up';
    return transportError(lang, {
      en: `The ${n.en} interface closed the connection before answering (${how}).`,
      ar: `أغلقت واجهة ${n.ar} الاتصال قبل أن ترد (${how}).`,
    });
  }
  // The code only (ECONNREFUSED, ENOTFOUND…): node-fetch's message quotes the whole address, query included.
  const reason = typeof code === 'string' && /^[A-Z0-9_]{1,40}$/.test(code) ? code : 'network error';
  return transportError(
    lang,
    {
      en: `Could not reach the ${n.en} interface (${reason}).`,
      ar: `تعذّر الوصول إلى واجهة ${n.ar} (${reason}).`,
    },
    {
      en: `Check the ${n.en} base address in the connection; if it is right, try again later.`,
      ar: `تحقق من عنوان واجهة ${n.ar} في الاتصال؛ وإن كان صحيحًا فحاول لاحقًا.`,
    },
  );
};
