import { hostHelp } from './lib/host';
import type { Bundle, ZObject } from 'zapier-platform-core';
import { clientFor, unwrapOne } from './lib/http';
import { languageOf, say } from './lib/i18n';
import type { OwnWords } from './lib/errors';
import { APIS, hasToken, requireBaseUrl, type Api } from './lib/partner-apis';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const nameOf = (v: unknown): string | undefined =>
  v && typeof v === 'object' ? text((v as Record<string, unknown>).name) : text(v);

/** The ping answer's members are not shown in either spec: read the account and client names where they are. */
const describePing = (body: Record<string, unknown>, api: Api) => ({
  account:
    nameOf(body[api === 'clinic' ? 'clinic' : 'account']) ?? nameOf(body.tenant) ?? nameOf(body.account),
  client: nameOf(body.client),
});

/**
 * A 404 to /ping, which every interface answers: the base address leads somewhere else (another site, or a path
 * beside the interface's), never a missing record.
 */
const notThere = (api: Api): OwnWords => {
  const { name, baseLabel, pathPrefix } = APIS[api];
  return {
    kind: 'error',
    text: {
      en: `The ${name.en} interface is not at the ${baseLabel} (its check address answered "not found"). Enter the https:// address the vendor gave you, ending with ${pathPrefix}, or leave it blank for the default.`,
      ar: `واجهة ${name.ar} ليست على ${baseLabel} (أجاب عنوان الفحص بأنه غير موجود). أدخل عنوان https:// الذي أعطاك إياه المزوّد، وينتهي بـ ${pathPrefix}، أو اتركه فارغًا للعنوان الافتراضي.`,
    },
  };
};

/** Connection test: GET /ping on every interface that has a token (CONTRACT §1). */
export const testAuth = async (z: ZObject, bundle: Bundle) => {
  const apis = (['clinic', 'cashier'] as const).filter((api) => hasToken(bundle, api));
  if (!apis.length) {
    throw new z.errors.Error(
      say(languageOf(bundle), {
        en: 'Add at least one token: the Clinic API Token, the Cashier API Token, or both.',
        ar: 'أضف رمزًا واحدًا على الأقل: رمز واجهة العيادة أو رمز واجهة الكاشير أو كليهما.',
      }),
      'no_token',
      400,
    );
  }
  // Every address that will get a token is checked before either is pinged: a bad cashier address must not
  // let the clinic token go out first and then fail.
  for (const api of apis) requireBaseUrl(bundle, api);
  const result: Record<string, { account?: string; client?: string }> = {};
  for (const api of apis) {
    const ping = await clientFor(z, bundle, api).raw('GET', '/ping', { own: { 404: () => notThere(api) } });
    result[api] = describePing(unwrapOne(ping), api);
  }
  return result;
};

type Found = Partial<Record<Api, { account?: string; client?: string } | undefined>>;

const TITLES: Record<Api, string> = { clinic: 'Clinic', cashier: 'Cashier' };

/** One interface's part of the label: its account by name, else a description that is still not a bare word. */
const labelPart = (api: Api, info: { account?: string; client?: string }): string => {
  if (info.account) return `${TITLES[api]}: ${info.account}`;
  if (info.client) return `${TITLES[api]}: unnamed account (API client ${info.client})`;
  return `${TITLES[api]}: unnamed account`;
};

/**
 * "Clinic: Smile Dental Clinics · Cashier: Olaya Café" from what the test found: Zapier's publishing rules want the
 * label to name the account, so a Zap builder with several connections picks the right one.
 */
export const connectionLabel = async (_z: ZObject, bundle: Bundle): Promise<string> => {
  const found = (bundle.inputData ?? {}) as Found;
  const parts = (['clinic', 'cashier'] as const).flatMap((api) => {
    const info = found[api];
    return info && typeof info === 'object' ? [labelPart(api, info)] : [];
  });
  return parts.length ? parts.join(' · ') : 'Clinic & Cashier: no account named';
};

export const authentication = {
  type: 'custom' as const,
  fields: [
    {
      key: 'clinic_api_token',
      label: 'Clinic API Token',
      type: 'password' as const,
      required: false,
      ...hostHelp(
        (w) =>
          `The token of a clinic API client. Where to find it: the clinic's account owner signs in to the clinic back office, opens **Developers → API clients**, creates a client (or opens an existing one) and copies its token, which is shown only once. Give the client the abilities your ${w.flows} need, plus \`webhooks\` for instant triggers. Leave blank if you only use the cashier.`,
      ),
    },
    {
      key: 'cashier_api_token',
      label: 'Cashier API Token',
      type: 'password' as const,
      required: false,
      ...hostHelp(
        (w) =>
          `The token of a cashier (point-of-sale) API client. Where to find it: the account owner signs in to the cashier back office, opens **Developers → API clients**, creates a client (or opens an existing one) and copies its token, which is shown only once. Give the client \`pos:read\`, \`pos:write\`, \`pos:orders\` and \`pos:webhooks\` as your ${w.flows} need. Leave blank if you only use the clinic.`,
      ),
    },
    {
      key: 'language',
      label: 'Language',
      type: 'string' as const,
      required: false,
      default: 'en',
      choices: { en: 'English', ar: 'Arabic (العربية)' },
      helpText:
        "Language of error messages from the interfaces and from this app. With Arabic, the app's own messages give the English first, then the Arabic; the interfaces' own words come in Arabic.",
    },
    {
      key: 'clinic_base_url',
      label: 'Clinic Base Address',
      type: 'string' as const,
      required: false,
      helpText:
        'Leave blank unless the vendor gave you a different address, e.g. for a test account. It ends with `/partner/v1`.',
    },
    {
      key: 'cashier_base_url',
      label: 'Cashier Base Address',
      type: 'string' as const,
      required: false,
      helpText:
        'Leave blank unless the vendor gave you a different address, e.g. for a test account. It ends with `/api/partner/v1`.',
    },
  ],
  test: testAuth,
  connectionLabel,
};
