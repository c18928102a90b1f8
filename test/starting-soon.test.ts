import { readableTimes } from '../lib/readable-time';
import { saudiTime } from '../lib/time';
import fc from 'fast-check';
import nock from 'nock';
import { performStartingSoon } from '../triggers/appointment_starting_soon';
import { data, definition, queryOf, replay, type Json } from './fixtures';
import { call } from '../harness/call';
import { given, RECORD_SANDBOX } from './support/recorder';
import { App, appTester, AUTH, CLINIC, clinicApi, clinicPath, useNock, strays } from './helpers';

/*
 * Appointment Starting Soon: a polling trigger over GET /appointments (clinic spec §4) in a window from now to
 * now + minutes_before, in Riyadh time (+03:00).
 */

// The instant the fixtures were recorded at, 10:00 in Riyadh (the sandbox's clock and the app's).
const NOW = Date.parse(String(RECORD_SANDBOX.startTime));

/** Whole minutes from NOW to an appointment's start. */
const minutesTo = (startsAt: string) => Math.round((Date.parse(startsAt) - NOW) / 60_000);
const UPCOMING = ['booked', 'confirmed', 'arrived'];

let seq = 0;
/**
 * hand-built rows for what a recording cannot choose (a full page of 100, starts written in UTC, clinical
 * extras): a recorded appointment with a new id and the given changes.
 */
const appt = (overrides: Record<string, unknown> = {}) => {
  seq += 1;
  const [template] = data('starting-soon');
  return { ...template, id: `01JDA3F7Q9B2C4D6E8G0H${String(seq).padStart(5, '0')}`, ...overrides };
};

const run = (inputData: Record<string, unknown>) =>
  appTester(performStartingSoon, { authData: AUTH, inputData }) as Promise<Array<Record<string, unknown>>>;

const page = (rows: unknown[]) => ({ data: rows, meta: { total: rows.length, page: 1, per_page: 100 } });

