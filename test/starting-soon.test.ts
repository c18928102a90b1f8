import nock from 'nock';
import { performStartingSoon } from '../triggers/appointment_starting_soon';
import { appTester, AUTH, CLINIC, clinicApi, clinicPath, useNock } from './helpers';

/*
 * Appointment Starting Soon: a polling trigger over GET /appointments (clinic spec §4) in a window from now to
 * now + minutes_before, in Riyadh time (+03:00).
 */

// 07:00 UTC is 10:00 in Riyadh.
const NOW = Date.parse('2026-11-24T07:00:00Z');

let seq = 0;
/** An appointment as the clinic lists it; ids are distinct ULID-shaped strings. */
const appt = (overrides: Record<string, unknown> = {}) => {
  seq += 1;
  return {
    id: `01JDA3F7Q9B2C4D6E8G0H${String(seq).padStart(5, '0')}`,
    patient_id: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
    branch_id: 1,
    practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D0',
    appointment_type_id: 4,
    room_id: 12,
    status: 'booked',
    starts_at: '2026-11-24T10:30:00+03:00',
    ends_at: '2026-11-24T11:00:00+03:00',
    source: 'online',
    external_ref: null,
    note: null,
    cancel_reason: null,
    cancelled_at: null,
    created_at: '2026-11-21T14:05:11+03:00',
    updated_at: '2026-11-21T14:05:11+03:00',
    ...overrides,
  };
};

const run = (inputData: Record<string, unknown>) =>
  appTester(performStartingSoon, { authData: AUTH, inputData }) as Promise<Array<Record<string, unknown>>>;

const page = (data: unknown[]) => ({ data, meta: { total: data.length, page: 1, per_page: 100 } });

describe('appointment starting soon', () => {
  useNock();

  beforeEach(() => {
    seq = 0;
    jest.spyOn(Date, 'now').mockReturnValue(NOW);
  });
  afterEach(() => jest.restoreAllMocks());

  it('asks the window from now to now + minutes_before in +03:00, 100 a page, page 1', async () => {
    const booked = appt({ starts_at: '2026-11-24T10:45:00+03:00' });
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({
        from: '2026-11-24T10:00:00+03:00',
        to: '2026-11-24T11:00:00+03:00',
        page: '1',
        per_page: '100',
      })
      .reply(200, page([booked]));

    const result = await run({ minutes_before: '60' });

    expect(result).toEqual([{ ...booked, minutes_until_start: 45 }]);
  });

  it('adds branch_id and practitioner_id to the query when set', async () => {
    const match = appt({ branch_id: 3, starts_at: '2026-11-25T09:00:00+03:00' });
    clinicApi()
      .get(clinicPath('/appointments'))
      .query({
        from: '2026-11-24T10:00:00+03:00',
        to: '2026-11-25T10:00:00+03:00',
        branch_id: '3',
        practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D0',
        page: '1',
        per_page: '100',
      })
      .reply(200, page([match]));

    const result = await run({
      minutes_before: 1440,
      branch_id: '3',
      practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D0',
    });

    expect(result.map((a) => a.id)).toEqual([match.id]);
    expect(result[0]!.minutes_until_start).toBe(23 * 60);
  });

  it('keeps booked, confirmed and arrived; drops cancelled, no_show, completed and in_progress', async () => {
    const statuses = ['booked', 'confirmed', 'arrived', 'cancelled', 'no_show', 'completed', 'in_progress'];
    const rows = statuses.map((status) => appt({ status }));
    clinicApi().get(clinicPath('/appointments')).query(true).reply(200, page(rows));

    const result = await run({ minutes_before: '60' });

    expect(result.map((a) => a.status).sort()).toEqual(['arrived', 'booked', 'confirmed']);
  });

  it('filters the appointment type on its side, not in the query', async () => {
    const type4 = appt({ appointment_type_id: 4 });
    const type5 = appt({ appointment_type_id: 5 });
    clinicApi()
      .get(clinicPath('/appointments'))
      .query((q) => !('appointment_type_id' in q))
      .reply(200, page([type4, type5]));

    const result = await run({ minutes_before: '60', appointment_type_id: '4' });

    expect(result.map((a) => a.id)).toEqual([type4.id]);
  });

  it('follows page 2 when page 1 is full', async () => {
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
    clinicApi()
      .get(clinicPath('/appointments'))
      .query(true)
      .reply(200, page([appt({ diagnosis: 'K02.1', clinical_notes: 'caries' })]));

    const [item] = await run({ minutes_before: '60' });

    expect(item).toBeDefined();
    expect(item).not.toHaveProperty('diagnosis');
    expect(item).not.toHaveProperty('clinical_notes');
  });

  it.each([0, '0', 'abc', -5, '1.5', ''])('refuses minutes_before %p without a request', async (minutes) => {
    const unmatched: unknown[] = [];
    const listener = (req: unknown) => unmatched.push(req);
    nock.emitter.on('no match', listener);
    const scope = nock(new URL(CLINIC).origin)
      .get(() => true)
      .reply(200, page([]));

    await expect(run({ minutes_before: minutes })).rejects.toThrow(/Minutes Before Start/);

    nock.emitter.removeListener('no match', listener);
    expect(scope.isDone()).toBe(false);
    expect(unmatched).toEqual([]);
    nock.cleanAll();
  });
});
