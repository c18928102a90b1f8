import { caseCounter } from './support/hostile-count';
import nock from 'nock';
import { createAppTester } from 'zapier-platform-core';
import { SETTINGS } from '../lib/config';
import { path } from '../lib/path';
import { writeMemory } from '../lib/write-memory';
import { data, ITEM_INPUT, replay, reply, sent, WATER_INPUT } from './fixtures';
import { call } from '../harness/call';
import { clockAtRecording, given } from './support/recorder';
import {
  App,
  AUTH,
  CLINIC_TOKEN,
  cashierApi,
  cashierPath,
  clinicApi,
  clinicPath,
  messageOf,
  recordedPatientRead,
  useNock,
  strays,
} from './helpers';

/*
 * Hostile input against the write paths: replays of writes that have no idempotency key, dates that do not exist,
 * ids that would change the request path, base addresses that would send a token where it must not go, and
 * derived booking references. Each case counts; the totals are printed at the end, as in hostile.test.ts.
 */

const count = caseCounter('Hostile input (writes)');

useNock();

/** A tester of its own: its z.cache (what a step remembers) starts empty for every test. */
const tester = createAppTester(App) as ReturnType<typeof createAppTester> & { zcacheTestObj: object };
beforeEach(() => {
  tester.zcacheTestObj = {};
});

type Fn = (z: unknown, bundle: unknown) => unknown;
type Ops = Record<string, { operation: { perform: unknown } }>;
const performOf = (kind: 'creates' | 'searches', key: string) =>
  (App[kind] as Ops)[key]!.operation.perform as Fn;
const ZAP = { zap: { id: '424242' } };
const runOp = <T = Record<string, unknown>>(
  kind: 'creates' | 'searches',
  key: string,
  inputData: object,
  o: { meta?: object; authData?: object } = {},
) =>
  tester(
    performOf(kind, key) as never,
    { authData: o.authData ?? AUTH, inputData, meta: o.meta ?? ZAP } as never,
  ) as Promise<T>;
const outcome = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ value: value as Record<string, unknown>, error: undefined }),
    (error: Error) => ({ value: undefined, error }),
  );

/** The step fails before any request, naming the field by its label. */
const expectRefusedByLabel = async (p: Promise<unknown>, label: string, name: string) => {
  const stop = strays();
  const { error } = await outcome(p);
  expect(stop()).toEqual([]);
  expect(error).toBeInstanceOf(Error);
  expect(messageOf(error)).toMatch(new RegExp(`${label.replace(/[()]/g, '\\$&')}: `));
  count(name);
};

// ----------------------------------------------------------------------------------- 4. replayed catalogue writes
// Record mode: the SKU lookup of a repeated Create Item finds the item the first run made (Create Item's body).
given('create-item-repeat', {
  setup: async (sb) => {
    await call(`${sb.cashierBaseUrl}/items`, {
      body: sent('create-item', { method: 'POST' }),
      token: sb.tokens.cashierOwner,
    });
  },
});

// Record mode: the water item the lost POST made (Create Item's body without SKU or barcode), which the recent
// items then hold.
given('create-item-recent', {
  setup: async (sb) => {
    await call(`${sb.cashierBaseUrl}/items`, {
      body: sent('create-item-default-price'),
      token: sb.tokens.cashierOwner,
    });
  },
});

