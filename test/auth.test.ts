import { isSealed } from '../lib/seal';
import nock from 'nock';
import { errors } from 'zapier-platform-core';
import { connectionLabel, testAuth } from '../authentication';
import { connectionLabelProblem } from '../scripts/checks/house-rules';
import { body, data, replay, reply } from './fixtures';
import { given } from './support/recorder';
import {
  App,
  appTester,
  AUTH,
  CASHIER_TOKEN,
  cashierApi,
  cashierPath,
  CLINIC_TOKEN,
  clinicApi,
  clinicPath,
  useNock,
  strays,
} from './helpers';

/* Connection test and label (CONTRACT §1). */

// The sandbox's ping answers (recorded), and the account names they carry.
// Record mode: the refused pings are asked with revoked tokens.
given('ping-token-invalid', { tokens: { clinic: 'clinicRevokedToken', cashier: 'cashierRevokedToken' } });

const CLINIC_PING = reply('ping', { api: 'clinic' });
const CASHIER_PING = reply('ping', { api: 'cashier' });
const CLINIC_NAME: string = data('ping', { api: 'clinic' }).clinic.name;
const CASHIER_NAME: string = data('ping', { api: 'cashier' }).account.name;

const CLINIC_ONLY = { clinic_api_token: CLINIC_TOKEN, language: 'en' };
const CASHIER_ONLY = { cashier_api_token: CASHIER_TOKEN, language: 'en' };

/** The label Zapier shows: connectionLabel gets the test's result as inputData. */
const labelFor = async (authData: Record<string, string>) => {
  const found = await appTester(testAuth, { authData });
  return appTester(connectionLabel, { authData, inputData: found });
};

const failure = async (promise: Promise<unknown>): Promise<Error> => {
  try {
    await promise;
  } catch (err) {
    return err as Error;
  }
  throw new Error('expected the call to fail');
};

