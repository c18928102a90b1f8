/**
 * One delivery attempt over real HTTP (Node's http/https, no pooling, no interception by test libraries that
 * patch other clients). The sandbox connects to loopback receivers only: any other address is recorded as a
 * failed attempt without a connection, so a sandbox can never send traffic off the machine.
 */
import http from 'node:http';
import https from 'node:https';
import { isLoopbackHost } from './urls';

/** What an attempt's log records of the answer: its status, the failure's code (null: a success) and its duration. */
export interface SendResult {
  http: number | null;
  error_code: string | null;
  duration_ms: number;
}

export const send = (
  target: string,
  headers: Record<string, string>,
  body: string,
  timeoutMs: number,
): Promise<SendResult> => {
  const started = Date.now();
  const done = (http: number | null, code: string | null): SendResult => ({
    http,
    error_code: code,
    duration_ms: Date.now() - started,
  });
  let url: URL;
  try {
    url = new URL(target);
  } catch {
    return Promise.resolve(done(null, 'invalid_url'));
  }
  if (!isLoopbackHost(url.hostname)) return Promise.resolve(done(null, 'address_refused'));
  const secure = url.protocol === 'https:';
  const host =
    url.hostname === 'localhost' || url.hostname.endsWith('.localhost') ? '127.0.0.1' : url.hostname;
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: SendResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(result);
    };
    const options = {
      method: 'POST',
      host: host.replace(/^\[|\]$/g, ''),
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, Host: url.host, 'Content-Length': String(Buffer.byteLength(body)) },
      agent: false as const,
      ...(secure ? { rejectUnauthorized: false } : {}),
    };
    const req = (secure ? https : http).request(options, (res) => {
      // Only the status is kept, never the receiver's body (clinic spec §6 rule 3).
      res.resume();
      const status = res.statusCode ?? 0;
      finish(done(status, status >= 200 && status < 300 ? null : `http_${status}`));
    });
    const timer = setTimeout(() => {
      finish(done(null, 'timeout'));
      req.destroy();
    }, timeoutMs);
    req.on('error', (err: NodeJS.ErrnoException) => {
      const code =
        err.code === 'ECONNREFUSED'
          ? 'connection_refused'
          : err.code === 'ECONNRESET'
            ? 'connection_reset'
            : 'network_error';
      finish(done(null, code));
    });
    req.end(body);
  });
};
