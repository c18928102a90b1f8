import type { Bundle } from 'zapier-platform-core';
import { AppMessageError, languageOf, say, type Bilingual } from './i18n';

/** The two partner interfaces this app speaks to. */
export type Api = 'clinic' | 'cashier';

interface ApiInfo {
  tokenKey: 'clinic_api_token' | 'cashier_api_token';
  baseKey: 'clinic_base_url' | 'cashier_base_url';
  envVar: 'CLINIC_BASE_URL' | 'CASHIER_BASE_URL';
  pathPrefix: string;
  name: Bilingual;
  tokenLabel: Bilingual;
  /** The connection field's label (authentication.ts; labels stay English, as Zapier shows them). */
  baseLabel: string;
}

export const APIS: Record<Api, ApiInfo> = {
  clinic: {
    tokenKey: 'clinic_api_token',
    baseKey: 'clinic_base_url',
    envVar: 'CLINIC_BASE_URL',
    pathPrefix: '/partner/v1',
    name: { en: 'clinic', ar: 'العيادة' },
    tokenLabel: { en: 'Clinic API Token', ar: 'رمز واجهة العيادة' },
    baseLabel: 'Clinic Base Address',
  },
  cashier: {
    tokenKey: 'cashier_api_token',
    baseKey: 'cashier_base_url',
    envVar: 'CASHIER_BASE_URL',
    pathPrefix: '/api/partner/v1',
    name: { en: 'cashier', ar: 'الكاشير' },
    tokenLabel: { en: 'Cashier API Token', ar: 'رمز واجهة الكاشير' },
    baseLabel: 'Cashier Base Address',
  },
};

type AuthBundle = Pick<Bundle, 'authData'>;

/**
 * The token of an interface as the connection holds it, the one place it is read: trimmed, and without a `Bearer `
 * prefix in any case (a token copied together with its header name), which the app adds itself.
 */
const tokenOf = (bundle: AuthBundle, api: Api): string =>
  (bundle.authData?.[APIS[api].tokenKey] ?? '')
    .trim()
    .replace(/^bearer(?:\s+|$)/i, '')
    .trim();

/** The connection's tokens, as the app sends them: what no message may repeat, whole or in part. */
export const connectionTokens = (bundle: AuthBundle): string[] =>
  (Object.keys(APIS) as Api[]).map((api) => tokenOf(bundle, api)).filter(Boolean);

export const hasToken = (bundle: AuthBundle, api: Api): boolean => Boolean(tokenOf(bundle, api));

/** Where a base address comes from: the connection field (by its label) or the app's environment default. */
interface BaseAddress {
  url: string;
  from: 'connection' | 'environment';
}

const findBase = (bundle: AuthBundle, api: Api): BaseAddress | undefined => {
  const info = APIS[api];
  const given = bundle.authData?.[info.baseKey]?.trim();
  const raw = given || process.env[info.envVar]?.trim();
  return raw ? { url: raw.replace(/\/+$/, ''), from: given ? 'connection' : 'environment' } : undefined;
};

/** The base address of an interface, or undefined when neither the connection nor the environment names one. */
export const findBaseUrl = (bundle: AuthBundle, api: Api): string | undefined => findBase(bundle, api)?.url;

export class ConnectionSetupError extends AppMessageError {}

/** Hosts whose plain-HTTP address never leaves the machine (the local sandbox): 127.0.0.0/8, ::1, localhost. */
const isLoopback = (hostname: string): boolean =>
  hostname === 'localhost' || hostname === '[::1]' || /^127\.\d{1,3}\.\d{1,3}\.\d{1,3}$/.test(hostname);

/**
 * IPv4 blocks that are never a vendor's public server: this network, private, carrier-grade NAT, link-local, IETF
 * protocol assignments, documentation, 6to4 relay, benchmarking, multicast, reserved and broadcast.
 */
const NON_PUBLIC_V4: ReadonlyArray<readonly [number, number]> = [
  [0x00000000, 8], // 0.0.0.0/8
  [0x0a000000, 8], // 10.0.0.0/8
  [0x64400000, 10], // 100.64.0.0/10
  [0xa9fe0000, 16], // 169.254.0.0/16, cloud metadata included
  [0xac100000, 12], // 172.16.0.0/12
  [0xc0000000, 24], // 192.0.0.0/24
  [0xc0000200, 24], // 192.0.2.0/24
  [0xc0586300, 24], // 192.88.99.0/24
  [0xc0a80000, 16], // 192.168.0.0/16
  [0xc6120000, 15], // 198.18.0.0/15
  [0xc6336400, 24], // 198.51.100.0/24
  [0xcb007100, 24], // 203.0.113.0/24
  [0xe0000000, 4], // 224.0.0.0/4 multicast
  [0xf0000000, 4], // 240.0.0.0/4 reserved, 255.255.255.255 included
];

