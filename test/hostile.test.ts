import { caseCounter } from './support/hostile-count';
import fc from 'fast-check';
import { anyCodePoints } from './support/arbitraries';
import nock from 'nock';
import { errors as zErrors } from 'zapier-platform-core';
import { retryAfterSeconds, SERVER_MESSAGE_MAX, toZapierError } from '../lib/errors';
import { EVENTS } from '../lib/hooks/events';
import type { HookEvent } from '../lib/hooks/types';
import { makePerform } from '../lib/hooks/delivery';
import type { SubscribeData } from '../lib/hooks/types';
import { sign } from '../lib/signature';
import { reply } from './fixtures';
import { isSealed, sealError } from '../lib/seal';
import { functionsOf } from './support/definition-functions';
import {
  App,
  appTester,
  AUTH,
  CASHIER,
  CASHIER_TOKEN,
  CLINIC,
  CLINIC_TOKEN,
  clinicApi,
  clinicPath,
  messageOf,
  nowSeconds,
  START_AHEAD,
} from './helpers';

/*
 * Hostile input: what an attacker can post to a hook URL, and what a Zap builder can type into an action. Each
 * property counts its cases; none may be accepted wrongly. The totals are printed at the end.
 */

const count = caseCounter('Hostile input');

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
  anyCodePoints(),
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
          // A known field of the wrong type comes through as null: a signed delivery is never refused for its data.
          const outcome = await run(def, bundleOf(def, headers, content));
          expect(outcome).toHaveLength(def.when && !def.when(data) ? 0 : 1);
          if (!outcome.length) return;
          const allowed = new Set([
            ...Object.keys(def.resource.fields),
            ...def.resource.outputFields.map((o) => o.key.split(/\[\]|__/)[0]!),
            ...(def.extensions ?? []).flatMap((x) =>
              (x.outputFields ?? []).map((o) => o.key.split('__')[0]!),
            ),
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

// ------------------------------------------------------------------------------ what errors carry
/**
 * Through createAppTester, the path where zapier-platform-core enriches errors with the bundle: no error may carry
 * the signing secret, a token, the raw delivery, an input value or a field outside the whitelists.
 */
describe('errors carry no secret, token, delivery or clinical field', () => {
  const BODY_MARKER = 'MARKER-body-5f1c';
  const CLINICAL_MARKER = 'MARKER-diagnosis-93ad';
  const INPUT_MARKER = 'MARKER-input-4be2';
  const SERVER_MARKER = 'MARKER-server-77c0';
  const forbidden = [
    SECRET,
    CLINIC_TOKEN,
    CASHIER_TOKEN,
    BODY_MARKER,
    CLINICAL_MARKER,
    INPUT_MARKER,
    SERVER_MARKER,
  ];
  const expectClean = (error: unknown, name: string) => {
    count(name);
    expect(error).toBeInstanceOf(Error);
    const e = error as Error & { doNotContextify?: boolean };
    const texts = [e.message, JSON.stringify(e), String(e)];
    for (const text of texts) {
      for (const marker of forbidden) expect(text).not.toContain(marker);
      expect(text).not.toMatch(/What happened|Executing .* with bundle|subscribeData|rawRequest/);
    }
    expect(e.doNotContextify).toBe(true);
  };
  const failure = (p: Promise<unknown>) =>
    p.then(
      () => new Error('no error'),
      (e: unknown) => e,
    );
  type Op = { operation: Record<string, unknown> };
  const ops = (kind: 'triggers' | 'creates' | 'searches') =>
    (App as unknown as Record<string, Record<string, Op>>)[kind]!;

  beforeAll(() => nock.disableNetConnect());
  afterEach(() => nock.cleanAll());
  afterAll(() => {
    nock.enableNetConnect();
    nock.restore();
  });

  it('every function of the app is sealed', () => {
    // Every function anywhere in the definition, dropdowns' choices.perform included (test/seal.test.ts).
    const fns = functionsOf(App);
    expect(fns.length).toBeGreaterThan(60);
    for (const [name, fn] of fns) {
      count('function sealed');
      expect([name, isSealed(fn)]).toEqual([name, true]);
    }
  });

  it.each(EVENTS.map((e) => [e.key, e] as const))(
    '%s: a refused delivery names why, and nothing of the bundle',
    async (key, def) => {
      const content = JSON.stringify({
        id: 'evt_refused_1',
        event: def.event,
        data: { ...(def.sampleData ?? def.resource.sample), note: BODY_MARKER, diagnosis: CLINICAL_MARKER },
      });
      const timestamp = String(nowSeconds());
      const cases = {
        forged: {
          'Http-X-Partner-Signature': `sha256=${'0'.repeat(64)}`,
          'Http-X-Partner-Timestamp': timestamp,
        },
        stale: {
          'Http-X-Partner-Signature': sign(SECRET, { timestamp: '1000', path: PATH, rawBody: content }),
          'Http-X-Partner-Timestamp': '1000',
        },
        unsigned: { 'Http-X-Partner-Timestamp': timestamp },
      };
      for (const [how, headers] of Object.entries(cases)) {
        const error = await failure(
          appTester(
            ops('triggers')[key]!.operation.perform as never,
            {
              authData: AUTH,
              inputData: { branch_id: INPUT_MARKER },
              subscribeData: subFor(def),
              rawRequest: { method: 'POST', querystring: '', headers, content },
              cleanedRequest: JSON.parse(content) as object,
            } as never,
          ),
        );
        expectClean(error, `refused delivery (${how})`);
        expect((error as Error).name).toBe('HaltedError');
        expect((error as Error).message).toMatch(/^Delivery refused: /);
      }
    },
  );

  it('a failing action, search, subscribe, sample and connection test say what failed, and nothing else', async () => {
    const withServerNoise = (status: number, error: string) =>
      [
        status,
        {
          error,
          message: 'Something is wrong.',
          details: {
            errors: [{ field: 'note', code: 'too_long', message: SERVER_MARKER }],
            echo: SERVER_MARKER,
          },
          debug: { request: INPUT_MARKER, patient: CLINICAL_MARKER },
        },
      ] as const;
    const book = ops('creates').book_appointment!.operation.perform;
    const bookInput = {
      patient_phone: '0501234567',
      patient_name: INPUT_MARKER,
      branch_id: '1',
      appointment_type_id: '4',
      starts_at: START_AHEAD,
      note: INPUT_MARKER,
      external_ref: 'web-1',
    };
    const runs: Array<[string, () => Promise<unknown>]> = [
      [
        'action answered 422',
        () => {
          clinicApi()
            .post(clinicPath('/appointments'))
            .reply(...withServerNoise(422, 'validation_failed'));
          return appTester(book as never, { authData: AUTH, inputData: bookInput } as never);
        },
      ],
      [
        'action answered 409 with a halt',
        () => {
          clinicApi()
            .post(clinicPath('/appointments'))
            .reply(...withServerNoise(501, 'not_implemented'));
          return appTester(book as never, { authData: AUTH, inputData: bookInput } as never);
        },
      ],
      [
        'action answered 401',
        () => {
          clinicApi()
            .post(clinicPath('/appointments'))
            .reply(...withServerNoise(401, 'token_invalid'));
          return appTester(book as never, { authData: AUTH, inputData: bookInput } as never);
        },
      ],
      [
        'action answered an HTML page',
        () => {
          clinicApi()
            .post(clinicPath('/appointments'))
            .reply(500, `<html><body>${SERVER_MARKER} ${CLINICAL_MARKER}</body></html>`);
          return appTester(book as never, { authData: AUTH, inputData: bookInput } as never);
        },
      ],
      [
        'action lost its connection',
        () => {
          clinicApi()
            .post(clinicPath('/appointments'))
            // An Error, as node's http gives it: nock 14 cannot answer with a plain object (Reflect.has fails).
            .replyWithError(Object.assign(new Error(INPUT_MARKER), { code: 'ECONNREFUSED' }));
          return appTester(book as never, { authData: AUTH, inputData: bookInput } as never);
        },
      ],
      [
        'action with invalid input',
        () =>
          appTester(
            book as never,
            {
              authData: AUTH,
              inputData: { ...bookInput, patient_phone: undefined, branch_id: 'x' },
            } as never,
          ),
      ],
      [
        'search answered 403',
        () => {
          clinicApi()
            .get(clinicPath('/patients'))
            .query(true)
            .reply(...withServerNoise(403, 'insufficient_ability'));
          return appTester(
            ops('searches').find_patient!.operation.perform as never,
            {
              authData: AUTH,
              inputData: { phone: '0501234567' },
            } as never,
          );
        },
      ],
      [
        'subscribe answered 403',
        () => {
          // The look for subscriptions a lost answer left is subscribe's first request.
          clinicApi()
            .get(clinicPath('/webhooks'))
            .query(true)
            .reply(...withServerNoise(403, 'forbidden'));
          return appTester(
            ops('triggers').appointment_created!.operation.performSubscribe as never,
            {
              authData: AUTH,
              targetUrl: 'https://hooks.zapier.com/hooks/standard/1/abc/',
              inputData: {},
            } as never,
          );
        },
      ],
      [
        'sample answered 500',
        () => {
          clinicApi()
            .get(clinicPath('/webhooks/events/appointment.created/recent'))
            .query(true)
            .reply(...withServerNoise(500, 'server_error'));
          return appTester(
            ops('triggers').appointment_created!.operation.performList as never,
            {
              authData: AUTH,
              inputData: {},
            } as never,
          );
        },
      ],
      [
        'connection test answered 401',
        () => {
          clinicApi()
            .get(clinicPath('/ping'))
            .reply(...withServerNoise(401, 'token_invalid'));
          return appTester(
            App.authentication!.test as never,
            {
              authData: { clinic_api_token: CLINIC_TOKEN, clinic_base_url: CLINIC },
            } as never,
          );
        },
      ],
    ];
    for (const [name, go] of runs) {
      const error = await failure(go());
      expectClean(error, `failing operation (${name})`);
      expect(messageOf(error)).not.toBe('no error');
    }
  });

  it('an unexpected error (a SyntaxError quoting data, a TypeError) becomes a generic message', () => {
    const quoting = [
      new SyntaxError(`Unexpected token in JSON at "${CLINICAL_MARKER}"`),
      new TypeError(`x.${INPUT_MARKER} is not a function`),
      new Error(`request to https://x.test/?token=${CLINIC_TOKEN} failed`),
      SECRET,
      { SECRET },
    ];
    for (const error of quoting) {
      const sealed = sealError(error, { authData: AUTH });
      expectClean(sealed, 'unexpected error sealed');
      expect(messageOf(sealed)).toMatch(/unexpected problem/);
    }
  });
});

// ------------------------------------------------------------------- partner error answers
describe('a partner error answer is shown by its message only', () => {
  const MARKER = 'MARKER-body-text-0a9e';
  const zStub = { errors: zErrors } as never;
  const answer = (status: number, body: unknown, retryAfter?: string) =>
    ({
      status,
      content: typeof body === 'string' ? body : JSON.stringify(body),
      headers: { get: (h: string) => (h.toLowerCase() === 'retry-after' ? (retryAfter ?? null) : null) },
      request: {},
    }) as never;
  const arbOdd = fc.oneof(
    fc.constant(undefined),
    fc.constant(null),
    fc.integer(),
    fc.constant({ text: MARKER }),
    fc.constant([MARKER]),
    fc.boolean(),
  );
  const arbDetails = fc.oneof(
    arbOdd,
    fc.constant({ __proto__: MARKER, constructor: MARKER, toString: MARKER }),
    fc.constant(JSON.parse(`{"__proto__": {"x": "${MARKER}"}, "constructor": ["${MARKER}"]}`) as unknown),
    fc.dictionary(fc.string({ maxLength: 12 }), fc.oneof(fc.constant(MARKER), fc.constant([MARKER])), {
      maxKeys: 4,
    }),
    fc.record({
      errors: fc.array(
        fc.record({
          field: fc.oneof(fc.constant('starts_at'), fc.constant('__proto__'), fc.string({ maxLength: 8 })),
          message: fc.constant(MARKER),
          code: fc.oneof(fc.constant('required'), fc.constant(MARKER), fc.constant('constructor')),
        }),
        { maxLength: 3 },
      ),
    }),
  );
  const arbEnvelope = fc.record(
    {
      error: fc.oneof(
        arbOdd,
        fc.constantFrom('validation_failed', 'insufficient_ability', 'not_found', 'server_error', 'toString'),
      ),
      message: fc.oneof(arbOdd, fc.string({ maxLength: 2000 })),
      details: arbDetails,
      trace: fc.constant(MARKER),
    },
    { requiredKeys: [] },
  );

  it('shows the server message (bounded) and the app’s words, never other body text or [object Object]', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(400, 403, 404, 409, 422, 500, 502),
        arbEnvelope,
        fc.constantFrom('en', 'ar'),
        (status, env, lang) => {
          count('odd error envelopes');
          const error = toZapierError(zStub, answer(status, env), 'clinic', lang as 'en' | 'ar');
          const text = messageOf(error);
          expect(text).not.toContain(MARKER);
          expect(text).not.toMatch(/\[object Object\]|undefined|null:|NaN/);
          expect(text.length).toBeLessThanOrEqual(SERVER_MESSAGE_MAX + 700);
          const message = (env as { message?: unknown }).message;
          if (
            typeof message === 'string' &&
            message.trim() &&
            message.length <= 200 &&
            !/\p{Cc}/u.test(message)
          ) {
            expect(text).toContain(message.trim().replace(/\s+/g, ' '));
          }
        },
      ),
      { numRuns: 500 },
    );
  });

  it('bodies that are not the envelope (HTML, text, arrays, empty) give a generic message with the status', () => {
    for (const body of [`<html><h1>${MARKER}</h1></html>`, MARKER, [MARKER], '', 'null', `"${MARKER}"`]) {
      count('non-envelope error bodies');
      const text = messageOf(toZapierError(zStub, answer(502, body), 'cashier', 'en'));
      expect(text).toBe('The cashier interface answered an error (HTTP 502).');
    }
  });
});

