/** Which receiver URLs a subscription may name (sandbox/README.md, "Receivers: the loopback allowance"). */
import { BlockList, isIP } from 'node:net';
import RULES from './data/receiver-rules.json';

const family = (address: string) => (isIP(address) === 6 ? 'ipv6' : 'ipv4');

const blockList = (subnets: string[]) => {
  const list = new BlockList();
  for (const subnet of subnets) {
    const [address = '', prefix] = subnet.split('/');
    list.addSubnet(address, Number(prefix), family(address));
  }
  return list;
};

const LOOPBACK = blockList(RULES.loopback_subnets);
const NON_PUBLIC = blockList(RULES.non_public_subnets);

/** An IP literal in the list (an IPv4-mapped IPv6 address counts as its IPv4 address). */
const listed = (list: BlockList, host: string) => isIP(host) > 0 && list.check(host, family(host));

const hostOf = (url: URL) => url.hostname.replace(/^\[|\]$/g, '');

/** The address to connect to for a receiver on this machine; null for any other receiver. */
export const loopbackAddress = (url: URL): string | null => {
  const host = hostOf(url);
  if (host === 'localhost' || host.endsWith('.localhost')) return '127.0.0.1';
  return listed(LOOPBACK, host) ? host : null;
};

const isNonPublic = (host: string) =>
  isIP(host)
    ? listed(NON_PUBLIC, host)
    : !host.includes('.') || RULES.non_public_name_suffixes.some((suffix) => host.endsWith(suffix));

/** Why a subscription may not name this receiver (url_not_allowed's reason), or null when it may. */
export const refusedReason = (raw: string, allowLoopback: boolean): string | null => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return 'not_a_url';
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') return 'scheme';
  if (url.username || url.password) return 'credentials';
  if (loopbackAddress(url)) return allowLoopback ? null : 'loopback';
  if (isNonPublic(hostOf(url))) return 'not_public';
  return url.protocol === 'https:' ? null : 'not_https';
};
