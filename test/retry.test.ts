/* lib/retry.ts: a read tried again within the step, on its own clock, within one budget. */
import { errors } from 'zapier-platform-core';
import { TransportError } from '../lib/http';
import { CLOCK, retryDelayMs, retryWithin } from '../lib/retry';

const throttled = (delay: number | null) => new errors.ThrottledError('429', delay as number);
const appError = (status: number) => new errors.Error('x', 'code', status);

describe('retryDelayMs', () => {
  it.each([
    ['a 429 with Retry-After 7', throttled(7), 1, 7000],
    ['a 429 without a usable delay: the backoff', throttled(null), 2, 2000],
    ['a 500', appError(500), 1, 1000],
    ['a 503, third attempt', appError(503), 3, 4000],
    ['a time-out or network failure', new TransportError('no answer'), 2, 2000],
    ['a 404', appError(404), 1, undefined],
    ['a 403 refusal', appError(403), 1, undefined],
    ['a bug', new TypeError('x'), 1, undefined],
    ['not an error', 'x', 1, undefined],
  ])('%s → %s', (_what, err, attempt, ms) => {
    expect(retryDelayMs(err, attempt)).toBe(ms);
  });
});

describe('retryWithin', () => {
  let now = 0;
  let waits: number[] = [];
  beforeEach(() => {
    now = 0;
    waits = [];
    jest.spyOn(CLOCK, 'now').mockImplementation(() => now);
    jest.spyOn(CLOCK, 'sleep').mockImplementation(async (ms) => {
      waits.push(ms);
      now += ms;
    });
  });
  afterEach(() => jest.restoreAllMocks());

  it('answers at once when the read does, with the whole budget as its time-out (at most the usual)', async () => {
    const read = jest.fn(async (timeoutMs: number) => timeoutMs);
    await expect(retryWithin(20_000, read)).resolves.toBe(20_000);
    expect(waits).toEqual([]);
  });

  it('waits out a Retry-After that fits, and gives the next attempt only the time left', async () => {
    const timeouts: number[] = [];
    const read = async (timeoutMs: number) => {
      timeouts.push(timeoutMs);
      if (timeouts.length === 1) throw throttled(7);
      return 'ok';
    };
    await expect(retryWithin(20_000, read)).resolves.toBe('ok');
    expect(waits).toEqual([7000]);
    expect(timeouts).toEqual([20_000, 13_000]);
  });

  it('never waits past the budget: a Retry-After longer than it is not waited, the failure is thrown', async () => {
    const err = throttled(60);
    await expect(
      retryWithin(20_000, async () => {
        throw err;
      }),
    ).rejects.toBe(err);
    expect(waits).toEqual([]);
  });

  it('backs off 1, 2, 4, 8 s on failures for now, then stops: waits and attempts end within the budget', async () => {
    let attempts = 0;
    const err = appError(502);
    await expect(
      retryWithin(20_000, async (timeoutMs) => {
        attempts += 1;
        now += Math.min(timeoutMs, 500); // each attempt takes time too
        throw err;
      }),
    ).rejects.toBe(err);
    expect(waits).toEqual([1000, 2000, 4000, 8000]);
    expect(attempts).toBe(5);
    expect(now).toBeLessThanOrEqual(20_000);
  });

  it('does not try again what would fail the same way (a 4xx)', async () => {
    const err = appError(422);
    const read = jest.fn(async () => {
      throw err;
    });
    await expect(retryWithin(20_000, read)).rejects.toBe(err);
    expect(read).toHaveBeenCalledTimes(1);
  });
});
