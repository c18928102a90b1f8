/**
 * The readable forms of an item's `starts_at` (CONTRACT §8): date, 24-hour time, English and Arabic words and
 * the Umm al-Qura (Hijri) date, so a one-step Zap can put them straight into an SMS or a WhatsApp message.
 *
 * The date and the 24-hour time are the digits of `starts_at` in the offset the interface gave (CONTRACT §8); the
 * words and the Hijri date are the clinic's time (the branches keep Riyadh time, lib/time.ts), whatever offset the
 * interface wrote the instant in: an interface that answers a 10:30 Riyadh booking as `07:30Z` still reads
 * 10:30 AM in words. Neither depends on the worker's time zone: `2026-11-30T00:30:00+03:00` is the 30th even on a
 * server where that instant is still the 29th.
 */

import type { OutputField } from './output-field';
import { RIYADH_OFFSET_MINUTES } from './time';

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
  /^(\d{4})-(\d{2})-(\d{2})[Tt ](\d{2}):(\d{2})(?::(\d{2})(?:[.,](\d+))?)?(?:([Zz])|([+-])(\d{2}):?(\d{2}))$/;

interface WallClock {
  year: number;
  month: number;
  day: number;
  hour: number;
  minute: number;
  /** 0 = Sunday. */
  weekday: number;
}

/** The instant a date-time with an offset names, in ms; null when it is not one or names no real date. */
export const instantOf = (text: unknown): number | null => {
  if (typeof text !== 'string') return null;
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
  const offsetHours = Number(m[10] ?? 0);
  const offsetMinutes = Number(m[11] ?? 0);
  if (month < 1 || month > 12 || hour > 23 || minute > 59 || second > 59) return null;
  if (offsetHours > 23 || offsetMinutes > 59) return null;
  // Date.UTC rolls 31 November over to 1 December; a date that does not come back unchanged does not exist.
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years 0–99 as 1900–1999
  if (at.getUTCMonth() !== month - 1 || at.getUTCDate() !== day) return null;
  const offset = (m[9] === '-' ? -1 : 1) * (offsetHours * 60 + offsetMinutes);
  const ms = Number((m[7] ?? '').slice(0, 3).padEnd(3, '0'));
  return at.getTime() + ((hour * 60 + minute - offset) * 60 + second) * 1000 + ms;
};

/** The offset `text` is written in, in minutes east of UTC; null when it is not an ISO-8601 date-time. */
const offsetOf = (text: string): number | null => {
  const m = ISO.exec(text.trim());
  if (!m) return null;
  if (m[8]) return 0;
  return (m[9] === '-' ? -1 : 1) * (Number(m[10]) * 60 + Number(m[11]));
};

/** The wall clock at the instant `text` names, in an offset of `offsetMinutes` east of UTC. */
const wallClockOf = (text: string, offsetMinutes: number | null): WallClock | null => {
  const instant = instantOf(text);
  if (instant === null || offsetMinutes === null) return null;
  const at = new Date(Math.floor(instant / 60_000) * 60_000 + offsetMinutes * 60_000);
  return {
    year: at.getUTCFullYear(),
    month: at.getUTCMonth() + 1,
    day: at.getUTCDate(),
    hour: at.getUTCHours(),
    minute: at.getUTCMinutes(),
    weekday: at.getUTCDay(),
  };
};

const pad2 = (n: number) => String(n).padStart(2, '0');

/** 0 → 12, 13 → 1: the 12-hour clock of appointment messages. */
const hour12 = (hour: number) => hour % 12 || 12;

/**
 * The Umm al-Qura calendar for 1300–1600 AH, the years ICU holds its table for: three hex digits a year, bit m−1
 * set when month m has 30 days (29 otherwise), from 1 Muharram 1300 (12 November 1882, day -31826 of the Unix
 * epoch). Read from ICU once (`Intl.DateTimeFormat('en-u-ca-islamic-umalqura')`, every day of the range) and kept
 * as data because building that formatter costs 40–100 ms in a fresh process, which a cold container paid on
 * loading the app (the samples) or on its first appointment. test/readable-time.test.ts holds it to ICU day by
 * day over the whole range.
 */
const UMALQURA_MONTHS =
  '5552ab9372b657636cb55aaa95649e95d2ba5b53aab4ba9652e2ad56db5a752f25e8ad16a56ab56b4da9b92b2564ba9b' +
  '35a6d95d4da5d4aa955369752f46e96d46a953525d4bd9ba3b4b69b2aa554ada5d2da6d9eaae94d2ac564aea6d56ad55' +
  'd4aa9352ba5b53a6b5ea9d52d29a554ad56daea6e4ed1da2aaa95a2da5b9bb27646c95552ab4dbaba5b4da9d52aa592d' +
  '26d8ed2daad5aa5a4b4979372b6975d69d52c9592b25b4db9d55d2da5d4aa9554daad3aabd2bc4b89a9552d5adb6a6d4' +
  'dc9d92aa69562ae56d36ab55aaa94d49d95d2ba5b55aad55a9a92e26e55dada6d46a5b27a4d4ad56db5a754f49e92d26' +
  'a563566b5baab92b2568ba9b55aada5b4da9b52a9a536276575af26d46a95552ad4bd9ba574b69b52a9552da5d4daad9' +
  '6b2e95e2ac9692eaad56ad65d4ad1562bc5b53a6b5db2d64d29a554ad96daea6e8ed1da4d4aa6a2da5b9b72b686d1655' +
  '4ab95b2ba5b5da9d52ca694e46e95d4daad5aaaa4d49b9374b6975d6ad52aa594b2ab55bad95d2dc5d92b25555ab55b4' +
  'ba97a2745593aab4d69d65d2ba5b4aa954ad15d2dd9da5b45a952d25b8b717656db6aacaa9652b15b2bb5b6daab94d46' +
  'a8d52da9d55a755749f13e4aa965566b5baab94';
