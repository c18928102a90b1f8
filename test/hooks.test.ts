import nock from 'nock';
import App from '../index';
import { EVENTS, type HookEvent } from '../lib/hooks/events';
import type { SubscribeData } from '../lib/hooks/factory';
import { halalasToSar } from '../lib/money';
import {
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  CASHIER_TOKEN,
  clinicApi,
  clinicPath,
  delivery,
  nowSeconds,
  useNock,
} from './helpers';

useNock();
// Each test starts with an empty z.cache, so event ids reused across tests are not taken for repeats.
beforeEach(() => {
  (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
});

type Fn = (z: unknown, bundle: unknown) => unknown;
interface HookOp {
  perform: Fn;
  performList: Fn;
  performSubscribe: Fn;
  performUnsubscribe: Fn;
}
const op = (key: string) =>
  (App.triggers as Record<string, { operation: unknown }>)[key]!.operation as HookOp;
const run = <T>(fn: Fn, bundle: object) => appTester(fn as never, bundle as never) as Promise<T>;

const TARGET = 'https://hooks.zapier.com/hooks/standard/1234/abcd5678/';
const TARGET_PATH = '/hooks/standard/1234/abcd5678/';
const SECRET = 'whsec_9d2c1e7b4a6f8e0d3c5b7a9e1f2d4c6b';

const apiOf = (def: HookEvent) => (def.api === 'clinic' ? clinicApi() : cashierApi());
const pathOf = (def: HookEvent, p: string) => (def.api === 'clinic' ? clinicPath(p) : cashierPath(p));

/** Raw data of an event as the interface would send it: the row's sample without the app's own additions. */
const rawData = (def: HookEvent): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(def.sampleData ?? def.resource.sample)) {
    if (!k.endsWith('_sar') && !(def.key === 'stock_low' && k === 'id')) out[k] = v;
  }
  return JSON.parse(
    JSON.stringify(out, (k, v) => (typeof k === 'string' && k.endsWith('_sar') ? undefined : v)),
  );
};
const envelopeOf = (def: HookEvent, data = rawData(def), id = `evt_${def.key}_01`) => ({
  id,
  event: def.event,
  tenant_id: 7,
  occurred_at: '2026-11-21T14:05:12+03:00',
  api_version: 'v1',
  data,
});
const subscribeData = (def: HookEvent, id = 41): SubscribeData => ({
  id,
  secret: SECRET,
  target_path: TARGET_PATH,
  event: def.event,
  api: def.api,
});
const expectedId = (def: HookEvent, data: Record<string, unknown>) =>
  def.key === 'stock_low' ? `${data.branch_id}:${data.variant_id}` : data.id;

/** Every *_halalas at any depth has its *_sar sibling with two decimals. */
const expectSarSiblings = (value: unknown): number => {
  let count = 0;
  if (Array.isArray(value)) return value.reduce((n: number, v) => n + expectSarSiblings(v), 0);
  if (value && typeof value === 'object') {
    for (const [k, v] of Object.entries(value)) {
      if (k.endsWith('_halalas') && typeof v === 'number') {
        expect((value as Record<string, unknown>)[k.replace(/_halalas$/, '_sar')]).toBe(halalasToSar(v));
        count += 1;
      }
      count += expectSarSiblings(v);
    }
  }
  return count;
};

