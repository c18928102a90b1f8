/**
 * The readable forms of an item's `starts_at` (CONTRACT §8): date, 24-hour time, English and Arabic words and
 * the Umm al-Qura (Hijri) date, so a one-step Zap can put them straight into an SMS or a WhatsApp message.
 *
 * Everything is read from the wall-clock digits of the string, in the offset it carries, never from the
 * worker's time zone: `2026-11-30T00:30:00+03:00` is the 30th in every field even on a server where that
 * instant is still the 29th. The offset is checked but never applied.
 */

import type { OutputField } from './resources/define';

export interface ReadableTimes {
  starts_at_date: string | null;
  starts_at_time: string | null;
  starts_at_text_en: string | null;
  starts_at_text_ar: string | null;
  starts_at_hijri: string | null;
}

export const readableTimeOutputFields: OutputField[] = [
  { key: 'starts_at_date', label: 'Starts At Date', type: 'string' },
  { key: 'starts_at_time', label: 'Starts At Time (24 Hour)', type: 'string' },
  { key: 'starts_at_text_en', label: 'Starts At (English Text)', type: 'string' },
  { key: 'starts_at_text_ar', label: 'Starts At (Arabic Text)', type: 'string' },
  { key: 'starts_at_hijri', label: 'Starts At (Hijri Date)', type: 'string' },
];

const NONE: ReadableTimes = {
  starts_at_date: null,
  starts_at_time: null,
  starts_at_text_en: null,
  starts_at_text_ar: null,
  starts_at_hijri: null,
};

/*
 * Names are our own tables rather than Intl's: a Node upgrade that changes ICU's spelling (الاثنين/الإثنين,
 * punctuation, "at"/"في") must not change what a live Zap sends. Intl only converts the date to Umm al-Qura,
 * the one thing that needs data (test/readable-time.test.ts checks the tables against Intl too).
 */
const WEEKDAYS_EN = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
const WEEKDAYS_AR = ['الأحد', 'الاثنين', 'الثلاثاء', 'الأربعاء', 'الخميس', 'الجمعة', 'السبت'];
const MONTHS_EN = [
  'January',
  'February',
  'March',
  'April',
  'May',
  'June',
  'July',
  'August',
  'September',
  'October',
  'November',
  'December',
];
/** The Gregorian month names used in Saudi Arabia (not the Levantine كانون/تشرين names). */
const MONTHS_AR = [
  'يناير',
  'فبراير',
  'مارس',
  'أبريل',
  'مايو',
  'يونيو',
  'يوليو',
  'أغسطس',
  'سبتمبر',
  'أكتوبر',
  'نوفمبر',
  'ديسمبر',
];
export const HIJRI_MONTHS_AR = [
  'محرم',
  'صفر',
  'ربيع الأول',
  'ربيع الآخر',
  'جمادى الأولى',
  'جمادى الآخرة',
  'رجب',
  'شعبان',
  'رمضان',
  'شوال',
  'ذو القعدة',
  'ذو الحجة',
];

/** Date-time with an offset (`Z`, `+03:00` or `+0300`); seconds and fractions optional, as RFC 3339 allows. */
const ISO =
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,]\d+)?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Sunday. */
  weekday: number;
}

const wallClockOf = (text: string): WallClock | null => {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  const [year, month, day, hour, minute] = m.slice(1, 6).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const second = Number(m[6] ?? 0);
  const offsetHours = Number(m[9] ?? 0);
  const offsetMinutes = Number(m[10] ?? 0);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  // Date.UTC rolls 31 November over to 1 December; a date that does not come back unchanged does not exist.
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years 0–99 as 1900–1999
  if (at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  return { year, month, day, hour, minute, weekday: at.getUTCDay() };
};

const pad2 = (n: number) => String(n).padStart(2, '0');

/** 0 → 12, 13 → 1: the 12-hour clock of appointment messages. */
const hour12 = (hour: number) => hour % 12 || 12;

/**
 * Umm al-Qura day, month (1–12) and year of a civil date, from ICU. ICU holds the Umm al-Qura tables for
 * 1300–1600 AH only and computes other years arithmetically, which is not Umm al-Qura: those give null.
 */
let hijriFormat: Intl.DateTimeFormat | undefined;
const hijriOf = ({ year, month, day }: WallClock): { day: number; month: number; year: number } | null => {
  // The civil date at noon UTC, formatted in UTC: the worker's zone never enters.
  const at = new Date(Date.UTC(2000, 0, 1, 12));
  at.setUTCFullYear(year, month - 1, day);
  hijriFormat ??= new Intl.DateTimeFormat('en-u-ca-islamic-umalqura-nu-latn', {
    timeZone: 'UTC',
    day: 'numeric',
    month: 'numeric',
    year: 'numeric',
  });
  const parts = Object.fromEntries(hijriFormat.formatToParts(at).map((p) => [p.type, p.value]));
  const h = { day: Number(parts.day), month: Number(parts.month), year: Number(parts.year) };
  const known =
    [h.day, h.month, h.year].every(Number.isInteger) &&
    h.month >= 1 &&
    h.month <= 12 &&
    h.year >= 1300 &&
    h.year <= 1600;
  return known ? h : null;
};

/**
 * The five readable fields of `starts_at`; all null when it is missing or not an ISO-8601 date-time with an
 * offset. Never throws.
 *
 * Digits are Latin (0–9), not Arabic-Indic (٠–٩), in the Arabic text too: Saudi clinics, banks and government
 * services (Absher, Tawakkalna, Seha) send their SMS and WhatsApp messages with Latin digits, phones show them
 * the same in either script direction, and a Zap builder can mix these fields with the date and time fields
 * (also Latin) without two kinds of digit in one message.
 */
export const readableTimes = (startsAt: unknown): ReadableTimes => {
  try {
    if (typeof startsAt !== 'string') return { ...NONE };
    const w = wallClockOf(startsAt);
    if (!w) return { ...NONE };
    const time = `${pad2(w.hour)}:${pad2(w.minute)}`;
    const clock12 = `${hour12(w.hour)}:${pad2(w.minute)}`;
    const hijri = hijriOf(w);
    return {
      starts_at_date: `${String(w.year).padStart(4, '0')}-${pad2(w.month)}-${pad2(w.day)}`,
      starts_at_time: time,
      starts_at_text_en: `${WEEKDAYS_EN[w.weekday]} ${w.day} ${MONTHS_EN[w.month - 1]} ${w.year}, ${clock12} ${w.hour < 12 ? 'AM' : 'PM'}`,
      // ص (صباحًا) and م (مساءً): how Saudi appointment messages mark morning and afternoon.
      starts_at_text_ar: `${WEEKDAYS_AR[w.weekday]} ${w.day} ${MONTHS_AR[w.month - 1]} ${w.year}، ${clock12} ${w.hour < 12 ? 'ص' : 'م'}`,
      starts_at_hijri: hijri ? `${hijri.day} ${HIJRI_MONTHS_AR[hijri.month - 1]} ${hijri.year} هـ` : null,
    };
  } catch {
    return { ...NONE };
  }
};
