import { isFieldKey, retryAfterSeconds } from '../lib/error-body';
import { holdsCoreTemplate } from '../lib/curlies';
import { UNSAFE_KEYS } from '../lib/resources/present';
import * as cashier from '../lib/resources/cashier';
import * as clinic from '../lib/resources/clinic';
import { data, delivered, deliveredAsSent, replay, reply, type Json } from './fixtures';
import { clockAtRecording } from './support/recorder';
import {
  App,
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  clinicApi,
  clinicPath,
  delivery,
  messageOf,
  recordedPatientRead,
  useNock,
} from './helpers';

/*
 * The edges where interface data or a Zap builder's text meets code that could misread it: crafted error text that
 * would make a regular expression backtrack, `__proto__` members of received objects, near matches of a SKU, and
 * `{{…}}` in text inputs. Each through the app's definition, as Zapier runs it.
 */

useNock();

type Fn = (z: unknown, bundle: unknown) => unknown;
type Op = { perform: Fn; performList: Fn };
const operation = (group: 'creates' | 'searches' | 'triggers', key: string) =>
  (App[group] as Record<string, { operation: unknown }>)[key]!.operation as Op;
const run = <T>(fn: Fn, bundle: object) => appTester(fn as never, bundle as never) as Promise<T>;
const outcome = (p: Promise<unknown>) =>
  p.then(
    (value) => ({ value, error: undefined }),
    (error: Error) => ({ value: undefined, error }),
  );

/** Median milliseconds of `fn` over a few rounds: noise aside, what one call costs. */
const msOf = async (fn: () => Promise<unknown>, rounds = 5): Promise<number> => {
  const times: number[] = [];
  for (let i = 0; i < rounds; i += 1) {
    const start = process.hrtime.bigint();
    await fn();
    times.push(Number(process.hrtime.bigint() - start) / 1e6);
  }
  return times.sort((a, b) => a - b)[Math.floor(rounds / 2)]!;
};

/**
 * Linear work on 100 times the input stays within 200 times the time (plus a millisecond floor for timer noise); a
 * backtracking pattern on these shapes takes seconds at a few dozen characters and never ends at 100,000.
 */
const expectLinear = async (cost: (size: number) => Promise<unknown>) => {
  const small = await msOf(() => cost(1_000));
  const big = await msOf(() => cost(100_000));
  expect(big).toBeLessThan(200 * Math.max(small, 1));
};

/** A field name built for backtracking: `.1.a` has two readings in the old pattern, and the `!` fails them all. */
const crafted = (size: number) => `a${'.1.a'.repeat(Math.ceil(size / 4))}`.slice(0, size - 1) + '!';

