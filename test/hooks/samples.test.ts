/* Live samples (lib/hooks/samples.ts): performList outside Transfer, from the interface, else a sample. */
import App from '../../index';
import { EVENTS } from '../../lib/hooks/events';
import { body, data, replay, type Json } from '../fixtures';
import { given } from '../support/recorder';
import { call } from '../../harness/call';
import {
  CURSOR_FIXTURE,
  cursorQuery,
  expectedId,
  expectPatientCall,
  forgetDeliveries,
  LIST_FIXTURE,
  op,
  recentLimit,
  recentPath,
  recentPick,
  run,
  withPatient,
} from '../support/hooks';
import { AUTH, cashierApi, cashierPath, clinicApi, clinicPath, useNock } from '../helpers';

/*
 * Record mode: the empty lists come from a sandbox without business data, its low stock levels restocked (New
 * Customer's consent check: test/hooks/consent.test.ts).
 */
given('recent-events-empty', { sandbox: { seed: false } });
given('receipts-empty', { sandbox: { seed: false } });
given('credit-notes-empty', { sandbox: { seed: false } });
given('lists-empty', {
  sandbox: { seed: false },
  setup: async (sb) => {
    const low = await call(`${sb.cashierBaseUrl}/stock/levels?low_only=true`, {
      token: sb.tokens.cashierOwner,
    });
    for (const level of low.body.data as Array<{ branch_id: number; variant_id: number }>) {
      await call(`${sb.controlUrl}/cashier/stock`, {
        body: { branch_id: level.branch_id, variant_id: level.variant_id, qty: 50 },
      });
    }
  },
});

useNock();
// sandboxSigned sets the app's clock at a recorded delivery's timestamp.
afterEach(() => jest.useRealTimers());
// Each test starts with an empty z.cache, so the recorded deliveries reused across tests are not repeats.
beforeEach(forgetDeliveries);

