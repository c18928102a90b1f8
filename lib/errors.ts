import type { Bundle, HttpResponse, ZObject } from 'zapier-platform-core';
import { APIS, connectionTokens, type Api } from './partner-apis';
import { capital, hostOf, ZAPIER, type Host, type HostWords } from './host';
import { AppMessageError, languageOf, say, type Bilingual, type Lang } from './i18n';
import { labelOf } from './labels';
import { invalidFields, parseEnvelope, retryAfterSeconds, withoutSecrets } from './error-body';

// Kept importable from here, where the error mapper's callers and tests have always found them.
export { RETRY_AFTER, SERVER_MESSAGE_MAX, invalidFields, retryAfterSeconds } from './error-body';

/** Field problem codes the app explains in its own words; other codes read "is not valid". */
const PROBLEMS: Record<string, Bilingual> = {
  required: { en: 'is required', ar: 'مطلوب' },
  taken: { en: 'is already used in this account', ar: 'مستخدم من قبل في هذا الحساب' },
  unknown: { en: 'does not exist in the account', ar: 'غير موجود في الحساب' },
  past: { en: 'must not be in the past', ar: 'يجب ألا يكون في الماضي' },
  one_of: { en: 'is not one of the allowed values', ar: 'ليس من القيم المسموح بها' },
  phone: { en: 'is not a phone number', ar: 'ليس رقم هاتف' },
  date_time: { en: 'is not a date and time with its offset', ar: 'ليس تاريخًا ووقتًا مع فرق التوقيت' },
  date: { en: 'is not a date', ar: 'ليس تاريخًا' },
  integer: { en: 'must be a whole number', ar: 'يجب أن يكون عددًا صحيحًا' },
  range: { en: 'is outside the allowed range', ar: 'خارج النطاق المسموح' },
  min: { en: 'is below the allowed minimum', ar: 'أقل من الحد الأدنى المسموح' },
  string: { en: 'must be text', ar: 'يجب أن يكون نصًا' },
  boolean: { en: 'must be yes or no', ar: 'يجب أن يكون نعم أو لا' },
  ulid: { en: 'is not a valid id', ar: 'ليس معرّفًا صالحًا' },
  not_this_item: { en: 'names a variant of another item', ar: 'يشير إلى صنف فرعي لصنف آخر' },
  number: { en: 'must be a number', ar: 'يجب أن يكون رقمًا' },
  one_default: { en: 'allows only one default variant', ar: 'يسمح بصنف فرعي افتراضي واحد فقط' },
  open_item_price: {
    en: 'needs a price for a line that matches no product',
    ar: 'يحتاج سعرًا لسطر لا يطابق أي منتج',
  },
};
const NOT_VALID: Bilingual = { en: 'is not valid', ar: 'غير صالح' };
const problemText = (code: string | undefined): Bilingual =>
  (code !== undefined && Object.hasOwn(PROBLEMS, code) ? PROBLEMS[code] : undefined) ?? NOT_VALID;

type ErrorKind = 'auth' | 'halt' | 'throttle' | 'error';

interface Explained {
  kind: ErrorKind;
  text: Bilingual;
}

const ownerWebhooks = (words: HostWords): Bilingual => ({
  en: `Only the account owner manages webhooks. Ask the owner to create the API client (or reconnect with the owner’s token), then ${words.activateAgain.en}.`,
  ar: `إدارة الويب هوك مقصورة على مالك الحساب. اطلب من المالك إنشاء عميل الواجهة (أو أعد الربط برمز المالك)، ثم ${words.activateAgain.ar}.`,
});

