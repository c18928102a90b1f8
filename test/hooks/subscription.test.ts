import nock from 'nock';
import App from '../../index';
import { body, HOOK_TARGET_URL, replay, reply } from '../fixtures';
import { call } from '../../harness/call';
import { given } from '../support/recorder';
import { EVENTS } from '../../lib/hooks/events';
import { definition } from '../fixtures';
import { apiOf, op as hookOp, pathOf, run as runHook, subscribeData, TARGET } from '../support/hooks';
import {
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  CASHIER_TOKEN,
  clinicApi,
  clinicPath,
  strays,
  useNock,
} from '../helpers';

/* Subscribing leaves one subscription a Zap holds the secret of; unsubscribing deletes only what it names. */

useNock();

type Fn = (z: unknown, bundle: unknown) => unknown;
const op = (key: string, name: 'performSubscribe' | 'performUnsubscribe') =>
  (App.triggers as unknown as Record<string, { operation: Record<string, Fn> }>)[key]!.operation[name]!;
const run = <T>(fn: Fn, bundle: object) => appTester(fn as never, bundle as never) as Promise<T>;
const failure = (p: Promise<unknown>) =>
  p.then(
    () => new Error('expected a failure'),
    (e: Error) => e,
  );
const subscribe = (key: string) =>
  run<Record<string, unknown>>(op(key, 'performSubscribe'), {
    authData: AUTH,
    targetUrl: HOOK_TARGET_URL,
    inputData: {},
  });
const FIRST_PAGE = { page: '1', per_page: '100' };
/** The requests a scope was asked, in order, as "METHOD path". */
const asked = (scope: nock.Scope) => {
  const seen: string[] = [];
  scope.on('request', (req: { method: string; path: string }) => seen.push(`${req.method} ${req.path}`));
  return seen;
};

// Record mode: the subscription whose answer Zapier lost (made first, with this Zap's hook address), beside one of
// the same address for another event and one of another address for the same event, on each interface.
const OTHER_TARGET = 'https://hooks.zapier.com/hooks/standard/1234/other999/';
given('webhook-resubscribe', {
  setup: async (sb) => {
    for (const [base, token, event, otherEvent] of [
      [sb.clinicBaseUrl, sb.tokens.clinicOwner, 'appointment.created', 'appointment.updated'],
      [sb.cashierBaseUrl, sb.tokens.cashierOwner, 'receipt.issued', 'credit_note.issued'],
    ] as const) {
      for (const [target_url, e] of [
        [HOOK_TARGET_URL, event],
        [HOOK_TARGET_URL, otherEvent],
        [OTHER_TARGET, event],
      ]) {
        await call(`${base}/webhooks`, { token, body: { target_url, event: e } });
      }
    }
  },
});

