import { createHash, createHmac } from 'node:crypto';
import fc from 'fast-check';
import { anyCodePoints } from './support/arbitraries';
import { sign, verify } from '../lib/signature';

const SECRET = 'whsec_5b1f0c7e9a2d4c68b3e1f7a0d9c2b4e6';
const PATH = '/hooks/standard/123/abc/';

describe('signature (spec §6)', () => {
  it('is sha256= HMAC over timestamp, POST, path and the body hash, joined by line feeds', () => {
    const rawBody = '{"id":"evt_1"}';
    const bodyHash = createHash('sha256').update(rawBody).digest('hex');
    const expected = createHmac('sha256', SECRET)
      .update(`1700000000\nPOST\n${PATH}\n${bodyHash}`)
      .digest('hex');
    expect(sign(SECRET, { timestamp: '1700000000', path: PATH, rawBody })).toBe(`sha256=${expected}`);
  });

  const base = () => {
    const timestamp = '1700000000';
    const rawBody = '{"id":"evt_1","event":"appointment.created"}';
    return {
      secret: SECRET,
      path: PATH,
      rawBody,
      timestamp,
      signature: sign(SECRET, { timestamp, path: PATH, rawBody }),
      nowSeconds: 1700000000,
    };
  };

  it('accepts a genuine delivery, with the signature in upper case too', () => {
    expect(verify(base())).toEqual({ ok: true });
    expect(
      verify({ ...base(), signature: base().signature.toUpperCase().replace('SHA256=', 'sha256=') }),
    ).toEqual({ ok: true });
  });

  it('reads a signature not already in the form as trimmed and lower-cased (a prefix in upper case, spaces around)', () => {
    expect(verify({ ...base(), signature: ` ${base().signature.toUpperCase()}\t` })).toEqual({ ok: true });
    const sig = base().signature;
    const tampered = `${sig.slice(0, -1)}${sig.endsWith('0') ? '1' : '0'}`;
    expect(verify({ ...base(), signature: ` ${tampered.toUpperCase()} ` })).toEqual({
      ok: false,
      reason: 'mismatch',
    });
  });

  it.each([
    ['missing_signature', { signature: undefined }],
    ['missing_timestamp', { timestamp: undefined }],
    ['bad_timestamp', { timestamp: '1700000000.5' }],
    ['bad_timestamp', { timestamp: '-1700000000' }],
    ['stale_timestamp', { nowSeconds: 1700000301 }],
    ['future_timestamp', { nowSeconds: 1699999699 }],
    ['malformed_signature', { signature: 'sha1=abc' }],
    ['mismatch', { rawBody: '{"id":"evt_2","event":"appointment.created"}' }],
    ['mismatch', { secret: 'whsec_other' }],
    ['mismatch', { path: '/hooks/standard/123/other/' }],
  ])('refuses %s', (reason, change) => {
    expect(verify({ ...base(), ...change })).toEqual({ ok: false, reason });
  });

  it('accepts the edges of the 300 s window', () => {
    expect(verify({ ...base(), nowSeconds: 1700000300 })).toEqual({ ok: true });
    expect(verify({ ...base(), nowSeconds: 1699999700 })).toEqual({ ok: true });
  });

  it('round-trips any body, path and secret, and refuses any one-byte change of the body (property)', () => {
    fc.assert(
      fc.property(
        fc.string({ minLength: 1 }),
        anyCodePoints(),
        fc.webPath(),
        fc.nat({ max: 2_000_000_000 }),
        (secret, rawBody, path, ts) => {
          const timestamp = String(ts);
          const signature = sign(secret, { timestamp, path, rawBody });
          expect(verify({ secret, path, rawBody, timestamp, signature, nowSeconds: ts })).toEqual({
            ok: true,
          });
          const tampered = `${rawBody}x`;
          expect(verify({ secret, path, rawBody: tampered, timestamp, signature, nowSeconds: ts }).ok).toBe(
            false,
          );
        },
      ),
      { numRuns: 500 },
    );
  });

  it('refuses a timestamp that is not all ASCII digits, and a signature not of the form sha256=<64 hex digits> (property, against the spec as regular expressions)', () => {
    const hex = fc.stringMatching(/^[0-9a-fA-F]{64}$/);
    // The characters beside the ranges' ends (/ : @ ` g G), nothing, or any character.
    const edgeChar = fc.oneof(
      fc.constantFrom(...'/:@`gG0aF \n', ''),
      fc.string({ maxLength: 1, unit: 'binary' }),
    );
    // Near misses: a good signature with one character changed, added or taken away, spaces around it, or any text.
    const signature = fc.oneof(
      hex.map((h) => `sha256=${h}`),
      fc
        .tuple(hex, fc.nat({ max: 70 }), edgeChar)
        .map(([h, i, c]) => `sha256=${h}`.slice(0, i) + c + `sha256=${h}`.slice(i + 1)),
      hex.map((h) => ` SHA256=${h}\n`),
      hex.map((h) => `sha256=${h}0`),
      fc.string({ unit: 'binary' }),
    );
    const timestamp = fc.oneof(
      fc.stringMatching(/^[0-9]{1,12}$/),
      fc.tuple(fc.stringMatching(/^[0-9]{1,11}$/), edgeChar).map(([d, c]) => d + c),
      fc.string({ unit: 'binary' }),
      fc.constantFrom('1700000000 ', '１７００', '17e8', '0x65', '+1700000000', '٣'),
    );
    fc.assert(
      fc.property(timestamp, signature, (ts, sig) => {
        const now = /^\d+$/.test(ts) ? Number(ts) : 1700000000;
        const result = verify({ ...base(), timestamp: ts, signature: sig, nowSeconds: now });
        if (!sig) expect(result).toEqual({ ok: false, reason: 'missing_signature' });
        else if (ts === '') expect(result).toEqual({ ok: false, reason: 'missing_timestamp' });
        else if (!/^\d+$/.test(ts)) expect(result).toEqual({ ok: false, reason: 'bad_timestamp' });
        else if (!/^sha256=[0-9a-f]{64}$/.test(sig.trim().toLowerCase()))
          expect(result).toEqual({ ok: false, reason: 'malformed_signature' });
        else expect(result).toEqual({ ok: false, reason: 'mismatch' });
      }),
      { numRuns: 2000 },
    );
  });
});