/** 127.0.0.0/8: this computer, allowed only written as itself (plain HTTP to the local sandbox). */
const LOOPBACK_V4: readonly [number, number] = [0x7f000000, 8];

const inBlock = (ip: number, [base, bits]: readonly [number, number]): boolean =>
  ip >>> (32 - bits) === base >>> (32 - bits);
const inV4Block = (ip: number): boolean => NON_PUBLIC_V4.some((block) => inBlock(ip, block));

/** The eight 16-bit groups of an IPv6 host as WHATWG URL writes it (bracketed, compressed, no dotted tail). */
const v6Groups = (host: string): number[] | undefined => {
  const m = /^\[([0-9a-f:]+)\]$/.exec(host);
  if (!m?.[1]) return undefined;
  const [head = '', tail] = m[1].split('::');
  const part = (s: string) => (s ? s.split(':').map((g) => parseInt(g, 16)) : []);
  const left = part(head);
  const right = part(tail ?? '');
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
};

/**
 * The IPv4 address an IPv6 address carries, where its prefix says it carries one: mapped (::ffff:0:0/96),
 * compatible (::/96), NAT64 (64:ff9b::/96) and 6to4 (2002::/16, the IPv4 right after the prefix).
 */
const carriedV4 = (g: readonly number[]): number | undefined => {
  const [g0 = 0, g1 = 0, g2 = 0, , , g5 = 0, g6 = 0, g7 = 0] = g;
  const zeroTo = (n: number) => g.slice(0, n).every((x) => x === 0);
  if (
    (zeroTo(5) && g5 === 0xffff) ||
    (zeroTo(6) && (g6 || g7 > 1)) ||
    (g0 === 0x64 && g1 === 0xff9b && g.slice(2, 6).every((x) => x === 0))
  ) {
    return (g6 * 0x10000 + g7) >>> 0;
  }
  if (g0 === 0x2002) return (g1 * 0x10000 + g2) >>> 0;
  return undefined;
};

/**
 * Whether a host (as WHATWG URL normalised it: decimal, octal and hex IPv4 forms become dotted decimal, IPv6 is
 * compressed hex) is never a vendor's public server: a non-public IPv4 block, or IPv6 unspecified, unique-local,
 * link-local, site-local, multicast or local-use NAT64 (64:ff9b:1::/48). IPv4 inside IPv6 (mapped, compatible,
 * NAT64, 6to4) is judged as the IPv4 it carries, loopback included: only a host written as this
 * computer (`isLoopback`) may be it. Names are not resolved.
 */
export const isNonPublicHost = (host: string): boolean => {
  const v4 = /^(\d{1,3})\.(\d{1,3})\.(\d{1,3})\.(\d{1,3})$/.exec(host);
  if (v4) return inV4Block(v4.slice(1).reduce((n, o) => n * 256 + Number(o), 0));
  const g = v6Groups(host);
  if (!g || g.length !== 8) return false;
  const [g0 = 0, g1 = 0, g2 = 0] = g;
  if (g.every((x) => x === 0)) return true; // ::, unspecified (::1 is this computer: isLoopback)
  if (g0 === 0x64 && g1 === 0xff9b && g2 === 1) return true; // 64:ff9b:1::/48, local-use NAT64
  const carried = carriedV4(g);
  if (carried !== undefined) return inV4Block(carried) || inBlock(carried, LOOPBACK_V4);
  return (
    (g0 & 0xfe00) === 0xfc00 || // fc00::/7 unique-local
    (g0 & 0xffc0) === 0xfe80 || // fe80::/10 link-local
    (g0 & 0xffc0) === 0xfec0 || // fec0::/10 site-local
    (g0 & 0xff00) === 0xff00 // ff00::/8 multicast
  );
};

/**
 * Why an address may not carry the token, or undefined when it may: not a private or local network address, HTTPS
 * only (plain HTTP only to a loopback host), no user or password in it, no query and no fragment (the app adds the
 * paths and queries itself), and its path ending with the interface's (`prefix`): without it every request lands
 * beside the interface, and its 404s would read as a missing record.
 */
