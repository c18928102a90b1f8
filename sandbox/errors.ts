/**
 * The error envelope `{error, message, details}` of both interfaces, with every code in English and Arabic.
 * The language follows the request's Accept-Language (ar or en; anything else is English).
 */

export type Lang = 'en' | 'ar';

interface CodeInfo {
  status: number;
  en: string;
  ar: string;
}

/**
 * The clinic spec's codes (§7), then the codes the sandbox uses where a spec says an answer exists but does not
 * name its code (see sandbox/README.md, "Assumptions").
 */
export const CODES = {
  unauthenticated: {
    status: 401,
    en: 'The API token is missing. Send it as Authorization: Bearer <API_TOKEN>.',
    ar: 'رمز الواجهة مفقود. أرسله في الترويسة Authorization: Bearer <API_TOKEN>.',
  },
  token_invalid: {
    status: 401,
    en: 'The API token is not valid or was revoked.',
    ar: 'رمز الواجهة غير صالح أو أُلغي.',
  },
  tenant_inactive: {
    status: 403,
    en: 'This account is suspended or closed.',
    ar: 'هذا الحساب موقوف أو مغلق.',
  },
  not_entitled: {
    status: 403,
    en: 'The account’s plan does not include the partner interface.',
    ar: 'باقة الحساب لا تشمل واجهة الشركاء.',
  },
  insufficient_ability: {
    status: 403,
    en: 'This API client lacks the ability this call needs ({ability}).',
    ar: 'عميل الواجهة لا يملك الصلاحية التي يتطلبها هذا الطلب ({ability}).',
  },
  forbidden: {
    status: 403,
    en: 'Only the account owner manages API clients and webhooks.',
    ar: 'إدارة عملاء الواجهة والويب هوك مقصورة على مالك الحساب.',
  },
  not_found: {
    status: 404,
    en: 'The resource was not found.',
    ar: 'لم يُعثر على المورد المطلوب.',
  },
  client_revoked: {
    status: 409,
    en: 'This API client was revoked.',
    ar: 'أُلغي عميل الواجهة هذا.',
  },
  webhook_disabled: {
    status: 409,
    en: 'The webhook subscription is switched off.',
    ar: 'اشتراك الويب هوك متوقف.',
  },
  delivery_sent: {
    status: 409,
    en: 'This delivery already succeeded and cannot be sent again.',
    ar: 'نجح هذا التسليم سابقًا ولا يمكن إرساله مجددًا.',
  },
  payload_redacted: {
    status: 409,
    en: 'The body of this delivery was removed; it cannot be sent again.',
    ar: 'حُذف محتوى هذا التسليم؛ لا يمكن إرساله مجددًا.',
  },
  appointment_locked: {
    status: 409,
    en: 'A completed or in-progress appointment cannot be cancelled.',
    ar: 'لا يمكن إلغاء موعد مكتمل أو جارٍ.',
  },
  validation_failed: {
    status: 422,
    en: 'Some fields are not valid.',
    ar: 'بعض الحقول غير صالحة.',
  },
  event_unknown: {
    status: 422,
    en: 'Unknown webhook event.',
    ar: 'حدث ويب هوك غير معروف.',
  },
  url_not_allowed: {
    status: 422,
    en: 'This URL cannot receive webhooks (HTTPS on a public address only).',
    ar: 'لا يمكن لهذا العنوان استقبال الويب هوك (HTTPS على عنوان عام فقط).',
  },
  webhook_limit: {
    status: 422,
    en: 'Too many webhook subscriptions (at most {limit}).',
    ar: 'اشتراكات الويب هوك كثيرة جدًا (الحد الأقصى {limit}).',
  },
  rate_limited: {
    status: 429,
    en: 'Too many requests. Try again in {retry_after} seconds.',
    ar: 'طلبات كثيرة جدًا. حاول مجددًا بعد {retry_after} ثانية.',
  },
  not_implemented: {
    status: 501,
    en: 'This endpoint is planned and not yet released.',
    ar: 'هذه النقطة مخطط لها ولم تُطلق بعد.',
  },
  // Codes the specs leave unnamed (sandbox assumptions).
  slot_taken: {
    status: 409,
    en: 'This time slot is not free.',
    ar: 'هذا الموعد غير متاح.',
  },
  session_open: {
    status: 409,
    en: 'The till session is still open; its Z-report exists once it is closed.',
    ar: 'جلسة الصندوق ما زالت مفتوحة؛ يصدر تقرير Z بعد إغلاقها.',
  },
  order_not_cancellable: {
    status: 409,
    en: 'The till rejected this order; it can no longer be cancelled.',
    ar: 'رفض الصندوق هذا الطلب؛ لم يعد بالإمكان إلغاؤه.',
  },
  // Sandbox-only endpoints.
  invalid_transition: {
    status: 409,
    en: 'This status change is not allowed ({from} → {to}).',
    ar: 'تغيير الحالة هذا غير مسموح ({from} ← {to}).',
  },
} as const satisfies Record<string, CodeInfo>;

