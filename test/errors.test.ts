import nock from 'nock';
import { errors } from 'zapier-platform-core';
import { DOCUMENTED_CODES } from '../lib/errors';
import { clientFor } from '../lib/http';
import { BETWEEN } from '../lib/i18n';
import type { Api } from '../lib/partner-apis';
import type { Sandbox } from '../sandbox';
import { body, data, definition, HOOK_TARGET_URL, pathOf, replay, reply, sent, type Json } from './fixtures';
import { call } from '../harness/call';
import { given, receiverUrl, type Given } from './support/recorder';
import {
  App,
  appTester,
  AUTH,
  CASHIER,
  cashierApi,
  cashierPath,
  CLINIC,
  CLINIC_TOKEN,
  clinicApi,
  clinicPath,
  useNock,
  strays,
} from './helpers';

/*
 * The error mapper end to end (CONTRACT §6, clinic spec §7): a real request of the app, so core's middleware
 * and the app's afterResponse run exactly as on Zapier, answered with the sandbox's recorded error answers.
 */

const PATIENT: string = data('find-patient-by-id').id;

/**
 * The recorded answer of the clinic with `code`, in English or Arabic (test/fixtures, clinic-errors-*), reused on
 * purpose for another request than the one it was recorded for.
 */
const clinicError = (code: string, lang: 'en' | 'ar' = 'en') =>
  reply(`clinic-errors-${lang}`, { error: code });

type Kind = 'auth' | 'halt' | 'throttle' | 'error';

/** Runs `fn` with a client of `api` inside the app and hands back what it threw. */
const failure = async (
  api: Api,
  fn: (client: ReturnType<typeof clientFor>) => Promise<unknown>,
  authData: Record<string, string> = AUTH,
): Promise<Error> => {
  let result: unknown;
  try {
    result = await appTester((z, bundle) => fn(clientFor(z, bundle, api)), { authData });
  } catch (err) {
    return err as Error;
  }
  throw new Error(`expected the call to fail, it returned ${JSON.stringify(result)}`);
};

const getPatient = (authData: Record<string, string> = AUTH) =>
  failure('clinic', (c) => c.get(`/patients/${PATIENT}`), authData);

/** What the Zap builder reads: z.errors.Error and ThrottledError carry JSON, the others plain text. */
const userMessage = (err: Error): string =>
  err.name === 'AppError' || err.name === 'ThrottledError'
    ? (JSON.parse(err.message) as { message: string }).message
    : err.message;

const expectKind = (err: Error, kind: Kind) => {
  switch (kind) {
    case 'auth':
      expect(err).toBeInstanceOf(errors.ExpiredAuthError);
      expect(err.name).toBe('ExpiredAuthError');
      break;
    case 'halt':
      expect(err).toBeInstanceOf(errors.HaltedError);
      expect(err.name).toBe('HaltedError');
      break;
    case 'throttle':
      expect(err).toBeInstanceOf(errors.ThrottledError);
      expect(err.name).toBe('ThrottledError');
      break;
    case 'error':
      expect(err).toBeInstanceOf(errors.Error);
      expect(err.name).toBe('AppError');
      break;
  }
};

/** A request of the app's clinic client that the sandbox answers with the row's code. */
interface Ask {
  method: 'GET' | 'POST';
  /** Below the clinic's base address, or (`origin`) below its origin: the sandbox's re-send stand-in. */
  path: string;
  body?: Record<string, unknown>;
  origin?: true;
}

interface Row {
  code: string;
  status: number;
  kind: Kind;
  /** The request that records the answer (the row's test sends it): GET the patient unless said. */
  ask?: Ask;
  /** What the sandbox needs for that request to get the code (record mode). */
  given?: Given;
  /** The app's own English explanation: what happened and what to do. */
  says: RegExp[];
  /** What the message names in any language (e.g. the missing ability). */
  names?: string[];
  /** The labels (English, Arabic) the message must use for the fields the answer names. */
  fields?: Record<string, [string, string]>;
}