// ------------------------------------------------------------------ a genuine delivery is never lost
describe('a correctly signed, fresh delivery is never lost', () => {
  /** A signed delivery of `data`, or of `rawData` (JSON text) as it is. */
  const signed = (
    def: HookEvent,
    data: unknown,
    id = `evt_${Math.random().toString(36).slice(2)}`,
    rawData = JSON.stringify(data) ?? 'null',
  ) => {
    const content = `{"id":${JSON.stringify(id)},"event":${JSON.stringify(def.event)},"occurred_at":"2026-11-21T10:00:00+03:00","data":${rawData}}`;
    const timestamp = String(nowSeconds());
    return bundleOf(
      def,
      {
        'Http-X-Partner-Signature': sign(SECRET, { timestamp, path: PATH, rawBody: content }),
        'Http-X-Partner-Timestamp': timestamp,
        'Http-X-Partner-Event-Id': id,
      },
      content,
    );
  };
  /** A z.cache whose get or set throws, or whose nx write answers null for a key it has. */
  const cacheThat = (
    how: 'get throws' | 'set throws' | 'both throw' | 'nx answers null',
    store = new Map(),
  ) => ({
    errors: zErrors,
    cache: {
      get: async (k: string) => {
        if (how === 'get throws' || how === 'both throw') throw new Error('cache unavailable');
        // A replica that has not seen the write yet: the nx write is what must catch the repeat.
        return how === 'nx answers null' ? null : (store.get(k) ?? null);
      },
      set: async (k: string, v: unknown) => {
        if (how === 'set throws' || how === 'both throw') throw new Error('cache unavailable');
        if (store.has(k)) return how === 'nx answers null' ? null : false;
        store.set(k, v);
        return true;
      },
    },
  });

  it('yields exactly one item whatever its data holds, and a repeat none', async () => {
    await fc.assert(
      fc.asyncProperty(arbEvent, fc.anything({ maxDepth: 4 }), async (def, junk) => {
        const z = zFor();
        const data =
          junk && typeof junk === 'object' && !Array.isArray(junk)
            ? { ...(def.sampleData ?? def.resource.sample), ...junk }
            : junk;
        const bundle = signed(def, data);
        count('signed delivery with any data');
        const first = await run(def, bundle, z);
        // A status trigger fires only for the update it is about (its `when`); every other trigger always.
        const fires =
          !def.when || (!!data && typeof data === 'object' && def.when(data as Record<string, unknown>));
        expect(first).toHaveLength(fires ? 1 : 0);
        expect(() => JSON.stringify(first)).not.toThrow();
        expect(await run(def, bundle, z)).toHaveLength(0);
      }),
      { numRuns: 300 },
    );
  });

  it('yields its item when data is nested thousands of levels deep, and remembers it', async () => {
    for (const def of EVENTS) {
      const z = zFor();
      const deep = `${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`;
      const data = JSON.stringify(def.sampleData ?? def.resource.sample).replace(/^\{/, `{"nested":${deep},`);
      const bundle = signed(def, undefined, undefined, data);
      count('deeply nested delivery');
      const items = await run(def, bundle, z);
      expect(items).toHaveLength(1);
      expect(() => JSON.stringify(items)).not.toThrow();
      expect(await run(def, bundle, z)).toHaveLength(0);
    }
  });

  it.each(['get throws', 'set throws', 'both throw'] as const)(
    'fails open when the cache %s: the event comes through',
    async (how) => {
      for (const def of EVENTS) {
        count(`cache outage (${how})`);
        expect(
          await run(def, signed(def, def.sampleData ?? def.resource.sample), cacheThat(how) as never),
        ).toHaveLength(1);
      }
    },
  );

  it('an nx write answering null for a key it has counts as a repeat', async () => {
    for (const def of EVENTS) {
      const z = cacheThat('nx answers null');
      const bundle = signed(def, def.sampleData ?? def.resource.sample);
      count('nx answers null');
      expect(await run(def, bundle, z as never)).toHaveLength(1);
      expect(await run(def, bundle, z as never)).toHaveLength(0);
    }
  });

  it('a forged copy arriving first does not block the genuine delivery', async () => {
    for (const def of EVENTS) {
      const z = zFor();
      const genuine = signed(def, def.sampleData ?? def.resource.sample, 'evt_same_id');
      const forged = {
        ...genuine,
        rawRequest: {
          ...genuine.rawRequest,
          headers: { ...genuine.rawRequest.headers, 'Http-X-Partner-Signature': `sha256=${'1'.repeat(64)}` },
        },
      };
      count('forged copy first');
      await expect(run(def, forged, z)).rejects.toThrow(/Delivery refused/);
      expect(await run(def, genuine, z)).toHaveLength(1);
    }
  });
});

// ---------------------------------------------------------------------------------- Retry-After
describe('Retry-After gives Zapier a delay between 1 and 600 seconds', () => {
  const now = Date.parse('2026-11-22T12:00:00Z');
  it.each([
    ['1000000000', 600],
    ['Fri, 31 Dec 9999 23:59:59 GMT', 600],
    ['-5', 60],
    ['1.5', 60],
    ['0', 1],
    ['', 60],
    [null, 60],
    ['soon', 60],
    ['Sun, 22 Nov 2026 11:00:00 GMT', 1],
    ['Sun, 22 Nov 2026 12:02:00 GMT', 120],
    ['30', 30],
  ])('%p → %p', (value, expected) => {
    count('Retry-After values');
    expect(retryAfterSeconds(value, now)).toBe(expected);
  });

  it('any header value stays within 1–600 and reaches the ThrottledError', () => {
    fc.assert(
      fc.property(
        fc.oneof(
          fc.string(),
          fc.integer().map(String),
          fc.double().map(String),
          fc.date().map((d) => d.toUTCString()),
        ),
        (value) => {
          count('Retry-After values');
          const seconds = retryAfterSeconds(value);
          expect(Number.isInteger(seconds) && seconds >= 1 && seconds <= 600).toBe(true);
          const error = toZapierError(
            { errors: zErrors } as never,
            {
              status: 429,
              content: '{"error":"rate_limited","message":"Slow down."}',
              headers: { get: () => value },
              request: {},
            } as never,
            'cashier',
            'en',
          );
          expect(JSON.parse(error.message)).toMatchObject({ delay: seconds });
        },
      ),
      { numRuns: 300 },
    );
  });
});
