import fc from 'fast-check';
import nock from 'nock';
import { errors as zErrors } from 'zapier-platform-core';
import { EVENTS, type HookEvent } from '../lib/hooks/events';
import { makePerform, type SubscribeData } from '../lib/hooks/factory';
import { sign } from '../lib/signature';
import { reply } from './fixtures';
import { App, appTester, AUTH, CASHIER, CLINIC, nowSeconds } from './helpers';

/*
 * Hostile input: what an attacker can post to a hook URL, and what a Zap builder can type into an action. Each
 * property counts its cases; none may be accepted wrongly. The totals are printed at the end.
 */

const counts: Record<string, number> = {};
const count = (name: string) => (counts[name] = (counts[name] ?? 0) + 1);
afterAll(() => {
  const total = Object.values(counts).reduce((a, b) => a + b, 0);
  console.log(
    `Hostile input: ${total} cases, none accepted wrongly\n${Object.entries(counts)
      .map(([k, v]) => `  ${String(v).padStart(6)}  ${k}`)
      .join('\n')}`,
  );
});

// ------------------------------------------------------------------------------------------ hook perform
const SECRET = 'whsec_2b7d9f1c3e5a7b9d1f3e5c7a9b1d3f5e';
const OTHER_SECRET = 'whsec_another_subscriptions_secret_77';
const PATH = '/hooks/standard/4242/9f8e7d6c/';

/** A fresh in-memory z.cache per property run, and core's own error classes. */
const zFor = () => {
  const store = new Map<string, unknown>();
  return {
    errors: zErrors,
    cache: {
      get: async (k: string) => (store.has(k) ? store.get(k) : null),
      set: async (k: string, v: unknown) => (store.has(k) ? false : (store.set(k, v), true)),
    },
  };
};
const subFor = (def: HookEvent, id = 4242): SubscribeData => ({
  id,
  secret: SECRET,
  target_path: PATH,
  event: def.event,
  api: def.api,
});
const bundleOf = (def: HookEvent, headers: Record<string, string>, content: string, inputData = {}) => ({
  authData: {},
  inputData,
  subscribeData: subFor(def),
  rawRequest: { method: 'POST', querystring: '', headers, content },
});
const run = async (def: HookEvent, bundle: object, z = zFor()) =>
  (makePerform(def) as (z: unknown, b: unknown) => Promise<unknown[]>)(z, bundle);

const arbEvent = fc.constantFrom(...EVENTS);
const arbBody = fc.oneof(
  fc.string(),
  fc.string({ unit: 'grapheme' }),
  fc.string({ unit: 'binary' }),
  fc.json(),
  fc.uint8Array({ maxLength: 300 }).map((b) => Buffer.from(b).toString('latin1')),
  fc.constant('\uFEFF{"id":"evt_1","event":"appointment.created","data":{}}'),
  fc.nat({ max: 3 }).map((n) => 'x'.repeat(250_000 * (n + 1))), // up to 1 MB
);
const arbHeaderValue = fc.oneof(
  fc.string(),
  fc.constant(''),
  fc
    .string({ unit: fc.constantFrom(...'0123456789abcdef'), minLength: 64, maxLength: 64 })
    .map((h) => `sha256=${h}`),
  fc.integer().map(String),
  fc.constant(String(nowSeconds())),
);
const arbHeaders = fc
  .record(
    {
      'X-Partner-Signature': arbHeaderValue,
      'X-Partner-Timestamp': arbHeaderValue,
      'X-Partner-Event-Id': arbHeaderValue,
      'X-Partner-Event': arbHeaderValue,
      'X-Partner-Delivery': arbHeaderValue,
    },
    { requiredKeys: [] },
  )
  .chain((h) =>
    fc.record({
      headers: fc.constant(h),
      prefix: fc.constantFrom('Http-', 'http-', 'HTTP-', ''),
      extra: fc.dictionary(fc.string({ minLength: 1, maxLength: 20 }), fc.string(), { maxKeys: 4 }),
    }),
  )
  .map(({ headers, prefix, extra }) => ({
    ...extra,
    ...Object.fromEntries(Object.entries(headers).map(([k, v]) => [`${prefix}${k}`, v])),
  }));

const expectRefused = async (def: HookEvent, bundle: object, name: string) => {
  const outcome = await run(def, bundle).then(
    (items) => ({ items }),
    (e: Error) => ({ error: e }),
  );
  count(name);
  if ('items' in outcome) throw new Error(`accepted ${outcome.items.length} item(s) from a forged delivery`);
  expect(outcome.error.name).toBe('HaltedError');
  expect(outcome.error.message).toMatch(/^Delivery refused: .+\. If the signing secret was rotated/);
};

