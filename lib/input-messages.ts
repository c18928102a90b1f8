/**
 * What is wrong with an input, in words: the messages of the input rules (lib/input-rules.ts, lib/input-times.ts),
 * by the key zod carries as an issue's message (lib/inputs.ts writes them). Some read the host's words (lib/host.ts).
 */
import { ZAPIER, type HostWords } from './host';
import type { Bilingual } from './i18n';

/** What a start-time rule (lib/input-times.ts) tells its message: the time it read, in words, and the margin. */
interface TimeIssue {
  params?: unknown;
  /** The words of the host the input came through (lib/host.ts), given where the message is written. */
  words?: HostWords;
}
const hostWords = (issue: { words?: HostWords }): HostWords => issue.words ?? ZAPIER.words;
const timeParams = (issue: TimeIssue) =>
  (issue.params ?? {}) as { read?: Bilingual; minutes?: number; days?: number; offset?: string };
/** The horizon of a start too far ahead, in whole years (366 days each, so a leap day never makes it one more). */
const horizonYears = (issue: TimeIssue): number | string =>
  Math.floor(Number(timeParams(issue).days) / 366) || '?';
/** What the past-start message adds when the time came in another offset than Riyadh's: its likely cause. */
const offsetHint = (issue: TimeIssue): Bilingual => {
  const { offset } = timeParams(issue);
  if (!offset || offset === '+03:00') return { en: '', ar: '' };
  const words = hostWords(issue);
  return {
    en: `. It came with the offset ${offset}, not Riyadh's +03:00. A time typed without an offset is read in the ${words.flow}'s timezone: set it to Asia/Riyadh, or write the offset`,
    ar: `. وصل بفرق التوقيت ${offset} لا بفرق الرياض +03:00. الوقت المكتوب بلا فرق توقيت يُقرأ ب${words.flowTimezoneAr}: اضبطها على Asia/Riyadh، أو اكتب فرق التوقيت`,
  };
};
const readAs = (issue: TimeIssue): Bilingual => timeParams(issue).read ?? { en: '?', ar: '?' };
const lead = (issue: TimeIssue): string => String(timeParams(issue).minutes ?? '?');

/**
 * What is wrong with an input, by message key (lib/inputs.ts): zod carries the key as its issue message, and the
 * words are looked up here when the error is written. A key whose words depend on the rule reads them from the
 * issue itself (the maximum of a `too_big`, the values of an `invalid_value`).
 */
