import { parsePhoneNumberFromString } from 'libphonenumber-js/min';

export class PhoneFormatError extends Error {}

/**
 * A Saudi phone in any local form (0501234567, 501234567, 00966…, +966 50 123 4567) as E.164. Numbers
 * from other countries are accepted with their + or 00 prefix.
 */
export const toE164 = (input: string): string => {
  const text = input.trim().replace(/^00/, '+');
  const parsed = parsePhoneNumberFromString(text, 'SA');
  if (!parsed || !parsed.isValid()) {
    throw new PhoneFormatError(
      `"${input}" is not a phone number; write a Saudi mobile like 0501234567 or +966501234567.`,
    );
  }
  return parsed.number;
};
