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
 * Why an address may not carry the token, or undefined when it may: HTTPS only (plain HTTP only to a loopback
 * host), no user or password in it, no query and no fragment (the app adds the paths and queries itself).
 */
const unsafeBecause = (raw: string): Bilingual | undefined => {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { en: 'is not a web address', ar: 'ليس عنوان ويب' };
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
  const why = unsafeBecause(found.url);
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
