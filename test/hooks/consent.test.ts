/*
 * New Customer's Consent Channel (CONTRACT §8): a value is one known channel (its key or label, in any case) or
 * blank; anything else stops the Zap at subscribe, perform, samples and Transfer. The check pages through the
 * consenting customers until it finds the customer or the last page, and a check that cannot be made is an error,
 * never a silent drop and never a send.
 */
import nock from 'nock';
import App from '../../index';
import { EVENTS } from '../../lib/hooks/events';
import type { SubscribeData } from '../../lib/hooks/types';
import { CONSENTING_CUSTOMER, data, delivered, HOOK_TARGET_URL, type Json, replay, reply } from '../fixtures';
import { call } from '../../harness/call';
import { nxCache } from '../support/nx-cache';
import { given } from '../support/recorder';
import { cursorStandIn, transferPage } from '../../harness/transfer';
import { appTester, AUTH, cashierApi, cashierPath, delivery, messageOf, strays, useNock } from '../helpers';

useNock();

const def = EVENTS.find((e) => e.key === 'customer_created')!;
type Fn = (z: unknown, bundle: unknown) => unknown;
type Item = Record<string, unknown>;
const op = (App.triggers as Record<string, { operation: unknown }>)[def.key]!.operation as Record<
  'perform' | 'performList' | 'performSubscribe',
  Fn
>;
const run = <T>(fn: Fn, bundle: object) => appTester(fn as never, bundle as never) as Promise<T>;

const SECRET = 'whsec_consent';
const TARGET_PATH = new URL(HOOK_TARGET_URL).pathname;
const subscribeData: SubscribeData = {
  id: 41,
  secret: SECRET,
  target_path: TARGET_PATH,
  event: def.event,
  api: def.api,
};

/** The recorded delivery: customer 5527, consent for SMS and email (not WhatsApp), at 10:00 Riyadh time. */
const envelope = () => delivered(def.event);

/**
 * A signed delivery of the envelope. `cache` (nx honoured, as Zapier's) tells a remembered delivery from one that
 * was not; without it, core's test cache lets every copy through.
 */
const deliver = (inputData: object, env: Json = envelope(), cache?: ReturnType<typeof nxCache>) =>
  run<Item[]>(cache ? cache.around(op.perform) : op.perform, {
    authData: AUTH,
    inputData,
    subscribeData,
    ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: env }),
  });