describe('appointment starting soon', () => {
  useNock();

  beforeEach(() => {
    seq = 0;
    jest.spyOn(Date, 'now').mockReturnValue(NOW);
  });
  afterEach(() => jest.restoreAllMocks());

  it('asks the window from now to now + minutes_before in +03:00, 100 a page, page 1', async () => {
    const rows = data('starting-soon');
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({
        from: '2026-11-24T10:00:00+03:00',
        to: '2026-11-24T11:00:00+03:00',
        page: '1',
        per_page: '100',
      })
      .reply(replay('starting-soon'));

    const result = await run({ minutes_before: '60' });

    expect(rows.length).toBeGreaterThan(0);
    // The patient is a pointer Zapier resolves with hydrators.patient, only for appointments new to the Zap.
    const pointer = (id: string) =>
      `hydrate|||${JSON.stringify({ type: 'method', method: 'hydrators.patient', bundle: { patient_id: id } })}|||hydrate`;
    expect(result).toEqual(
      rows.map((a: Json) => ({
        ...a,
        ...readableTimes(a.starts_at),
        minutes_until_start: minutesTo(a.starts_at),
        patient: pointer(a.patient_id),
      })),
    );
  });

  it('reads no patient while polling; the hydrator Zapier calls for a new item reads it with one GET /patients/{id}', async () => {
    const stop = strays();
    try {
      const poll = clinicApi().get(clinicPath('/appointments')).query(true).reply(replay('starting-soon'));
      const items = await run({ minutes_before: '60', include_patient: true });
      expect(poll.isDone()).toBe(true);
      expect(stop()).toEqual([]); // the poll's only request was the list

      const [item] = items;
      const pointer = /^hydrate\|\|\|(.+)\|\|\|hydrate$/.exec(String(item!.patient));
      const { method, bundle } = JSON.parse(pointer![1]!) as {
        method: string;
        bundle: Record<string, unknown>;
      };
      expect(method).toBe('hydrators.patient');
      expect(bundle).toEqual({ patient_id: item!.patient_id });
      const patient = clinicApi()
        .get(clinicPath(`/patients/${String(item!.patient_id)}`))
        .reply(replay('find-patient-by-id'));
      const hydrated = await appTester(App.hydrators!.patient!, { authData: AUTH, inputData: bundle });
      expect(patient.isDone()).toBe(true);
      expect(stop()).toEqual([]); // and exactly one
      const p = data('find-patient-by-id');
      expect(p.id).toBe(item!.patient_id);
      expect(hydrated).toEqual({
        name_ar: p.name_ar,
        name_en: p.name_en,
        phone: p.phone,
        email: p.email,
        file_no: p.file_no,
        status: 'found',
      });
    } finally {
      stop();
    }
  });

  it('carries no pointer and reads no patient when Include Patient Details is off', async () => {
    clinicApi().get(clinicPath('/appointments')).query(true).reply(replay('starting-soon'));
    const items = await run({ minutes_before: '60', include_patient: 'false' });
    expect(items.length).toBeGreaterThan(0);
    for (const item of items)
      expect(item.patient).toEqual({
        name_ar: null,
        name_en: null,
        phone: null,
        email: null,
        file_no: null,
        status: 'off',
      });
  });

  it('adds branch_id and practitioner_id to the query when set', async () => {
    // The branch and practitioner the recording filtered on.
    const { branch_id, practitioner_id } = queryOf(definition('starting-soon-filtered'));
    const rows = data('starting-soon-filtered');
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({
        from: '2026-11-24T10:00:00+03:00',
        to: '2026-11-25T10:00:00+03:00',
        branch_id: branch_id!,
        practitioner_id: practitioner_id!,
        page: '1',
        per_page: '100',
      })
      .reply(replay('starting-soon-filtered'));

    const result = await run({ minutes_before: 1440, branch_id, practitioner_id });

    expect(rows.length).toBeGreaterThan(0);
    expect(result.map((a) => a.id)).toEqual(rows.map((a: Json) => a.id));
    expect(result[0]!.minutes_until_start).toBe(minutesTo(rows[0].starts_at));
  });

  // Record mode: the day's appointments in every state, made first (from 14:00, half an hour apart).
  given('starting-soon-statuses', {
    setup: async (sb) => {
      const { patient, branchRiyadh, appointmentType } = sb.refs.clinic;
      const statuses = ['booked', 'confirmed', 'arrived', 'cancelled', 'no_show', 'completed', 'in_progress'];
      for (const [i, status] of statuses.entries()) {
        const hour = String(14 + Math.floor(i / 2)).padStart(2, '0');
        const booked = await call(`${sb.controlUrl}/clinic/appointments`, {
          body: {
            patient_id: patient,
            branch_id: branchRiyadh,
            appointment_type_id: appointmentType,
            starts_at: `2026-11-24T${hour}:${i % 2 ? '30' : '00'}:00+03:00`,
          },
        });
        if (status !== 'booked') {
          await call(`${sb.controlUrl}/clinic/appointments/${String(booked.body.data.id)}`, {
            method: 'PATCH',
            body: { status, force: true },
          });
        }
      }
    },
  });

  it('keeps booked, confirmed and arrived; drops cancelled, no_show, completed and in_progress', async () => {
    const rows: Json[] = data('starting-soon-statuses');
    clinicApi().get(clinicPath('/appointments')).query(true).reply(replay('starting-soon-statuses'));

    const result = await run({ minutes_before: '1440' });

    const statuses = new Set(rows.map((a) => a.status));
    for (const s of ['booked', 'confirmed', 'arrived', 'cancelled', 'no_show', 'completed', 'in_progress'])
      expect(statuses).toContain(s);
    expect(result.map((a) => a.status).sort()).toEqual(
      rows
        .map((a) => a.status)
        .filter((s) => UPCOMING.includes(s))
        .sort(),
    );
  });

  it('filters the appointment type on its side, not in the query', async () => {
    const rows: Json[] = data('starting-soon-day');
    const type = rows[0].appointment_type_id;
    expect(rows.some((a) => a.appointment_type_id !== type)).toBe(true);
    clinicApi()
      .get(clinicPath('/appointments'))
      .query((q) => !('appointment_type_id' in q))
      .reply(replay('starting-soon-day'));

    const result = await run({ minutes_before: '1440', appointment_type_id: String(type) });

    expect(result.map((a) => a.id).sort()).toEqual(
      rows
        .filter((a) => a.appointment_type_id === type && UPCOMING.includes(a.status))
        .map((a) => a.id)
        .sort(),
    );
  });

  it('follows page 2 when page 1 is full', async () => {
    // hand-built pages (appt()): a full page of 100 and a short second page.
    const first = Array.from({ length: 100 }, () => appt());
    const second = [appt(), appt()];
    const query = { from: '2026-11-24T10:00:00+03:00', to: '2026-11-24T11:00:00+03:00', per_page: '100' };
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({ ...query, page: '1' })
      .reply(200, { data: first, meta: { total: 102, page: 1, per_page: 100 } });
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({ ...query, page: '2' })
      .reply(200, { data: second, meta: { total: 102, page: 2, per_page: 100 } });

    const result = await run({ minutes_before: '60' });

    expect(result).toHaveLength(102);
    expect(new Set(result.map((a) => a.id))).toEqual(new Set([...first, ...second].map((a) => a.id)));
  });

  it('computes minutes_until_start from now, whatever offset starts_at is written in', async () => {
    // hand-built rows (appt()): starts written in UTC too; the sandbox writes every time in +03:00.
    const rows = [
      appt({ starts_at: '2026-11-24T10:45:00+03:00' }),
      appt({ starts_at: '2026-11-24T07:20:00Z' }),
      appt({ starts_at: '2026-11-24T10:00:00+03:00' }),
      appt({ starts_at: '2026-11-24T10:59:40+03:00' }),
    ];
    clinicApi().get(clinicPath('/appointments')).query(true).reply(200, page(rows));

    const result = await run({ minutes_before: '60' });

    const minutes = Object.fromEntries(result.map((a) => [a.id, a.minutes_until_start]));
    expect(minutes).toEqual({
      [rows[0]!.id]: 45,
      [rows[1]!.id]: 20,
      [rows[2]!.id]: 0,
      [rows[3]!.id]: 60,
    });
  });

  it('passes appointments through the whitelist (nothing clinical reaches the Zap)', async () => {
    // hand-built row (appt()): clinical fields no answer should carry.
    clinicApi()
      .get(clinicPath('/appointments'))
      .query(true)
      .reply(200, page([appt({ diagnosis: 'K02.1', clinical_notes: 'caries' })]));

    const [item] = await run({ minutes_before: '60' });

    expect(item).toBeDefined();
    expect(item).not.toHaveProperty('diagnosis');
    expect(item).not.toHaveProperty('clinical_notes');
  });

  it.each([0, '0', 'abc', -5, '1.5', '', 5, '14', 10081])(
    'refuses minutes_before %p without a request',
    async (minutes) => {
      const stop = strays();
      // hand-built: a trap that must never answer.
      const scope = nock(new URL(CLINIC).origin)
        .get(() => true)
        .reply(200, page([]));

      await expect(run({ minutes_before: minutes })).rejects.toThrow(
        /Minutes Before Start must be a whole number from 15 to 10080 .+ every 1 to 15 minutes depending on the plan/,
      );

      expect(stop()).toEqual([]);
      expect(scope.isDone()).toBe(false);
      nock.cleanAll();
    },
  );

  /**
   * Zapier polls every P minutes (1 to 15 by plan) from any phase; an appointment starts at S. Each poll runs the
   * real perform against a clinic that answers the query's [from, to) honestly. Every appointment must be returned
   * by a poll at or before its start, at most Minutes Before Start earlier, always with the same primary key (id and
   * start) so Zapier's dedupe fires it once; or the minutes are refused before any request.
   */
  it('every appointment is returned before it starts, under one primary key, whenever minutes >= the poll interval; fewer minutes are refused', async () => {
    const [template] = data('starting-soon');
    const BASE = Date.parse('2026-11-24T07:00:00Z');
    let asked = 0;
    let current: Json | undefined;
    clinicApi()
      .persist()
      .get(clinicPath('/appointments'))
      .query(true)
      .reply(200, (uri: string) => {
        asked += 1;
        const q = new URL(uri, CLINIC).searchParams;
        const at = Date.parse(String(current!.starts_at));
        const inside = Date.parse(q.get('from')!) <= at && at < Date.parse(q.get('to')!);
        return { data: inside ? [current] : [], meta: { total: inside ? 1 : 0, page: 1, per_page: 100 } };
      });
    const now = jest.spyOn(Date, 'now');

    await fc.assert(
      fc.asyncProperty(
        fc.integer({ min: 1, max: 15 }), // poll interval, minutes
        fc.integer({ min: 0, max: 15 * 60 - 1 }), // poll phase, seconds
        fc.integer({ min: 0, max: 24 * 3600 }), // start, seconds after BASE
        fc.integer({ min: 1, max: 45 }), // Minutes Before Start
        async (interval, phase, startSecond, minutes) => {
          const start = BASE + startSecond * 1000;
          current = { ...template, id: '01JDA3F7Q9B2C4D6E8G0H1J3K5', starts_at: saudiTime(new Date(start)) };
          asked = 0;
          if (minutes < 15) {
            now.mockReturnValue(start - 60_000);
            await expect(run({ minutes_before: minutes })).rejects.toThrow(/Minutes Before Start/);
            expect(asked).toBe(0);
            return;
          }
          const P = interval * 60_000;
          const polls = (k: number) => BASE + phase * 1000 + k * P;
          // The first poll after S - minutes: the one that must see the appointment first (a poll exactly at
          // S - minutes asks for [S - minutes, S), which ends before the start).
          const k0 = Math.floor((start - minutes * 60_000 - BASE - phase * 1000) / P) + 1;
          // The polls at the window's edges: the last before it, the first in it, the last at or before the start and
          // the first after it (the window is an interval, so the polls between see it as the edges do).
          const kLast = Math.floor((start - BASE - phase * 1000) / P);
          const seen = new Map<number, Array<Record<string, unknown>>>();
          for (const k of new Set([k0 - 1, k0, kLast, kLast + 1])) {
            now.mockReturnValue(polls(k));
            seen.set(polls(k), await run({ minutes_before: String(minutes) }));
          }
          const returnedAt = [...seen].filter(([, items]) => items.length).map(([t]) => t);
          const keys = new Set(
            [...seen.values()].flat().map((item) => `${String(item.id)}|${String(item.starts_at)}`),
          );
          expect(returnedAt.length).toBeGreaterThan(0);
          // Returned only at or before its start, never more than Minutes Before Start earlier.
          for (const t of returnedAt) expect(start - t).toBeGreaterThanOrEqual(0);
          for (const t of returnedAt) expect(start - t).toBeLessThanOrEqual(minutes * 60_000);
          // The first poll that sees it is at most one interval into the window: the fire is on time.
          expect(start - Math.min(...returnedAt)).toBeGreaterThanOrEqual((minutes - interval) * 60_000);
          // One primary key across the polls that see it: Zapier fires it once.
          expect(keys.size).toBe(1);
        },
      ),
      // The counterexample that found the window's open end, kept: a poll exactly at S - minutes does not see S.
      { numRuns: 50, examples: [[1, 0, 0, 15]] },
    );
    nock.cleanAll();
  });
});
