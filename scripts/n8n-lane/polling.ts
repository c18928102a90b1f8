/**
 * The polling trigger (Appointment Starting Soon) in regular mode: n8n polls once as it activates a workflow, then
 * on its Poll Times. Its memory lives in the workflow's static data, read back at the next activation; Poll Times
 * that could let an appointment start between two polls are refused at activation, a Custom cron as a fixed mode.
 */
import type { Json } from '../../harness/call';
import { call } from '../../harness/call';
import type { Sandbox } from '../../sandbox';
import { until } from './processes';
import { check, soft } from './report';
import {
  activate,
  activationError,
  createWorkflow,
  deactivate,
  executionsOf,
  NODE_TYPES,
  outputOf,
  type Rest,
} from './rest';
import type { CredentialRefs } from './setup';

export const POLLING = {
  first:
    'polling: activation polls at once and runs the appointment booked to start within the hour, with its patient',
  again: 'polling: activated again, its first poll runs only the appointment booked since',
  slowPolls:
    'polling: Poll Times further apart than Minutes Before Start (Every Hour, and a Custom cron of every two hours) are refused at activation',
};

/** A time `minutes` from now, to the minute, Saudi time. */
const inMinutes = (minutes: number) =>
  `${new Date(Math.ceil(Date.now() / 60_000 + minutes) * 60_000 + 3 * 3_600_000).toISOString().slice(0, 16)}:00+03:00`;

const POLL_NAME = 'Appointment Starting Soon';

export const pollingChecks = async ({
  api,
  sb,
  credentials,
}: {
  api: Rest;
  sb: Sandbox;
  credentials: CredentialRefs;
}) => {
  const patientId = sb.refs.clinic.patient;
  /** Books an appointment for the lane's patient at the first free slot within the poll's hour. */
  const bookSoon = async () => {
    for (const branch of [1, 2]) {
      for (let m = 5; m < 58; m += 1) {
        const booked = await call(`${sb.controlUrl}/clinic/appointments`, {
          body: { patient_id: patientId, branch_id: branch, appointment_type_id: 4, starts_at: inMinutes(m) },
        });
        if (booked.status === 201) return booked.body.data.id as string;
      }
    }
    throw new Error('no free slot within the hour');
  };
  const poller = (name: string, minutesBefore: string, pollTimes: Json) =>
    createWorkflow(api, name, [
      {
        name: POLL_NAME,
        type: NODE_TYPES.poller,
        parameters: { minutes_before: minutesBefore, pollTimes },
        credentials,
      },
    ]);
  const pollFlow = await poller('Lane: Appointment Starting Soon', '60', { item: [{ mode: 'everyMinute' }] });

  /** Activates the polling workflow and answers the items of the one execution its first poll starts. */
  const activatePoller = async () => {
    const before = new Set((await executionsOf(api, pollFlow.id)).results.map((e: Json) => e.id));
    await activate(api, pollFlow);
    const fresh = await until('an execution of the first poll', async () => {
      const list = (await executionsOf(api, pollFlow.id)).results.filter((e: Json) => !before.has(e.id));
      return list.length ? list : undefined;
    });
    if (fresh.length !== 1) throw new Error(`${fresh.length} executions`);
    return outputOf(api, fresh[0].id, POLL_NAME);
  };

  const firstSoon = await check(POLLING.first, async () => {
    const id = await bookSoon();
    const items = await activatePoller();
    const item = items.find((i) => i.id === id);
    if (!item) throw new Error(`not among the ${items.length} items: ${id}`);
    if (!item.patient?.name_en) throw new Error(`no patient: ${JSON.stringify(item).slice(0, 300)}`);
    const late = items.filter((i) => Date.parse(i.starts_at) > Date.now() + 3_600_000);
    if (late.length) throw new Error(`beyond the hour: ${late.map((i) => i.starts_at).join(', ')}`);
    return id;
  });

  await soft(POLLING.again, async () => {
    await deactivate(api, pollFlow);
    const id = await bookSoon();
    const items = await activatePoller();
    if (items.some((i) => i.id === firstSoon)) throw new Error(`${firstSoon} ran again`);
    if (!items.some((i) => i.id === id)) throw new Error(`not among the items: ${id}`);
    await deactivate(api, pollFlow);
  });

  await soft(POLLING.slowPolls, async () => {
    const cases: Array<[string, string, Json]> = [
      ['Every Hour', '30', { item: [{ mode: 'everyHour' }] }],
      ['Custom cron 0 */2 * * *', '60', { item: [{ mode: 'custom', cronExpression: '0 */2 * * *' }] }],
    ];
    // Both at once: n8n retries a failed activation for ~15 s before it keeps the error.
    await Promise.all(
      cases.map(async ([label, minutes, pollTimes]) => {
        const flow = await poller(`Lane: slow polls, ${label}`, minutes, pollTimes);
        await activate(api, flow);
        const said = await activationError(api, flow.id).finally(() => deactivate(api, flow));
        if (!said.includes('Minutes Before Start')) {
          throw new Error(
            `${label}, ${minutes} minutes before: activation failed with "${said.slice(0, 300)}"`,
          );
        }
        const ran = (await executionsOf(api, flow.id, 1)).count;
        if (ran) throw new Error(`${label}: ${ran} executions`);
      }),
    );
  });
};
