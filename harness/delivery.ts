/**
 * A signed delivery as Zapier hands it to a hook's perform, for the unit suites, the end-to-end suite of the shipped
 * build and the bench: the partner's five headers (`Http-` prefixed, Camel-Case, as PLATFORM-NOTES says), the raw
 * body and its parsed copy.
 */
import { sign } from '../lib/signature';

export const nowSeconds = () => Math.floor(Date.now() / 1000);

/** A delivery as Zapier hands it to perform: `Http-` prefixed Camel-Case headers and the raw body. */
export const delivery = (opts: {
  secret: string;
  path: string;
  /** The envelope, or `rawBody` alone (its event is then read from it). */
  envelope?: unknown;
  timestamp?: string;
  signature?: string | null;
  eventIdHeader?: string | null;
  rawBody?: string;
}) => {
  const rawBody = opts.rawBody ?? JSON.stringify(opts.envelope);
  const timestamp = opts.timestamp ?? String(nowSeconds());
  const signature =
    opts.signature === undefined
      ? sign(opts.secret, { timestamp, path: opts.path, rawBody })
      : opts.signature;
  let cleaned: unknown;
  try {
    cleaned = JSON.parse(rawBody);
  } catch {
    cleaned = {};
  }
  const env = (opts.envelope ?? cleaned) as { id?: string; event?: string };
  const headers: Record<string, string> = {
    'Content-Type': 'application/json',
    'Http-X-Partner-Event': String(env?.event ?? ''),
    'Http-X-Partner-Delivery': '9001',
    'Http-X-Partner-Timestamp': timestamp,
  };
  if (signature !== null) headers['Http-X-Partner-Signature'] = signature;
  const eventId = opts.eventIdHeader === undefined ? env?.id : opts.eventIdHeader;
  if (eventId !== null && eventId !== undefined) headers['Http-X-Partner-Event-Id'] = eventId;
  return {
    rawRequest: { method: 'POST', querystring: '', headers, content: rawBody },
    cleanedRequest: cleaned,
  };
};
