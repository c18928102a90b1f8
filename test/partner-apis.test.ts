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

/** Addresses as a Zap builder may type them, and whether a token may go there over https (WHATWG URL reads each). */
const HOSTS: ReadonlyArray<readonly [string, string, boolean]> = [
  // IPv6 site-local, multicast and local-use NAT64
  ['site-local fec0::/10', '[fec0::1]', false],
  ['site-local, top of the block', '[feff:ffff::1]', false],
  ['multicast ff02::1', '[ff02::1]', false],
  ['multicast ff0e::1', '[ff0e::1]', false],
  ['local-use NAT64 carrying a public IPv4', '[64:ff9b:1::808:808]', false],
  ['local-use NAT64 carrying a private IPv4', '[64:ff9b:1::a00:1]', false],
  // 6to4 carries its IPv4 right after 2002:
  ['6to4 carrying 10.0.0.1', '[2002:a00:1::1]', false],
  ['6to4 carrying 192.168.1.1', '[2002:c0a8:101::]', false],
  ['6to4 carrying 127.0.0.1', '[2002:7f00:1::1]', false],
  ['6to4 carrying 169.254.169.254', '[2002:a9fe:a9fe::]', false],
  ['6to4 carrying 8.8.8.8', '[2002:808:808::1]', true],
  // IPv4 blocks that are no vendor's server
  ['benchmarking 198.18.0.1', '198.18.0.1', false],
  ['benchmarking 198.19.255.254', '198.19.255.254', false],
  ['multicast 224.0.0.1', '224.0.0.1', false],
  ['multicast 239.255.255.250', '239.255.255.250', false],
  ['reserved 240.0.0.1', '240.0.0.1', false],
  ['broadcast 255.255.255.255', '255.255.255.255', false],
  ['broadcast written as one number', '4294967295', false],
  ['documentation 192.0.2.10', '192.0.2.10', false],
  ['documentation 203.0.113.5', '203.0.113.5', false],
  ['IETF 192.0.0.8', '192.0.0.8', false],
  // loopback carried in IPv6 is not this computer written as itself
  ['IPv4-mapped 127.0.0.1', '[::ffff:127.0.0.1]', false],
  ['IPv4-mapped 127.1.2.3', '[::ffff:7f01:203]', false],
  ['IPv4-compatible 127.0.0.1', '[::127.0.0.1]', false],
  ['NAT64 127.0.0.1', '[64:ff9b::7f00:1]', false],
  // public neighbours stay open
  ['198.17.255.255, below benchmarking', '198.17.255.255', true],
  ['198.20.0.1, above benchmarking', '198.20.0.1', true],
  ['223.255.255.254, below multicast', '223.255.255.254', true],
  ['global unicast 2606:4700::1111', '[2606:4700::1111]', true],
  ['fe00::1, below link-local', '[fe00::1]', true],
  ['name', 'clinic.example.com', true],
];

describe('base addresses that never get a token', () => {
  it.each(HOSTS)('%s (https://%s): %s', (_name, host, open) => {
    const ask = () => requireBaseUrl(withBase(`https://${host}/partner/v1`), 'clinic');
    if (open) expect(ask()).toMatch(/^https:\/\//);
    else expect(ask).toThrow(/^Clinic Base Address: names a private or local network address/);
  });
});

describe('the base address ends with the interface’s path', () => {
  it.each([
    ['clinic', 'https://clinic.example.com', '/partner/v1'],
    ['clinic', 'https://clinic.example.com/v1', '/partner/v1'],
    ['clinic', 'https://clinic.example.com/partner', '/partner/v1'],
    ['cashier', 'https://pos.example.com/partner/v1', '/api/partner/v1'],
    ['cashier', 'https://pos.example.com/api', '/api/partner/v1'],
  ] as const)('%s: %s is refused, saying the rule, before any request', (api, url, prefix) => {
    const key = api === 'clinic' ? 'clinic_base_url' : 'cashier_base_url';
    const ask = () => requireBaseUrl({ authData: { [key]: url } }, api);
    expect(ask).toThrow(ConnectionSetupError);
    expect(ask).toThrow(
      `does not end with ${prefix}. Enter the https:// address the vendor gave you, ending with ${prefix}`,
    );
  });

  it.each([
    ['clinic', 'https://clinic.example.com/partner/v1/'],
    ['clinic', 'https://example.com/clinic/partner/v1'],
    ['cashier', 'https://pos.example.com/api/partner/v1'],
  ] as const)('%s: %s is taken', (api, url) => {
    const key = api === 'clinic' ? 'clinic_base_url' : 'cashier_base_url';
    expect(requireBaseUrl({ authData: { [key]: url } }, api)).toBe(url.replace(/\/$/, ''));
  });
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