describe.each(EVENTS.map((def) => [def.key, def] as const))('%s', (_key, def) => {
  it('subscribes with POST /webhooks {target_url, event} and keeps what perform needs', async () => {
    const scope = apiOf(def)
      .post(pathOf(def, '/webhooks'), { target_url: TARGET, event: def.event })
      .matchHeader('content-type', 'application/json')
      .reply(201, { id: 41, secret: SECRET, data: { id: 41, event: def.event, target_url: TARGET } });
    const result = await run(op(def.key).performSubscribe, {
      authData: AUTH,
      targetUrl: TARGET,
      inputData: {},
    });
    expect(result).toEqual(subscribeData(def));
    expect(scope.isDone()).toBe(true);
  });

  it('unsubscribes with DELETE /webhooks/{id}, and takes a 404 as already gone', async () => {
    apiOf(def).delete(pathOf(def, '/webhooks/41')).reply(204);
    await expect(
      run(op(def.key).performUnsubscribe, {
        authData: AUTH,
        subscribeData: subscribeData(def),
        inputData: {},
      }),
    ).resolves.toEqual({ removed: true });
    apiOf(def)
      .delete(pathOf(def, '/webhooks/41'))
      .reply(404, { error: 'not_found', message: 'Subscription not found', details: {} });
    await expect(
      run(op(def.key).performUnsubscribe, {
        authData: AUTH,
        subscribeData: subscribeData(def),
        inputData: {},
      }),
    ).resolves.toEqual({ removed: false });
  });

  it('turns a signed delivery into one item with the object, event_id, occurred_at and SAR siblings', async () => {
    const data = rawData(def);
    const bundle = {
      authData: AUTH,
      inputData: {},
      subscribeData: subscribeData(def),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: envelopeOf(def, data) }),
    };
    const items = await run<Array<Record<string, unknown>>>(op(def.key).perform, bundle);
    expect(items).toHaveLength(1);
    const item = items[0]!;
    expect(item.id).toBe(expectedId(def, data));
    expect(item.event_id).toBe(`evt_${def.key}_01`);
    expect(item.occurred_at).toBe('2026-11-21T14:05:12+03:00');
    for (const [k, v] of Object.entries(data)) {
      if (k !== 'changes')
        expect(item[k]).toEqual(expect.anything() === v ? v : item[k] === undefined ? v : item[k]);
      if (k !== 'changes' && (typeof v !== 'object' || v === null)) expect(item[k]).toEqual(v);
    }
    const money = Object.keys(data).some((k) => k.endsWith('_halalas'));
    expect(expectSarSiblings(item) > 0).toBe(money);
  });

  it('drops a repeated event id for the same subscription, but not for another Zap', async () => {
    const env = envelopeOf(def);
    const bundleFor = (subId: number) => ({
      authData: AUTH,
      inputData: {},
      subscribeData: subscribeData(def, subId),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: env }),
    });
    const first = await run<unknown[]>(op(def.key).perform, bundleFor(41));
    const repeat = await run<unknown[]>(op(def.key).perform, bundleFor(41));
    const otherZap = await run<unknown[]>(op(def.key).perform, bundleFor(42));
    expect([first.length, repeat.length, otherZap.length]).toEqual([1, 0, 1]);
  });

  it('samples from the interface (performList)', async () => {
    const data = rawData(def);
    if (def.sample.kind === 'recent') {
      clinicApi()
        .get(clinicPath(`/webhooks/events/${def.event}/recent`))
        .query({ limit: 3 })
        .reply(200, {
          data: [envelopeOf(def, data, `${def.event}:${String(data.id)}`)],
          meta: { event: def.event, count: 1, sample: envelopeOf(def) },
        });
    } else if (def.sample.kind === 'list') {
      cashierApi()
        .get(cashierPath(def.sample.path))
        .query({ ...def.sample.query, per_page: 3 })
        .reply(200, { data: [data], meta: { total: 1, page: 1, per_page: 3 } });
    } else {
      cashierApi()
        .get(cashierPath('/webhooks/events'))
        .reply(200, {
          data: [
            { event: 'other.event', sample: { id: 'nope' } },
            { event: def.event, sample: data },
          ],
        });
    }
    const items = await run<Array<Record<string, unknown>>>(op(def.key).performList, {
      authData: AUTH,
      inputData: {},
    });
    expect(items).toHaveLength(1);
    expect(items[0]!.id).toBe(expectedId(def, data));
    expect(typeof items[0]!.event_id).toBe('string');
  });

  it('falls back to the static sample when the interface has nothing yet', async () => {
    if (def.sample.kind === 'recent') {
      clinicApi()
        .get(clinicPath(`/webhooks/events/${def.event}/recent`))
        .query({ limit: 3 })
        .reply(200, { data: [], meta: { event: def.event, count: 0 } });
    } else if (def.sample.kind === 'list') {
      cashierApi()
        .get(cashierPath(def.sample.path))
        .query({ ...def.sample.query, per_page: 3 })
        .reply(200, { data: [], meta: { total: 0 } });
    } else {
      cashierApi().get(cashierPath('/webhooks/events')).reply(200, { data: [] });
    }
    const items = await run<Array<Record<string, unknown>>>(op(def.key).performList, {
      authData: AUTH,
      inputData: {},
    });
    const definition = (App.triggers as Record<string, { operation: { sample: Record<string, unknown> } }>)[
      def.key
    ]!;
    expect(items).toEqual([definition.operation.sample]);
  });
});