describe('item writes replayed after a lost answer leave the catalogue as one run would', () => {
  const skuLookup = () => cashierApi().get(cashierPath('/items')).query({ sku: 'COF-TR-S', per_page: '10' });
  /**
   * The POST is received, but its answer is lost (the connection drops before it; a time-out is the same case, which
   * the end-to-end fault suite waits out): the item exists, the step failed.
   */
  const lostPost = (body: unknown) =>
    cashierApi()
      .post(cashierPath('/items'), body as nock.RequestBodyMatcher)
      .replyWithError(connectionReset());
  /** What node's http gives node-fetch when the connection drops: node-fetch wraps it in a FetchError. */
  const connectionReset = () => Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
  const expectLost = (error: Error | undefined) =>
    expect(messageOf(error)).toMatch(/The cashier interface closed the connection before answering/);
  /**
   * The replay comes after any run could still be waiting for an answer (Zapier replays minutes later); a pending
   * record younger than that is a run in flight, which the concurrency suite covers.
   */
  const afterInFlight = () => jest.setSystemTime(Date.now() + (SETTINGS.writeInFlightSeconds + 1) * 1000);

  it('with a SKU: the replay finds the item by its SKU and does not post again', async () => {
    skuLookup().reply(...reply('create-item', { method: 'GET' }));
    lostPost(sent('create-item', { method: 'POST' }));
    expectLost((await outcome(runOp('creates', 'create_item', ITEM_INPUT))).error);

    // The replay: the SKU now names the item the first run made (recorded); no second POST is set up.
    skuLookup().reply(replay('create-item-repeat'));
    const again = await runOp('creates', 'create_item', ITEM_INPUT);
    const made = data('create-item-repeat')[0];
    expect(again).toMatchObject({ id: made.id, duplicate: true });
    count('create_item replay with SKU');
  });

  it('with a SKU and z.cache down: the SKU lookup still prevents the second item', async () => {
    tester.zcacheTestObj = brokenCache();
    skuLookup().reply(replay('create-item-repeat'));
    expect(await runOp('creates', 'create_item', ITEM_INPUT)).toMatchObject({ duplicate: true });
    count('create_item replay with SKU, cache down');
  });

  it('with a SKU held by an item that differs: not taken for the earlier run (the server decides)', async () => {
    skuLookup().reply(replay('create-item-repeat'));
    cashierApi()
      .post(
        cashierPath('/items'),
        (b: { variants: Array<{ price_halalas: number }> }) => b.variants[1]!.price_halalas === 1300,
      )
      .reply(...reply('create-item', { method: 'POST' }));
    const changed = {
      ...ITEM_INPUT,
      variants: [ITEM_INPUT.variants[0]!, { ...ITEM_INPUT.variants[1]!, price_sar: '13' }],
    };
    expect(await runOp('creates', 'create_item', changed)).toMatchObject({ duplicate: false });
    count('create_item SKU held by another item');
  });

  it.each([
    {
      title: 'a pending record makes the replay look at recent items and not post again',
      counted: 'create_item replay without SKU (answer lost)',
      beforeReplay: afterInFlight,
    },
    {
      title: 'a replay right after the lost answer finds the item at once (the lost run ended)',
      counted: 'create_item replay without SKU right after the answer was lost',
      // No time passes: Zapier's autoreplay, or a hand replay straight after. A replay that waited on the lost run
      // would wait this long, then refuse: not here.
      beforeReplay: () => jest.replaceProperty(SETTINGS as { claimWaitMs: number }, 'claimWaitMs', 50),
    },
  ])('without SKU or barcode: $title', async ({ counted, beforeReplay }) => {
    // The app's clock at the recording's instant, so the look-back's updated_since is the one recorded.
    clockAtRecording();
    try {
      lostPost(sent('create-item-default-price'));
      expectLost((await outcome(runOp('creates', 'create_item', WATER_INPUT))).error);
      beforeReplay();

      // 10:00 in Riyadh (when the lost run wrote its record) less the look-back.
      expect(SETTINGS.writeLookBackSeconds).toBe(15 * 60);
      cashierApi()
        .get(cashierPath('/items'))
        .query({ updated_since: '2026-11-24T09:45:00+03:00', per_page: '100', page: '1' })
        .reply(replay('create-item-recent'));
      const again = await runOp('creates', 'create_item', WATER_INPUT);
      expect(again).toMatchObject({ id: data('create-item-recent')[0].id, duplicate: true });
    } finally {
      jest.useRealTimers();
    }
    count(counted);
  });

  it('without SKU or barcode: a replay after a run that was answered returns that item', async () => {
    cashierApi()
      .post(cashierPath('/items'), sent('create-item-default-price'))
      .reply(...reply('create-item-default-price'));
    const first = await runOp('creates', 'create_item', WATER_INPUT);
    expect(first.duplicate).toBe(false);
    cashierApi()
      .get(cashierPath(`/items/${String(first.id)}`))
      .reply(200, { data: data('create-item-default-price') }); // hand-built: GET /items/{id} of that item.
    expect(await runOp('creates', 'create_item', WATER_INPUT)).toMatchObject({
      id: first.id,
      duplicate: true,
    });
    count('create_item replay without SKU (answered)');
  });

  it('without SKU or barcode: recent items that differ from the inputs are not taken for the earlier run', async () => {
    const dearer = { ...WATER_INPUT, default_price_sar: '2.00' };
    cashierApi()
      .post(cashierPath('/items'), { name_ar: 'ماء', category_id: 5, default_price_halalas: 200 })
      .replyWithError(connectionReset());
    clockAtRecording();
    try {
      expectLost((await outcome(runOp('creates', 'create_item', dearer))).error);
      afterInFlight();
      cashierApi()
        .get(cashierPath('/items'))
        .query(true)
        .reply(...reply('create-item-recent')); // water at 1.50: not this step's item
      cashierApi()
        .post(cashierPath('/items'), { name_ar: 'ماء', category_id: 5, default_price_halalas: 200 })
        .reply(...reply('create-item-default-price'));
      expect(await runOp('creates', 'create_item', dearer)).toMatchObject({ duplicate: false });
    } finally {
      jest.useRealTimers();
    }
    count('create_item different recent item');
  });

  it('without SKU or barcode and z.cache down: the write still goes ahead (fail open)', async () => {
    tester.zcacheTestObj = brokenCache();
    cashierApi()
      .post(cashierPath('/items'), sent('create-item-default-price'))
      .reply(...reply('create-item-default-price'));
    expect(await runOp('creates', 'create_item', WATER_INPUT)).toMatchObject({ duplicate: false });
    count('create_item cache down, fail open');
  });

  it('Update Item adding a variant without SKU or barcode, replayed: matched by name and price, not added twice', async () => {
    const S = 'update-item-add-unnamed';
    const item = data(S, { method: 'GET' }).id as number;
    const input = { item_id: String(item), variants: [{ variant_name_ar: 'وسط', price_sar: '11' }] };
    cashierApi()
      .get(cashierPath(`/items/${item}`))
      .reply(replay(S, { method: 'GET' }));
    cashierApi()
      .put(cashierPath(`/items/${item}`), sent(S, { method: 'PUT' }))
      .replyWithError(connectionReset());
    expectLost((await outcome(runOp('creates', 'update_item', input))).error);

    // The replay reads the item as the first run left it (the recorded PUT answer): nothing to add or send.
    cashierApi()
      .get(cashierPath(`/items/${item}`))
      .reply(...reply(S, { method: 'PUT' }));
    const again = await runOp('creates', 'update_item', input);
    expect(again).toMatchObject({ id: item, duplicate: true });
    expect((again.variants as Array<{ name_ar: string }>).filter((v) => v.name_ar === 'وسط')).toHaveLength(1);
    count('update_item replay adding a variant');
  });

  it('the step memory passes its TTL and connection scope to z.cache and never throws', async () => {
    const calls: unknown[][] = [];
    const z = {
      cache: {
        get: async (...a: unknown[]) => (calls.push(['get', ...a]), { state: 'pending', at: 'x' }),
        set: async (...a: unknown[]) => (calls.push(['set', ...a]), true),
      },
    };
    const memory = writeMemory(z as never);
    expect(await memory.recall('k')).toEqual({ state: 'pending', at: 'x' });
    expect(await memory.remember('k', { state: 'done', at: 'x', id: 7 })).toBe(true);
    expect(calls).toEqual([
      ['get', 'k', ['auth']],
      ['set', 'k', { state: 'done', at: 'x', id: 7 }, SETTINGS.writeMemoryTtlSeconds, ['auth']],
    ]);
    const down = writeMemory({
      cache: { get: () => Promise.reject(new Error('down')), set: () => Promise.reject(new Error('down')) },
    } as never);
    expect(await down.recall('k')).toBe('unavailable');
    expect(await down.remember('k', { state: 'pending', at: 'x' })).toBe(false);
    const odd = writeMemory({ cache: { get: async () => ({ state: 'done' }) } } as never);
    expect(await odd.recall('k')).toBeUndefined();
    count('step memory helper');
  });
});

