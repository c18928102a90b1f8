/** Answers are JSON of many shapes; the tests read them loosely. */
// eslint-disable-next-line @typescript-eslint/no-explicit-any
export type Json = any;

export interface Answer {
  status: number;
  headers: Headers;
  body: Json;
}

/**
 * Node's own fetch, taken when this module loads, before the app's first run: core then wraps the global one to
 * log every request made inside the run, which only slows a test's own requests down.
 */
const nativeFetch = globalThis.fetch;

/** One request to the sandbox (partner interfaces or /sandbox control endpoints) over real HTTP. */
export const call = async (
  url: string,
  options: { token?: string; method?: string; body?: unknown; headers?: Record<string, string> } = {},
): Promise<Answer> => {
  const headers: Record<string, string> = { Accept: 'application/json', ...options.headers };
  if (options.token) headers.Authorization = `Bearer ${options.token}`;
  if (options.body !== undefined) headers['Content-Type'] = 'application/json';
  const res = await nativeFetch(url, {
    method: options.method ?? (options.body === undefined ? 'GET' : 'POST'),
    headers,
    body: options.body === undefined ? undefined : JSON.stringify(options.body),
  });
  const text = await res.text();
  return { status: res.status, headers: res.headers, body: text ? (JSON.parse(text) as Json) : undefined };
};