describe('delivery checks (appointment_created)', () => {
  const def = EVENTS.find((e) => e.key === 'appointment_created')!;
  const perform = op(def.key).perform;
  const genuine = (over: Partial<Parameters<typeof delivery>[0]> = {}) => ({
    authData: AUTH,
    inputData: {},
    subscribeData: subscribeData(def),
    ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: envelopeOf(def), ...over }),
  });
  const tamper = (bundle: ReturnType<typeof genuine>, content: string) => ({
    ...bundle,
    rawRequest: { ...bundle.rawRequest, content },
  });

  it.each([
    [
      'a tampered body',
      () => tamper(genuine(), JSON.stringify({ ...envelopeOf(def), tenant_id: 8 })),
      /does not match/,
    ],
    ['a wrong secret', () => genuine({ secret: 'whsec_not_this_one' }), /does not match/],
    [
      'a stale timestamp',
      () => genuine({ timestamp: String(nowSeconds() - 301) }),
      /more than 5 minutes old/,
    ],
    ['a future timestamp', () => genuine({ timestamp: String(nowSeconds() + 360) }), /in the future/],
    ['a non-digit timestamp', () => genuine({ timestamp: `${nowSeconds()}.0` }), /not a number of seconds/],
    ['no signature header', () => genuine({ signature: null }), /no X-Partner-Signature/],
    ['a malformed signature', () => genuine({ signature: 'md5=abc' }), /sha256=<64 hex digits>/],
    [
      'an event id header that differs from the body',
      () => genuine({ eventIdHeader: 'evt_other' }),
      /differs/,
    ],
    [
      'a signed body that is not an envelope',
      () => genuine({ rawBody: 'not json', envelope: { id: 'x', event: def.event } }),
      /not a JSON event envelope/,
    ],
  ])('refuses %s with HaltedError saying why', async (_name, make, message) => {
    const error = await run(perform, make()).catch((e: Error) => e);
    expect(error).toBeInstanceOf(Error);
    expect((error as Error).name).toBe('HaltedError');
    expect((error as Error).message).toMatch(message);
    expect((error as Error).message).toMatch(/turn the Zap off and on/);
  });

  it('refuses a delivery when the Zap holds no signing secret', async () => {
    const error = await run(perform, { ...genuine(), subscribeData: { id: 41 } }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/holds no signing secret/);
  });

  it('reads headers whatever their case', async () => {
    const bundle = genuine();
    const lower = Object.fromEntries(
      Object.entries(bundle.rawRequest.headers).map(([k, v]) => [k.toLowerCase(), v]),
    );
    const items = await run<unknown[]>(perform, {
      ...bundle,
      rawRequest: { ...bundle.rawRequest, headers: lower },
    });
    expect(items).toHaveLength(1);
  });

  it('says the refusal in Arabic when the connection is in Arabic', async () => {
    const error = await run(perform, {
      ...genuine({ secret: 'whsec_x' }),
      authData: { ...AUTH, language: 'ar' },
    }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/رُفض التسليم/);
  });

  it('ignores a ping (test delivery)', async () => {
    const ping = {
      id: 'evt_ping_1',
      event: 'ping',
      tenant_id: 7,
      occurred_at: '2026-11-21T14:00:00+03:00',
      api_version: 'v1',
      data: { subscription_id: 41, message: 'Hello' },
    };
    const bundle = { ...genuine(), ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: ping }) };
    await expect(run(perform, bundle)).resolves.toEqual([]);
  });

  it('does not let a forged delivery block the genuine one with the same event id', async () => {
    const forged = await run(perform, genuine({ secret: 'whsec_attacker' })).catch((e: Error) => e);
    expect((forged as Error).name).toBe('HaltedError');
    await expect(run<unknown[]>(perform, genuine())).resolves.toHaveLength(1);
  });
});

describe('trigger filters', () => {
  const created = EVENTS.find((e) => e.key === 'appointment_created')!;
  const deliver = (def: HookEvent, inputData: object, data: Record<string, unknown>, id: string) =>
    run<unknown[]>(op(def.key).perform, {
      authData: AUTH,
      inputData,
      subscribeData: subscribeData(def),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: envelopeOf(def, data, id) }),
    });

  it('fires only for the chosen branch, practitioner and appointment type', async () => {
    const data = rawData(created);
    expect(await deliver(created, { branch_id: '1' }, data, 'e1')).toHaveLength(1);
    expect(await deliver(created, { branch_id: '2' }, data, 'e2')).toHaveLength(0);
    expect(await deliver(created, { practitioner_id: data.practitioner_id }, data, 'e3')).toHaveLength(1);
    expect(
      await deliver(created, { practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D1' }, data, 'e4'),
    ).toHaveLength(0);
    expect(await deliver(created, { appointment_type_id: 4 }, data, 'e5')).toHaveLength(1);
    expect(await deliver(created, { appointment_type_id: 5, branch_id: '' }, data, 'e6')).toHaveLength(0);
  });

  it('filters the cashier receipts by branch', async () => {
    const receipt = EVENTS.find((e) => e.key === 'receipt_issued')!;
    const data = rawData(receipt);
    expect(await deliver(receipt, { branch_id: 2 }, data, 'r1')).toHaveLength(1);
    expect(await deliver(receipt, { branch_id: 1 }, data, 'r2')).toHaveLength(0);
  });

  it('applies the filters to the samples too', async () => {
    const a = rawData(created);
    clinicApi()
      .get(clinicPath('/webhooks/events/appointment.created/recent'))
      .query({ limit: 3 })
      .reply(200, {
        data: [
          envelopeOf(
            created,
            { ...a, id: '01JDA3F7Q9B2C4D6E8G0H1J3K6', branch_id: 2 },
            'appointment.created:6',
          ),
          envelopeOf(
            created,
            { ...a, id: '01JDA3F7Q9B2C4D6E8G0H1J3K7', branch_id: 1 },
            'appointment.created:7',
          ),
        ],
        meta: {},
      });
    const items = await run<Array<{ id: string }>>(op('appointment_created').performList, {
      authData: AUTH,
      inputData: { branch_id: '2' },
    });
    expect(items.map((i) => i.id)).toEqual(['01JDA3F7Q9B2C4D6E8G0H1J3K6']);
  });
});