/** A z.cache that fails on every read and write of a key (appTester's mock reads and writes this object). */
const brokenCache = () =>
  new Proxy(
    {},
    {
      has: (target, key) => {
        if (typeof key === 'symbol') return Reflect.has(target, key);
        throw new Error('z.cache is down');
      },
      set: () => {
        throw new Error('z.cache is down');
      },
    },
  );

// ----------------------------------------------------------------------------------------- 5. impossible dates
describe('dates that do not exist are refused by label before any request', () => {
  const IMPOSSIBLE = [
    '2027-02-29T10:00:00+03:00',
    '2026-04-31T10:00:00+03:00',
    '2026-11-24T24:00:00+03:00',
    '2026-11-24T25:00:00+03:00',
    '2026-11-24T10:60:00+03:00',
    '2026-11-24T10:30:60+03:00',
    '2026-13-01T10:00:00+03:00',
    '2026-11-00T10:00:00+03:00',
    '2100-02-29T10:00:00+03:00',
    '2026-11-24T10:00:00+24:00',
  ];
  const booking = {
    patient_id: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
    branch_id: '1',
    appointment_type_id: '4',
    external_ref: 'web-1',
  };

  it.each(IMPOSSIBLE)('Book Appointment Start Time %s', async (starts_at) => {
    await expectRefusedByLabel(
      runOp('creates', 'book_appointment', { ...booking, starts_at }),
      'Start Time',
      'impossible date-time (Book Appointment)',
    );
  });

  it.each([...IMPOSSIBLE, '2027-02-29', '2026-04-31', '2026-13-01', '2026-11-00'])(
    'Find Appointment Starts From %s',
    async (from) => {
      await expectRefusedByLabel(
        runOp('searches', 'find_appointment', { patient_id: booking.patient_id, from }),
        'Starts From',
        'impossible date or date-time (Find Appointment)',
      );
    },
  );

  it.each(['2027-02-29', '2026-04-31', '2026-13-01', '2026-11-00', '2026-06-31', '1900-02-29'])(
    'Find Invoice Issued From %s',
    async (issued_from) => {
      await expectRefusedByLabel(
        runOp('searches', 'find_invoice', { patient_id: booking.patient_id, issued_from }),
        'Issued From',
        'impossible date (Find Invoice)',
      );
    },
  );

  it('a real leap day is booked as given', async () => {
    clinicApi()
      .post(
        clinicPath('/appointments'),
        (b: { starts_at: string }) => b.starts_at === '2028-02-29T10:00:00+03:00',
      )
      .reply(...reply('book-appointment'));
    recordedPatientRead('book-appointment');
    await runOp('creates', 'book_appointment', { ...booking, starts_at: '2028-02-29T10:00:00+03:00' });
    count('real leap day accepted');
  });
});