export type ErrorCode = keyof typeof CODES;

/** A failure a handler throws; the route wrapper turns it into the envelope. */
export class ApiError extends Error {
  constructor(
    readonly code: ErrorCode,
    readonly details: Record<string, unknown> = {},
    /** Values for the message's {placeholders}. */
    readonly vars: Record<string, string | number> = {},
    readonly headers: Record<string, string> = {},
  ) {
    super(code);
  }

  get status(): number {
    return CODES[this.code].status;
  }
}

export const languageOf = (acceptLanguage: string | string[] | undefined): Lang => {
  const value = Array.isArray(acceptLanguage) ? acceptLanguage[0] : acceptLanguage;
  return value?.trim().toLowerCase().startsWith('ar') ? 'ar' : 'en';
};

const fill = (text: string, vars: Record<string, string | number>): string =>
  text.replace(/\{(\w+)\}/g, (whole, name: string) => (name in vars ? String(vars[name]) : whole));

export interface Envelope {
  error: string;
  message: string;
  details: Record<string, unknown>;
}

export const envelope = (error: ApiError, lang: Lang): Envelope => ({
  error: error.code,
  message: fill(CODES[error.code][lang], error.vars),
  details: error.details,
});

/** Every code with its status and both messages, for the README and GET /sandbox. */
export const codeTable = () =>
  Object.entries(CODES).map(([code, info]) => ({ code, status: info.status, en: info.en, ar: info.ar }));

/* Field problems of validation_failed: details.errors = [{field, message}], the message in the request's language. */

const PROBLEMS = {
  required: { en: 'is required', ar: 'مطلوب' },
  integer: { en: 'must be an integer', ar: 'يجب أن يكون عددًا صحيحًا' },
  range: { en: 'must be from {min} to {max}', ar: 'يجب أن يكون من {min} إلى {max}' },
  min: { en: 'must be at least {min}', ar: 'يجب ألا يقل عن {min}' },
  number: { en: 'must be a number greater than 0', ar: 'يجب أن يكون عددًا أكبر من 0' },
  string: { en: 'must be text', ar: 'يجب أن يكون نصًا' },
  boolean: { en: 'must be true or false', ar: 'يجب أن يكون true أو false' },
  array: { en: 'must be a list', ar: 'يجب أن يكون قائمة' },
  object: { en: 'must be an object', ar: 'يجب أن يكون كائنًا' },
  one_of: { en: 'must be one of: {values}', ar: 'يجب أن يكون أحد: {values}' },
  date_time: {
    en: 'must be an ISO-8601 date-time with a time zone',
    ar: 'يجب أن يكون تاريخًا ووقتًا بصيغة ISO-8601 مع المنطقة الزمنية',
  },
  date_or_date_time: {
    en: 'must be an ISO-8601 date or date-time',
    ar: 'يجب أن يكون تاريخًا أو تاريخًا ووقتًا بصيغة ISO-8601',
  },
  date: { en: 'must be an ISO-8601 date (YYYY-MM-DD)', ar: 'يجب أن يكون تاريخًا بصيغة YYYY-MM-DD' },
  phone: {
    en: 'must be a phone number in E.164 form (+966501234567)',
    ar: 'يجب أن يكون رقم هاتف بصيغة E.164 (+966501234567)',
  },
  unknown: { en: 'does not exist', ar: 'غير موجود' },
  taken: { en: 'is already used in this account', ar: 'مستخدم من قبل في هذا الحساب' },
  not_json: { en: 'is not valid JSON', ar: 'ليس JSON صالحًا' },
  open_item_price: {
    en: 'is required for a line that matches no product',
    ar: 'مطلوب لسطر لا يطابق أي منتج',
  },
  one_default: {
    en: 'only one variant can be the default',
    ar: 'يمكن أن يكون متغير واحد فقط هو الافتراضي',
  },
  not_this_item: {
    en: 'names a variant of another item',
    ar: 'يشير إلى متغير لصنف آخر',
  },
  patient_needed: {
    en: 'give patient_id or patient_phone',
    ar: 'أرسل patient_id أو patient_phone',
  },
  event_needed: { en: 'give event or events', ar: 'أرسل event أو events' },
  star_alone: {
    en: '"*" must be the only value',
    ar: 'يجب أن تكون "*" القيمة الوحيدة',
  },
  no_changes: { en: 'give at least one field to change', ar: 'أرسل حقلًا واحدًا على الأقل لتغييره' },
  ulid: { en: 'must be a ULID (26 characters)', ar: 'يجب أن يكون ULID من 26 خانة' },
  cursor: { en: 'is not a receipt id of this account', ar: 'ليس معرّف إيصال في هذا الحساب' },
  past: { en: 'must not be in the past', ar: 'يجب ألا يكون في الماضي' },
} as const satisfies Record<string, Record<Lang, string>>;

