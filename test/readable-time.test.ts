import { execFileSync } from 'node:child_process';
import path from 'node:path';
import fc from 'fast-check';
import { HIJRI_MONTHS_AR, hijriOf, readableTimeOutputFields, readableTimes } from '../lib/readable-time';

/*
 * The readable forms of `starts_at` (CONTRACT §8) are the clinic's wall clock (Riyadh, +03:00) at the instant the
 * string names, whatever offset the interface wrote it in and whatever the worker's time zone; the Hijri date is
 * Umm al-Qura's.
 */

const FIELDS = [
  'starts_at_date',
  'starts_at_time',
  'starts_at_text_en',
  'starts_at_text_ar',
  'starts_at_hijri',
];
const NONE = Object.fromEntries(FIELDS.map((k) => [k, null]));

const WEEKDAYS_EN = ['Sunday', 'Monday', 'Tuesday', 'Wednesday', 'Thursday', 'Friday', 'Saturday'];
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

/** Day of the week (0 = Sunday) by Sakamoto's method: plain arithmetic, no Date, no time zone. */
const weekdayOf = (y: number, m: number, d: number): number => {
  const t = [0, 3, 2, 5, 0, 3, 5, 1, 4, 6, 2, 4];
  const yy = m < 3 ? y - 1 : y;
  return (yy + Math.floor(yy / 4) - Math.floor(yy / 100) + Math.floor(yy / 400) + t[m - 1]! + d) % 7;
};

const daysIn = (y: number, m: number) =>
  m === 2 ? (y % 4 === 0 && (y % 100 !== 0 || y % 400 === 0) ? 29 : 28) : [4, 6, 9, 11].includes(m) ? 30 : 31;

const pad = (n: number, width = 2) => String(Math.abs(n)).padStart(width, '0');

/** A date-time as the interfaces send it, with any offset from -12:00 to +14:00 (or Z). */
const arbStamp = fc
  .record({
    year: fc.integer({ min: 1900, max: 2150 }),
    month: fc.integer({ min: 1, max: 12 }),
    dayPick: fc.integer({ min: 1, max: 31 }),
    hour: fc.integer({ min: 0, max: 23 }),
    minute: fc.integer({ min: 0, max: 59 }),
    second: fc.integer({ min: 0, max: 59 }),
    offsetMinutes: fc.oneof(
      fc.constantFrom(0, 180, -300, 330, 345, 840, -720),
      fc.integer({ min: -12 * 60, max: 14 * 60 }),
    ),
    zulu: fc.boolean(),
    fraction: fc.option(fc.integer({ min: 0, max: 999 }), { nil: undefined }),
  })
  .map((r) => {
    const day = Math.min(r.dayPick, daysIn(r.year, r.month));
    const offset =
      r.zulu && r.offsetMinutes === 0
        ? 'Z'
        : `${r.offsetMinutes < 0 ? '-' : '+'}${pad(Math.trunc(r.offsetMinutes / 60))}:${pad(r.offsetMinutes % 60)}`;
    const fraction = r.fraction === undefined ? '' : `.${pad(r.fraction, 3)}`;
    const text = `${pad(r.year, 4)}-${pad(r.month)}-${pad(day)}T${pad(r.hour)}:${pad(r.minute)}:${pad(r.second)}${fraction}${offset}`;
    return { ...r, day, text };
  });

/** The same instant written in Riyadh's offset, as the interfaces write a branch's times. */
const riyadhSpelling = (text: string): string => {
  const at = new Date(Date.parse(text) + 3 * 3_600_000).toISOString();
  return `${at.slice(0, 19)}+03:00`;
};