describe('connection (CONTRACT §1)', () => {
  useNock();

  it('is the app’s authentication test and label, sealed (lib/seal.ts)', async () => {
    expect(isSealed(App.authentication?.test)).toBe(true);
    expect(isSealed(App.authentication?.connectionLabel)).toBe(true);
    const seen = { clinic: { account: 'Smile Dental' } };
    const sealedLabel = App.authentication?.connectionLabel as unknown as typeof connectionLabel;
    expect(await sealedLabel({} as never, { inputData: seen } as never)).toBe(
      await connectionLabel({} as never, { inputData: seen } as never),
    );
  });

  describe('test pings only the interfaces that have a token', () => {
    it('clinic only', async () => {
      clinicApi()
        .get(clinicPath('/ping'))
        .reply(...CLINIC_PING);
      const stop = strays();

      const label = await labelFor(CLINIC_ONLY);

      expect(stop()).toEqual([]);
      expect(label).toContain(CLINIC_NAME);
      expect(label).toMatch(/clinic/i);
      expect(label).not.toMatch(/cashier/i);
    });

    it('cashier only', async () => {
      cashierApi()
        .get(cashierPath('/ping'))
        .reply(...CASHIER_PING);
      const stop = strays();

      const label = await labelFor(CASHIER_ONLY);

      expect(stop()).toEqual([]);
      expect(label).toContain(CASHIER_NAME);
      expect(label).toMatch(/cashier/i);
      expect(label).not.toMatch(/clinic/i);
    });

    it('both, and the label names both accounts', async () => {
      // The pings as recorded (the other tests reuse their answers).
      clinicApi()
        .get(clinicPath('/ping'))
        .reply(replay('ping', { api: 'clinic' }));
      cashierApi()
        .get(cashierPath('/ping'))
        .reply(replay('ping', { api: 'cashier' }));

      const label = await labelFor(AUTH);

      expect(label).toContain(CLINIC_NAME);
      expect(label).toContain(CASHIER_NAME);
      expect(label).not.toContain(CLINIC_TOKEN);
      expect(label).not.toContain(CASHIER_TOKEN);
    });

    it('a token of blanks counts as no token', async () => {
      clinicApi()
        .get(clinicPath('/ping'))
        .reply(...CLINIC_PING);

      const label = await labelFor({ ...CLINIC_ONLY, cashier_api_token: '   ' });

      expect(label).toContain(CLINIC_NAME);
      expect(label).not.toMatch(/cashier/i);
    });

    it('sends the connection’s language', async () => {
      clinicApi('ar')
        .get(clinicPath('/ping'))
        .reply(...CLINIC_PING);
      cashierApi('ar')
        .get(cashierPath('/ping'))
        .reply(...CASHIER_PING);

      await expect(labelFor({ ...AUTH, language: 'ar' })).resolves.toContain(CASHIER_NAME);
    });
  });

  describe('the label', () => {
    it('never contains a token, even when a ping answer echoes one', async () => {
      // hand-built from the recorded pings: no real server echoes the token, nor (on the cashier) answers
      // without the {data} envelope.
      const clinicEcho = body('ping', { api: 'clinic' });
      clinicEcho.data.client.token = CLINIC_TOKEN;
      const cashierBare = data('ping', { api: 'cashier' });
      cashierBare.client.token = CASHIER_TOKEN;
      clinicApi().get(clinicPath('/ping')).reply(200, clinicEcho);
      cashierApi().get(cashierPath('/ping')).reply(200, cashierBare);

      const label = await labelFor(AUTH);

      expect(label).not.toContain(CLINIC_TOKEN);
      expect(label).not.toContain(CASHIER_TOKEN);
      // A bare cashier ping answer (not wrapped in data) is read too (CONTRACT §2).
      expect(label).toContain(CASHIER_NAME);
    });

    it('still says which interfaces are connected when the ping names no account', async () => {
      // hand-built: the sandbox's pings always name the account; these answers name none.
      clinicApi().get(clinicPath('/ping')).reply(200, { data: {} });
      cashierApi()
        .get(cashierPath('/ping'))
        .reply(200, { data: { client: { name: 'Zapier' } } });

      const label = await labelFor(AUTH);

      expect(label).toBe('Clinic: unnamed account · Cashier: unnamed account (API client Zapier)');
      expect(connectionLabelProblem(label)).toBeUndefined();
    });

    // What the connection test returns (its result is the label's inputData), the names missing in every way.
    const label = (found: object) => connectionLabel({} as never, { inputData: found } as never);

    it.each([
      [{ clinic: { account: 'Smile Dental Clinics', client: 'Zapier' } }, 'Clinic: Smile Dental Clinics'],
      [{ cashier: { account: 'Olaya Café' } }, 'Cashier: Olaya Café'],
      [
        { clinic: { account: 'Smile Dental Clinics' }, cashier: { account: 'Olaya Café' } },
        'Clinic: Smile Dental Clinics · Cashier: Olaya Café',
      ],
      [{ clinic: { client: 'Zapier' } }, 'Clinic: unnamed account (API client Zapier)'],
      [{ clinic: {} }, 'Clinic: unnamed account'],
      [{ clinic: {}, cashier: {} }, 'Clinic: unnamed account · Cashier: unnamed account'],
      [{}, 'Clinic & Cashier: no account named'],
    ])(
      'from %j reads "%s", a description and never a bare word (APP-CONNECTION-LABEL)',
      async (found, expected) => {
        const text = await label(found);
        expect(text).toBe(expected);
        expect(connectionLabelProblem(text)).toBeUndefined();
      },
    );

    it('is still a description when Zapier gives it nothing', async () => {
      const text = await connectionLabel({} as never, {} as never);
      expect(connectionLabelProblem(text)).toBeUndefined();
    });
  });

  describe('test fails clearly', () => {
    it.each([
      ['no token at all', { language: 'en' }],
      ['empty tokens', { clinic_api_token: '', cashier_api_token: '  ', language: 'en' }],
    ])('%s: says to add a token and makes no request', async (_case, authData) => {
      const stop = strays();

      const err = await failure(appTester(testAuth, { authData }));

      expect(stop()).toEqual([]);
      expect(err).toBeInstanceOf(errors.Error);
      const { message } = JSON.parse(err.message) as { message: string };
      expect(message).toMatch(/at least one token/i);
      expect(message).toContain('Clinic API Token');
      expect(message).toContain('Cashier API Token');
    });

    it('no token, in Arabic', async () => {
      const err = await failure(appTester(testAuth, { authData: { language: 'ar' } }));

      const { message } = JSON.parse(err.message) as { message: string };
      expect(message).toContain('رمز واجهة العيادة');
      expect(message).toContain('رمز واجهة الكاشير');
      expect(message).toContain(
        'Add at least one token: the Clinic API Token, the Cashier API Token, or both.',
      );
    });

    it('when the clinic ping answers 401 token_invalid: ExpiredAuthError naming the clinic token', async () => {
      const answer = reply('ping-token-invalid', { api: 'clinic', error: 'token_invalid' });
      clinicApi()
        .get(clinicPath('/ping'))
        .reply(replay('ping-token-invalid', { api: 'clinic', error: 'token_invalid' }));

      const err = await failure(appTester(testAuth, { authData: AUTH }));

      expect(err).toBeInstanceOf(errors.ExpiredAuthError);
      expect(err.message).toContain('Clinic API Token');
      expect(err.message).toContain(answer[1].message);
      expect(err.message).not.toContain('Cashier API Token');
    });

    it('when the cashier ping answers 401 token_invalid: ExpiredAuthError naming the cashier token', async () => {
      clinicApi()
        .get(clinicPath('/ping'))
        .reply(...CLINIC_PING);
      cashierApi()
        .get(cashierPath('/ping'))
        .reply(replay('ping-token-invalid', { api: 'cashier', error: 'token_invalid' }));

      const err = await failure(appTester(testAuth, { authData: AUTH }));

      expect(err).toBeInstanceOf(errors.ExpiredAuthError);
      expect(err.message).toContain('Cashier API Token');
      expect(err.message).not.toContain('Clinic API Token');
    });
  });

  describe('a base address that leads beside the interface', () => {
    it('without the interface’s path: refused by its label, saying the rule, and nothing is sent', async () => {
      const stop = strays();
      const err = await failure(
        appTester(testAuth, {
          authData: {
            ...AUTH,
            clinic_base_url: 'https://clinic.example.test',
            cashier_base_url: 'https://pos.example.test/partner/v1',
          },
        }),
      );
      expect(stop()).toEqual([]);
      expect(err.message).toMatch(
        /^Clinic Base Address: does not end with \/partner\/v1\. Enter the https:\/\/ address the vendor gave you, ending with \/partner\/v1/,
      );
    });

    it('whose check answers 404: says the address rule, never a missing record', async () => {
      const [, notFound, headers] = reply('clinic-errors-en', { error: 'not_found' });
      clinicApi().get(clinicPath('/ping')).reply(404, notFound, headers); // the clinic's recorded not_found, as a wrong address would answer the check
      const err = await failure(appTester(testAuth, { authData: CLINIC_ONLY }));
      const { message } = JSON.parse(err.message) as { message: string };
      expect(message).toMatch(
        /^The clinic interface is not at the Clinic Base Address .*ending with \/partner\/v1/,
      );
      expect(message).not.toMatch(/no item with this id|Choose it from the list/);
    });
  });

  describe('base addresses', () => {
    it('the connection’s base address overrides the environment default (trailing slash tolerated)', async () => {
      nock('https://sandbox.clinic.example.test', {
        reqheaders: { authorization: `Bearer ${CLINIC_TOKEN}`, 'accept-language': 'en' },
      })
        .get('/partner/v1/ping')
        .reply(...CLINIC_PING);
      nock('http://localhost:8080', {
        reqheaders: { authorization: `Bearer ${CASHIER_TOKEN}`, 'accept-language': 'en' },
      })
        .get('/api/partner/v1/ping')
        .reply(...CASHIER_PING);

      const label = await labelFor({
        ...AUTH,
        clinic_base_url: ' https://sandbox.clinic.example.test/partner/v1/ ',
        cashier_base_url: 'http://localhost:8080/api/partner/v1',
      });

      expect(label).toContain(CLINIC_NAME);
      expect(label).toContain(CASHIER_NAME);
    });

    it('a blank base address falls back to the environment default', async () => {
      clinicApi()
        .get(clinicPath('/ping'))
        .reply(...CLINIC_PING);

      await expect(labelFor({ ...CLINIC_ONLY, clinic_base_url: '  ' })).resolves.toContain(CLINIC_NAME);
    });

    it.each([
      'ftp://clinic.example.test/partner/v1',
      'clinic.example.test/partner/v1',
      'javascript:alert(1)',
    ])('refuses %p with a clear message and no request', async (url) => {
      const stop = strays();

      const err = await failure(appTester(testAuth, { authData: { ...CLINIC_ONLY, clinic_base_url: url } }));

      expect(stop()).toEqual([]);
      expect(err.message).toContain('Clinic Base Address');
      expect(err.message).not.toContain(url);
      expect(err.message).toMatch(/not a web address|must start with https:\/\//);
      expect(err.message).toMatch(/the https:\/\/ address the vendor gave you, ending with \/partner\/v1/);
      // No placeholder address in a message Zapier shows.
      expect(err.message).not.toMatch(/example\.(com|org|net)/);
    });

    // Hosts as a Zap builder might type them; WHATWG URL parsing turns each into the address it means.
    it.each([
      ['10/8', '10.0.0.5'],
      ['10/8, short form', '10.1'],
      ['172.16/12, first', '172.16.0.1'],
      ['172.16/12, last', '172.31.255.254'],
      ['192.168/16', '192.168.1.10'],
      ['169.254/16', '169.254.10.1'],
      ['cloud metadata', '169.254.169.254'],
      ['metadata, decimal', '2852039166'],
      ['metadata, hex dotted', '0xA9.0xFE.0xA9.0xFE'],
      ['metadata, octal dotted', '0251.0376.0251.0376'],
      ['10/8, hex', '0x0a000001'],
      ['10/8, trailing dot', '10.0.0.1.'],
      ['100.64/10, first', '100.64.0.1'],
      ['100.64/10, last', '100.127.255.254'],
      ['0/8', '0.0.0.0'],
      ['0/8, as 0', '0'],
      ['IPv6 unspecified', '[::]'],
      ['fc00::/7', '[fc00::1]'],
      ['fd00::/8, upper case', '[FD12:3456::1]'],
      ['fe80::/10', '[fe80::1]'],
      ['fe80::/10, last', '[febf::1]'],
      ['IPv4-mapped 10/8', '[::ffff:10.0.0.1]'],
      ['IPv4-mapped metadata, hex', '[::ffff:a9fe:a9fe]'],
      ['IPv4-mapped 192.168/16', '[::ffff:192.168.0.1]'],
      ['IPv4-compatible 10/8', '[::10.0.0.1]'],
      ['NAT64 of 169.254/16', '[64:ff9b::169.254.169.254]'],
    ])(
      'refuses an https address on %s (%s) by the field’s label, before any request',
      async (_range, host) => {
        const stop = strays();
        const url = `https://${host}/partner/v1`;

        const err = await failure(
          appTester(testAuth, { authData: { ...CLINIC_ONLY, clinic_base_url: url } }),
        );

        expect(stop()).toEqual([]);
        expect(err.message).toMatch(/^Clinic Base Address: names a private or local network address/);
        expect(err.message).toContain('nothing was sent');
        expect(err.message).not.toContain(host);
      },
    );

    it('refuses a private cashier address in English, then Arabic, naming the cashier field', async () => {
      const stop = strays();

      const err = await failure(
        appTester(testAuth, {
          authData: {
            ...CASHIER_ONLY,
            language: 'ar',
            cashier_base_url: 'https://192.168.0.9/api/partner/v1',
          },
        }),
      );

      expect(stop()).toEqual([]);
      expect(err.message).toMatch(
        /^Cashier Base Address: names a private.* — Cashier Base Address: يشير إلى عنوان في شبكة خاصة/,
      );
    });

    it.each([
      ['just outside 172.16/12', '172.32.0.1'],
      ['just outside 100.64/10', '100.128.0.1'],
      ['just outside 169.254/16', '169.255.0.1'],
      ['just outside 192.168/16', '192.169.0.1'],
      ['a public IPv4', '8.8.8.8'],
      ['a public IPv4, decimal', '134744072'],
      ['loopback over https', '127.0.0.1'],
      ['a public IPv6', '[2a00:1450:4001:80b::200e]'],
      ['IPv4-mapped public', '[::ffff:8.8.8.8]'],
      ['just outside fc00::/7', '[fe00::1]'],
      ['a name', 'clinic.vendor.sa'],
    ])('lets an https address %s (%s) through to the ping', async (_why, host) => {
      const origin = new URL(`https://${host}`).origin;
      const scope = nock(origin, {
        reqheaders: { authorization: `Bearer ${CLINIC_TOKEN}`, 'accept-language': 'en' },
      })
        .get('/partner/v1/ping')
        .reply(...CLINIC_PING);

      await expect(
        labelFor({ ...CLINIC_ONLY, clinic_base_url: `https://${host}/partner/v1` }),
      ).resolves.toContain(CLINIC_NAME);
      expect(scope.isDone()).toBe(true);
    });

    it('still lets plain http reach this computer (the sandbox), and nowhere else', async () => {
      const scope = nock('http://127.0.0.1:4010', {
        reqheaders: { authorization: `Bearer ${CLINIC_TOKEN}` },
      })
        .get('/partner/v1/ping')
        .reply(...CLINIC_PING);

      await expect(
        labelFor({ ...CLINIC_ONLY, clinic_base_url: 'http://127.0.0.1:4010/partner/v1' }),
      ).resolves.toContain(CLINIC_NAME);
      expect(scope.isDone()).toBe(true);

      const err = await failure(
        appTester(testAuth, { authData: { ...CLINIC_ONLY, clinic_base_url: 'http://8.8.8.8/partner/v1' } }),
      );
      expect(err.message).toMatch(/^Clinic Base Address: must start with https:\/\//);
    });
  });
});