describe('no regular expression over interface text backtracks', () => {
  // Their bookings start ahead of the recordings' clock, as Book Appointment requires.
  beforeEach(() => clockAtRecording());
  afterEach(() => jest.useRealTimers());
  const BOOKING = {
    patient_id: '01EY5943V0CH77X783RTRD9GRE',
    branch_id: '1',
    appointment_type_id: '4',
    starts_at: '2026-11-26T12:30:00+03:00',
    external_ref: 'web-5501',
  };
  const book = (answer: Json, headers: Record<string, string> = {}) => {
    // hand-built: an error answer no real server sends, crafted to make a pattern over it backtrack.
    clinicApi().post(clinicPath('/appointments')).reply(422, answer, headers);
    return outcome(
      run(operation('creates', 'book_appointment').perform, { authData: AUTH, inputData: BOOKING }),
    );
  };

  it('validation_failed names crafted field keys in linear time (errors list and {field: code} map)', async () => {
    await expectLinear(async (size) => {
      const { error } = await book({
        error: 'validation_failed',
        message: 'Invalid.',
        details: {
          errors: [
            { field: crafted(size), code: 'required' },
            { field: 'note', code: 'required' },
          ],
        },
      });
      expect(messageOf(error)).toMatch(/^Some fields are not valid\. Note: is required\./);
      expect(messageOf(error)).not.toContain('.1.a');
    });
    await expectLinear(async (size) => {
      const { error } = await book({
        error: 'validation_failed',
        details: { [crafted(size)]: 'required', [`lines${'[1]'.repeat(size / 3)}x`]: 'required' },
      });
      expect(messageOf(error)).toBe('Some fields are not valid.');
    });
  });

  it('a field key up to the length read is parsed in full, in one pass', async () => {
    // 197 characters of `.1.a` and a `!` were 2^49 steps for the old pattern; ten times the length, ten times the work.
    const valid = 'a' + '.1.a'.repeat(49);
    expect([valid.length, isFieldKey(valid), isFieldKey(`${valid}!`), isFieldKey(`${valid}.1!`)]).toEqual([
      197,
      true,
      false,
      false,
    ]);
    const keys = (size: number) => Array.from({ length: 2_000 }, (_, i) => crafted(size - (i % 3)));
    const small = await msOf(async () => keys(20).map(isFieldKey));
    const big = await msOf(async () => keys(200).map(isFieldKey));
    expect(big).toBeLessThan(200 * Math.max(small, 1));
  });

  it('a long server message and a long Retry-After are read in bounded time', async () => {
    await expectLinear(async (size) => {
      const { error } = await book({
        error: 'server_error',
        message: `${' \u0001\u2028'.repeat(size / 3)}Busy.`,
      });
      expect(messageOf(error)).toMatch(
        /^The clinic interface answered an error \(HTTP 422, server_error\)\./,
      );
    });
    // Node's HTTP parser takes headers up to 16 KB: through the definition at 10,000 characters, beyond it directly.
    const longDate = (size: number) => `${'Mon, 1 '.repeat(size / 7)}Nov 2026 10:00:00 GMT`;
    await expectLinear(async (size) => expect(retryAfterSeconds(longDate(size))).toBe(60));
    // hand-built: a 429 whose Retry-After no server means, an HTTP date preceded by a long run of text.
    cashierApi()
      .get(cashierPath('/orders/ord-1'))
      .reply(429, { error: 'rate_limited', message: 'Slow down.' }, { 'Retry-After': longDate(10_000) });
    const { error } = await outcome(
      run(operation('searches', 'find_order').perform, { authData: AUTH, inputData: { order_id: 'ord-1' } }),
    );
    expect(error?.name).toBe('ThrottledError');
    expect(JSON.parse(error!.message)).toMatchObject({ delay: 60 });
  });
});

/** Every object and array in `value` is plain, and none holds a key that could set or shadow a prototype. */
const expectPlain = (value: unknown, where = 'item'): void => {
  if (!value || typeof value !== 'object') return;
  expect([where, Object.getPrototypeOf(value)]).toEqual([
    where,
    Array.isArray(value) ? Array.prototype : Object.prototype,
  ]);
  for (const key of Object.getOwnPropertyNames(value)) {
    expect(UNSAFE_KEYS.has(key) ? `${where}.${key}` : '').toBe('');
    expectPlain((value as Record<string, unknown>)[key], `${where}.${key}`);
  }
};

/** `{"__proto__": …, "constructor": …, "prototype": …}` members, as JSON.parse makes them own keys. */
const POISON =
  '"__proto__":{"branch_id":2,"name_en":"Inherited"},"constructor":{"name":"x"},"prototype":{"a":1}';
