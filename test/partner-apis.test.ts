import {
  ConnectionSetupError,
  hasToken,
  isNonPublicHost,
  requireBaseUrl,
  requireToken,
} from '../lib/partner-apis';

/* The same refusals through the app's requests, with nothing sent: test/hostile-writes.test.ts and test/http.test.ts. */

const withBase = (url: string, language = 'en') => ({ authData: { clinic_base_url: url, language } });

describe('isNonPublicHost', () => {
  it.each(['10.0.0.1', '172.16.5.4', '192.168.1.1', '169.254.169.254', '100.64.0.1', '0.0.0.0'])(
    '%s is private',
    (host) => expect(isNonPublicHost(host)).toBe(true),
  );
  it.each(['[::]', '[fd00::1]', '[fe80::1]', '[::ffff:a00:1]', '[64:ff9b::a9fe:a9fe]'])(
    '%s is private (IPv6, or IPv4 carried in it)',
    (host) => expect(isNonPublicHost(host)).toBe(true),
  );
  it.each(['8.8.8.8', '172.32.0.1', '[2001:db8::1]', '[::ffff:808:808]', 'clinic.example.com'])(
    '%s is not',
    (host) => expect(isNonPublicHost(host)).toBe(false),
  );
});

describe('requireBaseUrl', () => {
  it('gives the connection’s address when it may carry the token', () => {
    expect(requireBaseUrl(withBase('https://clinic.example.com/partner/v1'), 'clinic')).toBe(
      'https://clinic.example.com/partner/v1',
    );
    expect(requireBaseUrl(withBase('http://127.0.0.1:4010/partner/v1'), 'clinic')).toBe(
      'http://127.0.0.1:4010/partner/v1',
    );
  });

  it.each([
    ['http://clinic.example.com/partner/v1', /must start with https:\/\//],
    ['https://10.0.0.5/partner/v1', /private or local network/],
    ['https://user:secret@clinic.example.com/partner/v1', /user name or password/],
    ['https://clinic.example.com/partner/v1?x=1', /query/],
    ['not an address', /is not a web address/],
  ])('refuses %s by the field’s label, without repeating it', (url, why) => {
    const refuse = () => requireBaseUrl(withBase(url), 'clinic');
    expect(refuse).toThrow(ConnectionSetupError);
    expect(refuse).toThrow(why);
    expect(refuse).toThrow(/^Clinic Base Address: /);
    expect(refuse).not.toThrow(/secret/);
  });
});

describe('requireToken and hasToken', () => {
  it('read the token without a pasted "Bearer " prefix', () => {
    const bundle = { authData: { cashier_api_token: '  Bearer pos_tok  ' } };
    expect(requireToken(bundle, 'cashier')).toBe('pos_tok');
    expect(hasToken(bundle, 'cashier')).toBe(true);
  });

  it('refuse a missing or bare-prefix token, naming the token to add, in Arabic too', () => {
    for (const token of [undefined, '', 'Bearer ']) {
      const bundle = { authData: { cashier_api_token: token, language: 'ar' } } as never;
      expect(hasToken(bundle, 'cashier')).toBe(false);
      expect(() => requireToken(bundle, 'cashier')).toThrow(/Cashier API Token[\s\S]*رمز واجهة الكاشير/);
    }
  });
});
