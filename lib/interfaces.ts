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
}

export const APIS: Record<Api, ApiInfo> = {
  clinic: {
    tokenKey: 'clinic_api_token',
    baseKey: 'clinic_base_url',
    envVar: 'CLINIC_BASE_URL',
    pathPrefix: '/partner/v1',
    name: { en: 'clinic', ar: 'العيادة' },
    tokenLabel: { en: 'Clinic API Token', ar: 'رمز واجهة العيادة' },
  },
  cashier: {
    tokenKey: 'cashier_api_token',
    baseKey: 'cashier_base_url',
    envVar: 'CASHIER_BASE_URL',
    pathPrefix: '/api/partner/v1',
    name: { en: 'cashier', ar: 'الكاشير' },
    tokenLabel: { en: 'Cashier API Token', ar: 'رمز واجهة الكاشير' },
  },
};

type AuthBundle = Pick<Bundle, 'authData'>;

export const hasToken = (bundle: AuthBundle, api: Api): boolean =>
  Boolean(bundle.authData?.[APIS[api].tokenKey]?.trim());

/** The base address of an interface, or undefined when neither the connection nor the environment names one. */
export const findBaseUrl = (bundle: AuthBundle, api: Api): string | undefined => {
  const info = APIS[api];
  const raw = bundle.authData?.[info.baseKey]?.trim() || process.env[info.envVar]?.trim();
  return raw ? raw.replace(/\/+$/, '') : undefined;
};

export class ConnectionSetupError extends AppMessageError {}

export const requireBaseUrl = (bundle: AuthBundle, api: Api): string => {
  const url = findBaseUrl(bundle, api);
  const info = APIS[api];
  const lang = languageOf(bundle);
  if (!url) {
    throw new ConnectionSetupError(
      say(lang, {
        en: `No ${info.name.en} base address is set. Enter it in the connection (it ends with ${info.pathPrefix}) or ask the app's maintainers to set ${info.envVar}.`,
        ar: `لم يُحدَّد عنوان واجهة ${info.name.ar}. أدخله في الاتصال (ينتهي بـ ${info.pathPrefix}) أو اطلب من مشرفي التطبيق ضبط ${info.envVar}.`,
      }),
    );
  }
  if (!/^https?:\/\/[^\s/]+(\/\S*)?$/i.test(url)) {
    throw new ConnectionSetupError(
      say(lang, {
        en: `The ${info.name.en} base address "${url}" is not a web address. It looks like https://example.com${info.pathPrefix}.`,
        ar: `عنوان واجهة ${info.name.ar} "${url}" ليس عنوان ويب. الصيغة الصحيحة مثل https://example.com${info.pathPrefix}.`,
      }),
    );
  }
  return url;
};

export const requireToken = (bundle: AuthBundle, api: Api): string => {
  const info = APIS[api];
  const token = bundle.authData?.[info.tokenKey]?.trim();
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