describe('performSubscribe after a lost answer', () => {
  it.each([
    ['appointment_created', 'clinic', 'appointment.created'],
    ['receipt_issued', 'cashier', 'receipt.issued'],
  ] as const)(
    '%s deletes the earlier subscription of this address and event, then makes one',
    async (key, api, event) => {
      const scope = api === 'clinic' ? clinicApi() : cashierApi();
      const at = api === 'clinic' ? clinicPath : cashierPath;
      const order = asked(scope);
      scope
        .get(at('/webhooks'))
        .query(FIRST_PAGE)
        .reply(replay('webhook-resubscribe', { api, method: 'GET' }))
        // The recording pins which id: the replay refuses a delete of any other.
        .delete(new RegExp(`^${at('/webhooks')}/\\d+$`))
        .reply(replay('webhook-resubscribe', { api, method: 'DELETE' }))
        .post(at('/webhooks'), { target_url: HOOK_TARGET_URL, event })
        .reply(replay('webhook-resubscribe', { api, method: 'POST' }));

      const result = await subscribe(key);

      const listed = body('webhook-resubscribe', { api, method: 'GET' });
      expect(listed.data).toHaveLength(3);
      const stale = listed.data.filter(
        (s: { target_url: string; event: string }) => s.target_url === HOOK_TARGET_URL && s.event === event,
      );
      expect(stale).toHaveLength(1);
      const made = body('webhook-resubscribe', { api, method: 'POST' });
      expect(result).toMatchObject({ id: made.id, secret: made.secret, event, api });
      expect(made.id).not.toBe(stale[0].id);
      // The other address's and the other event's subscriptions are not touched; nothing is deleted after the POST.
      expect(order).toEqual([
        `GET ${at('/webhooks')}?page=1&per_page=100`,
        `DELETE ${at(`/webhooks/${stale[0].id}`)}`,
        `POST ${at('/webhooks')}`,
      ]);
      expect(scope.isDone()).toBe(true);
    },
  );

  it('finds the earlier subscription however the interface spells the same address, and no other address', async () => {
    // The recorded list, the stale subscription's address given back in another spelling of the same address
    // (scheme and host case, the default port, an unreserved character percent-encoded), beside addresses that
    // differ only where an address differs: path case, a trailing slash, a query, another port.
    const same = 'HTTPS://Hooks.Zapier.COM:443/hooks/standard/1234/%61bcd5678/';
    const others = [
      'https://hooks.zapier.com/hooks/standard/1234/ABCD5678/',
      'https://hooks.zapier.com/hooks/standard/1234/abcd5678',
      'https://hooks.zapier.com/hooks/standard/1234/abcd5678/?zap=2',
      'https://hooks.zapier.com:8443/hooks/standard/1234/abcd5678/',
      'not an address',
    ];
    const listed = body('webhook-resubscribe', { api: 'clinic', method: 'GET' });
    const stale = listed.data.find(
      (s: { target_url: string; event: string }) =>
        s.target_url === HOOK_TARGET_URL && s.event === 'appointment.created',
    );
    const scope = clinicApi();
    const order = asked(scope);
    scope
      .get(clinicPath('/webhooks'))
      .query(FIRST_PAGE)
      .reply(
        replay(
          'webhook-resubscribe',
          { api: 'clinic', method: 'GET' },
          (answer: { data: Array<{ id: number }>; meta: object }) => ({
            ...answer,
            data: [
              ...answer.data.map((s) => (s.id === stale.id ? { ...s, target_url: same } : s)),
              ...others.map((target_url, i) => ({ ...stale, id: 9000 + i, target_url })),
            ],
            meta: { ...answer.meta, total: answer.data.length + others.length },
          }),
        ),
      )
      .delete(clinicPath(`/webhooks/${stale.id}`))
      .reply(replay('webhook-resubscribe', { api: 'clinic', method: 'DELETE' }))
      .post(clinicPath('/webhooks'), { target_url: HOOK_TARGET_URL, event: 'appointment.created' })
      .reply(replay('webhook-resubscribe', { api: 'clinic', method: 'POST' }));

    await subscribe('appointment_created');
    expect(order).toEqual([
      `GET ${clinicPath('/webhooks')}?page=1&per_page=100`,
      `DELETE ${clinicPath(`/webhooks/${stale.id}`)}`,
      `POST ${clinicPath('/webhooks')}`,
    ]);
    expect(scope.isDone()).toBe(true);
  });

  it('looks through every page of the list', async () => {
    // hand-built: a full first page (meta.total 102) of other Zaps' subscriptions, the stale one on page 2.
    const others = Array.from({ length: 100 }, (_, i) => ({
      id: i + 1,
      event: 'appointment.created',
      target_url: `https://hooks.zapier.com/hooks/standard/1234/zap${i}/`,
    }));
    const page2 = [
      { id: 101, event: 'appointment.created', target_url: HOOK_TARGET_URL },
      { id: 102, event: 'invoice.paid', target_url: HOOK_TARGET_URL },
    ];
    const scope = clinicApi()
      .get(clinicPath('/webhooks'))
      .query(FIRST_PAGE)
      .reply(200, { data: others, meta: { total: 102, page: 1, per_page: 100 } })
      .get(clinicPath('/webhooks'))
      .query({ page: '2', per_page: '100' })
      .reply(200, { data: page2, meta: { total: 102, page: 2, per_page: 100 } })
      .delete(clinicPath('/webhooks/101'))
      .reply(...reply('webhook-unsubscribe', { api: 'clinic', status: 204 }))
      .post(clinicPath('/webhooks'), { target_url: HOOK_TARGET_URL, event: 'appointment.created' })
      .reply(replay('webhook-subscribe', 0));

    await expect(subscribe('appointment_created')).resolves.toMatchObject({
      id: body('webhook-subscribe', 0).id,
    });
    expect(scope.isDone()).toBe(true);
  });
});