/** The app's own explanation of an error code (CONTRACT §6), in both languages. */
export const explain = (
  code: string | undefined,
  api: Api,
  status: number,
  details: Record<string, unknown> | undefined,
  words: HostWords = ZAPIER.words,
): Explained => {
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
      const named =
        details && Object.hasOwn(details, 'required_ability') ? details.required_ability : undefined;
      // An ability is an identifier such as "patients:read"; anything else is not repeated.
      const ability = typeof named === 'string' && /^[a-z][a-z0-9_.:-]{0,59}$/.test(named) ? named : '?';
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} API client lacks the ability "${ability}". The account owner adds "${ability}" to the API client in the back office (Developers → API clients); then reconnect the account.`,
          ar: `عميل واجهة ${n.ar} لا يملك الصلاحية "${ability}". يضيف مالك الحساب الصلاحية "${ability}" إلى عميل الواجهة في المكتب الخلفي (المطورون ← عملاء الواجهة)، ثم أعد ربط الحساب.`,
        },
      };
    }
    case 'forbidden':
      return { kind: 'error', text: ownerWebhooks(words) };
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
      const en = fields.map((f) => `${labelOf(f.field).en}: ${problemText(f.problem).en}`).join('; ');
      const ar = fields.map((f) => `${labelOf(f.field).ar}: ${problemText(f.problem).ar}`).join('؛ ');
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
          en: `The ${n.en} interface does not know this event. Update the app to its latest version, then ${words.reactivate.en}.`,
          ar: `واجهة ${n.ar} لا تعرف هذا الحدث. حدّث التطبيق إلى آخر إصدار، ثم ${words.reactivate.ar}.`,
        },
      };
    case 'url_not_allowed':
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} interface refused the ${words.flow}'s webhook address (it accepts HTTPS on a public address only). ${capital(words.reactivate.en)}; if it persists, contact support.`,
          ar: `رفضت واجهة ${n.ar} عنوان الويب هوك الخاص ب${words.theFlowAr} (تقبل HTTPS على عنوان عام فقط). ${words.reactivate.ar}؛ وإن تكرر فتواصل مع الدعم.`,
        },
      };
    case 'webhook_limit':
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} account has too many webhook subscriptions. ${words.turnOffUnused.en} (or delete old subscriptions in the back office), then try again.`,
          ar: `لدى حساب ${n.ar} اشتراكات ويب هوك كثيرة. ${words.turnOffUnused.ar} (أو احذف الاشتراكات القديمة من المكتب الخلفي) ثم حاول مجددًا.`,
        },
      };
    case 'webhook_disabled':
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} webhook subscription is switched off (too many failed deliveries). ${capital(words.reactivate.en)} to subscribe again.`,
          ar: `اشتراك الويب هوك في ${n.ar} متوقف (فشل التسليم مرات كثيرة). ${words.reactivate.ar} للاشتراك من جديد.`,
        },
      };
    case 'appointment_locked':
      return {
        kind: 'halt',
        text: {
          en: 'Nothing was done: the appointment is in progress or completed, and the clinic no longer changes such an appointment.',
          ar: 'لم يُنفَّذ شيء: الموعد جارٍ أو مكتمل، ولا تغيّر العيادة موعدًا كهذا.',
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
          en: `The ${n.en} interface's rate limit (120 requests a minute) was reached; ${words.retrySoon.en}`,
          ar: `بلغت واجهة ${n.ar} حد الطلبات (120 طلبًا في الدقيقة)؛ ${words.retrySoon.ar}`,
        },
      };
    case 'not_found':
      return {
        kind: 'error',
        text: {
          en: `The ${n.en} account has no item with this id: it may have been deleted, or the id is wrong. Choose it from the list or map its id from an earlier step.`,
          ar: `لا يوجد في حساب ${n.ar} عنصر بهذا المعرّف: ربما حُذف أو المعرّف غير صحيح. اختره من القائمة أو اربط معرّفه من خطوة سابقة.`,
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

/**
 * Introduces the server's own words, which are quoted once, as they came (in the language asked for). The colon
 * follows both languages of the introduction, so the quote comes right after the words that announce it.
 */
const serverSaid = (lang: Lang, api: Api, message: string): string =>
  `${say(lang, { en: `The ${APIS[api].name.en} interface said`, ar: `رد واجهة ${APIS[api].name.ar}` })}: "${message}"`;

/**
 * The error codes the specs document (clinic §7; the cashier shows insufficient_ability and shares the rest's
 * envelope). An answer that carries one means what the spec says, whichever operation asked: `explain` words each.
 */
export const DOCUMENTED_CODES: ReadonlySet<string> = new Set(
  [
    'unauthenticated token_invalid tenant_inactive not_entitled insufficient_ability forbidden not_found',
    'client_revoked webhook_disabled delivery_sent payload_redacted appointment_locked validation_failed',
    'event_unknown url_not_allowed webhook_limit rate_limited not_implemented',
  ]
    .join(' ')
    .split(' '),
);

export const isDocumented = (code: string | undefined): boolean =>
  code !== undefined && DOCUMENTED_CODES.has(code);

/** An error answer as an operation reads it to choose its own words: its status and the envelope's code and details. */
export interface Refusal {
  status: number;
  error?: string;
  details?: Record<string, unknown>;
}

/** What an operation says of an answer in its own words, and how the step ends: halted (nothing done) or failed. */
export interface OwnWords {
  kind: 'halt' | 'error';
  text: Bilingual;
}

/**
 * The error answers an operation words itself, by status, declared where it makes its call (lib/http.ts hands the
 * answer and these words to `toZapierError`; nothing of them rides in core's request options). Words given as data
 * are for what the specs leave unnamed: an answer whose code a spec documents keeps that code's meaning. A function
 * reads the answer and decides (undefined: the code's own explanation).
 */
export type OwnAnswers = Readonly<Record<number, OwnWords | ((answer: Refusal) => OwnWords | undefined)>>;

const ownWordsFor = (answer: Refusal, own: OwnAnswers | undefined): OwnWords | undefined => {
  const given = own && Object.hasOwn(own, answer.status) ? own[answer.status] : undefined;
  if (typeof given === 'function') return given(answer);
  return given && !isDocumented(answer.error) ? given : undefined;
};

/**
 * The one error mapper: the Zapier error for an error answer of one of the interfaces, in the operation's own words
 * where it gave some for this answer, else in the app's explanation of the code (CONTRACT §6), followed by the
 * server's message. `secrets`: the connection's tokens, of which nothing the interface sent is repeated.
 */
export const toZapierError = (
  z: ZObject,
  response: HttpResponse,
  api: Api,
  lang: Lang,
  own?: OwnAnswers,
  secrets: readonly string[] = [],
  host: Host = ZAPIER,
): Error => {
  // The connection's tokens never reach a message, whatever the interface quotes of them.
  const envelope = withoutSecrets(parseEnvelope(response), secrets);
  const mine = ownWordsFor(
    { status: response.status, error: envelope.error, details: envelope.details },
    own,
  );
  const explained: Explained =
    mine ??
    explain(
      envelope.error ?? (response.status === 429 ? 'rate_limited' : undefined),
      api,
      response.status,
      envelope.details,
      host.words,
    );
  const server = envelope.message;
  const ours = say(lang, explained.text);
  const message = server ? `${ours} ${serverSaid(lang, api, server)}` : ours;
  switch (explained.kind) {
    case 'auth':
      return new z.errors.ExpiredAuthError(message);
    case 'halt':
      return new z.errors.HaltedError(message);
    case 'throttle':
      return new z.errors.ThrottledError(message, retryAfterSeconds(response.headers.get('retry-after')));
    default:
      return new z.errors.Error(message, envelope.error ?? `http_${response.status}`, response.status);
  }
};

/** A 3xx from an interface: the configured base address is not where the interface answers. */
const redirected = (api: Api, status: number, lang: Lang): Error => {
  const { name, baseLabel, pathPrefix } = APIS[api];
  return new AppMessageError(
    say(lang, {
      en: `The ${name.en} interface answered with a redirect (HTTP ${status}) to another address. The app does not follow redirects, so nothing was sent there. Check the ${baseLabel} in the connection: it is the https:// address the vendor gave you, ending with ${pathPrefix}, or blank for the default.`,
      ar: `ردّت واجهة ${name.ar} بإعادة توجيه (HTTP ${status}) إلى عنوان آخر. لا يتبع التطبيق إعادة التوجيه، فلم يُرسَل إليه شيء. تحقق من ${baseLabel} في الاتصال: هو عنوان https:// الذي أعطاك إياه المزوّد، وينتهي بـ ${pathPrefix}، أو اتركه فارغًا للعنوان الافتراضي.`,
    }),
  );
};

/**
 * What afterResponse needs of a request: the interface it went to, and the statuses that come back to the caller
 * (a search's 404: nothing found; the answers an operation words itself, which its client maps with its words). It
 * travels in core's `middlewareData`, the channel core gives a request to its afterResponse, as plain data: written
 * by `errorHandlingOf` and read by `handlingOf`, both here, so its shape has one place.
 */
export interface ErrorHandling {
  api: Api;
  handle?: readonly number[];
}

/** The request option that carries a request's error handling to `mapErrors` (lib/http.ts sets it). */
export const errorHandlingOf = (
  api: Api,
  handle: readonly number[] | undefined,
): { middlewareData: ErrorHandling } => ({ middlewareData: { api, handle } });

const handlingOf = (response: HttpResponse): ErrorHandling | undefined => {
  const given = response.request.middlewareData as Partial<ErrorHandling> | undefined;
  return given?.api === 'clinic' || given?.api === 'cashier' ? (given as ErrorHandling) : undefined;
};

/**
 * afterResponse, the one path of an error answer of either interface (CONTRACT §6): the statuses the caller handles
 * itself (`handle`, passed with the request) come back to it, any other becomes the Zapier error here.
 */
export const mapErrors = (response: HttpResponse, z: ZObject, bundle: Bundle): HttpResponse => {
  if (response.status < 300) return response;
  const handling = handlingOf(response);
  // The client never follows a redirect (lib/http.ts): the answer is refused here, once, whatever the operation
  // handles, since core's throwForStatus lets a 3xx through. Its body and Location are not repeated.
  if (handling && response.status < 400) throw redirected(handling.api, response.status, languageOf(bundle));
  if (response.status < 400) return response;
  if (!handling || handling.handle?.includes(response.status)) return response;
  throw toZapierError(
    z,
    response,
    handling.api,
    languageOf(bundle),
    undefined,
    connectionTokens(bundle),
    hostOf(bundle),
  );
};