/** A patient the clinic does not have. */
const NO_PATIENT = '01JD8ZK6M4Q2W7R9T3V5X8Y1AB';
/** The seed's appointment in progress (as Cancel Appointment's locked case sends it). */
const IN_PROGRESS = '01M7PP4EG01MNH1GY6N5CSR13S';
/** An AppointmentWrite body as the app sends it. */
const BOOKING = {
  patient_id: PATIENT,
  branch_id: 1,
  appointment_type_id: 4,
  starts_at: '2026-11-26T12:30:00+03:00',
  practitioner_id: '01HQW9J6R0PBHZJ7SBXFA5ZN7T',
  note: 'First visit',
  external_ref: 'web-5501',
};
/** A fresh sandbox's first subscription and first delivery: what the webhook rows' given steps make. */
const FIRST = 1;
const subscribeTo = (target: string) => ({ target_url: target, event: 'appointment.created' });

/**
 * Record mode: a subscription to the loopback receiver (`ok`: 204, `gone`: 410, `fail`: 500) and its test delivery,
 * both the sandbox's first (the rows' requests name them).
 */
const testDelivery = async (sb: Sandbox, answer: 'ok' | 'gone' | 'fail') => {
  const sub = await call(`${sb.clinicBaseUrl}/webhooks`, {
    token: sb.tokens.clinicOwner,
    body: subscribeTo(`${await receiverUrl()}/${answer}/1`),
  });
  await call(`${sb.clinicBaseUrl}/webhooks/${sub.body.id}/test`, { token: sb.tokens.clinicOwner, body: {} });
  await sb.settle();
  const [delivery, ...more] = sb.deliveries({ subscriptionId: sub.body.id });
  if (sub.body.id !== FIRST || delivery?.id !== FIRST || more.length) {
    throw new Error(`expected subscription and delivery ${FIRST}, got ${sub.body.id} and ${delivery?.id}`);
  }
};