describe('hook perform under hostile deliveries', () => {
  it('refuses random headers and bodies (no valid signature can be guessed)', async () => {
    await fc.assert(
      fc.asyncProperty(arbEvent, arbHeaders, arbBody, async (def, headers, body) => {
        await expectRefused(def, bundleOf(def, headers, body), 'random headers and bodies');
      }),
      { numRuns: 400 },
    );
  });

  it("refuses deliveries signed with another subscription's secret, a wrong path or a shifted timestamp", async () => {
    await fc.assert(
      fc.asyncProperty(
        arbEvent,
        fc.json(),
        fc.constantFrom('other-secret', 'other-path', 'stale', 'future'),
        async (def, json, how) => {
          const content = JSON.stringify({
            id: 'evt_x',
            event: def.event,
            data: { payload: JSON.parse(json) },
          });
          const now = nowSeconds();
          const timestamp = String(how === 'stale' ? now - 3600 : how === 'future' ? now + 3600 : now);
          const signature = sign(how === 'other-secret' ? OTHER_SECRET : SECRET, {
            timestamp,
            path: how === 'other-path' ? '/hooks/standard/1/other/' : PATH,
            rawBody: content,
          });
          const headers = { 'Http-X-Partner-Signature': signature, 'Http-X-Partner-Timestamp': timestamp };
          await expectRefused(def, bundleOf(def, headers, content), `re-signed (${how})`);
        },
      ),
      { numRuns: 200 },
    );
  });

  it('refuses a genuine delivery with any byte of its body changed or its event id header swapped', async () => {
    await fc.assert(
      fc.asyncProperty(arbEvent, fc.nat(), fc.integer({ min: 1, max: 255 }), async (def, at, xor) => {
        const content = JSON.stringify({
          id: 'evt_genuine_1',
          event: def.event,
          tenant_id: 7,
          occurred_at: '2026-11-21T10:00:00+03:00',
          api_version: 'v1',
          data: def.sampleData ?? def.resource.sample,
        });
        const timestamp = String(nowSeconds());
        const signature = sign(SECRET, { timestamp, path: PATH, rawBody: content });
        const bytes = Buffer.from(content, 'utf8');
        const i = at % bytes.length;
        bytes[i] = bytes[i]! ^ xor;
        const headers = { 'Http-X-Partner-Signature': signature, 'Http-X-Partner-Timestamp': timestamp };
        await expectRefused(def, bundleOf(def, headers, bytes.toString('latin1')), 'one byte changed');
        await expectRefused(
          def,
          bundleOf(def, { ...headers, 'Http-X-Partner-Event-Id': 'evt_other' }, content),
          'event id header swapped',
        );
      }),
      { numRuns: 200 },
    );
  });

  it('triggers a replayed genuine delivery once, however often it comes', async () => {
    await fc.assert(
      fc.asyncProperty(arbEvent, fc.integer({ min: 2, max: 6 }), async (def, times) => {
        const z = zFor();
        const content = JSON.stringify({
          id: `evt_replay_${def.key}`,
          event: def.event,
          occurred_at: '2026-11-21T10:00:00+03:00',
          data: def.sampleData ?? def.resource.sample,
        });
        const timestamp = String(nowSeconds());
        const headers = {
          'Http-X-Partner-Signature': sign(SECRET, { timestamp, path: PATH, rawBody: content }),
          'Http-X-Partner-Timestamp': timestamp,
        };
        let items = 0;
        for (let i = 0; i < times; i += 1) {
          items += (await run(def, bundleOf(def, headers, content), z)).length;
          count('replayed genuine delivery');
        }
        expect(items).toBe(1);
      }),
      { numRuns: 100 },
    );
  });

  it('passes only whitelisted fields of a signed clinic delivery, whatever its data holds', async () => {
    const clinic = EVENTS.filter((e) => e.api === 'clinic');
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...clinic),
        fc.dictionary(fc.string({ minLength: 1, maxLength: 12 }), fc.jsonValue(), { maxKeys: 8 }),
        async (def, junk) => {
          const data = {
            ...(def.sampleData ?? def.resource.sample),
            ...junk,
            id: '01JDA3F7Q9B2C4D6E8G0H1J3K5',
          };
          const content = JSON.stringify({ id: `evt_${Math.random()}`, event: def.event, data });
          const timestamp = String(nowSeconds());
          const headers = {
            'Http-X-Partner-Signature': sign(SECRET, { timestamp, path: PATH, rawBody: content }),
            'Http-X-Partner-Timestamp': timestamp,
          };
          count('signed clinic data with unknown fields');
          const outcome = await run(def, bundleOf(def, headers, content)).catch((e: Error) => e);
          if (outcome instanceof Error) {
            // A known field of the wrong type: refused with the field named, nothing passed on.
            expect(outcome.message).toMatch(/does not have the documented shape/);
            return;
          }
          const allowed = new Set([
            ...Object.keys(def.resource.fields),
            ...def.resource.outputFields.map((o) => o.key.split(/\[\]|__/)[0]!),
            ...(def.extraOutputFields ?? []).map((o) => o.key),
            'event_id',
            'occurred_at',
          ]);
          for (const key of Object.keys(outcome[0] as object)) expect(allowed).toContain(key);
        },
      ),
      { numRuns: 300 },
    );
  });
});

