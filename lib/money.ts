/**
 * Money rules of CONTRACT §5: riyals as decimal text in, integer halalas on the wire, and every
 * `*_halalas` output gets a `*_sar` sibling with two decimals. Integer arithmetic only, so nothing rounds.
 */

import { BilingualError } from './i18n';

const SAR_TEXT = /^(\d+)(?:\.(\d{1,2}))?$/;

export class MoneyFormatError extends BilingualError {}

/** Commas only as thousands separators ("1,250.75"); "12,50" is a decimal comma and is refused, not read as 1250. */
const THOUSANDS = /^\d{1,3}(,\d{3})+(\.\d+)?$/;

/** "12.5" → 1250. Throws for negatives, more than two decimals, or anything that is not a number. */
export const sarToHalalas = (input: string | number): number => {
  const trimmed = String(input).trim().replace(/^\+/, '');
  const text = THOUSANDS.test(trimmed) ? trimmed.replace(/,/g, '') : trimmed;
  if (text.startsWith('-'))
    throw new MoneyFormatError({
      en: `"${input}" is negative; prices and amounts must be 0 or more.`,
      ar: `"${input}" سالب؛ يجب أن تكون الأسعار والمبالغ 0 أو أكثر.`,
    });
  const m = SAR_TEXT.exec(text);
  if (!m) {
    throw new MoneyFormatError(
      /^\d*\.\d{3,}$/.test(text)
        ? {
            en: `"${input}" has more than two decimals; SAR amounts have at most two (halalas).`,
            ar: `"${input}" فيه أكثر من منزلتين عشريتين؛ مبالغ الريال لها منزلتان على الأكثر (الهللات).`,
          }
        : {
            en: `"${input}" is not an amount in SAR; write it like 12.50.`,
            ar: `"${input}" ليس مبلغًا بالريال؛ اكتبه مثل 12.50.`,
          },
    );
  }
  const halalas = Number(m[1]) * 100 + Number((m[2] ?? '').padEnd(2, '0'));
  if (!Number.isSafeInteger(halalas)) {
    throw new MoneyFormatError({ en: `"${input}" is too large.`, ar: `"${input}" كبير جدًا.` });
  }
  return halalas;
};

/** "00" to "99", the halalas of an amount (every SAR sibling of every delivery is made here). */
const CENTS = Array.from({ length: 100 }, (_, i) => String(i).padStart(2, '0'));

/** 1250 → "12.50"; -5 → "-0.05". */
export const halalasToSar = (halalas: number): string => {
  const sign = halalas < 0 ? '-' : '';
  const abs = Math.abs(Math.trunc(halalas));
  return `${sign}${Math.floor(abs / 100)}.${CENTS[abs % 100]!}`;
};

const HALALAS = '_halalas';

/** The `_sar` sibling of a `*_halalas` key (`total_halalas` → `total_sar`), or undefined for any other key. */
export const sarKeyOf = (key: string): string | undefined =>
  key.endsWith(HALALAS) ? `${key.slice(0, -HALALAS.length)}_sar` : undefined;

/** Adds `x_sar` beside every integer `x_halalas`, at any depth (arrays and nested objects included). */
export const withSar = <T>(value: T): T => {
  if (Array.isArray(value)) return value.map((v) => withSar(v)) as T;
  if (!value || typeof value !== 'object') return value;
  const source = value as Record<string, unknown>;
  const out: Record<string, unknown> = {};
  // Keys, not entries: one array a level rather than a pair a member (samples go through here at every load).
  const keys = Object.keys(source);
  for (const key of keys) out[key] = withSar(source[key]);
  // Siblings last, so a stale `_sar` that came in with the object never wins over the amount in halalas.
  for (const key of keys) {
    const sar = sarKeyOf(key);
    const v = source[key];
    if (sar !== undefined && typeof v === 'number' && Number.isInteger(v)) out[sar] = halalasToSar(v);
  }
  return out as T;
};
