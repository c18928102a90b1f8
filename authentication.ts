import type { Bundle, ZObject } from 'zapier-platform-core';
import { HELP_URL } from './lib/config';
import { clientFor, unwrapOne } from './lib/http';
import { languageOf, say } from './lib/i18n';
import { hasToken, requireBaseUrl, type Api } from './lib/interfaces';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);
const nameOf = (v: unknown): string | undefined =>
  v && typeof v === 'object' ? text((v as Record<string, unknown>).name) : text(v);

/** The ping answer's members are not shown in either spec: read the account and client names where they are. */
const describePing = (body: Record<string, unknown>, api: Api) => ({
  account:
    nameOf(body[api === 'clinic' ? 'clinic' : 'account']) ?? nameOf(body.tenant) ?? nameOf(body.account),
  client: nameOf(body.client),
});

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
    result[api] = describePing(unwrapOne(await clientFor(z, bundle, api).raw('GET', '/ping')), api);
  }
  return result;
};

/** "Clinic: Smile Dental · Cashier: Olaya Café" from what the test found. */
export const connectionLabel = async (_z: ZObject, bundle: Bundle) => {
  const found = bundle.inputData as Record<string, { account?: string; client?: string } | undefined>;
  const part = (api: Api, title: string) => {
    const info = found[api];
    if (!info) return undefined;
    return `${title}: ${info.account ?? info.client ?? 'connected'}`;
  };
  return [part('clinic', 'Clinic'), part('cashier', 'Cashier')].filter(Boolean).join(' · ');
};

export const authentication = {
  type: 'custom' as const,
  fields: [
    {
      key: 'clinic_api_token',
      label: 'Clinic API Token',
      type: 'password' as const,
      required: false,
      helpText: `The token of a clinic API client. The clinic's account owner creates the client in the clinic back office under **Developers → API clients** and copies its token, which is shown only once ([how to create an API client](${HELP_URL})). Give it the abilities your Zaps need, plus \`webhooks\` for instant triggers. Leave blank if you only use the cashier.`,
    },
    {
      key: 'cashier_api_token',
      label: 'Cashier API Token',
      type: 'password' as const,
      required: false,
      helpText: `The token of a cashier (point-of-sale) API client. The account owner creates the client in the cashier back office under **Developers → API clients** and copies its token, which is shown only once ([how to create an API client](${HELP_URL})). Give it \`pos:read\`, \`pos:write\`, \`pos:orders\` and \`pos:webhooks\` as your Zaps need. Leave blank if you only use the clinic.`,
    },
    {
      key: 'language',
      label: 'Language',
      type: 'string' as const,
      required: false,
      default: 'en',
      choices: { en: 'English', ar: 'العربية (Arabic)' },
      helpText: 'Language of error messages from the interfaces and from this app.',
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