describe('readableTimes', () => {
  it('gives the example of CONTRACT §8 in both languages, with its Umm al-Qura date', () => {
    expect(readableTimes('2026-11-30T10:30:00+03:00')).toEqual({
      starts_at_date: '2026-11-30',
      starts_at_time: '10:30',
      starts_at_text_en: 'Monday 30 November 2026, 10:30 AM',
      starts_at_text_ar: 'الاثنين 30 نوفمبر 2026، 10:30 ص',
      // 30 Nov 2026 is 20 Jumada al-Akhirah 1448: 1 Muharram 1448 is 16 Jun 2026 (below), and Muharram to
      // Jumada I of 1448 have 29+30+29+30+30 = 148 days in the Umm al-Qura table, so 1 Jumada II is 11 Nov.
      starts_at_hijri: '20 جمادى الآخرة 1448 هـ',
    });
  });

  it.each([
    // [input, date, time, English, Arabic]: the midnight cases are those a worker's zone would move a day.
    [
      '2026-11-30T00:05:00+03:00',
      '2026-11-30',
      '00:05',
      'Monday 30 November 2026, 12:05 AM',
      'الاثنين 30 نوفمبر 2026، 12:05 ص',
    ],
    // An interface that answers a 10:30 Riyadh booking in UTC.
    [
      '2026-11-24T07:30:00Z',
      '2026-11-24',
      '10:30',
      'Tuesday 24 November 2026, 10:30 AM',
      'الثلاثاء 24 نوفمبر 2026، 10:30 ص',
    ],
    [
      '2026-11-29T23:55:00-05:00',
      '2026-11-30',
      '07:55',
      'Monday 30 November 2026, 7:55 AM',
      'الاثنين 30 نوفمبر 2026، 7:55 ص',
    ],
    [
      '2026-02-18T12:00:00Z',
      '2026-02-18',
      '15:00',
      'Wednesday 18 February 2026, 3:00 PM',
      'الأربعاء 18 فبراير 2026، 3:00 م',
    ],
    [
      '2026-06-16T18:45:30.250+05:30',
      '2026-06-16',
      '16:15',
      'Tuesday 16 June 2026, 4:15 PM',
      'الثلاثاء 16 يونيو 2026، 4:15 م',
    ],
    [
      '2024-02-29T09:00+0300',
      '2024-02-29',
      '09:00',
      'Thursday 29 February 2024, 9:00 AM',
      'الخميس 29 فبراير 2024، 9:00 ص',
    ],
    // The year's last minutes in UTC are already the next year in Riyadh.
    [
      '2026-12-31T22:30:00Z',
      '2027-01-01',
      '01:30',
      'Friday 1 January 2027, 1:30 AM',
      'الجمعة 1 يناير 2027، 1:30 ص',
    ],
  ])('reads %s in words in the clinic’s (Riyadh) time', (input, date, time, en, ar) => {
    const read = readableTimes(input);
    expect(read).toMatchObject({ starts_at_text_en: en, starts_at_text_ar: ar });
    // The date and time fields are the digits as the interface wrote them (CONTRACT §8); in Riyadh's offset they
    // are the clinic's date and time, as the words say.
    expect([read.starts_at_date, read.starts_at_time]).toEqual([input.slice(0, 10), input.slice(11, 16)]);
    expect(readableTimes(riyadhSpelling(input))).toMatchObject({
      starts_at_date: date,
      starts_at_time: time,
      starts_at_text_en: en,
    });
  });

  it.each([
    /*
     * Dates on which Saudi Arabia's official announcements and the Umm al-Qura calendar agreed (start of Ramadan
     * and the two Eids, as announced by the Saudi Supreme Court and reported by SPA): independent of ICU.
     */
    ['2024-03-11', '1 رمضان 1445 هـ'],
    ['2024-04-10', '1 شوال 1445 هـ'],
    ['2024-06-16', '10 ذو الحجة 1445 هـ'],
    ['2025-03-01', '1 رمضان 1446 هـ'],
    ['2025-03-30', '1 شوال 1446 هـ'],
    ['2025-06-06', '10 ذو الحجة 1446 هـ'],
    /*
     * The Umm al-Qura calendar's own dates for 1447–1448 (the project brief's figures, matching Node 22's ICU);
     * a moon sighting may move the observed day, not the calendar's.
     */
    ['2026-02-18', '1 رمضان 1447 هـ'],
    ['2026-06-16', '1 محرم 1448 هـ'],
  ])('gives the Umm al-Qura date of %s as %s', (date, hijri) => {
    // The same Riyadh day, whatever offset the instant is written in.
    for (const [time, offset] of [
      ['00:00', '+03:00'],
      ['12:00', 'Z'],
      ['15:59', '-05:00'],
      ['23:59', '+03:00'],
      ['23:59', '+14:00'],
    ]) {
      expect(readableTimes(`${date}T${time}:00${offset}`).starts_at_hijri).toBe(hijri);
    }
  });

  it('reads the Umm al-Qura table as ICU does on every day of 1300–1600 AH, and nothing outside it', () => {
    const icu = new Intl.DateTimeFormat('en-u-ca-islamic-umalqura-nu-latn', {
      timeZone: 'UTC',
      day: 'numeric',
      month: 'numeric',
      year: 'numeric',
    });
    let inside = 0;
    const differ: string[] = [];
    // From ten days before 1 Muharram 1300 to ten days after the end of 1600.
    for (let t = Date.UTC(1882, 10, 2, 12); t < Date.UTC(2174, 11, 6); t += 86_400_000) {
      const at = new Date(t);
      const parts = Object.fromEntries(icu.formatToParts(at).map((p) => [p.type, Number(p.value)]));
      const want = parts.year! >= 1300 && parts.year! <= 1600 ? parts : null;
      const got = hijriOf({ year: at.getUTCFullYear(), month: at.getUTCMonth() + 1, day: at.getUTCDate() });
      if (want) inside += 1;
      const mine = got && `${got.day}/${got.month}/${got.year}`;
      const theirs = want && `${want.day}/${want.month}/${want.year}`;
      if (mine !== theirs) differ.push(`${at.toISOString().slice(0, 10)}: ${mine} (ICU ${theirs})`);
    }
    expect(differ.slice(0, 5)).toEqual([]);
    expect(inside).toBe(106_665); // 1 Muharram 1300 (1882-11-12) to 29 Dhu al-Hijjah 1600 (2174-11-25)
  });

  it('spells the Hijri months as ICU does, in Umm al-Qura order', () => {
    // Every day of two Hijri years, from ICU with its own Arabic names, against the module's table.
    const icu = new Intl.DateTimeFormat('ar-u-ca-islamic-umalqura-nu-latn', {
      timeZone: 'UTC',
      month: 'long',
      day: 'numeric',
      year: 'numeric',
    });
    const seen = new Set<string>();
    for (let t = Date.UTC(2025, 5, 26, 12); t < Date.UTC(2027, 5, 1); t += 86_400_000) {
      const at = new Date(t);
      const parts = Object.fromEntries(icu.formatToParts(at).map((p) => [p.type, p.value]));
      const stamp = `${at.toISOString().slice(0, 10)}T10:00:00+03:00`;
      expect(readableTimes(stamp).starts_at_hijri).toBe(`${parts.day} ${parts.month} ${parts.year} هـ`);
      seen.add(parts.month!);
    }
    expect([...seen].sort()).toEqual([...HIJRI_MONTHS_AR].sort());
  });

  it('never depends on the worker’s time zone', () => {
    const inputs = [
      '2026-11-30T10:30:00+03:00',
      '2026-11-30T00:05:00+03:00',
      '2026-11-29T23:55:00-05:00',
      '2026-11-30T23:30:00Z',
      '2026-12-01T00:15:00+05:30',
      '2026-06-15T23:59:59-11:00',
    ];
    // jest gives tests a copy of process.env, so a zone is only really changed in a process of its own.
    const runIn = (zone: string) =>
      JSON.parse(
        execFileSync(
          process.execPath,
          [
            '--import',
            'tsx',
            '-e',
            `const { readableTimes } = require('./lib/readable-time.ts');
             console.log(JSON.stringify({ offset: new Date('2026-11-30T00:00:00Z').getTimezoneOffset(), out: ${JSON.stringify(inputs)}.map(readableTimes) }));`,
          ],
          { cwd: path.resolve(__dirname, '..'), env: { ...process.env, TZ: zone }, encoding: 'utf8' },
        ),
      ) as { offset: number; out: unknown[] };
    const zones = ['UTC', 'Pacific/Kiritimati', 'Pacific/Pago_Pago', 'Asia/Kolkata'];
    const runs = zones.map(runIn);
    // The zone did change under the module (minutes behind UTC, as getTimezoneOffset counts them).
    expect(runs.map((r) => r.offset)).toEqual([0, -840, 660, -330]);
    for (const run of runs) expect(run.out).toEqual(inputs.map((i) => readableTimes(i)));
    // The date as written, the words in the clinic's day, in a zone eleven hours behind UTC all the same.
    expect(runs[2]!.out.map((r) => (r as { starts_at_date: string }).starts_at_date)).toEqual(
      inputs.map((i) => i.slice(0, 10)),
    );
    expect(
      runs[2]!.out.map((r) => (r as { starts_at_text_en: string }).starts_at_text_en.split(' ')[1]),
    ).toEqual(['30', '30', '30', '1', '30', '16']);
  });

  it('gives the date and time as written, and the words and Hijri date as the same instant in +03:00', () => {
    fc.assert(
      fc.property(arbStamp, (s) => {
        const riyadh = new Date(Date.parse(s.text) + 3 * 3_600_000);
        const inRiyadh = `${riyadh.toISOString().slice(0, 19)}+03:00`;
        const r = readableTimes(s.text);
        const asRiyadh = readableTimes(inRiyadh);
        expect([r.starts_at_text_en, r.starts_at_text_ar, r.starts_at_hijri]).toEqual([
          asRiyadh.starts_at_text_en,
          asRiyadh.starts_at_text_ar,
          asRiyadh.starts_at_hijri,
        ]);
        expect([r.starts_at_date, r.starts_at_time]).toEqual([s.text.slice(0, 10), s.text.slice(11, 16)]);
        const [y, mo, d, h, mi] = [
          riyadh.getUTCFullYear(),
          riyadh.getUTCMonth() + 1,
          riyadh.getUTCDate(),
          riyadh.getUTCHours(),
          riyadh.getUTCMinutes(),
        ];
        const h12 = h % 12 || 12;
        expect(asRiyadh.starts_at_date).toBe(`${pad(y, 4)}-${pad(mo)}-${pad(d)}`);
        expect(asRiyadh.starts_at_time).toBe(`${pad(h)}:${pad(mi)}`);
        expect(r.starts_at_text_en).toBe(
          `${WEEKDAYS_EN[weekdayOf(y, mo, d)]} ${d} ${MONTHS_EN[mo - 1]} ${y}, ` +
            `${h12}:${pad(mi)} ${h < 12 ? 'AM' : 'PM'}`,
        );
        expect(r.starts_at_text_ar).toContain(` ${d} `);
        expect(r.starts_at_text_ar).toMatch(new RegExp(` ${y}، ${h12}:${pad(mi)} ${h < 12 ? 'ص' : 'م'}$`));
        expect(r.starts_at_text_ar).not.toMatch(/[٠-٩]/);
      }),
      { numRuns: 500 },
    );
  });

  it('gives one Hijri date per Riyadh day, whatever the time, one day after the day before', () => {
    fc.assert(
      fc.property(arbStamp, fc.integer({ min: 0, max: 23 }), (s, otherHour) => {
        const r = readableTimes(s.text);
        const riyadh = new Date(Date.parse(s.text) + 3 * 3_600_000);
        const day = riyadh.toISOString().slice(0, 10);
        const same = readableTimes(`${day}T${pad(otherHour)}:00:00+03:00`);
        expect(same.starts_at_hijri).toBe(r.starts_at_hijri);
        if (r.starts_at_hijri === null) return; // outside ICU's Umm al-Qura table (1300–1600 AH)
        const [y, m, d0] = day.split('-').map(Number) as [number, number, number];
        const next = new Date(Date.UTC(2000, 0, 1));
        next.setUTCFullYear(y, m - 1, d0 + 1);
        const nextHijri = readableTimes(`${next.toISOString().slice(0, 10)}T08:00:00+03:00`).starts_at_hijri;
        if (nextHijri === null) return;
        const [d, ...month] = r.starts_at_hijri.split(' ');
        const [nd, ...nextMonth] = nextHijri.split(' ');
        if (Number(nd) === 1) expect(Number(d)).toBeGreaterThanOrEqual(29);
        else {
          expect(Number(nd)).toBe(Number(d) + 1);
          expect(nextMonth).toEqual(month);
        }
      }),
      { numRuns: 300 },
    );
  });

  it('maps Hijri dates in ICU’s table only, and nothing beyond it', () => {
    expect(readableTimes('2026-11-30T10:30:00+03:00').starts_at_hijri).not.toBeNull();
    // 2200 CE is about 1617 AH, past the end of ICU's Umm al-Qura data: no date rather than an arithmetic one.
    expect(readableTimes('2200-01-01T10:00:00+03:00')).toMatchObject({
      starts_at_date: '2200-01-01',
      starts_at_hijri: null,
    });
  });

  it.each([
    ['undefined', undefined],
    ['null', null],
    ['empty text', ''],
    ['a number', 1764487800000],
    ['a Date', new Date('2026-11-30T07:30:00Z')],
    ['text', 'tomorrow at 10'],
    ['a date without a time', '2026-11-30'],
    ['a time without an offset (ambiguous)', '2026-11-30T10:30:00'],
    ['31 November', '2026-11-31T10:30:00+03:00'],
    ['29 February of a common year', '2026-02-29T10:30:00+03:00'],
    ['month 13', '2026-13-01T10:30:00+03:00'],
    ['hour 24', '2026-11-30T24:00:00+03:00'],
    ['minute 60', '2026-11-30T10:60:00+03:00'],
    ['an offset of 24 hours', '2026-11-30T10:30:00+24:00'],
    ['an offset with 60 minutes', '2026-11-30T10:30:00+03:60'],
    ['trailing text', '2026-11-30T10:30:00+03:00 or so'],
  ])('gives all five fields null for %s', (_name, input) => {
    expect(readableTimes(input as string)).toEqual(NONE);
  });

  it('never throws, whatever it is given', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.anything()), (input) => {
        const r = readableTimes(input as string);
        expect(Object.keys(r).sort()).toEqual([...FIELDS].sort());
      }),
    );
  });

  it('lists an English-labelled text output field for each of the five keys', () => {
    expect(readableTimeOutputFields.map((f) => f.key)).toEqual(FIELDS);
    for (const field of readableTimeOutputFields) {
      expect(field.type).toBe('string');
      expect(field.label).toMatch(/^Starts At [A-Z(][A-Za-z0-9 ()]+$/);
    }
    expect(new Set(readableTimeOutputFields.map((f) => f.label)).size).toBe(FIELDS.length);
  });
});
