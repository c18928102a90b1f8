/**
 * Calls per operation, counted at the sandbox: every trigger's performList and perform, the dropdowns, the actions
 * and searches, and Appointment Starting Soon polled ten times (bench/starting-soon.ts).
 */
import { createAppTester } from 'zapier-platform-core';
import App from '../index';
import { EVENTS } from '../lib/hooks/events';
import { CONSENT_CHANNEL } from '../lib/hooks/consent';
import { WITH_PATIENT } from '../lib/hooks/extensions';
import type { SubscribeData } from '../lib/hooks/types';
import { appConnection, type Sandbox } from '../sandbox';
import { delivery } from '../harness/delivery';
import { ops, table, type Fn } from './shared';
import { STEP_CALLS } from './step-calls';
import { STEPS } from '../steps';
import { CUSTOMERS_GET, PATIENT_GET, startingSoonPolledTenTimes } from './starting-soon';

export const callsPerOperation = async (sb: Sandbox) => {
  const authData = appConnection(sb);
  const tester = createAppTester(App);
  const rows: Array<Array<string | number>> = [];
  /** Runs one operation and counts what the sandbox received; `only` is the one request it may make. */
  const measure = async (name: string, goal: number | string, fn: Fn, bundle: object, only?: RegExp) => {
    sb.resetRequests();
    let note = '';
    await (tester(fn as never, { authData, inputData: {}, ...bundle } as never) as Promise<unknown>).catch(
      (e: Error) => (note = ` (${e.name})`),
    );
    const calls = sb.requestCount();
    const stray = only ? sb.requests().filter((q) => !only.test(`${q.method} ${q.path}`)).length : 0;
    const ok = (typeof goal === 'number' ? calls <= goal : true) && !stray;
    rows.push([name + note, calls, goal, ok ? 'ok' : 'OVER']);
  };
  const r = sb.refs;
  const auth = App.authentication!;
  await measure('connection test (both interfaces)', 2, auth.test as Fn, {});
  for (const def of EVENTS) {
    const op = ops('triggers')[def.key]!.operation;
    // Samples look like live items: up to 3, each with its patient (one read a sample).
    if (def.extensions?.includes(WITH_PATIENT))
      await measure(`${def.key}: performList, samples with their patients`, 4, op.performList!, {});
    else await measure(`${def.key}: performList`, 1, op.performList!, {});
    const sub: SubscribeData = {
      id: 1,
      secret: 'whsec_bench',
      target_path: '/hooks/1/',
      event: def.event,
      api: def.api,
    };
    /** One signed delivery (its own event id, so the dedupe never drops it) with the Zap's inputs. */
    const deliver = (label: string, goal: number, inputData: object, only?: RegExp) => {
      const data = def.sampleData ?? def.resource.sample;
      const rawBody = JSON.stringify({
        id: `evt_${def.key}_${label}`,
        event: def.event,
        tenant_id: 1,
        occurred_at: '2026-11-21T10:00:00+03:00',
        api_version: 'v1',
        // A patient the clinic holds, so the read is a real one.
        data: def.extensions?.includes(WITH_PATIENT) ? { ...data, patient_id: r.clinic.patient } : data,
      });
      const timestamp = String(Math.floor(Date.now() / 1000));
      return measure(
        `${def.key}: perform, ${label}`,
        goal,
        op.perform!,
        {
          inputData,
          subscribeData: sub,
          rawRequest: delivery({ secret: sub.secret, path: sub.target_path, rawBody, timestamp }).rawRequest,
        },
        only,
      );
    };
    if (def.extensions?.includes(WITH_PATIENT)) {
      await deliver('with patient details (GET /patients/{id})', 1, { include_patient: true }, PATIENT_GET);
      await deliver('without patient details', 0, { include_patient: false });
    } else if (def.extensions?.includes(CONSENT_CHANNEL)) {
      await deliver('consent channel email (GET /customers)', 1, { consent_channel: 'email' }, CUSTOMERS_GET);
      await deliver('no consent channel', 0, {});
    } else {
      await deliver('a delivery', 0, {});
    }
  }
  await measure(
    'appointment_starting_soon (one page)',
    1,
    ops('triggers').appointment_starting_soon!.operation.perform!,
    { inputData: { minutes_before: 1440 } },
  );
  const polled = await startingSoonPolledTenTimes(sb, tester, authData);
  rows.push(...polled.rows);
  for (const [key, trigger] of Object.entries(ops('triggers'))) {
    if ((trigger as unknown as { display: { hidden?: boolean } }).display.hidden) {
      await measure(`dropdown ${key}: first page`, 1, trigger.operation.perform!, { meta: { page: 0 } });
    }
  }
  for (const step of STEPS) {
    const perform = ops(step.kind === 'create' ? 'creates' : 'searches')[step.key]!.operation.perform!;
    for (const call of STEP_CALLS[step.key] ?? []) {
      await measure(
        call.label ? `${step.key} (${call.label})` : step.key,
        call.goal,
        perform,
        call.bundle(r),
      );
    }
  }
  table('Calls per operation (counted at the sandbox)', ['operation', 'calls', 'goal', ''], rows);
  polled.print();
  return rows.filter((row) => row[3] !== 'ok').length;
};