/** JSON text of `value` with the poisoned members put first into every object. */
const poisoned = (value: unknown): string => JSON.stringify(value).replace(/\{(?=")/g, `{${POISON},`);

describe('__proto__, constructor and prototype members of interface objects are dropped', () => {
  it('by every resource’s presenter, at every depth', () => {
    const resources = Object.values({ ...clinic, ...cashier }).filter(
      (r): r is typeof cashier.receipt => !!r && typeof r === 'object' && 'present' in r,
    );
    for (const resource of resources) {
      const source = JSON.parse(
        poisoned({ ...resource.sample, extra: { deep: [{ deeper: { x: 1 } }] } }),
      ) as Record<string, unknown>;
      expect(Object.hasOwn(source, '__proto__')).toBe(true);
      // Enough items to reach the compiled tier of the presenter too.
      for (let i = 0; i < 10; i += 1) expectPlain(resource.present(source), resource.noun);
    }
  });

  describe('through a signed delivery (New Receipt, filtered by Branch)', () => {
    const perform = operation('triggers', 'receipt_issued').perform;
    const sent = deliveredAsSent('receipt.issued');
    const { subscription } = sent.recorded_from;
    const envelope = delivered('receipt.issued');
    delete envelope.data.branch_id;
    envelope.data.prepaid_applied = { applied_halalas: 100, rows: [{ x: 1 }] };
    const rawBody = JSON.stringify({ ...envelope, data: undefined }).replace(
      /\}$/,
      `,"data":${poisoned(envelope.data)}}`,
    );
    const deliver = (inputData: Record<string, unknown>) =>
      run<Array<Record<string, unknown>>>(perform, {
        authData: AUTH,
        inputData,
        subscribeData: {
          id: subscription.id,
          secret: subscription.secret,
          target_path: subscription.target_path,
          event: 'receipt.issued',
          api: 'cashier',
        },
        ...delivery({ secret: subscription.secret, path: subscription.target_path, rawBody }),
      });
    beforeEach(() => {
      (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
    });

    it('shows the item without them, its prototype Object.prototype', async () => {
      expect(rawBody).toContain('"data":{"__proto__":{"branch_id":2');
      expect(rawBody).toContain('"prepaid_applied":{"__proto__"');
      const [item] = await deliver({});
      expect(item!.id).toBe(envelope.data.id);
      expect(item!.branch_id).toBeUndefined();
      expect(item!.name_en).toBeUndefined();
      expect(item!.prepaid_applied).toEqual({ applied_halalas: 100, applied_sar: '1.00', rows: [{ x: 1 }] });
      expectPlain(item);
    });

    it('a Branch filter does not pass on an inherited branch_id', async () => {
      await expect(deliver({ branch_id: '2' })).resolves.toEqual([]);
    });
  });

  it('through a sample of the interface’s list (Stock Low)', async () => {
    const rows = data('stock-low-list');
    cashierApi()
      .get(cashierPath('/stock/levels'))
      .query({ low_only: 'true', per_page: '3' })
      .reply(replay('stock-low-list', 0, (answer: Json) => poisoned(answer)));
    const items = await run<Array<Record<string, unknown>>>(operation('triggers', 'stock_low').performList, {
      authData: AUTH,
      inputData: {},
    });
    expect(items.map((i) => i.sku)).toEqual(rows.map((r: Json) => r.sku));
    for (const item of items) expectPlain(item);
  });

  it('through a search (Find Item by SKU)', async () => {
    cashierApi()
      .get(cashierPath('/items'))
      .query({ sku: 'COF-AR-L', per_page: '10' })
      .reply(replay('find-item-by-sku', 0, (answer: Json) => poisoned(answer)));
    const items = await run<Array<Record<string, unknown>>>(operation('searches', 'find_item').perform, {
      authData: AUTH,
      inputData: { sku: 'COF-AR-L' },
    });
    expect(items.map((i) => i.id)).toEqual(data('find-item-by-sku').map((i: Json) => i.id));
    expect(items[0]!.branch_id).toBeUndefined();
    expectPlain(items);
  });
});

describe('{{bundle.…}} and {{process.…}} in text inputs are refused naming the field, other braces are sent', () => {
  // Their bookings start ahead of the recordings' clock, as Book Appointment requires.
  beforeEach(() => clockAtRecording());
  afterEach(() => jest.useRealTimers());
  const BOOKING = {
    patient_id: '01EY5943V0CH77X783RTRD9GRE',
    branch_id: '1',
    appointment_type_id: '4',
    starts_at: '2026-11-26T12:30:00+03:00',
    practitioner_id: '01HQW9J6R0PBHZJ7SBXFA5ZN7T',
    external_ref: 'web-5501',
  };
  const ORDER = {
    external_id: 'SHOP-100482',
    branch_id: '2',
    customer_name: 'Khalid',
    lines: [{ sku: 'COF-AR-L', qty: '1' }],
  };

  it.each([
    [
      'book_appointment',
      { ...BOOKING, note: 'Ask {{bundle.inputData.patient_name}} to bring an ID' },
      /^Please fix: Note: holds "\{\{bundle\.…\}\}"/,
    ],
    ['book_appointment', { ...BOOKING, note: '{{ process.env.SECRET }}' }, /^Please fix: Note: holds/],
    [
      'create_order',
      { ...ORDER, customer_name: '{{bundle.authData.cashier_api_token}}' },
      /^Please fix: Customer Name: holds/,
    ],
    [
      'create_order',
      { ...ORDER, lines: [{ name: 'Tea {{bundle.x}}', qty: '1', unit_price_sar: '5' }] },
      /^Please fix: Order Lines #1, Name: holds/,
    ],
    [
      'create_item',
      { name_ar: 'شاي', name_en: '{{bundle.meta.zap.id}}' },
      /^Please fix: Name \(English\): holds/,
    ],
  ])('%s refuses %j before any request', async (key, inputData, says) => {
    const { error } = await outcome(run(operation('creates', key).perform, { authData: AUTH, inputData }));
    expect(error?.name).toBe('AppError');
    expect(messageOf(error)).toMatch(says);
    expect(messageOf(error)).toMatch(/remove the double curly braces, or map the value from an earlier step/);
  });

  it('in Arabic too, the English first and the Arabic after it', async () => {
    const { error } = await outcome(
      run(operation('creates', 'book_appointment').perform, {
        authData: { ...AUTH, language: 'ar' },
        inputData: { ...BOOKING, note: '{{bundle.inputData.note}}' },
      }),
    );
    expect(messageOf(error)).toMatch(/^Please fix: Note: holds .+ — يرجى تصحيح ما يلي: Note: يحتوي/);
  });

  it('sends braces core does not refuse as the text typed (Book Appointment’s note)', async () => {
    const note = 'Hi {{first_name}}, {bundle.x} and { {bundle.y} } stay as typed';
    const [status, answer] = reply('book-appointment');
    // The recorded booking's answer, reused for a note it was not recorded with.
    clinicApi()
      .post(clinicPath('/appointments'), (body: Json) => body.note === note)
      .reply(status, answer);
    recordedPatientRead('book-appointment');
    const result = await run<Record<string, unknown>>(operation('creates', 'book_appointment').perform, {
      authData: AUTH,
      inputData: { ...BOOKING, note },
    });
    expect(result.id).toBe(data('book-appointment').id);
  });

  it('finds what core refuses, as core’s own pattern does, in one pass', async () => {
    const core = /{{\s*(bundle|process)\.[^}]*}}/;
    const parts = ['{{', '}}', '}', '{', ' ', 'bundle.', 'process.', 'x', '\n', 'bundle', '.'];
    for (let i = 0; i < 20_000; i += 1) {
      const text = Array.from(
        { length: 1 + (i % 9) },
        (_, j) => parts[(i * 7 + j * ((i % 5) + 1)) % parts.length],
      ).join('');
      expect([text, holdsCoreTemplate(text)]).toEqual([text, core.test(text)]);
    }
    await expectLinear(async (size) => holdsCoreTemplate('{{bundle.'.repeat(size / 9)));
  });
});