beforeEach(() => {
  (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
});

/** The check of the recorded delivery: consenting customers of the channel changed since 10 minutes before it. */
const SINCE = '2026-11-24T06:50:00.000Z';
const consentCheck = (channel: string, page = 1, updatedSince = SINCE) =>
  cashierApi()
    .get(cashierPath('/customers'))
    .query({
      consented_only: 'true',
      consent_channel: channel,
      updated_since: updatedSince,
      page: String(page),
      per_page: '100',
    });

// Record mode: the customer of the recorded delivery is made first, so the check can find it.
const customerFirst = {
  setup: async (sb: { controlUrl: string }) => {
    await call(`${sb.controlUrl}/cashier/customers`, { body: CONSENTING_CUSTOMER });
  },
};
for (const channel of ['email', 'sms', 'whatsapp', 'push'])
  given(`customer-consent-${channel}`, customerFirst);

const REFUSED =
  /Consent Channel must name one channel: sms \(SMS\), whatsapp \(WhatsApp\), email \(Email\), push \(Push Notification\)/;

describe('New Customer: the consent check', () => {
  it('asks GET /customers?consented_only=true&consent_channel=email&updated_since=(event − 10 min)&page=1 and fires for a customer in the answer', async () => {
    const env = envelope();
    expect(env.occurred_at).toBe('2026-11-24T10:00:00+03:00');
    expect(data('customer-consent-email').map((c: Json) => c.id)).toContain(env.data.id);
    const scope = consentCheck('email').reply(replay('customer-consent-email'));

    const items = await deliver({ consent_channel: 'email' });

    expect(scope.isDone()).toBe(true);
    expect(items).toHaveLength(1);
    expect(items[0]).toMatchObject({ id: env.data.id, event_id: env.id, email: env.data.email });
  });

  it.each([
    // [typed or mapped, channel asked, the recording that answers, fires]
    [' Email ', 'email', true],
    ['EMAIL', 'email', true],
    ['SMS', 'sms', true],
    ['Sms', 'sms', true],
    ['WhatsApp', 'whatsapp', false],
    [' whatsapp', 'whatsapp', false],
    ['Push Notification', 'push', false],
    ['push  notification ', 'push', false],
    ['PUSH', 'push', false],
  ])('reads %p as %s, whatever its case and spaces (key or label)', async (typed, channel, fires) => {
    const scope = consentCheck(channel).reply(replay(`customer-consent-${channel}`));
    const items = await deliver({ consent_channel: typed });
    expect(scope.isDone()).toBe(true);
    expect(items.map((i) => i.id)).toEqual(fires ? [envelope().data.id] : []);
  });

  it('does not fire for a customer the last page leaves out', async () => {
    const env = envelope();
    consentCheck('whatsapp').reply(replay('customer-consent-whatsapp'));
    expect(await deliver({ consent_channel: 'whatsapp' })).toEqual([]);
    // hand-built: another customer's delivery, ten minutes later, against the recorded answer that holds others.
    const other = { ...env, id: `${env.id}_other`, occurred_at: '2026-11-24T10:10:00+03:00' };
    other.data = { ...env.data, id: 5599 };
    consentCheck('email', 1, '2026-11-24T07:00:00.000Z').reply(...reply('customer-consent-email'));
    expect(await deliver({ consent_channel: 'email' }, other)).toEqual([]);
  });

  it.each([[{}], [{ consent_channel: '' }], [{ consent_channel: '  ' }], [{ consent_channel: null }]])(
    'fires for every new customer without a request when the channel is blank: %p',
    async (inputData) => {
      const items = await deliver(inputData);
      expect(items.map((i) => i.id)).toEqual([envelope().data.id]);
    },
  );
});

describe('New Customer: the check pages until it finds the customer or the last page', () => {
  const customer = () => data('customer-consent-email')[0] as Json;
  let next = 9000;
  /** hand-built rows (chosen paging): consenting customers other than the delivery's, as the recorded one. */
  const others = (n: number) => Array.from({ length: n }, () => ({ ...customer(), id: (next += 1) }));
  const pageOf = (rows: unknown[], page: number, total?: number) => ({
    data: rows,
    meta: { ...(total === undefined ? {} : { total }), page, per_page: 100 },
  });

  it.each([
    ['with the total', 201],
    ['without a total (a full page is not the last)', undefined],
  ])('finds a consenting customer on page 3 of 3 (%s)', async (_how, total) => {
    const target = customer();
    expect(target.id).toBe(envelope().data.id);
    const scopes = [
      consentCheck('email', 1).reply(200, pageOf(others(100), 1, total)),
      consentCheck('email', 2).reply(200, pageOf(others(100), 2, total)),
      consentCheck('email', 3).reply(200, pageOf([target], 3, total)),
    ];
    const items = await deliver({ consent_channel: 'email' });
    expect(scopes.every((s) => s.isDone())).toBe(true);
    expect(items.map((i) => i.id)).toEqual([target.id]);
  });

  it('stops at the first page that holds the customer', async () => {
    const stop = strays();
    consentCheck('email', 1).reply(200, pageOf([...others(60), customer(), ...others(39)], 1, 250));
    expect(await deliver({ consent_channel: 'email' })).toHaveLength(1);
    expect(stop()).toEqual([]); // no page 2
  });

  it('does not fire when the last page (by total, or an empty page) has passed without the customer', async () => {
    const byTotal = [
      consentCheck('email', 1).reply(200, pageOf(others(100), 1, 200)),
      consentCheck('email', 2).reply(200, pageOf(others(100), 2, 200)),
    ];
    expect(await deliver({ consent_channel: 'email' })).toEqual([]);
    expect(byTotal.every((s) => s.isDone())).toBe(true);

    (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
    // Without a total a short page is not the end (a server may cap its pages): the empty page after it is.
    const short = [
      consentCheck('email', 1).reply(200, pageOf(others(100), 1)),
      consentCheck('email', 2).reply(200, pageOf(others(7), 2)),
      consentCheck('email', 3).reply(200, pageOf([], 3)),
    ];
    expect(await deliver({ consent_channel: 'email' })).toEqual([]);
    expect(short.every((s) => s.isDone())).toBe(true);
  });

  it('fails visibly, never "no consent", when more pages changed than it reads', async () => {
    for (let page = 1; page <= 20; page += 1)
      consentCheck('email', page).reply(200, pageOf(others(100), page, 5000));
    const err = await deliver({ consent_channel: 'email' }).catch((e: unknown) => e);
    expect(messageOf(err)).toMatch(/consent of customer 5527 could not be checked: more than 2000 customers/);
  });
});

describe('New Customer: a check that cannot be made is an error, and the delivery stays deliverable', () => {
  /** One z.cache for a test, as Zapier keeps it between a delivery and the next copy of it. */
  let cache = nxCache();
  beforeEach(() => {
    cache = nxCache();
  });
  const failing = () => deliver({ consent_channel: 'email' }, envelope(), cache).catch((e: unknown) => e);
  /** The failed delivery was not remembered: the same delivery, checked again, fires once. */
  const thenDeliveredAgain = async () => {
    expect([...cache.store.keys()]).toEqual([]);
    consentCheck('email').reply(replay('customer-consent-email'));
    const again = await deliver({ consent_channel: 'email' }, envelope(), cache);
    expect(again.map((i) => i.id)).toEqual([envelope().data.id]);
    consentCheck('email').reply(replay('customer-consent-email'));
    expect(await deliver({ consent_channel: 'email' }, envelope(), cache)).toEqual([]);
  };

  it('a 429 is core’s ThrottledError with the interface’s Retry-After', async () => {
    // hand-built: the cashier's 429 (spec §8: it carries Retry-After), in the envelope both interfaces answer.
    const scope = consentCheck('email').reply(
      429,
      { error: 'rate_limited', message: 'Too many requests.' },
      { 'Retry-After': '37' },
    );
    const err = (await failing()) as Error;
    expect(scope.isDone()).toBe(true);
    expect(err.name).toBe('ThrottledError');
    expect((JSON.parse(err.message) as { delay: number }).delay).toBe(37);
    await thenDeliveredAgain();
  });

  it.each([
    ['a 500', () => reply('server-error'), /HTTP 500|500/],
    ['a 403 (the token lacks the ability)', () => reply('find-order-insufficient-ability'), /pos:/],
  ])('%s is an error', async (_what, answer, says) => {
    const scope = consentCheck('email').reply(...answer());
    const err = await failing();
    expect(scope.isDone()).toBe(true);
    expect(err).toBeInstanceOf(Error);
    expect(messageOf(err)).toMatch(says);
    await thenDeliveredAgain();
  });

  it('a connection reset is an error', async () => {
    const scope = consentCheck('email').replyWithError(
      Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' }),
    );
    expect(messageOf(await failing())).toMatch(/closed the connection/);
    expect(scope.isDone()).toBe(true);
    await thenDeliveredAgain();
  });

  it('a time-out is an error', async () => {
    process.env.PARTNER_REQUEST_TIMEOUT_MS = '100';
    try {
      const scope = consentCheck('email').delay(1000).reply(200, { data: [], meta: {} });
      expect(messageOf(await failing())).toMatch(/did not answer within 0.1 seconds/);
      expect(scope.isDone()).toBe(true);
    } finally {
      delete process.env.PARTNER_REQUEST_TIMEOUT_MS;
    }
    await thenDeliveredAgain();
  });

  it('a failure on page 2 is an error too, not "not found"', async () => {
    consentCheck('email', 1).reply(200, {
      data: Array.from({ length: 100 }, (_, i) => ({ id: 100 + i, marketing_consent: true })),
      meta: { total: 150, page: 1, per_page: 100 },
    });
    consentCheck('email', 2).reply(...reply('server-error'));
    await expect(deliver({ consent_channel: 'email' })).rejects.toThrow();
  });
});

describe('New Customer: a value that names no single channel never widens the gate', () => {
  const UNKNOWN = [
    'sms,email',
    'SMS, Email',
    'text',
    'emails',
    'sms email',
    'whats app',
    ['sms', 'email'],
    42,
  ];

  it.each(UNKNOWN.map((v) => [v]))(
    'perform refuses %p with the field and the allowed values, no request',
    async (value) => {
      const stop = strays();
      const cache = nxCache();
      const err = await deliver({ consent_channel: value }, envelope(), cache).catch((e: unknown) => e);
      expect(stop()).toEqual([]);
      expect(messageOf(err)).toMatch(REFUSED);
      expect(messageOf(err)).toMatch(/or be left blank to fire for every new customer/);
      // Refused, not remembered: the same delivery fires once the value is corrected.
      expect([...cache.store.keys()]).toEqual([]);
      consentCheck('sms').reply(replay('customer-consent-sms'));
      const fixed = await deliver({ consent_channel: 'SMS' }, envelope(), cache);
      expect(fixed.map((i) => i.id)).toEqual([envelope().data.id]);
    },
  );

  it('says it in English first on an Arabic connection, then in Arabic', async () => {
    const err = await run(op.perform, {
      authData: { ...AUTH, language: 'ar' },
      inputData: { consent_channel: 'text' },
      subscribeData,
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: envelope() }),
    }).catch((e: unknown) => e);
    expect(messageOf(err)).toMatch(/^Consent Channel must name one channel.+ — يجب أن تسمّي Consent Channel /);
  });

  it('performSubscribe refuses before POST /webhooks, so the Zap does not turn on', async () => {
    const stop = strays();
    await expect(
      run(op.performSubscribe, {
        authData: AUTH,
        targetUrl: HOOK_TARGET_URL,
        inputData: { consent_channel: 'sms,email' },
      }),
    ).rejects.toThrow(REFUSED);
    expect(stop()).toEqual([]);
  });

  it('performSubscribe goes ahead with a label in any case', async () => {
    const pick = { sent: { event: def.event } };
    const scope = cashierApi()
      .get(cashierPath('/webhooks'))
      .query({ page: '1', per_page: '100' })
      .reply(...reply('webhook-list-empty', { api: 'cashier' }))
      .post(cashierPath('/webhooks'), { target_url: HOOK_TARGET_URL, event: def.event })
      .reply(...reply('webhook-subscribe', pick));
    await expect(
      run(op.performSubscribe, {
        authData: AUTH,
        targetUrl: HOOK_TARGET_URL,
        inputData: { consent_channel: ' whatsApp ' },
      }),
    ).resolves.toMatchObject({ event: def.event });
    expect(scope.isDone()).toBe(true);
  });

  it('the samples (performList) refuse rather than list every customer', async () => {
    const stop = strays();
    await expect(
      run(op.performList, { authData: AUTH, inputData: { consent_channel: 'text' } }),
    ).rejects.toThrow(REFUSED);
    expect(stop()).toEqual([]);
  });

  it('Transfer refuses rather than move every customer', async () => {
    const stop = strays();
    await expect(
      transferPage(
        run,
        op.performList,
        { authData: AUTH, inputData: { consent_channel: 'sms,email' } },
        0,
        cursorStandIn(),
      ),
    ).rejects.toThrow(REFUSED);
    expect(stop()).toEqual([]);
  });

  it('Transfer asks the list for the channel a label names', async () => {
    // The recorded consenting customers of the email channel, as the answer to a transfer's first page.
    const scope = cashierApi()
      .get(cashierPath('/customers'))
      .query({ consented_only: 'true', consent_channel: 'email', page: '1', per_page: '100' })
      .reply(...reply('customers-list-consent-email'));
    const items = await transferPage(
      run,
      op.performList,
      { authData: AUTH, inputData: { consent_channel: ' EMAIL ' } },
      0,
      cursorStandIn(),
    );
    expect(scope.isDone()).toBe(true);
    expect(items.map((i) => i.id)).toEqual(data('customers-list-consent-email').map((c: Json) => c.id));
  });

  it('samples only consenting customers of the channel (performList asks the narrowed list, no check per item)', async () => {
    const listed: Json[] = data('customers-list-consent-email');
    expect(listed.length).toBeGreaterThan(0);
    const scope = cashierApi()
      .get(cashierPath('/customers'))
      .query({ consented_only: 'true', consent_channel: 'email', per_page: '3' })
      .reply(replay('customers-list-consent-email'));

    const items = await run<Item[]>(op.performList, {
      authData: AUTH,
      inputData: { consent_channel: 'Email' },
    });

    expect(scope.isDone()).toBe(true);
    expect(items.map((i) => i.id)).toEqual(listed.map((c) => c.id));
  });
});

afterAll(() => nock.cleanAll());