describe('appointment_updated changes', () => {
  const def = EVENTS.find((e) => e.key === 'appointment_updated')!;
  it('lists the changed fields and their previous values, and nothing outside the whitelist', async () => {
    const data = {
      ...rawData(def),
      status: 'arrived',
      starts_at: '2026-11-24T11:00:00+03:00',
      changes: {
        status: ['confirmed', 'arrived'],
        starts_at: ['2026-11-24T10:30:00+03:00', '2026-11-24T11:00:00+03:00'],
        diagnosis: ['', 'secret'],
      },
      diagnosis: 'secret',
    };
    const [item] = await run<Array<Record<string, unknown>>>(op(def.key).perform, {
      authData: AUTH,
      inputData: {},
      subscribeData: subscribeData(def),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: envelopeOf(def, data) }),
    });
    expect(item!.changed_fields).toEqual(['status', 'starts_at']);
    expect(item!.previous_status).toBe('confirmed');
    expect(item!.previous_starts_at).toBe('2026-11-24T10:30:00+03:00');
    expect(item!.status).toBe('arrived');
    expect(JSON.stringify(item)).not.toMatch(/diagnosis|secret/);
    expect(item).not.toHaveProperty('changes');
  });
});

describe('privacy (CONTRACT §7)', () => {
  const def = EVENTS.find((e) => e.key === 'invoice_paid')!;
  it('strips procedure codes, descriptions, teeth and surfaces from invoice lines, and unknown fields', async () => {
    const data = rawData(def) as { lines: Array<Record<string, unknown>> };
    const leaky = {
      ...data,
      status: 'paid',
      paid_at: '2026-11-21T12:00:00+03:00',
      clinical_note: 'pain upper left',
      lines: data.lines.map((l) => ({
        ...l,
        code: 'D1110',
        description: 'Scaling',
        tooth: '26',
        surfaces: ['M', 'O'],
      })),
    };
    const [item] = await run<Array<Record<string, unknown>>>(op(def.key).perform, {
      authData: AUTH,
      inputData: {},
      subscribeData: subscribeData(def),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: envelopeOf(def, leaky) }),
    });
    const text = JSON.stringify(item);
    for (const word of [
      'D1110',
      'Scaling',
      '"tooth"',
      'surfaces',
      'clinical_note',
      '"code"',
      '"description"',
    ]) {
      expect(text).not.toContain(word);
    }
    expect(item!.paid_at).toBe('2026-11-21T12:00:00+03:00');
  });

  it('strips the same fields from samples taken from the recent list', async () => {
    const inv = rawData(def) as { lines: Array<Record<string, unknown>> };
    clinicApi()
      .get(clinicPath('/webhooks/events/invoice.paid/recent'))
      .query({ limit: 3 })
      .reply(200, {
        data: [envelopeOf(def, { ...inv, lines: inv.lines.map((l) => ({ ...l, tooth: '11', code: 'X1' })) })],
        meta: {},
      });
    const items = await run<unknown[]>(op(def.key).performList, { authData: AUTH, inputData: {} });
    expect(JSON.stringify(items)).not.toMatch(/tooth|"code"/);
  });
});

describe('Accept-Language', () => {
  it('asks the interface for Arabic messages when the connection is in Arabic', async () => {
    const def = EVENTS.find((e) => e.key === 'stock_low')!;
    nock(new URL(process.env.CASHIER_BASE_URL!).origin, {
      reqheaders: { authorization: `Bearer ${CASHIER_TOKEN}`, 'accept-language': 'ar' },
    })
      .post(cashierPath('/webhooks'), { target_url: TARGET, event: 'stock.low' })
      .reply(201, { id: 9, secret: SECRET, data: { id: 9 } });
    await run(op(def.key).performSubscribe, {
      authData: { ...AUTH, language: 'ar' },
      targetUrl: TARGET,
      inputData: {},
    });
  });

  it('subscribing without the interface token fails before any request, naming the token', async () => {
    const def = EVENTS.find((e) => e.key === 'receipt_issued')!;
    const error = await run(op(def.key).performSubscribe, {
      authData: { clinic_api_token: 'x' },
      targetUrl: TARGET,
      inputData: {},
    }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/Cashier API Token/);
  });
});