describe('performSubscribe refuses an answer it cannot check deliveries with', () => {
  const listEmpty = () =>
    clinicApi()
      .get(clinicPath('/webhooks'))
      .query(FIRST_PAGE)
      .reply(...reply('webhook-list-empty', { api: 'clinic' }));
  /** The recorded subscription answer, changed: the interface's `id` and `secret` as the case gives them. */
  const answered = (change: (answer: Record<string, unknown>) => void) =>
    replay('webhook-subscribe', 0, (answer: Record<string, unknown>) => {
      const copy = structuredClone(answer);
      change(copy);
      return copy;
    });
  const made = () => body('webhook-subscribe', 0).id as number;
  const post = () =>
    clinicApi().post(clinicPath('/webhooks'), { target_url: HOOK_TARGET_URL, event: 'appointment.created' });

  it.each([
    ['without a secret', (a: Record<string, unknown>) => delete a.secret],
    ['with an empty secret', (a: Record<string, unknown>) => (a.secret = '')],
    ['with a secret of spaces', (a: Record<string, unknown>) => (a.secret = '   ')],
    ['with a secret that is not text', (a: Record<string, unknown>) => (a.secret = 12345)],
  ])('%s: the subscription it made is deleted again and the step fails clearly', async (_case, change) => {
    listEmpty();
    post().reply(answered(change));
    const removed = clinicApi()
      .delete(clinicPath(`/webhooks/${made()}`))
      .reply(...reply('webhook-unsubscribe', { api: 'clinic', status: 204 }));

    const err = await failure(subscribe('appointment_created'));

    expect(err.message).toContain(
      'The clinic interface accepted the subscription but did not return its id and signing secret, so the app deleted it again. Turn the Zap off and on again.',
    );
    expect(removed.isDone()).toBe(true);
  });

  it('a 404 on that delete counts as deleted', async () => {
    listEmpty();
    post().reply(answered((a) => delete a.secret));
    clinicApi()
      .delete(clinicPath(`/webhooks/${made()}`))
      .reply(...reply('webhook-unsubscribe', { api: 'clinic', status: 404 }));

    await expect(subscribe('appointment_created')).rejects.toThrow(/so the app deleted it again/);
  });

  it('a delete that fails leaves the same clear message, saying turning the Zap on again deletes it', async () => {
    listEmpty();
    post().reply(answered((a) => delete a.secret));
    // hand-built: a 500 on the delete, which the sandbox does not send.
    clinicApi()
      .delete(clinicPath(`/webhooks/${made()}`))
      .reply(500, { error: 'server_error', message: 'boom' });

    const err = await failure(subscribe('appointment_created'));

    expect(err.message).toMatch(
      /did not return its id and signing secret, and the app could not delete it \(turning the Zap on again deletes it\)/,
    );
    expect(err.message).not.toContain('boom');
  });

  it.each([
    ['no id', (a: Record<string, unknown>) => (delete a.id, delete (a.data as Record<string, unknown>).id)],
    ['an id that is not a whole number', (a: Record<string, unknown>) => (a.id = '..')],
  ])(
    'an answer with %s is refused, and nothing is deleted by a path it could not name',
    async (_c, change) => {
      listEmpty();
      post().reply(answered(change));
      const stop = strays();

      await expect(subscribe('appointment_created')).rejects.toThrow(/could not delete it/);
      expect(stop()).toEqual([]);
    },
  );
});

describe('performUnsubscribe', () => {
  it.each([
    ['..'],
    ['../..'],
    ['%2e%2e'],
    ['.'],
    [''],
    ['abc'],
    ['12/34'],
    [' 7'],
    ['1e3'],
    [-1],
    [0],
    [1.5],
    [null],
  ])('refuses the stored id %p before any request', async (id) => {
    const stop = strays();

    const err = await failure(
      run(op('appointment_created', 'performUnsubscribe'), {
        authData: AUTH,
        subscribeData: { id },
        inputData: {},
      }),
    );

    expect(err.message).toMatch(
      /^The clinic subscription this Zap holds has no valid id \(a whole number\), so nothing was deleted/,
    );
    expect(stop()).toEqual([]);
  });

  it('deletes an id stored as its digits by the same path as a number', async () => {
    const scope = cashierApi()
      .delete(cashierPath('/webhooks/42'))
      .reply(...reply('webhook-unsubscribe', { api: 'cashier', status: 204 }));

    await expect(
      run(op('receipt_issued', 'performUnsubscribe'), {
        authData: AUTH,
        subscribeData: { id: '42' },
        inputData: {},
      }),
    ).resolves.toEqual({ removed: true });
    expect(scope.isDone()).toBe(true);
  });
});

/*
 * What the scenarios need of the sandbox when they are recorded (RECORD=1). The subscriptions are made one after
 * another on one sandbox, in the order of the event table; an unsubscription removes a subscription made first
 * (the clinic's, then the cashier's).
 */