// ------------------------------------------------------------------------------------------- 6. ids in paths
describe('ids that would change the request path are refused by label, with no request', () => {
  const HOSTILE_IDS = [
    '.',
    '..',
    '...',
    ' .. ',
    'a/b',
    '../cancel',
    '?x=1',
    '#frag',
    '%2e',
    '%2e%2e',
    '%2F',
    'a b',
    'ab\\cd',
  ];
  const OPS: Array<[kind: 'creates' | 'searches', key: string, field: string, label: string, extra: object]> =
    [
      ['creates', 'cancel_order', 'order_id', 'Order', {}],
      ['searches', 'find_order', 'order_id', 'Order', {}],
      ['searches', 'find_receipt', 'receipt_id', 'Receipt', {}],
      ['searches', 'find_z_report', 'session_id', 'Till Session', {}],
      ['creates', 'cancel_appointment', 'appointment_id', 'Appointment', {}],
      ['searches', 'find_appointment', 'appointment_id', 'Appointment', {}],
      ['searches', 'find_patient', 'patient_id', 'Patient', {}],
      ['searches', 'find_invoice', 'invoice_id', 'Invoice', {}],
      ['searches', 'find_item', 'item_id', 'Item', {}],
      ['creates', 'update_item', 'item_id', 'Item', { name_en: 'x' }],
    ];
  it.each(
    OPS.flatMap(([kind, key, field, label, extra]) =>
      HOSTILE_IDS.map((id) => [key, id, kind, field, label, extra] as const),
    ),
  )('%s with %p', async (key, id, kind, field, label, extra) => {
    await expectRefusedByLabel(runOp(kind, key, { ...extra, [field]: id }), label, `hostile id (${key})`);
  });

  it('the path builder encodes each value as one segment and refuses dot segments, also percent-encoded', () => {
    expect(path`/orders/${'AB:12@x'}/cancel`).toBe('/orders/AB%3A12%40x/cancel');
    expect(path`/items/${311}`).toBe('/items/311');
    for (const bad of ['', ' ', '.', '..', '%2e', '%2E%2e', '.%2e']) {
      expect(() => path`/orders/${bad}/cancel`).toThrow(/may not be empty/);
      count('path builder refusal');
    }
    expect(() => path`/items/${1.5}`).toThrow(/whole number/);
    count('path builder refusal');
  });

  it('a well-formed order id goes into the path as one segment', async () => {
    cashierApi()
      .post(cashierPath('/orders/01JDAD4E5F6G7H8J9K0M1N2P3Q/cancel'))
      .reply(...reply('cancel-order'));
    await runOp('creates', 'cancel_order', { order_id: '01JDAD4E5F6G7H8J9K0M1N2P3Q' });
    count('well-formed id accepted');
  });
});

