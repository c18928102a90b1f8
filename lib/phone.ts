import type * as PhoneParts from './phone-parts';

import { BilingualError, ltr } from './i18n';

export class PhoneFormatError extends BilingualError {}

/** The phone library is loaded on the first phone, not on every cold start of the app. */
let parse: typeof PhoneParts.parsePhoneNumberFromString | undefined;

/**
 * A Saudi phone in any local form (0501234567, 501234567, 00966…, +966 50 123 4567) as E.164. Numbers
 * from other countries are accepted with their + or 00 prefix.
 */
export const toE164 = (input: string): string => {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  parse ??= (require('./phone-parts') as typeof PhoneParts).parsePhoneNumberFromString;
  const text = input.trim().replace(/^00/, '+');
  const parsed = parse(text, 'SA');
  if (!parsed || !parsed.isValid()) {
    throw new PhoneFormatError({
      en: `"${input}" is not a phone number; write a Saudi mobile like 0501234567 or +966501234567.`,
      ar: `"${ltr(input)}" ليس رقم هاتف؛ اكتب رقم جوال سعوديًا مثل ${ltr('0501234567')} أو ${ltr('+966501234567')}.`,
    });
  }
  return parsed.number;
};
