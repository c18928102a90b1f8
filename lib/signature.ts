import { createHash, createHmac, timingSafeEqual } from 'node:crypto';
import { SETTINGS } from './config';

/** The parts a delivery's signature covers (both specs, §6). */
export interface SignedParts {
  timestamp: string;
  path: string;
  rawBody: string;
}

const sha256Hex = (body: string): string => createHash('sha256').update(body, 'utf8').digest('hex');

/** `sha256=` + HMAC-SHA256(secret as received, "timestamp\nPOST\npath\nsha256hex(body)"). */
export const sign = (secret: string, { timestamp, path, rawBody }: SignedParts): string =>
  `sha256=${createHmac('sha256', secret)
    .update(`${timestamp}\nPOST\n${path}\n${sha256Hex(rawBody)}`)
    .digest('hex')}`;

export type VerifyFailure =
  | 'missing_signature'
  | 'missing_timestamp'
  | 'bad_timestamp'
  | 'stale_timestamp'
  | 'future_timestamp'
  | 'malformed_signature'
  | 'mismatch';

export type VerifyResult = { ok: true } | { ok: false; reason: VerifyFailure };

export interface VerifyInput {
  secret: string;
  path: string;
  rawBody: string;
  timestamp: string | undefined;
  signature: string | undefined;
  nowSeconds?: number;
}

const PREFIX = 'sha256=';

/** `^\d+$`: one or more ASCII digits (read without a regular expression: this runs on every delivery). */
const isDigits = (s: string): boolean => {
  if (s.length === 0) return false;
  for (let i = 0; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if (c < 48 || c > 57) return false;
  }
  return true;
};

/** `^sha256=[0-9a-f]{64}$`, read the same way. */
const isSignatureFormat = (s: string): boolean => {
  if (s.length !== PREFIX.length + 64 || !s.startsWith(PREFIX)) return false;
  for (let i = PREFIX.length; i < s.length; i += 1) {
    const c = s.charCodeAt(i);
    if ((c < 48 || c > 57) && (c < 97 || c > 102)) return false;
  }
  return true;
};

/** A constant-time compare of a text's UTF-8 bytes with the expected signature's. */
const sameBytes = (text: string, expected: Buffer): boolean => {
  const actual = Buffer.from(text, 'utf8');
  return actual.length === expected.length && timingSafeEqual(actual, expected);
};

/** Checks a delivery as the specs say: timestamp all digits and within tolerance, then a constant-time compare. */
export const verify = (input: VerifyInput): VerifyResult => {
  const { secret, path, rawBody, timestamp, signature } = input;
  if (!signature) return { ok: false, reason: 'missing_signature' };
  if (timestamp === undefined || timestamp === '') return { ok: false, reason: 'missing_timestamp' };
  if (!isDigits(timestamp)) return { ok: false, reason: 'bad_timestamp' };
  const now = input.nowSeconds ?? Math.floor(Date.now() / 1000);
  const age = now - Number(timestamp);
  if (age > SETTINGS.signatureToleranceSeconds) return { ok: false, reason: 'stale_timestamp' };
  if (-age > SETTINGS.signatureToleranceSeconds) return { ok: false, reason: 'future_timestamp' };
  const expected = Buffer.from(sign(secret, { timestamp, path, rawBody }), 'utf8');
  // A genuine delivery's signature is already in the form, as the interfaces send it: equal to the expected one
  // byte for byte, which is in the form, so its form needs no check of its own.
  if (sameBytes(signature, expected)) return { ok: true };
  // Otherwise it is read as trimmed and lower-cased, and the reason named: not in the form, or not the HMAC.
  const given = signature.trim().toLowerCase();
  if (!isSignatureFormat(given)) return { ok: false, reason: 'malformed_signature' };
  return sameBytes(given, expected) ? { ok: true } : { ok: false, reason: 'mismatch' };
};