// Clinic spec §7 table, mapped as CONTRACT §6 says; each code recorded from the request its row sends.
const TABLE: Row[] = [
  {
    code: 'unauthenticated',
    status: 401,
    kind: 'auth',
    // The app never sends a request without its token (it stops before); recorded with the token left out.
    given: { tokens: { clinic: null } },
    says: [/Clinic API Token/, /missing/, /reconnect/i],
  },
  {
    code: 'token_invalid',
    status: 401,
    kind: 'auth',
    given: { tokens: { clinic: 'clinicRevokedToken' } },
    says: [/Clinic API Token/, /not valid|revoked/, /reconnect/i],
  },
  {
    code: 'tenant_inactive',
    status: 403,
    kind: 'error',
    given: { tokens: { clinic: 'clinicSuspended' } },
    says: [/suspended or closed/],
  },
  {
    code: 'not_entitled',
    status: 403,
    kind: 'error',
    given: { tokens: { clinic: 'clinicNotEntitled' } },
    says: [/plan/, /partner interface/],
  },
  {
    code: 'insufficient_ability',
    status: 403,
    kind: 'error',
    ask: { method: 'POST', path: '/appointments', body: BOOKING },
    given: { tokens: { clinic: 'clinicReadOnly' } },
    names: ['"appointments:write"'],
    says: [/account owner/i, /API client/, /back office/, /reconnect/i],
  },
  {
    code: 'forbidden',
    status: 403,
    kind: 'error',
    ask: { method: 'GET', path: '/webhooks' },
    given: { tokens: { clinic: 'clinicNonOwner' } },
    says: [/only the account owner/i, /webhooks/],
  },
  {
    code: 'not_found',
    status: 404,
    kind: 'error',
    ask: { method: 'GET', path: `/patients/${NO_PATIENT}` },
    says: [/no item with this id/, /Choose it from the list or map its id from an earlier step/],
  },
  {
    code: 'client_revoked',
    status: 409,
    kind: 'auth',
    given: { tokens: { clinic: 'clinicRevokedClient' } },
    says: [/clinic API client/, /revoked/, /reconnect/i],
  },
  {
    code: 'webhook_disabled',
    status: 409,
    kind: 'error',
    // A receiver that answered 410 to the test delivery switched the subscription off.
    ask: { method: 'POST', path: `/webhooks/${FIRST}/test` },
    given: { setup: (sb) => testDelivery(sb, 'gone') },
    says: [/switched off/, /turn the Zap off and on/i],
  },
  {
    code: 'delivery_sent',
    status: 409,
    kind: 'halt',
    // The clinic spec implies a re-send endpoint and shows none: the sandbox's stand-in, below the clinic's origin.
    ask: { method: 'POST', path: `/sandbox/deliveries/${FIRST}/resend`, origin: true },
    given: { setup: (sb) => testDelivery(sb, 'ok') },
    says: [/Nothing was done/, /already succeeded/],
  },
  {
    code: 'payload_redacted',
    status: 409,
    kind: 'halt',
    // A failed delivery whose body was then removed (as retention or an erasure does).
    ask: { method: 'POST', path: `/sandbox/deliveries/${FIRST}/resend`, origin: true },
    given: {
      setup: async (sb) => {
        await testDelivery(sb, 'fail');
        await call(`${sb.controlUrl}/deliveries/${FIRST}/redact`, { body: {} });
      },
    },
    says: [/Nothing was done/, /removed/],
  },
  {
    code: 'appointment_locked',
    status: 409,
    kind: 'halt',
    ask: { method: 'POST', path: `/appointments/${IN_PROGRESS}/cancel`, body: {} },
    says: [/Nothing was done/, /in progress or completed/, /no longer changes such an appointment/],
  },
  {
    code: 'validation_failed',
    status: 422,
    kind: 'error',
    // A start without its offset.
    ask: { method: 'POST', path: '/appointments', body: { ...BOOKING, starts_at: '2026-11-26T12:30:00' } },
    fields: { starts_at: ['Start Time', 'وقت البدء'] },
    says: [/Start Time: is not a date and time/],
  },
  {
    code: 'event_unknown',
    status: 422,
    kind: 'error',
    ask: { method: 'GET', path: '/webhooks/events/nope/recent' },
    says: [/does not know this event/, /Update the app/],
  },
  {
    code: 'url_not_allowed',
    status: 422,
    kind: 'error',
    ask: { method: 'POST', path: '/webhooks', body: subscribeTo('https://10.0.0.5/x') },
    says: [/HTTPS on a public address/],
  },
  {
    code: 'webhook_limit',
    status: 422,
    kind: 'error',
    ask: { method: 'POST', path: '/webhooks', body: subscribeTo(HOOK_TARGET_URL) },
    given: { sandbox: { webhookLimit: 0 } },
    says: [/too many webhook subscriptions/, /Turn off/],
  },
  {
    code: 'rate_limited',
    status: 429,
    kind: 'throttle',
    // One request a minute, and the owner's first made.
    given: {
      sandbox: { rateLimitPerMinute: 1 },
      setup: async (sb) => {
        await call(`${sb.clinicBaseUrl}/ping`, { token: sb.tokens.clinicOwner });
      },
    },
    says: [/rate limit/],
  },
  {
    code: 'not_implemented',
    status: 501,
    kind: 'halt',
    given: { sandbox: { planned: ['GET /patients/{id}'] } },
    says: [/Nothing was done/, /not released/],
  },
];

/** The row's request, through the app's clinic client; what it threw. */
const ask = (row: Row, lang: 'en' | 'ar') => {
  const { method, path, body: sentBody, origin } = row.ask ?? { method: 'GET', path: `/patients/${PATIENT}` };
  const authData = { ...AUTH, language: lang };
  // Below the origin, from the base address (which must end with /partner/v1): the URL parser resolves the dots.
  const from = origin ? `${new URL(CLINIC).pathname.replace(/[^/]+/g, '..')}${path}` : path;
  return failure('clinic', (c) => (method === 'GET' ? c.get(from) : c.post(from, sentBody)), authData);
};
/** The nock interceptor of the row's request, answered with the recording of that request. */
const expectAsk = (row: Row, lang: 'en' | 'ar') => {
  const { method, path, body: sentBody, origin } = row.ask ?? { method: 'GET', path: `/patients/${PATIENT}` };
  const full = origin ? path : clinicPath(path);
  const scope = clinicApi(lang);
  const interceptor =
    method === 'GET' ? scope.get(full) : scope.post(full, sentBody as nock.RequestBodyMatcher | undefined);
  return interceptor
    .matchHeader('accept', 'application/json')
    .reply(replay(`clinic-errors-${lang}`, { error: row.code }));
};

