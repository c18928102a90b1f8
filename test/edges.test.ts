import { isFieldKey, retryAfterSeconds } from '../lib/error-body';
import { type Json } from './fixtures';
import {
  App,
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  clinicApi,
  clinicPath,
  messageOf,
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