// One account subscribes every row's Zap: more than the sandbox's default limit of 20 an interface.
given('webhook-subscribe', { shared: true, sandbox: { webhookLimit: 100 } });
// Record mode: the look before subscribing, on an account without subscriptions (a Zap's first subscribe).
given('webhook-list-empty', {});
given('webhook-unsubscribe', {
  setup: async (sb) => {
    for (const [base, token, event] of [
      [sb.clinicBaseUrl, sb.tokens.clinicOwner, 'appointment.created'],
      [sb.cashierBaseUrl, sb.tokens.cashierOwner, 'receipt.issued'],
    ]) {
      await call(`${base}/webhooks`, { token, body: { target_url: HOOK_TARGET_URL, event } });
    }
  },
});

describe.each(EVENTS.map((def) => [def.key, def] as const))('%s', (_key, def) => {
  it('subscribes with POST /webhooks {target_url, event} and keeps what perform needs', async () => {
    // Each trigger's Zap has a hook address of its own, so the recording holds one subscription per row, found by
    // its address (status triggers share an event): a new row records its own, the others stay as they are.
    const target = `${TARGET}${def.key}/`;
    const pick = { sent: { target_url: target } };
    const scope = apiOf(def)
      .get(pathOf(def, '/webhooks'))
      .query({ page: '1', per_page: '100' })
      .reply(replay('webhook-list-empty', { api: def.api }))
      .post(pathOf(def, '/webhooks'), { target_url: target, event: def.event })
      .matchHeader('content-type', 'application/json')
      .reply(replay('webhook-subscribe', pick));
    const result = await runHook(hookOp(def.key).performSubscribe, {
      authData: AUTH,
      targetUrl: target,
      inputData: {},
    });
    const answer = body('webhook-subscribe', pick);
    expect(answer.data).toMatchObject({ event: def.event, target_url: target });
    expect(result).toEqual({
      ...subscribeData(def, answer.id),
      target_path: new URL(target).pathname,
      secret: answer.secret,
    });
    expect(scope.isDone()).toBe(true);
  });

  it('unsubscribes with DELETE /webhooks/{id}, and takes a 404 as already gone', async () => {
    // The subscription the recording removed (and then found gone).
    const removed = definition('webhook-unsubscribe', { api: def.api, status: 204 });
    const id = Number(removed.path.split('/').pop());
    apiOf(def)
      .delete(removed.path)
      .reply(replay('webhook-unsubscribe', { api: def.api, status: 204 }));
    await expect(
      runHook(hookOp(def.key).performUnsubscribe, {
        authData: AUTH,
        subscribeData: subscribeData(def, id),
        inputData: {},
      }),
    ).resolves.toEqual({ removed: true });
    apiOf(def)
      .delete(removed.path)
      .reply(replay('webhook-unsubscribe', { api: def.api, status: 404 }));
    await expect(
      runHook(hookOp(def.key).performUnsubscribe, {
        authData: AUTH,
        subscribeData: subscribeData(def, id),
        inputData: {},
      }),
    ).resolves.toEqual({ removed: false });
  });
});

describe('Accept-Language', () => {
  it('asks the interface for Arabic messages when the connection is in Arabic', async () => {
    const def = EVENTS.find((e) => e.key === 'stock_low')!;
    nock(new URL(process.env.CASHIER_BASE_URL!).origin, {
      reqheaders: { authorization: `Bearer ${CASHIER_TOKEN}`, 'accept-language': 'ar' },
    })
      .get(cashierPath('/webhooks'))
      .query({ page: '1', per_page: '100' })
      .reply(...reply('webhook-list-empty', { api: 'cashier' }))
      .post(cashierPath('/webhooks'), { target_url: TARGET, event: 'stock.low' })
      .reply(replay('webhook-subscribe', { sent: { event: 'stock.low', target_url: TARGET } }));
    await runHook(hookOp(def.key).performSubscribe, {
      authData: { ...AUTH, language: 'ar' },
      targetUrl: TARGET,
      inputData: {},
    });
  });

  it('subscribing without the interface token fails before any request, naming the token', async () => {
    const def = EVENTS.find((e) => e.key === 'receipt_issued')!;
    const error = await runHook(hookOp(def.key).performSubscribe, {
      authData: { clinic_api_token: 'x' },
      targetUrl: TARGET,
      inputData: {},
    }).catch((e: Error) => e);
    expect((error as Error).message).toMatch(/Cashier API Token/);
  });
});