export const INPUT_MESSAGES = {
  required: { en: 'is required', ar: 'مطلوب' },
  whole_number: { en: 'must be a whole number', ar: 'يجب أن يكون عددًا صحيحًا' },
  number: { en: 'must be a number', ar: 'يجب أن يكون رقمًا' },
  one_or_more: { en: 'must be 1 or more', ar: 'يجب أن يكون 1 أو أكثر' },
  more_than_zero: { en: 'must be more than 0', ar: 'يجب أن يكون أكبر من 0' },
  yes_or_no: { en: 'must be yes or no', ar: 'يجب أن يكون نعم أو لا' },
  max_chars: (issue: { maximum?: unknown }) => ({
    en: `must be at most ${String(issue.maximum)} characters`,
    ar: `يجب ألا يتجاوز ${String(issue.maximum)} حرفًا`,
  }),
  max_id_chars: (issue: { maximum?: unknown }) => ({
    en: `must be at most ${String(issue.maximum)} characters`,
    ar: `يجب ألا يتجاوز ${String(issue.maximum)} حرف`,
  }),
  one_of: (issue: { values?: unknown }) => {
    const values = Array.isArray(issue.values) ? issue.values.map(String) : [];
    return { en: `must be one of: ${values.join(', ')}`, ar: `يجب أن يكون أحد: ${values.join('، ')}` };
  },
  id_from_list: {
    en: 'is not an id: choose from the list or map an id from an earlier step',
    ar: 'ليس معرّفًا: اختر من القائمة أو اربط معرّفًا من خطوة سابقة',
  },
  ulid: {
    en: 'is not a valid id (26 letters and digits, like 01JDA3F7Q9B2C4D6E8G0H1J3K5)',
    ar: 'ليس معرّفًا صالحًا (26 حرفًا ورقمًا، مثل 01JDA3F7Q9B2C4D6E8G0H1J3K5)',
  },
  ulid_from_list: {
    en: 'is not a valid id: choose from the list or map an id from an earlier step (26 letters and digits, like 01JDA3F7Q9B2C4D6E8G0H1J3K5)',
    ar: 'ليس معرّفًا صالحًا: اختر من القائمة أو اربط معرّفًا من خطوة سابقة (26 حرفًا ورقمًا، مثل 01JDA3F7Q9B2C4D6E8G0H1J3K5)',
  },
  segment_id: {
    en: 'is not a valid id (letters, digits and - _ . ~ : @ only, e.g. 01JDAD4E5F6G7H8J9K0M1N2P3Q)',
    ar: 'ليس معرّفًا صالحًا (حروف وأرقام و - _ . ~ : @ فقط، مثل 01JDAD4E5F6G7H8J9K0M1N2P3Q)',
  },
  sar: { en: 'is not an amount in SAR', ar: 'ليس مبلغًا بالريال' },
  phone: { en: 'is not a phone number', ar: 'ليس رقم هاتف' },
  not_real: {
    en: 'is not a real date or time (e.g. 31 April, 29 February outside a leap year, hour 24, minute or second 60)',
    ar: 'ليس تاريخًا أو وقتًا حقيقيًا (مثل 31 أبريل، أو 29 فبراير في سنة غير كبيسة، أو الساعة 24، أو الدقيقة أو الثانية 60)',
  },
  datetime: {
    en: 'must be a date and time with its offset, like 2026-11-24T10:30:00+03:00',
    ar: 'يجب أن يكون تاريخًا ووقتًا مع فرق التوقيت، مثل 2026-11-24T10:30:00+03:00',
  },
  date_or_datetime: {
    en: 'must be a date like 2026-11-24, or a date and time with its offset',
    ar: 'يجب أن يكون تاريخًا مثل 2026-11-24، أو تاريخًا ووقتًا مع فرق التوقيت',
  },
  date: { en: 'must be a date like 2026-11-24', ar: 'يجب أن يكون تاريخًا مثل 2026-11-24' },
  past: (issue: TimeIssue) => ({
    en: `is in the past (read as ${readAs(issue).en}, Riyadh time): give a time ahead${offsetHint(issue).en}`,
    ar: `وقت مضى (قُرئ ${readAs(issue).ar} بتوقيت الرياض): أدخل وقتًا قادمًا${offsetHint(issue).ar}`,
  }),
  too_far: (issue: TimeIssue) => ({
    en: `is more than ${horizonYears(issue)} years ahead (read as ${readAs(issue).en}, Riyadh time): check the year. The app books at most that far ahead, so a mistyped year is never booked`,
    ar: `بعد أكثر من ${horizonYears(issue) === 2 ? 'سنتين' : `${horizonYears(issue)} سنوات`} من الآن (قُرئ ${readAs(issue).ar} بتوقيت الرياض): تحقق من السنة. لا يحجز التطبيق أبعد من ذلك، كي لا يُحجز موعد بسنة مكتوبة خطأً`,
  }),
  too_soon: (issue: TimeIssue) => {
    const words = hostWords(issue);
    return {
      en: `is within ${lead(issue)} minutes of now (read as ${readAs(issue).en}, Riyadh time), too soon to book${words.unreadableDate.en} Give a real date and time at least ${lead(issue)} minutes ahead`,
      ar: `في حدود ${lead(issue)} دقائق من الآن (قُرئ ${readAs(issue).ar} بتوقيت الرياض)، وهذا أقرب من أن يُحجز${words.unreadableDate.ar} أدخل تاريخًا ووقتًا حقيقيين بعد ${lead(issue)} دقائق على الأقل`,
    };
  },
  curlies: (issue: { words?: HostWords }) => ({
    en: `holds "{{bundle.…}}" or "{{process.…}}", ${hostWords(issue).curliesRefused.en}; remove the double curly braces, or map the value from an earlier step instead`,
    ar: `يحتوي "{{bundle.…}}" أو "{{process.…}}"، ${hostWords(issue).curliesRefused.ar}؛ احذف الأقواس المزدوجة، أو اربط القيمة من خطوة سابقة بدلًا منها`,
  }),
  at_least_one_line: { en: 'add at least one line', ar: 'أضف بندًا واحدًا على الأقل' },
  later_than: (issue: { than?: unknown }) => ({
    en: `must be later than ${String(issue.than)}`,
    ar: `يجب أن يكون بعد ${String(issue.than)}`,
  }),
} satisfies Record<string, Bilingual | ((issue: Record<string, unknown>) => Bilingual)>;

export type InputMessage = keyof typeof INPUT_MESSAGES;