// ---------------------------------------------------------------------------------------- 8. base addresses
describe('base addresses that would carry a token where it must not go are refused, with no request', () => {
  const BAD = [
    ['http://clinic.example.test/partner/v1', /must start with https:\/\//],
    // The private address is the first thing wrong: https would not make it acceptable.
    ['http://10.0.0.5/partner/v1', /names a private or local network address/],
    ['https://user:s3cret-pass@clinic.example.test/partner/v1', /must not contain a user name or password/],
    ['https://s3cret-pass@clinic.example.test/partner/v1', /must not contain a user name or password/],
    ['https://clinic.example.test/partner/v1?token=s3cret-pass', /must not contain a query/],
    ['https://clinic.example.test/partner/v1#s3cret-pass', /must not contain a query/],
    ['ftp://clinic.example.test/partner/v1', /must start with https:\/\//],
    ['file:///etc/passwd', /not a web address|must start with https/],
    ['https://clinic.example.test.evil.example/partner/v1?x', /must not contain a query/],
  ] as const;
  const testAuth = App.authentication!.test as unknown as Fn;

  it.each(BAD)('connection test with Clinic Base Address %s', async (url, why) => {
    const stop = strays();
    const { error } = await outcome(
      tester(testAuth as never, { authData: { ...AUTH, clinic_base_url: url } } as never),
    );
    expect(stop()).toEqual([]);
    expect(messageOf(error)).toMatch(/^Clinic Base Address: /);
    expect(messageOf(error)).toMatch(why);
    expect(messageOf(error)).not.toMatch(/s3cret-pass/);
    count('bad base address (connection test)');
  });

  it.each(BAD)('an action with Cashier Base Address %s, in Arabic', async (url) => {
    const stop = strays();
    const { error } = await outcome(
      runOp(
        'searches',
        'find_order',
        { order_id: 'ORD-1' },
        { authData: { ...AUTH, language: 'ar', cashier_base_url: url } },
      ),
    );
    expect(stop()).toEqual([]);
    expect(messageOf(error)).toMatch(
      /^Cashier Base Address: .*nothing was sent.* — Cashier Base Address: .*لم يُرسَل شيء/i,
    );
    expect(messageOf(error)).not.toMatch(/s3cret-pass/);
    count('bad base address (action)');
  });

  it('the connection test checks both addresses before pinging either (no clinic token goes out first)', async () => {
    const stop = strays();
    const { error } = await outcome(
      tester(
        testAuth as never,
        { authData: { ...AUTH, cashier_base_url: 'http://pos.example.test/api/partner/v1' } } as never,
      ),
    );
    expect(stop()).toEqual([]);
    expect(messageOf(error)).toMatch(/^Cashier Base Address: must start with https/);
    count('bad second address before first ping');
  });

  it('a bad environment default is refused, naming its variable', async () => {
    const saved = process.env.CASHIER_BASE_URL;
    process.env.CASHIER_BASE_URL = 'http://admin:s3cret-pass@pos.example.test/api/partner/v1';
    try {
      const stop = strays();
      const { error } = await outcome(runOp('searches', 'find_order', { order_id: 'ORD-1' }));
      expect(stop()).toEqual([]);
      expect(messageOf(error)).toMatch(
        /default cashier base address \(CASHIER_BASE_URL\) must start with https/,
      );
      expect(messageOf(error)).not.toMatch(/s3cret-pass/);
    } finally {
      process.env.CASHIER_BASE_URL = saved;
    }
    count('bad environment default');
  });

  it.each(['http://127.0.0.1:4010', 'http://127.8.9.10', 'http://localhost:4010', 'http://[::1]:4010'])(
    'plain HTTP to this computer (%s) stays allowed for the local sandbox',
    async (origin) => {
      nock(origin, { reqheaders: { authorization: `Bearer ${CLINIC_TOKEN}` } })
        .get('/partner/v1/ping')
        .reply(...reply('ping', { api: 'clinic' }));
      await tester(
        testAuth as never,
        {
          authData: { clinic_api_token: CLINIC_TOKEN, clinic_base_url: `${origin}/partner/v1` },
        } as never,
      );
      count('loopback HTTP accepted');
    },
  );
});

// --------------------------------------------------------------------------------- 9. derived booking references
describe('derived booking references never merge different bookings', () => {
  // The bookings start half an hour after the recordings' instant: ahead of the clock.
  beforeEach(() => clockAtRecording());
  afterEach(() => jest.useRealTimers());
  const base = {
    patient_phone: '0501234567',
    patient_name: 'ليان الشهري',
    branch_id: '1',
    appointment_type_id: '4',
    starts_at: '2026-11-24T10:30:00+03:00',
  };
  const refsOf = async (inputs: object[], meta?: object) => {
    const refs: string[] = [];
    clinicApi()
      .post(clinicPath('/appointments'), (b: { external_ref: string }) => !!refs.push(b.external_ref))
      .times(inputs.length)
      .reply(...reply('book-appointment-by-phone'));
    recordedPatientRead('book-appointment-by-phone', inputs.length);
    for (const input of inputs) await runOp('creates', 'book_appointment', input, meta ? { meta } : {});
    return refs;
  };
  const VARIANTS: Array<[string, object]> = [
    ['another patient name (a parent booking two children)', { patient_name: 'سلمان الشهري' }],
    ['another note', { note: 'Second child' }],
    ['another practitioner', { practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D0' }],
    ['another branch', { branch_id: '2' }],
    ['another type', { appointment_type_id: '5' }],
    ['another phone', { patient_phone: '0501234568' }],
    ['another start', { starts_at: '2026-11-24T11:00:00+03:00' }],
  ];

  it.each(VARIANTS)('%s gets another reference, with and without a Zap id', async (_name, change) => {
    for (const meta of [ZAP, {}]) {
      const [first, second] = await refsOf([base, { ...base, ...change }], meta);
      expect(first).toMatch(/^zap-[0-9a-f]{32}$/);
      expect(second).not.toBe(first);
      count('different bookings, different references');
    }
  });

  it('the same inputs (a replay) get the same reference, the same instant written otherwise too', async () => {
    const refs = await refsOf([base, { ...base }, { ...base, starts_at: '2026-11-24T07:30:00Z' }]);
    expect(new Set(refs).size).toBe(1);
    count('replayed booking, same reference');
  });
});
