import { EVENTS } from '../../lib/hooks/events';
import type { HookEvent, SubscribeData } from '../../lib/hooks/types';
import { sampleKeysOf } from '../../scripts/checks/definition';
import { data, delivered as recordedDelivery, reply, type Json, replay } from '../fixtures';
import {
  App,
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  clinicApi,
  clinicPath,
  delivery,
  useNock,
} from '../helpers';
import { definition } from './breaking';

// D006 at run time: the definition shows that performList exists; these show its items are shaped like the
// items a delivery produces, so a field mapped from the test sample is there when the Zap runs.

describe('D006 at run time: performList items have the keys of delivered items', () => {
  useNock();
  beforeEach(() => {
    (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
  });

  const TARGET_PATH = '/hooks/standard/1234/abcd5678/';
  const SECRET = 'whsec_d006';

  type Fn = (z: unknown, bundle: unknown) => unknown;
  const operationOf = (key: string) =>
    (App.triggers as unknown as Record<string, { operation: Record<string, Fn> }>)[key]!.operation;
  const run = (fn: Fn | undefined, bundle: object) =>
    appTester(fn as never, bundle as never) as Promise<Array<Record<string, unknown>>>;

  /** The recorded answers the samples come from: recent events, the cashier's lists, its catalogue. */
  const LIST_FIXTURE: Record<string, string> = {
    '/stock/levels': 'stock-low-list',
    '/customers': 'customers-list',
  };
  const CURSOR_FIXTURE: Record<string, string> = {
    receipt_issued: 'receipts-latest',
    credit_note_issued: 'credit-notes-latest',
  };
  const recentPath = (def: HookEvent) => `/webhooks/events/${def.event}/recent`;
  const catalogueEntry = (def: HookEvent): Json =>
    data('webhook-catalogue', { api: 'cashier' }).find((e: Json) => e.event === def.event);

  /** The envelope of the object performList shows first, as the recorded answer holds it. */
  const listedEnvelope = (def: HookEvent): Json => {
    if (def.sample.kind === 'recent') {
      // The first recent event the trigger fires on (a status trigger skips other updates), else its own sample.
      const recent = data('recent-events', {
        path: recentPath(def),
        query: { limit: def.when ? '25' : '3' },
      }) as Json[];
      return recent.find((e) => !def.when || def.when(e.data)) ?? staticSampleEnvelope(def);
    }
    if (def.sample.kind === 'list') {
      // hand-built envelope: the recorded list's first row in the envelope of the event's recorded delivery,
      // so that both paths see the same object (the lists hold bare objects).
      return { ...recordedDelivery(def.event), data: data(LIST_FIXTURE[def.sample.path]!)[0] };
    }
    if (def.sample.kind === 'cursor') {
      // hand-built envelope: the last arrived object of the recorded cursor page, as above.
      const { keeps } = def.sample;
      const kept = (data(CURSOR_FIXTURE[def.key]!) as Json[]).filter((o) => !keeps || keeps(o));
      return { ...recordedDelivery(def.event), data: kept[kept.length - 1] };
    }
    return catalogueEntry(def).sample;
  };

  /**
   * hand-built envelope: the app's own static sample object (without the app's additions) in the event's
   * recorded delivery envelope. The static sample must be what perform makes of that very object; a genuine
   * delivery is another object, whose optional members differ.
   */
  const staticSampleEnvelope = (def: HookEvent): Json => ({
    ...recordedDelivery(def.event),
    data: JSON.parse(
      JSON.stringify(def.sampleData ?? def.resource.sample, (k, v) =>
        k.endsWith('_sar') || (def.key === 'stock_low' && k === 'id') ? undefined : v,
      ),
    ),
  });

  const listed = async (def: HookEvent) => {
    if (def.sample.kind === 'recent') {
      const path = recentPath(def);
      // A status trigger asks up to 25 recent updates, the others 3 (each read recorded as it is made).
      const limit = def.when ? '25' : '3';
      clinicApi()
        .get(clinicPath(path))
        .query({ limit })
        .reply(replay('recent-events', { path, query: { limit } }));
    } else if (def.sample.kind === 'list') {
      cashierApi()
        .get(cashierPath(def.sample.path))
        .query({ ...def.sample.query, per_page: 3 })
        .reply(replay(LIST_FIXTURE[def.sample.path]!));
    } else if (def.sample.kind === 'cursor') {
      cashierApi()
        .get(cashierPath(def.sample.path))
        .query({ ...def.sample.query, per_page: 100 })
        .reply(replay(CURSOR_FIXTURE[def.key]!));
    } else {
      cashierApi()
        .get(cashierPath('/webhooks/events'))
        .reply(replay('webhook-catalogue', { api: 'cashier' }));
    }
    return run(operationOf(def.key).performList, { authData: AUTH, inputData: {} });
  };

  const delivered = (def: HookEvent, envelope: Json) => {
    const subscribeData: SubscribeData = {
      id: 41,
      secret: SECRET,
      target_path: TARGET_PATH,
      event: def.event,
      api: def.api,
    };
    return run(operationOf(def.key).perform, {
      authData: AUTH,
      inputData: {},
      subscribeData,
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
    });
  };

  it.each(EVENTS.map((def) => [def.key, def] as const))('%s', async (key, def) => {
    // Items that carry a patient read it (each path here), all answered with one recorded patient: the answer
    // only (what is checked here is the items' keys, not which patient).
    clinicApi()
      .persist()
      .get(new RegExp(`^${clinicPath('/patients/')}[0-9A-Z]{26}$`))
      .optionally()
      .reply(...reply('find-patient-by-id'));
    const [fromList] = await listed(def);
    const [fromHook] = await delivered(def, listedEnvelope(def));
    (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
    const [fromSample] = await delivered(def, staticSampleEnvelope(def));

    expect(fromHook).toBeDefined();
    expect(sampleKeysOf(fromList).sort()).toEqual(sampleKeysOf(fromHook).sort());
    expect(sampleKeysOf(definition.triggers[key]!.operation.sample).sort()).toEqual(
      sampleKeysOf(fromSample).sort(),
    );
  });
});