const UMALQURA_FIRST_YEAR = 1300;
const UMALQURA_FIRST_DAY = -31826;
const DAY_MS = 86_400_000;

/** Day number (from the Unix epoch) of 1 Muharram of each year of the table, and of the day after its end. */
let yearStarts: number[] | undefined;
const monthsOf = (i: number) => parseInt(UMALQURA_MONTHS.slice(3 * i, 3 * i + 3), 16);
const startsOfYears = () => {
  const starts = [UMALQURA_FIRST_DAY];
  for (let i = 0; i < UMALQURA_MONTHS.length / 3; i += 1) {
    let days = 0;
    for (let m = 0; m < 12; m += 1) days += 29 + ((monthsOf(i) >> m) & 1);
    starts.push(starts[i]! + days);
  }
  return starts;
};

/**
 * Umm al-Qura day, month (1–12) and year of a civil date, from the table above; null outside 1300–1600 AH, where
 * ICU computes years arithmetically, which is not Umm al-Qura.
 */
export const hijriOf = ({
  year,
  month,
  day,
}: Pick<WallClock, 'year' | 'month' | 'day'>): { day: number; month: number; year: number } | null => {
  const at = new Date(0);
  at.setUTCFullYear(year, month - 1, day); // not Date.UTC, which reads years 0–99 as 1900–1999
  const n = Math.floor(at.getTime() / DAY_MS);
  const starts = (yearStarts ??= startsOfYears());
  if (!(n >= starts[0]! && n < starts[starts.length - 1]!)) return null;
  let lo = 0;
  let hi = starts.length - 2;
  while (lo < hi) {
    const mid = (lo + hi + 1) >> 1;
    if (starts[mid]! <= n) lo = mid;
    else hi = mid - 1;
  }
  let rest = n - starts[lo]!;
  const months = monthsOf(lo);
  for (let m = 0; m < 12; m += 1) {
    const length = 29 + ((months >> m) & 1);
    if (rest < length) return { day: rest + 1, month: m + 1, year: UMALQURA_FIRST_YEAR + lo };
    rest -= length;
  }
  return null;
};

/**
 * The five readable fields of `starts_at` (date and time as written, words and Hijri date in the clinic's time); all null when it is missing or not an ISO-8601
 * date-time with an offset. Never throws.
 *
 * Digits are Latin (0–9), not Arabic-Indic (٠–٩), in the Arabic text too: Saudi clinics, banks and government
 * services (Absher, Tawakkalna, Seha) send their SMS and WhatsApp messages with Latin digits, phones show them
 * the same in either script direction, and a Zap builder can mix these fields with the date and time fields
 * (also Latin) without two kinds of digit in one message.
 */
export const readableTimes = (startsAt: unknown): ReadableTimes => {
  try {
    if (typeof startsAt !== 'string') return { ...NONE };
    const w = wallClockOf(startsAt, RIYADH_OFFSET_MINUTES);
    const given = wallClockOf(startsAt, offsetOf(startsAt));
    if (!w || !given) return { ...NONE };
    const clock12 = `${hour12(w.hour)}:${pad2(w.minute)}`;
    const hijri = hijriOf(w);
    return {
      starts_at_date: `${String(given.year).padStart(4, '0')}-${pad2(given.month)}-${pad2(given.day)}`,
      starts_at_time: `${pad2(given.hour)}:${pad2(given.minute)}`,
      starts_at_text_en: `${WEEKDAYS_EN[w.weekday]} ${w.day} ${MONTHS_EN[w.month - 1]} ${w.year}, ${clock12} ${w.hour < 12 ? 'AM' : 'PM'}`,
      // ص (صباحًا) and م (مساءً): how Saudi appointment messages mark morning and afternoon.
      starts_at_text_ar: `${WEEKDAYS_AR[w.weekday]} ${w.day} ${MONTHS_AR[w.month - 1]} ${w.year}، ${clock12} ${w.hour < 12 ? 'ص' : 'م'}`,
      starts_at_hijri: hijri ? `${hijri.day} ${HIJRI_MONTHS_AR[hijri.month - 1]} ${hijri.year} هـ` : null,
    };
  } catch {
    return { ...NONE };
  }
};