export type Problem = keyof typeof PROBLEMS;

/** Collects field problems of one request; `done()` throws validation_failed when there are any. */
export class Checker {
  readonly errors: Array<{ field: string; message: string; code: Problem }> = [];

  constructor(readonly lang: Lang) {}

  add(field: string, problem: Problem, vars: Record<string, string | number> = {}): void {
    this.errors.push({ field, code: problem, message: fill(PROBLEMS[problem][this.lang], vars) });
  }

  has(field: string): boolean {
    return this.errors.some((e) => e.field === field);
  }

  done(): void {
    if (this.errors.length) throw new ApiError('validation_failed', { errors: this.errors });
  }
}

/** validation_failed with one field problem, to throw. */
export const refuse = (
  lang: Lang,
  field: string,
  problem: Problem,
  vars: Record<string, string | number> = {},
): ApiError => {
  const c = new Checker(lang);
  c.add(field, problem, vars);
  return new ApiError('validation_failed', { errors: c.errors });
};

/** 409 invalid_transition of a sandbox-only status change. */
export const invalidTransition = (from: string, to: string) =>
  new ApiError('invalid_transition', { from, to }, { from, to });

/* What a route schema finds (Fastify's Ajv errors), as validation_failed. */

interface SchemaError {
  keyword: string;
  instancePath: string;
  params: Record<string, unknown>;
  parentSchema?: Record<string, unknown>;
}

const TYPE_PROBLEMS: Record<string, Problem> = {
  integer: 'integer',
  number: 'number',
  string: 'string',
  boolean: 'boolean',
  array: 'array',
};

/** `/lines/0/unit_price_halalas` → `lines[0].unit_price_halalas`; the root is `body`. */
const fieldOf = (path: string, member?: unknown): string =>
  [...path.split('/').slice(1), ...(member === undefined ? [] : [String(member)])].reduce(
    (f, part) => (/^\d+$/.test(part) ? `${f}[${part}]` : f ? `${f}.${part}` : part),
    '',
  ) || 'body';

/** One problem per field (the first the schema finds), in the order of the schema's properties. */
export const schemaFailure = (errors: readonly SchemaError[], lang: Lang): ApiError => {
  const c = new Checker(lang);
  for (const e of errors) {
    const s = e.parentSchema ?? {};
    const field = fieldOf(e.instancePath, e.keyword === 'required' ? e.params.missingProperty : undefined);
    if (c.has(field)) continue;
    const type = Array.isArray(s.type) ? s.type[0] : s.type;
    if (e.keyword === 'required') c.add(field, 'required');
    else if (e.keyword === 'type' && type === 'number' && s.minimum !== undefined)
      c.add(field, 'min', { min: Number(s.minimum) });
    else if (e.keyword === 'type') c.add(field, TYPE_PROBLEMS[String(type)] ?? 'object');
    else if (e.keyword === 'enum') c.add(field, 'one_of', { values: (s.enum as string[]).join(', ') });
    else if (e.keyword === 'format') c.add(field, e.params.format as Problem);
    else if (e.keyword === 'maxLength') c.add(field, 'range', { min: 1, max: Number(s.maxLength) });
    else if (e.keyword === 'exclusiveMinimum') c.add(field, 'number');
    else if (s.maximum !== undefined)
      c.add(field, 'range', { min: Number(s.minimum ?? 0), max: Number(s.maximum) });
    else c.add(field, 'min', { min: Number(s.minimum ?? 0) });
  }
  return new ApiError('validation_failed', { errors: c.errors });
};
