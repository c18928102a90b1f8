/*
 * The n8n polling trigger Appointment Starting Soon (n8n-nodes-clinic-cashier): each poll runs the Zapier trigger's
 * perform and gives the workflow the items a Zap would get, each appointment once for its start time.
 *
 * The answers are the ones test/starting-soon.test.ts recorded (their scenarios' setup is declared there), replayed
 * as they are with `reply`; nock asserts each request this file's polls make.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import {
  ClinicCashierStartingSoonTrigger,
  SAMPLE_SIZE,
} from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierStartingSoonTrigger/ClinicCashierStartingSoonTrigger.node';
import { ClinicCashier } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashier/ClinicCashier.node';
import { ClinicCashierTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node';
import { ClinicCashierApi } from '../../n8n-nodes-clinic-cashier/src/credentials/ClinicCashierApi.credentials';
import { longestPollGap } from '../../n8n-nodes-clinic-cashier/src/poll-times';
import { MEMORY_LIMIT, type Remembered } from '../../n8n-nodes-clinic-cashier/src/seam';
import { inputFields, performStartingSoon } from '../../triggers/appointment_starting_soon';
import { data, reply, type Json } from '../fixtures';
import { App, appTester, AUTH, clinicApi, clinicPath, useNock } from '../helpers';
import { RECORD_SANDBOX } from '../support/recorder';
import { pollContext } from './context';

type Item = Record<string, unknown>;

useNock();

// The instant the answers were recorded at, 10:00 in Riyadh.
const NOW = Date.parse(String(RECORD_SANDBOX.startTime));
beforeEach(() => jest.spyOn(Date, 'now').mockReturnValue(NOW));
afterEach(() => jest.restoreAllMocks());

const node = new ClinicCashierStartingSoonTrigger();

/** The window a poll at NOW asks for, with `minutes` before start. */
const windowOf = (to: string) => ({ from: '2026-11-24T10:00:00+03:00', to, page: '1', per_page: '100' });
const HOUR = windowOf('2026-11-24T11:00:00+03:00');
const DAY = windowOf('2026-11-25T10:00:00+03:00');

const appointments = (query: Record<string, string>, scenario: string, times = 1) =>
  clinicApi()
    .get(clinicPath('/appointments'))
    .query(query)
    .times(times)
    .reply(...reply(scenario));

/** Every parameter as n8n gives it: the node's defaults and n8n's Poll Times (Every Minute), then the workflow's. */
const paramsOf = (set: Record<string, unknown>) => ({
  pollTimes: { item: [{ mode: 'everyMinute' }] },
  ...Object.fromEntries(node.description.properties.map((p) => [p.name, p.default])),
  ...set,
});

const poll = (set: Record<string, unknown>, options: { staticData?: Item; mode?: string } = {}) =>
  node.poll.call(pollContext(paramsOf(set), options).context as never);

const jsonOf = (out: Awaited<ReturnType<typeof poll>>) => out?.[0]?.map((i) => i.json);

const POINTER = /^hydrate\|\|\|(.+)\|\|\|hydrate$/;

/** What a Zap gets from the trigger's perform for an item new to it: each pointer resolved by the app's hydrator. */
const zapItems = async (inputData: Item) => {
  const items = (await appTester(performStartingSoon, { authData: AUTH, inputData })) as Item[];
  const out: Item[] = [];
  for (const item of items) {
    const pointer = POINTER.exec(String(item.patient));
    if (!pointer) {
      out.push(item);
      continue;
    }
    const { bundle } = JSON.parse(pointer[1]!) as { bundle: Item };
    const patient = await appTester(App.hydrators!.patient!, { authData: AUTH, inputData: bundle });
    out.push({ ...item, patient });
  }
  return out;
};

const keyOf = (a: Json) => `${String(a.id)}|${String(a.starts_at)}`;
const UPCOMING = ['booked', 'confirmed', 'arrived'];

describe('the node', () => {
  it('polls (n8n runs a node’s execute instead of its poll, so it has none) and shows the Zapier trigger’s inputs', () => {
    expect(node.description.polling).toBe(true);
    expect('execute' in node).toBe(false);
    expect(node.description.properties.map((p) => p.name)).toEqual(inputFields.map((f) => f.key));
    const minutes = node.description.properties.find((p) => p.name === 'minutes_before')!;
    expect(minutes).toMatchObject({ required: true, default: '60' });
    // The Zapier help speaks of Zapier's plans; here the rule is on the node's own Poll Times.
    expect(minutes.description).toMatch(
      /Poll Times must poll at least that often .+ A longer interval is refused/,
    );
    expect(minutes.description).not.toMatch(/Zapier checks/);
  });
});

