import nock from 'nock';
import { errors } from 'zapier-platform-core';
import { clientFor } from '../lib/http';
import type { Api } from '../lib/interfaces';
import {
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
} from './helpers';

/*
 * The error mapper end to end (CONTRACT §6, clinic spec §7): a real request of the app, so core's middleware
 * and the app's afterResponse run exactly as on Zapier.
 */

const PATIENT = '01JD8ZK6M4Q2W7R9T3V5X8Y1AB';

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

interface Row {
  code: string;
  status: number;
  kind: Kind;
  /** The app's own English explanation: what happened and what to do. */
  says: RegExp[];
  /** What the message names in any language (e.g. the missing ability). */
  names?: string[];
  details?: Record<string, unknown>;
}

// Clinic spec §7 table, mapped as CONTRACT §6 says.
const TABLE: Row[] = [
  { code: 'unauthenticated', status: 401, kind: 'auth', says: [/Clinic API Token/, /missing/, /reconnect/i] },
  {
    code: 'token_invalid',
    status: 401,
    kind: 'auth',
    says: [/Clinic API Token/, /not valid|revoked/, /reconnect/i],
  },
  { code: 'tenant_inactive', status: 403, kind: 'error', says: [/suspended or closed/] },
  { code: 'not_entitled', status: 403, kind: 'error', says: [/plan/, /partner interface/] },
  {
    code: 'insufficient_ability',
    status: 403,
    kind: 'error',
    details: { required_ability: 'appointments:write' },
    names: ['"appointments:write"'],
    says: [/account owner/i, /API client/, /back office/, /reconnect/i],
  },
  { code: 'forbidden', status: 403, kind: 'error', says: [/only the account owner/i, /webhooks/] },
  { code: 'not_found', status: 404, kind: 'error', says: [/clinic/] },
  { code: 'client_revoked', status: 409, kind: 'auth', says: [/clinic API client/, /revoked/, /reconnect/i] },
  {
    code: 'webhook_disabled',
    status: 409,
    kind: 'error',
    says: [/switched off/, /turn the Zap off and on/i],
  },
  { code: 'delivery_sent', status: 409, kind: 'halt', says: [/Nothing was done/, /already succeeded/] },
  { code: 'payload_redacted', status: 409, kind: 'halt', says: [/Nothing was done/, /removed/] },
  {
    code: 'appointment_locked',
    status: 409,
    kind: 'halt',
    says: [/Nothing was done/, /in progress or completed/, /cannot be cancelled/],
  },
  {
    code: 'validation_failed',
    status: 422,
    kind: 'error',
    details: { starts_at: ['must be in the future'] },
    says: [/Start Time: must be in the future/],
  },
  { code: 'event_unknown', status: 422, kind: 'error', says: [/does not know this event/, /Update the app/] },
  { code: 'url_not_allowed', status: 422, kind: 'error', says: [/HTTPS on a public address/] },
  { code: 'webhook_limit', status: 422, kind: 'error', says: [/too many webhook subscriptions/, /Turn off/] },
  { code: 'rate_limited', status: 429, kind: 'throttle', says: [/rate limit/] },
  { code: 'not_implemented', status: 501, kind: 'halt', says: [/Nothing was done/, /not released/] },
];

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
  });

  describe.each(TABLE)('$code ($status)', ({ code, status, kind, says, names = [], details }) => {
    it('in English: the right Zapier error, the server’s message and the app’s explanation', async () => {
      const serverMessage = `Server text for ${code}`;
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .matchHeader('accept', 'application/json')
        .reply(
          status,
          { error: code, message: serverMessage, details: details ?? {} },
          { 'Retry-After': '5' },
        );

      const err = await getPatient();

      expectKind(err, kind);
      const text = userMessage(err);
      expect(text).toContain(serverMessage);
      for (const re of says) expect(text).toMatch(re);
      for (const name of names) expect(text).toContain(name);
      if (kind === 'auth') expect(text).not.toMatch(/cashier/i);
      if (kind === 'error') {
        expect(JSON.parse(err.message)).toEqual({ message: text, code, status });
      }
    });

    it('in Arabic: Accept-Language ar is sent and the explanation is Arabic', async () => {
      const serverMessage = `رسالة الخادم (${code})`;
      clinicApi('ar')
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(
          status,
          { error: code, message: serverMessage, details: details ?? {} },
          { 'Retry-After': '5' },
        );

      const err = await getPatient({ ...AUTH, language: 'ar' });

      expectKind(err, kind);
      const text = userMessage(err);
      expect(text).toContain(serverMessage);
      // The app's own part, without the server's words: Arabic, and not the English explanation.
      const own = text.split(serverMessage).join('');
      expect(own).toMatch(/[\u0600-\u06FF]{3,}/);
      for (const re of says) expect(own).not.toMatch(re);
      for (const name of names) expect(own).toContain(name);
      if (kind === 'error') expect(JSON.parse(err.message)).toMatchObject({ code, status });
    });
  });

  it('names the Arabic labels of the fields and the token in Arabic', async () => {
    clinicApi('ar')
      .get(clinicPath(`/patients/${PATIENT}`))
      .reply(422, {
        error: 'validation_failed',
        message: 'بعض الحقول غير صالحة',
        details: { starts_at: ['يجب أن يكون في المستقبل'] },
      });
    clinicApi('ar')
      .get(clinicPath(`/patients/${PATIENT}`))
      .reply(401, { error: 'token_invalid', message: 'الرمز غير صالح', details: {} });

    const invalid = userMessage(await getPatient({ ...AUTH, language: 'ar' }));
    expect(invalid).toContain('وقت البدء: يجب أن يكون في المستقبل');
    expect(invalid).not.toContain('starts_at');

    const expired = userMessage(await getPatient({ ...AUTH, language: 'ar' }));
    expect(expired).toContain('رمز واجهة العيادة');
  });

  describe('validation_failed names each field by its label', () => {
    it.each([
      [
        'field → messages',
        { starts_at: ['must be in the future'], patient_phone: ['is not a valid phone number'] },
        ['Start Time: must be in the future', 'Patient Phone: is not a valid phone number'],
      ],
      [
        'errors: [{field, message}]',
        { errors: [{ field: 'branch_id', message: 'is required' }] },
        ['Branch: is required'],
      ],
      ['fields: {...}', { fields: { appointment_type_id: 'is unknown' } }, ['Appointment Type: is unknown']],
    ])('%s', async (_shape, details, expected) => {
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(422, { error: 'validation_failed', message: 'The given data was invalid.', details });

      const err = await getPatient();

      expectKind(err, 'error');
      const text = userMessage(err);
      for (const e of expected) expect(text).toContain(e);
      expect(text).toContain('The given data was invalid.');
      expect(text).not.toMatch(/starts_at|patient_phone|branch_id|appointment_type_id/);
    });
  });

  it('an unlisted error code is an Error with the server’s message and the status', async () => {
    clinicApi()
      .get(clinicPath(`/patients/${PATIENT}`))
      .reply(500, { error: 'server_error', message: 'Something broke on our side', details: {} });

    const err = await getPatient();

    expectKind(err, 'error');
    const parsed = JSON.parse(err.message) as { message: string; code: string; status: number };
    expect(parsed.status).toBe(500);
    expect(parsed.code).toBe('server_error');
    expect(parsed.message).toContain('Something broke on our side');
    expect(parsed.message).toContain('500');
  });

  describe('429 honours Retry-After', () => {
    it('Retry-After: 17 → ThrottledError with delay 17', async () => {
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(
          429,
          { error: 'rate_limited', message: 'Too many requests', details: {} },
          { 'Retry-After': '17' },
        );

      const err = await getPatient();

      expectKind(err, 'throttle');
      // core's ThrottledError carries `{message, delay}` as JSON in its message (src/errors.js).
      const parsed = JSON.parse(err.message) as { message: string; delay: number };
      expect(parsed.delay).toBe(17);
      expect(parsed.message).toContain('Too many requests');
    });

    it('an HTTP-date Retry-After becomes the seconds until then', async () => {
      const at = new Date(Date.now() + 30_000).toUTCString();
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(429, { error: 'rate_limited', message: 'Slow down', details: {} }, { 'Retry-After': at });

      const err = await getPatient();

      expectKind(err, 'throttle');
      const { delay } = JSON.parse(err.message) as { delay: number };
      // The date has whole seconds, so 29 or 30 seconds remain.
      expect(delay).toBeGreaterThanOrEqual(28);
      expect(delay).toBeLessThanOrEqual(30);
    });

    it('a bare 429 without envelope or Retry-After still throttles with a positive delay', async () => {
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
      expect(parsed.message).toContain('Bad Gateway');
      expect(parsed.message).not.toMatch(/[<>]/);
    });

    it('an empty body on a 502 gives a clear Error with the status', async () => {
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
      cashierApi()
        .get(cashierPath('/items/5'))
        .reply(401, { error: 'token_invalid', message: 'Invalid token', details: {} });

      const err = await failure('cashier', (c) => c.get('/items/5'));

      expectKind(err, 'auth');
      expect(err.message).toContain('Cashier API Token');
      expect(err.message).toContain('Invalid token');
      expect(err.message).not.toMatch(/clinic/i);
    });

    it('insufficient_ability names the cashier ability', async () => {
      cashierApi()
        .post(cashierPath('/items'), { name_ar: 'قهوة' })
        .reply(403, {
          error: 'insufficient_ability',
          message: 'Missing ability',
          details: { required_ability: 'pos:write' },
        });

      const err = await failure('cashier', (c) => c.post('/items', { name_ar: 'قهوة' }));

      expectKind(err, 'error');
      const text = userMessage(err);
      expect(text).toContain('"pos:write"');
      expect(text).toMatch(/cashier API client/);
      expect(text).not.toMatch(/clinic/i);
    });
  });

  describe('an interface without a token', () => {
    /** Fails the test if any request leaves, whether or not an interceptor would match it. */
    const watchRequests = () => {
      const unmatched: unknown[] = [];
      const onNoMatch = (req: unknown) => unmatched.push(req);
      nock.emitter.on('no match', onNoMatch);
      const clinicScope = nock(new URL(CLINIC).origin)
        .get(() => true)
        .reply(200, { data: {} });
      const cashierScope = nock(new URL(CASHIER).origin)
        .get(() => true)
        .reply(200, { data: {} });
      return {
        assertNoRequest: () => {
          nock.emitter.removeListener('no match', onNoMatch);
          expect(clinicScope.isDone()).toBe(false);
          expect(cashierScope.isDone()).toBe(false);
          expect(unmatched).toEqual([]);
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

    it('throws before any network call, naming the Cashier API Token, in Arabic', async () => {
      const watch = watchRequests();

      const err = await failure('cashier', (c) => c.get('/items/5'), {
        clinic_api_token: CLINIC_TOKEN,
        cashier_api_token: '   ',
        language: 'ar',
      });

      watch.assertNoRequest();
      expect(err.message).toContain('رمز واجهة الكاشير');
    });
  });

  describe('find()', () => {
    it('turns a 404 into undefined', async () => {
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(404, { error: 'not_found', message: 'Patient not found', details: {} });

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
        .reply(200, { data: { id: PATIENT, file_no: 'RYD-1' } });

      const found = await appTester(
        (z, bundle) => clientFor(z, bundle, 'clinic').find(`/patients/${PATIENT}`),
        {
          authData: AUTH,
        },
      );

      expect(found).toEqual({ id: PATIENT, file_no: 'RYD-1' });
    });

    it.each([
      [403, 'insufficient_ability', 'error', { required_ability: 'patients:read' }],
      [401, 'token_invalid', 'auth', {}],
      [501, 'not_implemented', 'halt', {}],
    ] as const)('still throws on %d %s', async (status, code, kind, details) => {
      clinicApi()
        .get(clinicPath(`/patients/${PATIENT}`))
        .reply(status, { error: code, message: `Server said ${code}`, details });

      const err = await failure('clinic', (c) => c.find(`/patients/${PATIENT}`));

      expectKind(err, kind);
      expect(userMessage(err)).toContain(`Server said ${code}`);
      if (code === 'insufficient_ability') expect(userMessage(err)).toContain('"patients:read"');
    });
  });
});
