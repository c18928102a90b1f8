/**
 * One delivery attempt over real HTTP. Only to loopback receivers: any other address is a failed attempt
 * without a connection, so a sandbox never sends traffic off the machine.
 */
import http from 'node:http';
import https from 'node:https';
import { loopbackAddress } from './urls';

const FAILURES: Record<string, string> = {
  ETIMEDOUT: 'timeout',
  ECONNREFUSED: 'connection_refused',
  ECONNRESET: 'connection_reset',
};

/** What an attempt's log records: the answer's status, the failure's code (null: a success), the duration. */
export const send = (url: URL, headers: Record<string, string>, body: string, timeoutMs: number) => {
  const started = Date.now();
  const done = (status: number | null, error_code: string | null) => ({
    http: status,
    error_code,
    duration_ms: Date.now() - started,
  });
  const address = loopbackAddress(url);
  if (address === null) return Promise.resolve(done(null, 'address_refused'));
  const secure = url.protocol === 'https:';
  return new Promise<ReturnType<typeof done>>((resolve) => {
    const options = {
      method: 'POST',
      host: address,
      port: url.port || (secure ? 443 : 80),
      path: `${url.pathname}${url.search}`,
      headers: { ...headers, Host: url.host, 'Content-Length': String(Buffer.byteLength(body)) },
      agent: false as const,
      rejectUnauthorized: false,
    };
    const req = (secure ? https : http).request(options, (res) => {
      clearTimeout(timer);
      // Only the status is kept, never the receiver's body (clinic spec §6 rule 3).
      res.resume();
      const status = res.statusCode ?? 0;
      resolve(done(status, status >= 200 && status < 300 ? null : `http_${status}`));
    });
    const timer = setTimeout(
      () => req.destroy(Object.assign(new Error('timeout'), { code: 'ETIMEDOUT' })),
      timeoutMs,
    );
    req.on('error', (err: NodeJS.ErrnoException) => {
      clearTimeout(timer);
      resolve(done(null, FAILURES[err.code ?? ''] ?? 'network_error'));
    });
    req.end(body);
  });
};