describe('a poll', () => {
  it('gives the appointments due in the window, the items a Zap gets (patient read for each), and remembers them', async () => {
    const rows: Json[] = data('starting-soon');
    expect(rows.length).toBeGreaterThan(0);
    appointments(HOUR, 'starting-soon', 2); // the node's poll, then the Zap's
    const patient = clinicApi()
      .get(clinicPath(`/patients/${String(rows[0].patient_id)}`))
      .times(2) // the node's read, then the Zap's hydrator
      .reply(...reply('find-patient-by-id'));
    const staticData: Item = {};

    const items = jsonOf(await poll({ minutes_before: '60' }, { staticData }));

    expect(items).toEqual(await zapItems({ minutes_before: '60' }));
    expect(items![0]!.patient).toMatchObject({ name_en: expect.any(String), phone: expect.any(String) });
    patient.done();
    expect(Object.keys(staticData.seen as Remembered)).toEqual(rows.map(keyOf));
  });

  it('gives nothing (null) when it sees the same appointments again, and reads no patient', async () => {
    appointments(HOUR, 'starting-soon', 2);
    clinicApi()
      .get(/\/patients\//)
      .reply(...reply('find-patient-by-id'));
    const staticData: Item = {};
    expect(jsonOf(await poll({ minutes_before: '60' }, { staticData }))).toHaveLength(1);

    // No patient interceptor is left: a read would be a request nothing answers, which useNock fails.
    await expect(poll({ minutes_before: '60' }, { staticData })).resolves.toBeNull();
  });

  it('gives only the appointments that entered the window since the last poll', async () => {
    const before: Json[] = data('starting-soon-day');
    const after: Json[] = data('starting-soon-statuses');
    appointments(DAY, 'starting-soon-day');
    appointments(DAY, 'starting-soon-statuses', 2); // the node's second poll, then the Zap's
    const set = { minutes_before: '1440', include_patient: false };
    const staticData: Item = {};

    const first = jsonOf(await poll(set, { staticData }));
    const second = jsonOf(await poll(set, { staticData }));

    expect(first!.map(keyOf).sort()).toEqual(before.map(keyOf).sort());
    const entered = after.filter((a) => UPCOMING.includes(a.status) && !before.some((b) => b.id === a.id));
    expect(entered.length).toBeGreaterThan(0);
    expect(second!.map(keyOf).sort()).toEqual(entered.map(keyOf).sort());
    const zap = await zapItems({ minutes_before: '1440', include_patient: 'false' });
    expect(second).toEqual(zap.filter((item) => entered.some((a) => a.id === item.id)));
  });

  it('gives an appointment again when it moved: Zapier’s primary key is the appointment and its start', async () => {
    const [row]: Json[] = data('starting-soon');
    appointments(HOUR, 'starting-soon', 2);
    const later = NOW + 3_600_000;
    const set = { minutes_before: '60', include_patient: false };

    const moved = { seen: { [`${String(row.id)}|2026-11-24T10:20:00+03:00`]: later } };
    expect(jsonOf(await poll(set, { staticData: moved }))!.map(keyOf)).toEqual([keyOf(row)]);

    const same = { seen: { [keyOf(row)]: later } };
    await expect(poll(set, { staticData: same })).resolves.toBeNull();
  });

  it('keeps at most MEMORY_LIMIT appointments, forgetting the oldest first and those whose start has passed', async () => {
    const [row]: Json[] = data('starting-soon');
    appointments(HOUR, 'starting-soon');
    const later = NOW + 86_400_000;
    const seen: Remembered = { started: NOW - 1 };
    for (let i = 0; i < MEMORY_LIMIT; i += 1) seen[`old-${i}`] = later;
    const staticData: Item = { seen };

    await poll({ minutes_before: '60', include_patient: false }, { staticData });

    const kept = staticData.seen as Remembered;
    expect(Object.keys(kept)).toHaveLength(MEMORY_LIMIT);
    expect(kept).not.toHaveProperty('started');
    expect(kept).not.toHaveProperty('old-0');
    expect(kept).toHaveProperty('old-1');
    // Kept until a minute past its start: after that no poll's window holds it.
    expect(kept[keyOf(row)]).toBe(Date.parse(row.starts_at) + 60_000);
  });

  it('refuses fewer than 15 Minutes Before Start with the app’s message, before any request', async () => {
    // No interceptor: a request would be one nothing answers, which useNock fails.
    await expect(poll({ minutes_before: '14' })).rejects.toThrow(
      /^Minutes Before Start must be a whole number from 15 to 10080 \(one week\)/,
    );
  });

  it('refuses Minutes Before Start under the time between two polls (Poll Times), before any request', async () => {
    const hourly = { pollTimes: { item: [{ mode: 'everyHour', minute: 5 }] }, include_patient: false };
    // No interceptor: a request would be one nothing answers, which useNock fails.
    await expect(poll({ ...hourly, minutes_before: '45' })).rejects.toThrow(
      /^Minutes Before Start \(45\) is less than the time between two polls \(60 minutes, from Poll Times\)/,
    );
    appointments(HOUR, 'starting-soon');
    await expect(poll({ ...hourly, minutes_before: '60' })).resolves.toHaveLength(1);
  });

  it('gives the items read so far when a patient read fails, and the rest on a later poll', async () => {
    const rows: Json[] = data('starting-soon-statuses');
    appointments(DAY, 'starting-soon-statuses', 2);
    const due = rows
      .filter((a) => UPCOMING.includes(a.status))
      .sort((x, y) => String(y.starts_at).localeCompare(String(x.starts_at)));
    const failing = due.findIndex((a) => a.patient_id !== due[0].patient_id);
    expect(failing).toBeGreaterThan(0);
    const read = clinicApi()
      .get(clinicPath(`/patients/${String(due[0].patient_id)}`))
      .reply(...reply('find-patient-by-id'));
    // hand-built: an outage no recording holds, for the next patient's read, on both polls.
    const outage = clinicApi()
      .get(clinicPath(`/patients/${String(due[failing].patient_id)}`))
      .times(2)
      .reply(503, 'Service Unavailable');
    const staticData: Item = {};

    const first = jsonOf(await poll({ minutes_before: '1440' }, { staticData }));

    // The first patient read once for its appointments, the failing read not retried within the poll.
    expect(first!.map(keyOf)).toEqual(due.slice(0, failing).map(keyOf));
    read.done();
    await expect(poll({ minutes_before: '1440' }, { staticData })).rejects.toThrow();
    outage.done();
    expect(Object.keys(staticData.seen as Remembered)).toEqual(due.slice(0, failing).map(keyOf));
  });
});

describe('the time between two polls', () => {
  it.each([
    [[{ mode: 'everyMinute' }], 1],
    [[{ mode: 'everyHour', minute: 5 }], 60],
    [[{ mode: 'everyX', value: 45, unit: 'minutes' }], 45], // :00 and :45, then :00
    [[{ mode: 'everyX', value: 90, unit: 'minutes' }], 60], // a step past the hour fires at :00 only
    [[{ mode: 'everyX', value: 2, unit: 'hours' }], 120],
    [[{ mode: 'everyX', value: 30, unit: 'hours' }], 1440],
    [[{ mode: 'everyDay', hour: 9, minute: 0 }], 1440],
    [[{ mode: 'everyDay' }, { mode: 'everyX', value: 20, unit: 'minutes' }], 20],
    [[{ mode: 'custom', cronExpression: '0 */7 * * * *' }, { mode: 'everyHour' }], 7],
    [[{ mode: 'custom', cronExpression: '0 */7 * * * *' }], 7], // :00, :07 … :56, then :00
    [[{ mode: 'custom', cronExpression: '*/15 * * * *' }], 15],
    [[{ mode: 'custom', cronExpression: '0 9 * * *' }], 1440], // the daily cron
    [[{ mode: 'custom', cronExpression: '0 8,14 * * *' }], 1080], // 14:00 to 08:00 the next day
    [[{ mode: 'custom', cronExpression: '*/10 8-17 * * 0-4' }], 3 * 1440 - 9 * 60 - 50], // Thursday 17:50 to Sunday 08:00
    [[{ mode: 'custom', cronExpression: '0 0 * * mon' }], 10_080],
    [[{ mode: 'custom', cronExpression: '@hourly' }], 60],
    [[{ mode: 'custom', cronExpression: '0 0 1,15 * 1' }], 7 * 1440], // the 1st, the 15th or a Monday
    [[{ mode: 'custom', cronExpression: '0 0 0 1 * *' }], 31 * 1440],
    [[{ mode: 'custom', cronExpression: '0 0 29 2 *' }], Infinity], // once in four years
    [[{ mode: 'custom', cronExpression: '0 0 31 2 *' }], Infinity], // never
    [[{ mode: 'everyX', value: 0, unit: 'minutes' }], undefined],
    [[{ mode: 'custom', cronExpression: '0 9 * *' }], undefined],
    [[{ mode: 'custom', cronExpression: '0 9 * * foo' }], undefined],
    [[{ mode: 'custom', cronExpression: '0 25 * * *' }], undefined],
    [
      [
        { mode: 'custom', cronExpression: '0 9 * * *' },
        { mode: 'custom', cronExpression: '0 L * * *' },
      ],
      undefined,
    ],
    [[], undefined],
  ])('Poll Times %j: at most %p minutes', (item, gap) => {
    expect(longestPollGap({ item })).toBe(gap);
  });

  it('refuses a daily Custom cron with Minutes Before Start 15, before any request', async () => {
    const daily = { pollTimes: { item: [{ mode: 'custom', cronExpression: '0 9 * * *' }] } };
    await expect(poll({ ...daily, minutes_before: '15' })).rejects.toThrow(
      /^Minutes Before Start \(15\) is less than the time between two polls \(1440 minutes, from Poll Times\).*set Minutes Before Start to 1440 or more\./,
    );
  });

  it('refuses a Custom cron it cannot read, saying how to write one', async () => {
    const odd = { pollTimes: { item: [{ mode: 'custom', cronExpression: '0 9 * *' }] } };
    await expect(poll({ ...odd, minutes_before: '60' })).rejects.toThrow(
      /^Poll Times cannot be checked against Minutes Before Start: the Custom cron expression “0 9 \* \*” cannot be read: it has 4 fields, where 5 or 6 are read\. .*e\.g\. \*\/15 \* \* \* \*/,
    );
  });

  it('refuses a cron that polls on one day of four years, whatever Minutes Before Start', async () => {
    const leap = { pollTimes: { item: [{ mode: 'custom', cronExpression: '0 0 29 2 *' }] } };
    await expect(poll({ ...leap, minutes_before: '10080' })).rejects.toThrow(
      /\(years: it polls on one day at most, from Poll Times\).*Poll more often\.$/,
    );
  });
});

describe('a manual test (Fetch Test Event)', () => {
  it('gives the newest appointments of the window and remembers nothing, so the workflow’s first poll still gives them', async () => {
    appointments(DAY, 'starting-soon-statuses', 3);
    const set = { minutes_before: '1440', include_patient: false };
    const staticData: Item = {};
    const all = await zapItems({ minutes_before: '1440', include_patient: 'false' });
    expect(all.length).toBeGreaterThan(SAMPLE_SIZE);

    const shown = jsonOf(await poll(set, { staticData, mode: 'manual' }));

    expect(shown).toEqual(all.slice(0, SAMPLE_SIZE));
    expect(staticData).toEqual({});
    expect(jsonOf(await poll(set, { staticData }))).toEqual(all);
  });
});

describe('the icon', () => {
  const svg = readFileSync(
    join(__dirname, '../../n8n-nodes-clinic-cashier/icons/clinic-cashier.svg'),
    'utf8',
  );

  it('is named by every node built here and the credentials, as n8n reads a file icon', () => {
    const icons = [
      node.description.icon,
      new ClinicCashierTrigger().description.icon,
      new ClinicCashier().description.icon,
      new ClinicCashierApi().icon,
    ];
    expect(icons).toEqual(Array(4).fill('file:clinic-cashier.svg'));
  });

  it('is a square SVG of two colours, with nothing it would load or run', () => {
    expect(svg).toMatch(/^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" viewBox="0 0 256 256"/);
    expect(new Set(svg.match(/#[0-9a-f]{6}/gi)).size).toBe(2);
    expect(svg).not.toMatch(/<script|href|url\(|<image|<foreignObject/i);
  });
});