const unsafeBecause = (raw: string, prefix: string): Bilingual | undefined => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { en: 'is not a web address', ar: 'ليس عنوان ويب' };
  }
  // A token sent inside a private network (or to a cloud's metadata address) could reach a service that was
  // never the vendor's; the interfaces are on the public internet.
  if (isNonPublicHost(url.hostname)) {
    return {
      en: 'names a private or local network address, which the app never connects to (the interfaces are on the public internet)',
      ar: 'يشير إلى عنوان في شبكة خاصة أو محلية، ولا يتصل التطبيق بمثله أبدًا (الواجهات على الإنترنت العام)',
    };
  }
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && isLoopback(url.hostname))) {
    return {
      en: 'must start with https:// (plain http:// only for this computer: localhost, 127.0.0.1, ::1)',
      ar: 'يجب أن يبدأ بـ https://‏ (و http://‏ لهذا الجهاز فقط: localhost و127.0.0.1 و::1)',
    };
  }
  if (url.username || url.password || /^[a-z]+:\/\/[^/?#]*@/i.test(raw)) {
    return {
      en: 'must not contain a user name or password (put the token in its own field)',
      ar: 'يجب ألا يحتوي على اسم مستخدم أو كلمة مرور (ضع الرمز في حقله)',
    };
  }
  if (!/^https?:\/\/[^\s/?#]+(\/\S*)?$/i.test(raw))
    return { en: 'is not a web address', ar: 'ليس عنوان ويب' };
  if (raw.includes('?') || raw.includes('#')) {
    return {
      en: 'must not contain a query (?…) or a fragment (#…)',
      ar: 'يجب ألا يحتوي على استعلام (?…) أو جزء (#…)',
    };
  }
  if (!url.pathname.replace(/\/+$/, '').endsWith(prefix)) {
    return { en: `does not end with ${prefix}`, ar: `لا ينتهي بـ ${prefix}` };
  }
  return undefined;
};

/**
 * The base address of an interface, checked before any token is sent to it. The message names the field (or the
 * environment variable) and never repeats the address, which could hold a password.
 */
export const requireBaseUrl = (bundle: AuthBundle, api: Api): string => {
  const found = findBase(bundle, api);
  const info = APIS[api];
  const lang = languageOf(bundle);
  if (!found) {
    throw new ConnectionSetupError(
      say(lang, {
        en: `No ${info.name.en} base address is set. Enter it in the connection (it ends with ${info.pathPrefix}) or ask the app's maintainers to set ${info.envVar}.`,
        ar: `لم يُحدَّد عنوان واجهة ${info.name.ar}. أدخله في الاتصال (ينتهي بـ ${info.pathPrefix}) أو اطلب من مشرفي التطبيق ضبط ${info.envVar}.`,
      }),
    );
  }
  const why = unsafeBecause(found.url, info.pathPrefix);
  if (why) {
    throw new ConnectionSetupError(
      say(
        lang,
        found.from === 'connection'
          ? {
              en: `${info.baseLabel}: ${why.en}. Enter the https:// address the vendor gave you, ending with ${info.pathPrefix}, or leave it blank; nothing was sent.`,
              ar: `${info.baseLabel}: ${why.ar}. أدخل عنوان https:// الذي أعطاك إياه المزوّد، وينتهي بـ ${info.pathPrefix}، أو اتركه فارغًا؛ لم يُرسَل شيء.`,
            }
          : {
              en: `The app's default ${info.name.en} base address (${info.envVar}) ${why.en}; nothing was sent. Ask the app's maintainers to correct it, or enter the ${info.baseLabel} in the connection.`,
              ar: `عنوان واجهة ${info.name.ar} الافتراضي للتطبيق (${info.envVar}) ${why.ar}؛ لم يُرسَل شيء. اطلب من مشرفي التطبيق تصحيحه، أو أدخل ${info.baseLabel} في الاتصال.`,
            },
      ),
    );
  }
  return found.url;
};

export const requireToken = (bundle: AuthBundle, api: Api): string => {
  const info = APIS[api];
  const token = tokenOf(bundle, api);
  if (!token) {
    const lang = languageOf(bundle);
    throw new ConnectionSetupError(
      say(lang, {
        en: `This step needs the ${info.tokenLabel.en}. Reconnect the account and add a ${info.name.en} token (back office → Developers → API clients).`,
        ar: `تحتاج هذه الخطوة إلى ${info.tokenLabel.ar}. أعد ربط الحساب وأضف رمز ${info.name.ar} (المكتب الخلفي ← المطورون ← عملاء الواجهة).`,
      }),
    );
  }
  return token;
};
