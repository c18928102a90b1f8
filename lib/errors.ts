import type { Bundle, HttpResponse, ZObject } from 'zapier-platform-core';
import { APIS, type Api } from './interfaces';
import { languageOf, type Bilingual, type Lang } from './i18n';
import { labelOf } from './labels';

/** The error envelope both interfaces answer with: `{error, message, details}`. */
export interface ErrorEnvelope {
  error?: string;
  message?: string;
  details?: Record<string, unknown>;
}

const parseEnvelope = (response: HttpResponse): ErrorEnvelope => {
  const body: unknown = response.data ?? safeJson(response.content);
  if (body && typeof body === 'object' && !Array.isArray(body)) return body as ErrorEnvelope;
  return {};
};

const safeJson = (text: string | undefined): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** A short, printable stand-in for a body that is not the error envelope (an HTML page, nothing at all). */
const bodySnippet = (response: HttpResponse): string => {
  const text = (response.content ?? '')
    .replace(/<[^>]*>/g, ' ')
    .replace(/\s+/g, ' ')
    .trim();
  return text.length > 200 ? `${text.slice(0, 200)}…` : text;
};

/** `Retry-After` as seconds: a number of seconds or an HTTP date. */
export const retryAfterSeconds = (value: string | null | undefined, now = Date.now()): number | undefined => {
  if (!value) return undefined;
  if (/^\d+$/.test(value.trim())) return Number(value.trim());
  const at = Date.parse(value);
  return Number.isNaN(at) ? undefined : Math.max(0, Math.ceil((at - now) / 1000));
};

/** `validation_failed` details name fields in a shape the specs do not show; accept the usual ones. */
export const invalidFields = (details: unknown): Array<{ field: string; problem: string }> => {
  if (!details || typeof details !== 'object') return [];
  const problemOf = (v: unknown): string =>
    Array.isArray(v) ? v.map(String).join('; ') : typeof v === 'object' && v ? JSON.stringify(v) : String(v);
  const list =
    (details as { errors?: unknown; fields?: unknown }).errors ?? (details as { fields?: unknown }).fields;
  if (Array.isArray(list)) {
    return list
      .filter(
        (e): e is { field: string; message?: unknown } =>
          !!e && typeof (e as { field?: unknown }).field === 'string',
      )
      .map((e) => ({ field: e.field, problem: problemOf(e.message ?? 'is not valid') }));
  }
  const source = list && typeof list === 'object' ? list : details;
  return Object.entries(source as Record<string, unknown>).map(([field, v]) => ({
    field,
    problem: problemOf(v),
  }));
};

type Kind = 'auth' | 'halt' | 'throttle' | 'error';

interface Explained {
  kind: Kind;
  text: Bilingual;
}

const ownerWebhooks: Bilingual = {
  en: 'Only the account owner manages webhooks. Ask the owner to create the API client (or reconnect with the owner’s token), then turn the Zap on again.',
  ar: 'إدارة الويب هوك مقصورة على مالك الحساب. اطلب من المالك إنشاء عميل الواجهة (أو أعد الربط برمز المالك)، ثم شغّل الزاب من جديد.',
};

