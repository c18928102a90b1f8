/**
 * Regular mode: one `n8n start` on SQLite, the sandbox in-process, the gateway in front of n8n. The credentials'
 * Test button, the trigger's subscription, delivery, refusal, redelivery and unsubscription, Book Appointment run
 * twice, the icons; then the polling trigger (polling.ts) and the trigger under load (load.ts).
 */
import { randomBytes, randomUUID } from 'node:crypto';
import { existsSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { startSandbox, type Sandbox } from '../../sandbox';
import { call, type Json } from '../../harness/call';
import { signDelivery } from '../../sandbox/webhooks';
import { explain } from '../../lib/errors';
import { startGateway } from './deliveries';
import { loadChecks, LOAD_REGULAR } from './load';
import { pollingChecks, POLLING } from './polling';
import { executeWorkflow, sleep, startN8n, until, userFolderFor } from './processes';
import { checkMcp, mcpChecks } from './mcp-check';
import { check, onStop, plan, soft } from './report';
import {
  activate,
  bookingNode,
  createWorkflow,
  deactivate,
  executionsOf,
  NODE_TYPES,
  outputOf,
  PACKAGE_NAME,
  rest,
} from './rest';
import { connectionOf, setUp } from './setup';

export const REGULAR = {
  start: 'start: n8n ready',
  sandbox: 'start: the sandbox',
  setup: 'setup: the owner, the package’s nodes loaded, the Clinic & Cashier API credentials',
  testOk: 'credentials: the Test button answers OK for the sandbox’s owner tokens',
  testRefused:
    'credentials: the Test button answers the app’s message for a clinic token the sandbox refuses',
  subscribed: 'trigger: activation subscribes the webhook address at the sandbox',
  booking: 'trigger: a booking runs exactly one execution, its item the appointment with its patient',
  forged: 'trigger: a forged delivery is answered 401 and runs nothing',
  resent: 'trigger: the genuine delivery re-sent runs nothing more',
  unsubscribed: 'trigger: deactivation removes the sandbox’s subscription',
  book: 'action: Book Appointment books, and the appointment is at the sandbox',
  bookAgain: 'action: the same workflow run again books nothing more',
  icon: 'icon: the nodes and the credentials show the package’s icon, and n8n serves it',
};

/** The checks of regular mode, in the order they run. */
export const planRegular = () => {
  plan(REGULAR);
  plan(Object.fromEntries(mcpChecks().map((name, i) => [`mcp${i}`, name])));
  plan(POLLING);
  plan(LOAD_REGULAR);
};

export const EVENT_KEY = 'appointment_created';

/** A time well clear of the seeded appointments (a week either side of now), on the hour, Saudi time. */
const slot = (daysAhead: number, hour: number) => {
  const d = new Date(Date.now() + daysAhead * 86_400_000);
  return `${d.toISOString().slice(0, 10)}T${String(hour).padStart(2, '0')}:00:00+03:00`;
};

export const runRegular = async (runDir: string, nodesFolder: string) => {
  let n8nUrl = '';
  const gateway = await startGateway(() => n8nUrl);
  onStop(() => gateway.close());

  const n8n = await check(REGULAR.start, async () => {
    const n = await startN8n({
      name: 'regular',
      role: 'main',
      runDir,
      env: {
        DB_TYPE: 'sqlite',
        N8N_USER_FOLDER: userFolderFor(runDir, 'regular', nodesFolder),
        WEBHOOK_URL: `${gateway.url}/`,
      },
    });
    n8nUrl = n.url;
    return n;
  });

  const sb: Sandbox = await check(REGULAR.sandbox, async () => {
    // The load checks read a patient for each delivery: far more than a clinic's token may ask a minute.
    const s = await startSandbox({ port: 0, quiet: true, rateLimitPerMinute: 100_000 });
    onStop(() => s.close());
    return s;
  });

  const api = rest(n8n.url);
  const connection = connectionOf(sb);
  const { clinic: credential, credentials } = await check(REGULAR.setup, () => setUp(api, sb));

  /** The credential's Test button: n8n runs the test the nodes declare for it on the data given. */
  const testCredential = async (data: Json) =>
    api.ok('POST', '/credentials/test', {
      credentials: { id: credential.id, name: credential.name, type: 'clinicCashierApi', data },
    });

  await soft(REGULAR.testOk, async () => {
    const answer = await testCredential(connection);
    if (answer.status !== 'OK') throw new Error(`answered ${JSON.stringify(answer)}`);
  });

  await soft(REGULAR.testRefused, async () => {
    const wrong = `${sb.tokens.clinicOwner}-revoked`;
    const refused = await call(`${sb.clinicBaseUrl}/ping`, { token: wrong });
    if (refused.status !== 401) throw new Error(`the sandbox answered the wrong token ${refused.status}`);
    const answer = await testCredential({ ...connection, clinic_api_token: wrong });
    const expected = explain('token_invalid', 'clinic', 401, undefined).text.en;
    if (answer.status !== 'Error' || !String(answer.message).includes(expected)) {
      throw new Error(`answered ${JSON.stringify(answer)}`);
    }
  });

  // -- an AI assistant over MCP, before the trigger's workflow is active (its bookings would start it)
  await checkMcp({ n8nUrl: n8n.url, rest: api.ok, typePrefix: `${PACKAGE_NAME}.`, connection, check: soft });

  // -- the trigger
  const webhookId = randomUUID();
  const hookPath = `/webhook/${webhookId}/webhook`;
  const triggerName = 'New Appointment';
  const triggerFlow = await createWorkflow(api, 'Lane: New Appointment', [
    { name: triggerName, type: NODE_TYPES.trigger, webhookId, parameters: { event: EVENT_KEY }, credentials },
  ]);

  const subscription = await check(REGULAR.subscribed, async () => {
    await activate(api, triggerFlow);
    const sub = await until('the subscription at the sandbox', async () =>
      sb.subscriptions().find((s) => s.target_url === `${gateway.url}${hookPath}` && s.status === 'active'),
    );
    const others = sb.subscriptions().filter((s) => s.id !== sub.id);
    if (others.length)
      throw new Error(`other subscriptions too: ${others.map((s) => s.target_url).join(', ')}`);
    return sub;
  });

  const patientId = sb.refs.clinic.patient;
  const count = async () => (await executionsOf(api, triggerFlow.id)).count;
  gateway.loseNext(1);
  const first = await check(REGULAR.booking, async () => {
    const booked = await call(`${sb.controlUrl}/clinic/appointments?wait=true`, {
      body: { patient_id: patientId, branch_id: 1, appointment_type_id: 4, starts_at: slot(20, 10) },
    });
    if (booked.status !== 201 && booked.status !== 200) {
      throw new Error(`booking at the sandbox: ${booked.status} ${JSON.stringify(booked.body)}`);
    }
    const appointmentId = booked.body.data.id as string;
    const runs = await until(
      'an execution',
      async () => {
        const list = await executionsOf(api, triggerFlow.id);
        return list.count ? list.results : undefined;
      },
      30_000,
    ).catch((e: Error) => {
      // What n8n answered says why nothing ran (the gateway gave the sandbox 502 instead).
      throw new Error(`${e.message}; n8n answered the delivery ${JSON.stringify(gateway.answered)}`);
    });
    await sleep(1500);
    if ((await count()) !== 1) throw new Error(`${await count()} executions`);
    const items = await outputOf(api, runs[0].id, triggerName);
    if (items.length !== 1) throw new Error(`${items.length} items`);
    const item = items[0];
    if (item.id !== appointmentId) throw new Error(`item id ${item.id}, booked ${appointmentId}`);
    const patient = item.patient ?? {};
    if (item.patient_id !== patientId && patient.id !== patientId) {
      throw new Error(`item has not patient ${patientId}: ${JSON.stringify(item).slice(0, 300)}`);
    }
    const [delivery] = sb.deliveries({ subscriptionId: subscription.id });
    if (!delivery || delivery.status !== 'failed') {
      throw new Error(`the delivery whose acknowledgement was lost is ${delivery?.status}`);
    }
    return delivery;
  });

  await soft(REGULAR.forged, async () => {
    const body = first.body as string;
    const timestamp = String(sb.clock.nowSeconds());
    const forged = await fetch(`${n8n.url}${hookPath}`, {
      method: 'POST',
      headers: {
        'content-type': 'application/json',
        'x-partner-event': 'appointment.created',
        'x-partner-event-id': JSON.parse(body).id,
        'x-partner-timestamp': timestamp,
        'x-partner-signature': signDelivery(
          `whsec_${randomBytes(16).toString('hex')}`,
          timestamp,
          hookPath,
          body,
        ),
      },
      body,
    });
    await sleep(1500);
    if (forged.status !== 401) throw new Error(`answered ${forged.status}: ${await forged.text()}`);
    if ((await count()) !== 1) throw new Error(`${await count()} executions after it`);
  });

  await soft(REGULAR.resent, async () => {
    const resent = await call(`${sb.controlUrl}/deliveries/${first.id}/resend`, { method: 'POST' });
    if (resent.status !== 200 || resent.body.data.status !== 'sent') {
      throw new Error(`resend: ${resent.status} ${JSON.stringify(resent.body).slice(0, 300)}`);
    }
    await sleep(1500);
    if ((await count()) !== 1) throw new Error(`${await count()} executions after it`);
  });

  await soft(REGULAR.unsubscribed, async () => {
    await deactivate(api, triggerFlow);
    await until(
      'the subscription to go',
      async () => !sb.subscriptions().some((s) => s.id === subscription.id),
    );
  });

  // -- the action
  const actionName = 'Book Appointment';
  const startsAt = slot(21, 11);
  const actionFlow = await createWorkflow(api, 'Lane: Book Appointment', [
    { name: 'Start', type: 'n8n-nodes-base.manualTrigger', parameters: {} },
    bookingNode(actionName, patientId, startsAt, credentials),
  ]);

  const bookingsAt = async () => {
    const list = await call(`${sb.clinicBaseUrl}/appointments?patient_id=${patientId}&per_page=100`, {
      token: sb.tokens.clinicOwner,
    });
    return (list.body.data as Json[]).filter((a) => Date.parse(a.starts_at) === Date.parse(startsAt));
  };

  const runAction = async () => {
    const before = new Set((await executionsOf(api, actionFlow.id)).results.map((e: Json) => e.id));
    await executeWorkflow(n8n, runDir, actionFlow.id);
    const fresh = (await executionsOf(api, actionFlow.id)).results.filter((e: Json) => !before.has(e.id));
    if (fresh.length !== 1) throw new Error(`${fresh.length} new executions`);
    return outputOf(api, fresh[0].id, actionName);
  };

  const firstBooking = await check(REGULAR.book, async () => {
    const [item, ...others] = await runAction();
    if (!item || others.length) throw new Error('not one item');
    if (item.duplicate !== false) throw new Error(`duplicate: ${item.duplicate}`);
    const at = await bookingsAt();
    if (at.length !== 1 || at[0].id !== item.id) {
      throw new Error(`the sandbox has ${at.length} appointments at ${startsAt} (${item.id} answered)`);
    }
    return item;
  });

  await soft(REGULAR.bookAgain, async () => {
    const [item] = await runAction();
    if (item?.id !== firstBooking.id || item?.duplicate !== true) {
      throw new Error(`answered ${item?.id} (duplicate ${item?.duplicate}), first ${firstBooking.id}`);
    }
    const at = await bookingsAt();
    if (at.length !== 1) throw new Error(`the sandbox has ${at.length} appointments at ${startsAt}`);
  });

  await soft(REGULAR.icon, async () => {
    const listed = [
      ...(JSON.parse(await api.text('/types/nodes.json')) as Json[]),
      ...(JSON.parse(await api.text('/types/credentials.json')) as Json[]),
    ];
    for (const name of [...Object.values(NODE_TYPES), 'clinicCashierApi']) {
      const url = listed.find((t) => t.name === name)?.iconUrl;
      if (typeof url !== 'string' || !url.endsWith('/clinic-cashier.svg')) {
        throw new Error(`${name}: iconUrl ${JSON.stringify(url)}`);
      }
      if (!(await api.text(`/${url}`)).includes('<svg')) throw new Error(`${url} is not the SVG`);
    }
  });

  await pollingChecks({ api, sb, credentials });
  await loadChecks({
    mode: 'regular',
    checks: LOAD_REGULAR,
    api,
    sb,
    gateway,
    credentials,
    webhookBase: () => n8n.url,
    database: () => readDatabase(runDir),
  });
};

/** The SQLite database's bytes (and its write-ahead log's) as text, where a secret kept in clear would show. */
const readDatabase = async (runDir: string) => {
  const file = join(runDir, 'user-regular', '.n8n', 'database.sqlite');
  return [file, `${file}-wal`]
    .filter((f) => existsSync(f))
    .map((f) => readFileSync(f).toString('latin1'))
    .join('\n');
};
