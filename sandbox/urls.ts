/**
 * Which receiver URLs a subscription may name. The spec: HTTPS on a public address only. The sandbox's
 * allowance: receivers on loopback addresses (127.0.0.0/8, ::1, localhost), over http or https, so a developer
 * or a test can receive deliveries on the same machine. Private, link-local and other non-public addresses, and
 * plain http anywhere but loopback, are refused with url_not_allowed.
 */
import { isIP } from 'node:net';

const bare = (host: string) => host.replace(/^\[|\]$/g, '').toLowerCase();

export const isLoopbackHost = (hostname: string): boolean => {
  const host = bare(hostname);
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (isIP(host) === 4) return host.startsWith('127.');
  if (isIP(host) === 6) return host === '::1' || /^::ffff:127\./.test(host);
  return false;
};

const privateV4 = (host: string): boolean => {
  const [a = 0, b = 0] = host.split('.').map(Number);
  return (
    a === 0 ||
    a === 10 ||
    a === 127 ||
    (a === 100 && b >= 64 && b <= 127) ||
    (a === 169 && b === 254) ||
    (a === 172 && b >= 16 && b <= 31) ||
    (a === 192 && b === 168) ||
    (a === 198 && (b === 18 || b === 19)) ||
    a >= 224
  );
};

/** Addresses that are not on the public internet (IP literals), and names that cannot be public. */
export const isNonPublicHost = (hostname: string): boolean => {
  const host = bare(hostname);
  const kind = isIP(host);
  if (kind === 4) return privateV4(host);
  if (kind === 6) {
    const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/.exec(host);
    if (mapped?.[1]) return privateV4(mapped[1]);
    return host === '::' || host === '::1' || /^f[cd]/.test(host) || /^fe[89ab]/.test(host);
  }
  return !host.includes('.') || /\.(local|internal|lan|home|corp|localhost)$/.test(host);
};

export type UrlVerdict = { ok: true; url: URL } | { ok: false; reason: string };

export const checkTargetUrl = (raw: string, allowLoopback: boolean): UrlVerdict => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { ok: false, reason: 'not_a_url' };
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return { ok: false, reason: 'scheme' };
  if (url.username || url.password) return { ok: false, reason: 'credentials' };
  if (isLoopbackHost(url.hostname)) {
    return allowLoopback ? { ok: true, url } : { ok: false, reason: 'loopback' };
  }
  if (isNonPublicHost(url.hostname)) return { ok: false, reason: 'not_public' };
  if (url.protocol !== 'https:') return { ok: false, reason: 'not_https' };
  return { ok: true, url };
};