/** The app's own explanation of an error code (CONTRACT §6), in both languages. */
export const explain = (code: string | undefined, api: Api, status: number, details: unknown): Explained => {
  const n = APIS[api].name;
  const t = APIS[api].tokenLabel;
  switch (code) {
    case 'unauthenticated':
      return {
        kind: 'auth',
        text: {
          en: `The ${t.en} is missing. Reconnect the account with a valid ${n.en} token.`,
          ar: `${t.ar} مفقود. أعد ربط الحساب برمز ${n.ar} صالح.`,
        },
      };
    case 'token_invalid':
      return {
        kind: 'auth',
        text: {
          en: `The ${t.en} is not valid or was revoked. Create a new token in the back office (Developers → API clients) and reconnect.`,
          ar: `${t.ar} غير صالح أو أُلغي. أنشئ رمزًا جديدًا في المكتب الخلفي (المطورون ← عملاء الواجهة) وأعد الربط.`,
        },
      };
    case 'client_revoked':
      return {
        kind: 'auth',
        text: {
          en: `The ${n.en} API client behind this token was revoked. Create a new API client in the back office and reconnect with its token.`,
          ar: `أُلغي عميل واجهة ${n.ar} المرتبط بهذا الرمز. أنشئ عميلًا جديدًا في المكتب الخلفي وأعد الربط برمزه.`,
        },
      };
    case 'insufficient_ability': {
      const ability = String(
        (details as { required_ability?: unknown } | undefined)?.required_ability ?? '?',
      );
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} API client lacks the ability "${ability}". The account owner adds "${ability}" to the API client in the back office (Developers → API clients); then reconnect the account.`,
          ar: `عميل واجهة ${n.ar} لا يملك الصلاحية "${ability}". يضيف مالك الحساب الصلاحية "${ability}" إلى عميل الواجهة في المكتب الخلفي (المطورون ← عملاء الواجهة)، ثم أعد ربط الحساب.`,
        },
      };
    }
    case 'forbidden':
      return { kind: 'error', text: ownerWebhooks };
    case 'tenant_inactive':
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} account is suspended or closed. Contact the vendor's support to reactivate it.`,
          ar: `حساب ${n.ar} موقوف أو مغلق. تواصل مع دعم المزوّد لإعادة تفعيله.`,
        },
      };
    case 'not_entitled':
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} account's plan does not include the partner interface. Upgrade the plan to use this app.`,
          ar: `باقة حساب ${n.ar} لا تشمل واجهة الشركاء. رقِّ الباقة لاستخدام هذا التطبيق.`,
        },
      };
    case 'validation_failed': {
      const fields = invalidFields(details);
      const en = fields.map((f) => `${labelOf(f.field).en}: ${f.problem}`).join('; ');
      const ar = fields.map((f) => `${labelOf(f.field).ar}: ${f.problem}`).join('؛ ');
      return {
        kind: 'error',
        text: {
          en: fields.length ? `Some fields are not valid. ${en}.` : 'Some fields are not valid.',
          ar: fields.length ? `بعض الحقول غير صالحة. ${ar}.` : 'بعض الحقول غير صالحة.',
        },
      };
    }
    case 'event_unknown':
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} interface does not know this event. Update the app to its latest version, then turn the Zap off and on.`,
          ar: `واجهة ${n.ar} لا تعرف هذا الحدث. حدّث التطبيق إلى آخر إصدار، ثم أوقف الزاب وشغّله.`,
        },
      };
    case 'url_not_allowed':
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} interface refused the Zap's webhook address (it accepts HTTPS on a public address only). Turn the Zap off and on; if it persists, contact support.`,
          ar: `رفضت واجهة ${n.ar} عنوان الويب هوك الخاص بالزاب (تقبل HTTPS على عنوان عام فقط). أوقف الزاب وشغّله؛ وإن تكرر فتواصل مع الدعم.`,
        },
      };
    case 'webhook_limit':
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} account has too many webhook subscriptions. Turn off Zaps you no longer use (or delete old subscriptions in the back office), then try again.`,
          ar: `لدى حساب ${n.ar} اشتراكات ويب هوك كثيرة. أوقف الزابات غير المستخدمة (أو احذف الاشتراكات القديمة من المكتب الخلفي) ثم حاول مجددًا.`,
        },
      };
    case 'webhook_disabled':
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} webhook subscription is switched off (too many failed deliveries). Turn the Zap off and on to subscribe again.`,
          ar: `اشتراك الويب هوك في ${n.ar} متوقف (فشل التسليم مرات كثيرة). أوقف الزاب وشغّله للاشتراك من جديد.`,
        },
      };
    case 'appointment_locked':
      return {
        kind: 'halt',
        text: {
          en: 'Nothing was done: the appointment is in progress or completed, and such an appointment cannot be cancelled.',
          ar: 'لم يُنفَّذ شيء: الموعد جارٍ أو مكتمل، ولا يمكن إلغاء موعد كهذا.',
        },
      };
    case 'delivery_sent':
      return {
        kind: 'halt',
        text: {
          en: 'Nothing was done: this delivery already succeeded and cannot be sent again.',
          ar: 'لم يُنفَّذ شيء: نجح هذا التسليم سابقًا ولا يمكن إرساله مجددًا.',
        },
      };
    case 'payload_redacted':
      return {
        kind: 'halt',
        text: {
          en: 'Nothing was done: the delivery’s content was removed (retention or a patient’s erasure), so it cannot be sent again.',
          ar: 'لم يُنفَّذ شيء: حُذف محتوى التسليم (مدة الاحتفاظ أو محو بيانات مريض)، فلا يمكن إرساله مجددًا.',
        },
      };
    case 'not_implemented':
      return {
        kind: 'halt',
        text: {
          en: `Nothing was done: the ${n.en} interface has not released this feature yet. Try again after the vendor announces it.`,
          ar: `لم يُنفَّذ شيء: لم تُطلق واجهة ${n.ar} هذه الميزة بعد. حاول مجددًا بعد إعلان المزوّد عنها.`,
        },
      };
    case 'rate_limited':
      return {
        kind: 'throttle',
        text: {
          en: `The ${n.en} interface's rate limit (120 requests a minute) was reached; Zapier will retry shortly.`,
          ar: `بلغت واجهة ${n.ar} حد الطلبات (120 طلبًا في الدقيقة)؛ سيعيد Zapier المحاولة قريبًا.`,
        },
      };
    case 'not_found':
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} interface found nothing at this address: the object may have been deleted, or the id is wrong.`,
          ar: `لم تجد واجهة ${n.ar} شيئًا: ربما حُذف العنصر أو المعرّف غير صحيح.`,
        },
      };
    default:
      return {
        kind: status === 429 ? 'throttle' : 'error',
        text: {
          en: `The ${n.en} interface answered an error (HTTP ${status}${code ? `, ${code}` : ''}).`,
          ar: `أعادت واجهة ${n.ar} خطأ (HTTP ${status}${code ? `، ${code}` : ''}).`,
        },
      };
  }
};

const serverSaid = (lang: Lang, api: Api, message: string): string =>
  lang === 'ar'
    ? `رد واجهة ${APIS[api].name.ar}: «${message}»`
    : `The ${APIS[api].name.en} interface said: "${message}"`;

/** Builds the Zapier error for an error answer of one of the interfaces. */
export const toZapierError = (z: ZObject, response: HttpResponse, api: Api, lang: Lang): Error => {
  const envelope = parseEnvelope(response);
  const explained = explain(
    envelope.error ?? (response.status === 429 ? 'rate_limited' : undefined),
    api,
    response.status,
    envelope.details,
  );
  const server = envelope.message ?? bodySnippet(response);
  const message = server ? `${explained.text[lang]} ${serverSaid(lang, api, server)}` : explained.text[lang];
  switch (explained.kind) {
    case 'auth':
      return new z.errors.ExpiredAuthError(message);
    case 'halt':
      return new z.errors.HaltedError(message);
    case 'throttle':
      return new z.errors.ThrottledError(
        message,
        retryAfterSeconds(response.headers.get('retry-after')) ?? 60,
      );
    default:
      return new z.errors.Error(message, envelope.error ?? `http_${response.status}`, response.status);
  }
};

/** The interface a request was sent to, as the client marked it. */
const apiOfRequest = (response: HttpResponse): Api | undefined => {
  const api: unknown = response.request.middlewareData?.api;
  return api === 'clinic' || api === 'cashier' ? api : undefined;
};

/**
 * afterResponse: maps every error answer of either interface (CONTRACT §6). A request that asked to handle
 * its own status (`skipThrowForStatus`, e.g. a search turning 404 into nothing found) is left alone.
 */
export const mapErrors = (response: HttpResponse, z: ZObject, bundle: Bundle): HttpResponse => {
  if (response.status < 400 || response.skipThrowForStatus) return response;
  const api = apiOfRequest(response);
  if (!api) return response;
  throw toZapierError(z, response, api, languageOf(bundle));
};