// Record mode: a 500 of the clinic's patient reads (a fault the sandbox injects), a read-only and a revoked
// cashier token.
given('server-error', {
  setup: async (sb) => {
    sb.injectFault({ pathPrefix: '/partner/v1/patients', status: 500 });
  },
});
given('create-item-insufficient-ability', { tokens: { cashier: 'cashierReadOnly' } });
given('cashier-token-invalid', { tokens: { cashier: 'cashierRevokedToken' } });

describe('error mapper (CONTRACT §6) through a real request', () => {
  useNock();

  it('covers every code of the clinic spec §7 table', () => {
    expect(TABLE.map((r) => r.code).sort()).toEqual(
      [
        'unauthenticated',
        'token_invalid',
        'tenant_inactive',
        'not_entitled',
        'insufficient_ability',
        'forbidden',
        'not_found',
        'client_revoked',
        'webhook_disabled',
        'delivery_sent',
        'payload_redacted',
        'appointment_locked',
        'validation_failed',
        'event_unknown',
        'url_not_allowed',
        'webhook_limit',
        'rate_limited',
        'not_implemented',
      ].sort(),
    );
    // The codes an operation's own words never override (lib/errors.ts) are exactly these.
    expect([...DOCUMENTED_CODES].sort()).toEqual(TABLE.map((r) => r.code).sort());
  });

  /** The field errors of a recorded validation_failed answer. */
  const fieldErrors = (answer: Json): Array<{ field: string; message: string }> =>
    answer.details?.errors ?? [];

  describe.each(TABLE)('$code ($status)', (row) => {
    const { code, status, kind, says, names = [], fields = {} } = row;
    // Record mode: this row's test records its code in a sandbox in the state it needs.
    beforeEach(() => {
      for (const lang of ['en', 'ar']) given(`clinic-errors-${lang}`, row.given ?? {});
    });

    it('in English: the right Zapier error, the server’s message and the app’s explanation', async () => {
      const answer = clinicError(code, 'en');
      expect(answer[0]).toBe(status);
      const scope = expectAsk(row, 'en');

      const err = await ask(row, 'en');
      expect(scope.isDone()).toBe(true);

      expectKind(err, kind);
      const text = userMessage(err);
      expect(text).toContain(answer[1].message);
      for (const re of says) expect(text).toMatch(re);
      for (const name of names) expect(text).toContain(name);
      // Each invalid field by its label, in the app's words for the problem's code; never the body's own words.
      for (const e of fieldErrors(answer[1])) expect(text).toContain(`${fields[e.field]![0]}: is not a date`);
      for (const e of fieldErrors(answer[1])) expect(text).not.toContain(e.message);
      if (kind === 'auth') expect(text).not.toMatch(/cashier/i);
      if (kind === 'error') {
        expect(JSON.parse(err.message)).toEqual({ message: text, code, status });
      }
    });

    it('in Arabic: Accept-Language ar is sent and the explanation is English, then its Arabic', async () => {
      const answer = clinicError(code, 'ar');
      const serverMessage: string = answer[1].message;
      expect(serverMessage).toMatch(/[\u0600-\u06FF]{3,}/);
      const scope = expectAsk(row, 'ar');

      const err = await ask(row, 'ar');
      expect(scope.isDone()).toBe(true);

      expectKind(err, kind);
      const text = userMessage(err);
      expect(text).toContain(serverMessage);
      // The app's own part, without the server's words: English first, then the same explanation in Arabic
      // (Zapier's publishing rules want English in every message, first).
      const own = text.split(serverMessage).join('');
      expect(own).toMatch(/^[^\u0600-\u06FF]*[A-Za-z]{3,}/);
      const english = own.split(BETWEEN)[0]!;
      expect(english).not.toMatch(/[\u0600-\u06FF]/);
      expect(own.slice(english.length + BETWEEN.length)).toMatch(/^[^A-Za-z]*[\u0600-\u06FF]{3,}/);
      for (const re of says) expect(english).toMatch(re);
      for (const name of names) expect(own).toContain(name);
      for (const e of fieldErrors(answer[1])) expect(text).toContain(`${fields[e.field]![1]}: ليس تاريخًا`);
      if (kind === 'error') expect(JSON.parse(err.message)).toMatchObject({ code, status });
    });
  });

  it('names the Arabic labels of the fields and the token in Arabic', async () => {
    const validation = clinicError('validation_failed', 'ar');
    const [startsAt] = fieldErrors(validation[1]).filter((e) => e.field === 'starts_at');
    clinicApi('ar')
      .get(clinicPath(`/patients/${PATIENT}`))
      .reply(...validation);
    clinicApi('ar')
      .get(clinicPath(`/patients/${PATIENT}`))
      .reply(...clinicError('token_invalid', 'ar'));

    const invalid = userMessage(await getPatient({ ...AUTH, language: 'ar' }));
    expect(startsAt).toBeDefined();
    expect(invalid).toContain('وقت البدء: ليس تاريخًا ووقتًا مع فرق التوقيت');
    expect(invalid).not.toContain(startsAt!.message);
    expect(invalid).not.toContain('starts_at');

    const expired = userMessage(await getPatient({ ...AUTH, language: 'ar' }));
    expect(expired).toContain('رمز واجهة العيادة');
  });

  describe('validation_failed names each field by its label', () => {
    const expectNamed = (err: Error, answer: Json, expected: string[]) => {
      expectKind(err, 'error');
      const text = userMessage(err);
      expect(expected.length).toBeGreaterThan(0);
      for (const e of expected) expect(text).toContain(e);
      expect(text).toContain(answer.message);
      expect(text).not.toMatch(/starts_at|patient_phone|branch_id|appointment_type_id/);
    };

    it("errors: [{field, message}] (the sandbox's own, a booking sent without its branch)", async () => {
      const booking = sent('validation-failed-branch');
      expect(booking).not.toHaveProperty('branch_id');
      clinicApi().post(clinicPath('/appointments'), booking).reply(replay('validation-failed-branch'));
      const answer = body('validation-failed-branch');

      const err = await failure('clinic', (c) => c.post('/appointments', booking));

      expectNamed(
        err,
        answer,
        fieldErrors(answer).map((e) => `${e.field === 'branch_id' ? 'Branch' : e.field}: is required`),
      );
    });

    // hand-built: two shapes of `details` which the spec does not rule out and the sandbox never sends.
    const handBuilt = (details: object) => ({
      error: 'validation_failed',
      message: 'The given data was invalid.',
      details,
    });
    it.each([
      [
        'field → messages',
        handBuilt({ starts_at: ['must be in the future'], patient_phone: ['is not a valid phone number'] }),
        ['Start Time: is not valid', 'Patient Phone: is not valid'],
      ],
      [
        'fields: {...}',
        handBuilt({ fields: { appointment_type_id: 'is unknown' } }),
        ['Appointment Type: is not valid'],
      ],
    ])('%s', async (_shape, answer, expected) => {
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(422, answer);

      expectNamed(await getPatient(), answer, expected);
    });
  });

  it('an unlisted error code is an Error with the server’s message and the status', async () => {
    const [status, answer] = reply('server-error');
    clinicApi()
      .get(clinicPath(`/patients/${PATIENT}`))
      .reply(replay('server-error'));

    const err = await getPatient();

    expectKind(err, 'error');
    const parsed = JSON.parse(err.message) as { message: string; code: string; status: number };
    expect(parsed.status).toBe(status);
    expect(parsed.code).toBe(answer.error);
    expect(TABLE.map((r) => r.code)).not.toContain(answer.error);
    expect(parsed.message).toContain(answer.message);
    expect(parsed.message).toContain(String(status));
  });

  describe('nothing the interface says repeats a token or reorders the message', () => {
    // Tokens of random letters and digits, so no run of four of them occurs in the app's own words.
    const CONNECTION = {
      ...AUTH,
      clinic_api_token: 'cT7qZ9xW2kLm8vRb',
      cashier_api_token: 'pQ4jH6nY3sDf5gKw',
    };
    const TOKENS = [CONNECTION.clinic_api_token, CONNECTION.cashier_api_token];
    /** Every run of four characters of either token: a part no message may hold. */
    const parts = TOKENS.flatMap((t) => Array.from({ length: t.length - 3 }, (_, i) => t.slice(i, i + 4)));
    const quoting = (token: string) => ({
      message: `Token ${token} is not valid; token ending …${token.slice(-4)} or starting ${token.slice(0, 6)}… was revoked.`,
    });
    const answering = (status: number, answer: object) =>
      nock(new URL(CLINIC).origin)
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(status, answer); // hand-built: an interface that quotes the token it was sent, as the sandbox never does

    it.each([
      ['the message, whole and in part', 401, { error: 'token_invalid', ...quoting(TOKENS[0]!) }],
      ['the other interface’s token', 403, { error: 'forbidden', ...quoting(TOKENS[1]!) }],
      ['an unlisted code', 409, { error: `x${TOKENS[0]!.toLowerCase()}`, message: 'No.' }],
      [
        'the ability named',
        403,
        { error: 'insufficient_ability', details: { required_ability: `a${TOKENS[0]!.toLowerCase()}` } },
      ],
      [
        'an invalid field',
        422,
        { error: 'validation_failed', details: { errors: [{ field: `f${TOKENS[0]!}`, code: 'required' }] } },
      ],
    ])('%s', async (_name, status, answer) => {
      for (const language of ['en', 'ar']) {
        answering(status, answer);
        const text = (await getPatient({ ...CONNECTION, language })).message;
        for (const part of parts) expect(text.toLowerCase()).not.toContain(part.toLowerCase());
      }
    });

    it('a readable token does not hide the words it shares with the interface’s (token, clinic)', async () => {
      const [status, answer, headers] = clinicError('token_invalid');
      nock(new URL(CLINIC).origin)
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(status, answer, headers);
      const err = await getPatient({ ...AUTH, clinic_api_token: 'sbx_clinic_token' });
      expectKind(err, 'auth');
      expect(err.message).toContain(`said: "${String(answer.message)}"`);
    });

    it('keeps the words around a hidden token', async () => {
      answering(401, { error: 'token_invalid', message: `Token ${TOKENS[0]!} is not valid.` });
      expect(userMessage(await getPatient(CONNECTION))).toMatch(/said: "Token \[hidden\] is not valid\."$/);
    });

    it('drops bidirectional controls, closed or not, from the server’s message', async () => {
      const BIDI = [
        '\u202e',
        '\u202d',
        '\u202a',
        '\u202b',
        '\u202c',
        '\u2066',
        '\u2067',
        '\u2068',
        '\u2069',
        '\u200e',
        '\u200f',
        '\u061c',
      ];
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(409, {
          error: 'session_open',
          message: `Open \u202esession\u2066 still ${BIDI.join('x')} here`,
        }); // hand-built
      const text = userMessage(await getPatient());
      for (const c of BIDI) expect(text).not.toContain(c);
      expect(text).toMatch(/said: "Open session still x{11} here"$/);
    });
  });

  describe('429 honours Retry-After', () => {
    it('Retry-After in seconds → ThrottledError with that delay', async () => {
      const [status, answer, headers] = clinicError('rate_limited');
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(status, answer, headers);

      const err = await getPatient();

      expectKind(err, 'throttle');
      // core's ThrottledError carries `{message, delay}` as JSON in its message (src/errors.js).
      const parsed = JSON.parse(err.message) as { message: string; delay: number };
      expect(headers['retry-after']).toMatch(/^\d+$/);
      expect(parsed.delay).toBe(Number(headers['retry-after']));
      expect(parsed.message).toContain(answer.message);
    });

    it('an HTTP-date Retry-After becomes the seconds until then', async () => {
      const at = new Date(Date.now() + 30_000).toUTCString();
      const [status, answer] = clinicError('rate_limited');
      // hand-built header: the sandbox sends Retry-After in seconds, the HTTP allows a date too.
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(status, answer, { 'Retry-After': at });

      const err = await getPatient();

      expectKind(err, 'throttle');
      const { delay } = JSON.parse(err.message) as { delay: number };
      // The date has whole seconds, so 29 or 30 seconds remain.
      expect(delay).toBeGreaterThanOrEqual(28);
      expect(delay).toBeLessThanOrEqual(30);
    });

    it('a bare 429 without envelope or Retry-After still throttles with a positive delay', async () => {
      // hand-built: a 429 with an empty body and no Retry-After (a proxy's, not the interface's).
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(429, '');

      const err = await getPatient();

      expectKind(err, 'throttle');
      const { delay } = JSON.parse(err.message) as { delay: number };
      expect(delay).toBeGreaterThan(0);
    });
  });

  describe('error answers that are not the envelope', () => {
    it('an HTML error page on a 502 gives a clear Error with the status and no markup', async () => {
      // hand-built: a gateway's HTML page, which no partner interface sends.
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(
          502,
          '<html><head><title>502 Bad Gateway</title></head><body><h1>502 Bad Gateway</h1><hr>nginx</body></html>',
          { 'Content-Type': 'text/html' },
        );

      const err = await getPatient();

      expectKind(err, 'error');
      const parsed = JSON.parse(err.message) as { message: string; status: number };
      expect(parsed.status).toBe(502);
      expect(parsed.message).toContain('HTTP 502');
      // Only an envelope's message string is shown; a page is no message.
      expect(parsed.message).not.toMatch(/Bad Gateway|nginx|[<>]/);
    });

    it('an empty body on a 502 gives a clear Error with the status', async () => {
      // hand-built: an empty 502 (a gateway's), which no partner interface sends.
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(502, '');

      const err = await getPatient();

      expectKind(err, 'error');
      const parsed = JSON.parse(err.message) as { message: string; status: number };
      expect(parsed.status).toBe(502);
      expect(parsed.message).toContain('HTTP 502');
      expect(parsed.message).toMatch(/clinic interface/);
    });
  });

  describe('cashier errors name the cashier', () => {
    it('token_invalid names the Cashier API Token', async () => {
      const [, answer] = reply('cashier-token-invalid');
      const path = pathOf(definition('cashier-token-invalid'));
      cashierApi().get(cashierPath(path)).reply(replay('cashier-token-invalid'));

      const err = await failure('cashier', (c) => c.get(path));

      expectKind(err, 'auth');
      expect(answer.error).toBe('token_invalid');
      expect(err.message).toContain('Cashier API Token');
      expect(err.message).toContain(answer.message);
      expect(err.message).not.toMatch(/clinic/i);
    });

    it('insufficient_ability names the cashier ability', async () => {
      const [, answer] = reply('create-item-insufficient-ability');
      cashierApi()
        .post(cashierPath('/items'), { name_ar: 'قهوة' })
        .reply(replay('create-item-insufficient-ability'));

      const err = await failure('cashier', (c) => c.post('/items', { name_ar: 'قهوة' }));

      expectKind(err, 'error');
      const text = userMessage(err);
      expect(answer.details.required_ability).toBe('pos:write');
      expect(text).toContain('"pos:write"');
      expect(text).toContain(answer.message);
      expect(text).toMatch(/cashier API client/);
      expect(text).not.toMatch(/clinic/i);
    });
  });

  describe('a token pasted with its "Bearer " prefix', () => {
    const findPatient = App.searches!.find_patient!.operation.perform;
    it.each([`Bearer ${CLINIC_TOKEN}`, `bearer   ${CLINIC_TOKEN}`, `  BEARER\t${CLINIC_TOKEN}  `])(
      '%p is sent as the token itself, prefixed once (Find Patient)',
      async (pasted) => {
        // clinicApi() insists on `Authorization: Bearer <token>` exactly.
        clinicApi()
          .get(clinicPath(`/patients/${PATIENT}`))
          .reply(...reply('find-patient-by-id'));
        const found = (await appTester(
          findPatient as never,
          {
            authData: { ...AUTH, clinic_api_token: pasted },
            inputData: { patient_id: PATIENT },
          } as never,
        )) as Json[];
        expect(found.map((p) => p.id)).toEqual([PATIENT]);
      },
    );
  });

  describe('an interface without a token', () => {
    /** Fails the test if any request leaves, whether or not an interceptor would match it. */
    const watchRequests = () => {
      const stop = strays();
      // hand-built: traps that must never answer.
      const clinicScope = nock(new URL(CLINIC).origin)
        .get(() => true)
        .reply(200, { data: {} });
      const cashierScope = nock(new URL(CASHIER).origin)
        .get(() => true)
        .reply(200, { data: {} });
      return {
        assertNoRequest: () => {
          expect(stop()).toEqual([]);
          expect(clinicScope.isDone()).toBe(false);
          expect(cashierScope.isDone()).toBe(false);
          nock.cleanAll();
        },
      };
    };

    it('throws before any network call, naming the Clinic API Token', async () => {
      const watch = watchRequests();

      const err = await getPatient({ cashier_api_token: 'pos_tok_81bc', language: 'en' });

      watch.assertNoRequest();
      expect(err.message).toContain('Clinic API Token');
      expect(err.message).toMatch(/reconnect/i);
    });

    it('a token that is only a "Bearer " prefix counts as missing: no request', async () => {
      const watch = watchRequests();

      const err = await getPatient({ clinic_api_token: ' Bearer   ', language: 'en' });

      watch.assertNoRequest();
      expect(err.message).toContain('This step needs the Clinic API Token');
    });

    it('throws before any network call, naming the Cashier API Token, in Arabic', async () => {
      const watch = watchRequests();

      const err = await failure('cashier', (c) => c.get('/items/5'), {
        clinic_api_token: CLINIC_TOKEN,
        cashier_api_token: '   ',
        language: 'ar',
      });

      watch.assertNoRequest();
      expect(err.message).toContain('رمز واجهة الكاشير');
      expect(err.message).toContain('Cashier API Token');
    });
  });

  describe('find()', () => {
    it('turns a 404 into undefined', async () => {
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(...reply('find-patient-not-found'));

      const found = await appTester(
        (z, bundle) => clientFor(z, bundle, 'clinic').find(`/patients/${PATIENT}`),
        {
          authData: AUTH,
        },
      );

      expect(found).toBeUndefined();
    });

    it('returns the unwrapped object when there is one', async () => {
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(...reply('find-patient-by-id'));

      const found = await appTester(
        (z, bundle) => clientFor(z, bundle, 'clinic').find(`/patients/${PATIENT}`),
        {
          authData: AUTH,
        },
      );

      expect(found).toEqual(data('find-patient-by-id'));
    });

    it.each([
      [403, 'insufficient_ability', 'error', () => reply('find-patient-insufficient-ability')],
      [401, 'token_invalid', 'auth', () => clinicError('token_invalid')],
      [501, 'not_implemented', 'halt', () => clinicError('not_implemented')],
    ] as const)('still throws on %d %s', async (status, code, kind, recorded) => {
      const answer = recorded();
      expect([answer[0], answer[1].error]).toEqual([status, code]);
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(...answer);

      const err = await failure('clinic', (c) => c.find(`/patients/${PATIENT}`));

      expectKind(err, kind);
      expect(userMessage(err)).toContain(answer[1].message);
      if (code === 'insufficient_ability') expect(userMessage(err)).toContain('"patients:read"');
    });
  });
});