describe.each(EVENTS.map((def) => [def.key, def] as const))('%s', (_key, def) => {
  it('samples from the interface (performList)', async () => {
    // What the recorded answer holds: [raw object, its event id] for each sample the app should show.
    let expected: Array<[Json, string | undefined]>;
    if (def.sample.kind === 'recent') {
      const pick = recentPick(def);
      // A status trigger keeps the first three recent updates whose status became its own (of up to 25 read).
      expected = data('recent-events', pick)
        .filter((e: Json) => !def.when || def.when(e.data))
        .slice(0, 3)
        .map((e: Json) => [e.data, e.id]);
      clinicApi()
        .get(clinicPath(recentPath(def)))
        .query({ limit: recentLimit(def) })
        .reply(replay('recent-events', pick));
      if (withPatient(def)) for (const [o] of expected) expectPatientCall(String(o.patient_id));
    } else if (def.sample.kind === 'list') {
      const fixture = LIST_FIXTURE[def.sample.path]!;
      expected = data(fixture).map((o: Json) => [o, undefined]);
      cashierApi()
        .get(cashierPath(def.sample.path))
        .query({ ...def.sample.query, per_page: 3 })
        .reply(replay(fixture));
    } else if (def.sample.kind === 'cursor') {
      // The last arrived of the cursor, last first (a till's offline sale synced late counts by its arrival): the
      // seed's fit one page, so one read reaches the end. Read back after the run, which records the page.
      const source = def.sample;
      const fixture = CURSOR_FIXTURE[def.key]!.latest;
      cashierApi().get(cashierPath(source.path)).query(cursorQuery(def)).reply(replay(fixture));
      const items = await run<Array<Record<string, unknown>>>(op(def.key).performList, {
        authData: AUTH,
        inputData: {},
      });
      const page = body(fixture);
      expect(page.meta.has_more).toBe(false);
      const newest = (page.data as Json[])
        .filter((o) => !source.keeps || source.keeps(o))
        .slice(-3)
        .reverse();
      expect(newest.length).toBeGreaterThan(0);
      expect(items.map((i) => [i.id, i.event_id, i.occurred_at, i.kind])).toEqual(
        newest.map((o) => [o.id, `${def.event}:${o.id}`, o[source.at], o.kind]),
      );
      return;
    } else {
      const catalogue = data('webhook-catalogue', { api: 'cashier' });
      const entry = catalogue.find((e: Json) => e.event === def.event);
      expect(catalogue.length).toBeGreaterThan(1);
      expected = [[entry.sample.data, entry.sample.id]];
      cashierApi()
        .get(cashierPath('/webhooks/events'))
        .reply(replay('webhook-catalogue', { api: 'cashier' }));
    }
    if (!expected.length) {
      // Nothing recent of this status: the static sample, which is the trigger's own status.
      const items = await run<Array<Record<string, unknown>>>(op(def.key).performList, {
        authData: AUTH,
        inputData: {},
      });
      expect(items).toHaveLength(1);
      expect(items[0]!.status).toBe((def.sampleData as { status: string }).status);
      return;
    }
    const items = await run<Array<Record<string, unknown>>>(op(def.key).performList, {
      authData: AUTH,
      inputData: {},
    });
    expect(expected.length).toBeGreaterThan(0);
    expect(items.map((i) => i.id)).toEqual(expected.map(([o]) => expectedId(def, o)));
    for (const [i, [, eventId]] of expected.entries()) {
      expect(typeof items[i]!.event_id).toBe('string');
      if (eventId) expect(items[i]!.event_id).toBe(eventId);
    }
    if (def.key === 'appointment_created') {
      // A New Appointment sample is the appointment as it was booked, however it went on.
      for (const item of items) expect(item).toMatchObject({ status: 'booked', cancelled_at: null });
    }
  });

  it('falls back to the interface’s sample, else the static one, when the interface has nothing yet', async () => {
    const definition = (App.triggers as Record<string, { operation: { sample: Record<string, unknown> } }>)[
      def.key
    ]!;
    const list = () =>
      run<Array<Record<string, unknown>>>(op(def.key).performList, { authData: AUTH, inputData: {} });
    if (def.sample.kind === 'recent') {
      // Nothing recent: the clinic's empty list still carries its sample (meta.sample) of the event, shown when it
      // is one this trigger fires on.
      const pick = recentPick(def);
      const empty = body('recent-events-empty', pick);
      expect(empty.data).toEqual([]);
      clinicApi()
        .get(clinicPath(recentPath(def)))
        .query({ limit: recentLimit(def) })
        .reply(replay('recent-events-empty', pick));
      const sampleFires = !def.when || def.when(empty.meta.sample.data);
      if (sampleFires && withPatient(def)) expectPatientCall(String(empty.meta.sample.data.patient_id));
      const [fromSample] = await list();
      if (sampleFires) {
        expect(fromSample!.event_id).toBe(empty.meta.sample.id);
        expect(fromSample!.id).toBe(expectedId(def, empty.meta.sample.data));
      } else {
        expect(fromSample).toEqual(definition.operation.sample);
      }
      // hand-built: an empty list without meta.sample, which the sandbox always sends.
      clinicApi()
        .get(clinicPath(recentPath(def)))
        .query({ limit: recentLimit(def) })
        .reply(200, { data: [], meta: { event: def.event, count: 0 } });
    } else if (def.sample.kind === 'list') {
      const pick = { path: def.sample.path };
      expect(data('lists-empty', pick)).toEqual([]);
      cashierApi()
        .get(cashierPath(def.sample.path))
        .query({ ...def.sample.query, per_page: 3 })
        .reply(replay('lists-empty', pick));
    } else if (def.sample.kind === 'cursor') {
      // No sales yet: the account's sample of the event, from the catalogue.
      const source = def.sample;
      const fixture = CURSOR_FIXTURE[def.key]!.empty;
      const cursor = () =>
        cashierApi().get(cashierPath(source.path)).query(cursorQuery(def)).reply(replay(fixture));
      cursor();
      cashierApi()
        .get(cashierPath('/webhooks/events'))
        .reply(replay('webhook-catalogue', { api: 'cashier' }));
      const [fromCatalogue, ...more] = await list();
      expect(data(fixture)).toEqual([]);
      const entry = data('webhook-catalogue', { api: 'cashier' }).find((e: Json) => e.event === def.event);
      expect(more).toEqual([]);
      expect(fromCatalogue).toMatchObject({ id: entry.sample.data.id, event_id: entry.sample.id });
      // hand-built: an empty catalogue; the sandbox always lists a sample for every event.
      cursor();
      cashierApi().get(cashierPath('/webhooks/events')).reply(200, { data: [] });
    } else {
      // hand-built: an empty catalogue; the sandbox always lists a sample for every event.
      cashierApi().get(cashierPath('/webhooks/events')).reply(200, { data: [] });
    }
    expect(await list()).toEqual([definition.operation.sample]);
  });
});

describe('privacy (CONTRACT §7)', () => {
  const def = EVENTS.find((e) => e.key === 'invoice_paid')!;
  it('strips the same fields from samples taken from the recent list', async () => {
    const pick = { path: '/webhooks/events/invoice.paid/recent', query: { limit: '3' } };
    // The recorded recent list carries the procedure details too.
    expect(JSON.stringify(body('recent-events', pick))).toMatch(/"tooth"/);
    clinicApi()
      .get(clinicPath('/webhooks/events/invoice.paid/recent'))
      .query({ limit: 3 })
      .reply(replay('recent-events', pick));
    const items = await run<unknown[]>(op(def.key).performList, {
      authData: AUTH,
      inputData: { include_patient: false },
    });
    expect(items.length).toBeGreaterThan(0);
    expect(JSON.stringify(items)).not.toMatch(/tooth|"code"|"description"|surfaces/);
  });
});