// ------------------------------------------------------------------------------------------ action inputs
/**
 * Random inputs for every action: each either fails validation before any request, or sends a request whose
 * body keeps the rules (halalas are non-negative integers, phones E.164, clinic ids ULIDs). Requests are
 * captured and answered with the sandbox's recorded 500 (test/fixtures), so nothing is created.
 */
describe('action inputs under hostile values', () => {
  const captured: Array<{ path: string; body: unknown }> = [];
  beforeAll(() => {
    nock.disableNetConnect();
    for (const origin of [new URL(CLINIC).origin, new URL(CASHIER).origin]) {
      for (const method of ['POST', 'PUT', 'GET']) {
        nock(origin)
          .persist()
          .intercept(/.*/, method)
          .reply(function (uri, body) {
            captured.push({ path: uri, body });
            return reply('server-error');
          });
      }
    }
  });
  afterAll(() => {
    nock.cleanAll();
    nock.enableNetConnect();
    nock.restore();
  });

  const arbValue = fc.oneof(
    fc.string(),
    fc.string({ unit: 'grapheme' }),
    fc.integer().map(String),
    fc.double().map(String),
    fc.constantFrom(
      '',
      ' ',
      '0',
      '-1',
      '12.505',
      '1e3',
      '0501234567',
      '+966 50 123 4567',
      '01JDA3F7Q9B2C4D6E8G0H1J3K5',
      'true',
      'null',
    ),
    fc.integer(),
    fc.boolean(),
  );
  const ULID = /^[0-7][0-9A-HJKMNP-TV-Z]{25}$/;

  const checkBody = (value: unknown, key = ''): void => {
    if (Array.isArray(value)) return value.forEach((v) => checkBody(v, key));
    if (value && typeof value === 'object') {
      for (const [k, v] of Object.entries(value)) checkBody(v, k);
      return;
    }
    if (key.endsWith('_halalas')) expect(Number.isSafeInteger(value) && (value as number) >= 0).toBe(true);
    if (key === 'phone' || key === 'patient_phone') expect(String(value)).toMatch(/^\+[1-9]\d{6,14}$/);
    if (['patient_id', 'practitioner_id'].includes(key)) expect(String(value)).toMatch(ULID);
  };

  const creates = App.creates as Record<
    string,
    {
      operation: { perform: unknown; inputFields: Array<{ key: string; children?: Array<{ key: string }> }> };
    }
  >;

  it.each(Object.keys(creates))(
    '%s: invalid input is refused before any request; valid input is sent clean',
    async (key) => {
      const op = creates[key]!.operation;
      const fields = op.inputFields;
      const arbInput = fc.record(
        Object.fromEntries(
          fields.map((f) => [
            f.key,
            f.children
              ? fc.array(
                  fc.record(Object.fromEntries(f.children.map((c) => [c.key, arbValue])), {
                    requiredKeys: [],
                  }),
                  { maxLength: 3 },
                )
              : arbValue,
          ]),
        ),
        { requiredKeys: [] },
      );
      await fc.assert(
        fc.asyncProperty(arbInput, async (inputData) => {
          const before = captured.length;
          const error = await (
            appTester(
              op.perform as never,
              { authData: AUTH, inputData, meta: { zap: { id: '1' } } } as never,
            ) as Promise<unknown>
          ).then(
            () => undefined,
            (e: Error) => e,
          );
          count(`${key} inputs`);
          expect(error).toBeInstanceOf(Error);
          const sent = captured.slice(before);
          if (sent.length === 0) {
            // Refused before any request: the app's validation, naming what to fix.
            expect((error as Error).message).toMatch(/Please fix: |invalid_input/);
          } else {
            for (const request of sent) checkBody(request.body);
          }
        }),
        { numRuns: 60 },
      );
    },
  );
});
