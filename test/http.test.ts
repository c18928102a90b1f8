import { errors } from 'zapier-platform-core';
import { mapErrors } from '../lib/errors';
import { clientFor, unwrapOne, type ApiClient } from '../lib/http';
import type { Api } from '../lib/partner-apis';
import { body, data, HOOK_TARGET_URL, replay, reply } from './fixtures';
import { call } from '../harness/call';
import { given } from './support/recorder';
import { appTester, AUTH, cashierApi, cashierPath, clinicApi, clinicPath, useNock } from './helpers';

/** Runs `fn` with a client of `api` inside the app (core's middleware and the app's afterResponse included). */
const withClient = <T>(api: Api, fn: (client: ApiClient) => Promise<T>) =>
  appTester((z, bundle) => fn(clientFor(z, bundle, api)), { authData: AUTH });

/** hand-built: pages of a chosen size and meta.total, for the paging logic (a recording cannot choose them). */
const rows = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `A${String(from + i).padStart(4, '0')}` }));

describe('unwrapOne', () => {
  it('unwraps {data: {...}}', () => {
    expect(unwrapOne(body('find-appointment-by-id'))).toEqual(data('find-appointment-by-id'));
  });

  it('keeps a bare object as it is', () => {
    // hand-built: the sandbox wraps every single object; the cashier spec does not show that it must.
    const bare = data('find-order-by-id');
    expect(unwrapOne(bare)).toEqual(bare);
  });

  it('carries a top-level duplicate flag onto the unwrapped object', () => {
    const repeat = body('book-appointment-repeat');
    expect(repeat.duplicate).toBe(true);
    expect(unwrapOne(repeat)).toEqual({ ...repeat.data, duplicate: true });
    // hand-built: the sandbox leaves the flag out of a new object's answer rather than sending false.
    expect(unwrapOne({ ...repeat, duplicate: false })).toEqual({ ...repeat.data, duplicate: false });
  });

  it('keeps {id, secret, data} (a new webhook subscription) as it is', () => {
    const subscription = body('webhook-subscribe');
    expect(subscription).toMatchObject({ id: expect.anything(), secret: expect.any(String) });
    expect(unwrapOne(subscription)).toEqual(subscription);
  });

  it.each([null, undefined, 'text', [1, 2], 7])('gives {} for %p', (body) => {
    expect(unwrapOne(body)).toEqual({});
  });
});

// Record mode: /meta reports the sandbox's own rate limits, not the raised ones of the other recordings.
given('clinic-meta', { sandbox: { rateLimitPerMinute: 120, anonymousRateLimitPerMinute: 30 } });
// Record mode: the subscription whose secret is rotated, made first (as the app subscribes).
given('webhook-rotate', {
  setup: async (sb) => {
    await call(`${sb.clinicBaseUrl}/webhooks`, {
      token: sb.tokens.clinicOwner,
      body: { target_url: HOOK_TARGET_URL, event: 'appointment.created' },
    });
  },
});

describe('the interface client', () => {
  useNock();

  describe('page()', () => {
    it('never asks per_page above 100, even when asked for 500', async () => {
      const patients = body('dropdown-patients');
      clinicApi()
        .get(clinicPath('/patients'))
        .query({ page: '1', per_page: '100' })
        .reply(replay('dropdown-patients'));

      const page = await withClient('clinic', (c) => c.page('/patients', { page: 1, per_page: 500 }));

      expect(page).toEqual({ data: patients.data, meta: patients.meta });
    });

    it('asks 100 when no per_page is given and keeps a smaller one', async () => {
      // The recorded empty and one-patient pages of the file number searches, reused on purpose for other queries.
      const none = body('find-patient-by-file-none');
      const found = body('find-patient-by-file');
      clinicApi()
        .get(clinicPath('/patients'))
        .query({ per_page: '100' })
        .reply(...reply('find-patient-by-file-none'));
      clinicApi()
        .get(clinicPath('/patients'))
        .query({ per_page: '20' })
        .reply(...reply('find-patient-by-file'));

      await expect(withClient('clinic', (c) => c.page('/patients'))).resolves.toEqual({
        data: [],
        meta: none.meta,
      });
      await expect(withClient('clinic', (c) => c.page('/patients', { per_page: 20 }))).resolves.toEqual({
        data: found.data,
        meta: found.meta,
      });
    });

    it('reads a body without data or meta as an empty page', async () => {
      // hand-built: a list answer without the {data, meta} envelope, which no real server sends.
      cashierApi()
        .get(cashierPath('/branches'))
        .query({ per_page: '100' })
        .reply(200, { items: [1] });

      await expect(withClient('cashier', (c) => c.page('/branches'))).resolves.toEqual({
        data: [],
        meta: {},
      });
    });
  });

  describe('all()', () => {
    it('walks page=1, page=2 … until an empty page when the list shows no meta (a short page is not the end)', async () => {
      // hand-built pages (rows()): 207 objects over three pages, the last short, then an empty one.
      const scope = clinicApi();
      scope
        .get(clinicPath('/appointments'))
        .query({ branch_id: '3', page: '1', per_page: '100' })
        .reply(200, { data: rows(0, 100), meta: {} });
      scope
        .get(clinicPath('/appointments'))
        .query({ branch_id: '3', page: '2', per_page: '100' })
        .reply(200, { data: rows(100, 100), meta: {} });
      scope
        .get(clinicPath('/appointments'))
        .query({ branch_id: '3', page: '3', per_page: '100' })
        .reply(200, { data: rows(200, 7), meta: {} });
      scope
        .get(clinicPath('/appointments'))
        .query({ branch_id: '3', page: '4', per_page: '100' })
        .reply(200, { data: [], meta: {} });

      const all = await withClient('clinic', (c) =>
        c.all('/appointments', { branch_id: 3, status: undefined }, 500),
      );

      expect(all).toEqual(rows(0, 207));
    });

    it('stops when meta.total is reached, without asking an empty page', async () => {
      // hand-built pages (rows()): full pages whose meta.total ends the list.
      clinicApi()
        .get(clinicPath('/appointments'))
        .query({ page: '1', per_page: '100' })
        .reply(200, { data: rows(0, 100), meta: { total: 200, page: 1, per_page: 100 } });
      clinicApi()
        .get(clinicPath('/appointments'))
        .query({ page: '2', per_page: '100' })
        .reply(200, { data: rows(100, 100), meta: { total: 200, page: 2, per_page: 100 } });
      // No page 3 is mocked: asking it would fail the test (net connect is off).

      const all = await withClient('clinic', (c) => c.all('/appointments', {}, 500));

      expect(all).toHaveLength(200);
      expect(all).toEqual(rows(0, 200));
    });

    it('goes on after a short page whose meta shows more (a server that gives fewer than asked)', async () => {
      // hand-built pages (rows()): a server that caps pages at 40 and says so in meta.per_page.
      for (const page of [1, 2, 3]) {
        clinicApi()
          .get(clinicPath('/appointments'))
          .query({ page: String(page), per_page: '100' })
          .reply(200, {
            data: rows((page - 1) * 40, page === 3 ? 20 : 40),
            meta: { total: 100, page, per_page: 40 },
          });
      }
      // No page 4 is mocked: meta shows page 3 is the last.

      await expect(withClient('clinic', (c) => c.all('/appointments', {}, 500))).resolves.toEqual(
        rows(0, 100),
      );
    });

    it('returns at most `limit` objects and stops asking once it has them', async () => {
      // hand-built pages (rows()): more objects than the limit.
      for (const page of [1, 2]) {
        cashierApi()
          .get(cashierPath('/stock/levels'))
          .query({ page: String(page), per_page: '100' })
          .reply(200, { data: rows((page - 1) * 100, 100), meta: { total: 1000 } });
      }

      const all = await withClient('cashier', (c) => c.all('/stock/levels', {}, 150));

      expect(all).toEqual(rows(0, 150));
    });

    it('asks a page no larger than a small limit', async () => {
      // hand-built page (rows()): exactly the limit, with more behind it.
      clinicApi()
        .get(clinicPath('/patients'))
        .query({ page: '1', per_page: '5' })
        .reply(200, { data: rows(0, 5), meta: { total: 60 } });

      await expect(withClient('clinic', (c) => c.all('/patients', {}, 5))).resolves.toEqual(rows(0, 5));
    });
  });

  describe('single objects', () => {
    it('get() unwraps {data} and asks for JSON', async () => {
      const appointment = data('find-appointment-by-id');
      clinicApi()
        .get(clinicPath(`/appointments/${appointment.id}`))
        .matchHeader('accept', 'application/json')
        .reply(...reply('find-appointment-by-id'));

      await expect(withClient('clinic', (c) => c.get(`/appointments/${appointment.id}`))).resolves.toEqual(
        appointment,
      );
    });

    it('get() accepts a bare object from the cashier', async () => {
      // hand-built: the recorded order without its {data} envelope (the sandbox always wraps).
      const order = data('find-order-by-id');
      cashierApi()
        .get(cashierPath(`/orders/${order.id}`))
        .reply(200, order);

      await expect(withClient('cashier', (c) => c.get(`/orders/${order.id}`))).resolves.toEqual(order);
    });
  });

  describe('query parameters', () => {
    it('sends neither undefined, null nor empty values, and keeps 0 and false', async () => {
      cashierApi()
        .get(cashierPath('/stock/levels'))
        .query((q) => {
          expect(q).toEqual({ variant_id: '0', low_only: 'false', branch_id: '2', per_page: '100' });
          return true;
        })
        .reply(...reply('find-stock-level-none'));

      await withClient('cashier', (c) =>
        c.page('/stock/levels', {
          branch_id: 2,
          variant_id: 0,
          low_only: false,
          sku: undefined,
          barcode: null,
          category_id: '',
        }),
      );
    });
  });

  describe('writes', () => {
    it('POST sends the body as JSON with Content-Type and answers status and body', async () => {
      const body = { external_id: 'SHOP-1', branch_id: 2, lines: [{ sku: 'COF-AR-L', qty: 2 }] };
      const [status, answer] = reply('create-order');
      cashierApi()
        .post(cashierPath('/orders'), body)
        .matchHeader('content-type', /^application\/json/)
        .reply(...reply('create-order'));

      await expect(withClient('cashier', (c) => c.post('/orders', body))).resolves.toEqual({
        status,
        body: answer,
      });
      expect(status).toBe(201);
    });

    it('POST without a body sends neither a body nor a Content-Type', async () => {
      const [status, answer] = reply('webhook-rotate');
      clinicApi()
        .post(clinicPath(`/webhooks/${answer.id}/rotate`), (b) => {
          expect(b).toBe('');
          return true;
        })
        .matchHeader('content-type', (v) => v === undefined)
        .reply(replay('webhook-rotate'));

      await expect(withClient('clinic', (c) => c.post(`/webhooks/${answer.id}/rotate`))).resolves.toEqual({
        status,
        body: answer,
      });
    });

    it('PUT sends the body as JSON', async () => {
      const [status, answer] = reply('update-item');
      cashierApi()
        .put(cashierPath(`/items/${answer.data.id}`), { name_en: 'Saudi Coffee' })
        .matchHeader('content-type', /^application\/json/)
        .reply(...reply('update-item'));

      await expect(
        withClient('cashier', (c) => c.put(`/items/${answer.data.id}`, { name_en: 'Saudi Coffee' })),
      ).resolves.toEqual({ status, body: answer });
    });

    it('GET sends no Content-Type and no body', async () => {
      clinicApi()
        .get(clinicPath('/meta'))
        .matchHeader('content-type', (v) => v === undefined)
        .reply(replay('clinic-meta'));

      await expect(withClient('clinic', (c) => c.get('/meta'))).resolves.toEqual(data('clinic-meta'));
    });

    it('DELETE answers true when it was there (204) and false on 404', async () => {
      clinicApi()
        .delete(clinicPath('/webhooks/7'))
        .reply(...reply('webhook-unsubscribe', { api: 'clinic', status: 204 }));
      clinicApi()
        .delete(clinicPath('/webhooks/8'))
        .reply(...reply('webhook-unsubscribe', { api: 'clinic', status: 404 }));

      await expect(withClient('clinic', (c) => c.remove('/webhooks/7'))).resolves.toBe(true);
      await expect(withClient('clinic', (c) => c.remove('/webhooks/8'))).resolves.toBe(false);
    });
  });

  describe('an operation’s own words for an answer', () => {
    it('stay with the call: core’s request options carry plain data only, and the one mapper words the answer', async () => {
      const seen: Array<Record<string, unknown>> = [];
      const [status, refusal, headers] = reply('cancel-order-not-cancellable');
      const z = {
        errors,
        request: async (options: Record<string, unknown>) => {
          seen.push(options);
          // As core runs it: the app's afterResponse on the answer, then throwForStatus unless skipped.
          const response = {
            status,
            content: JSON.stringify(refusal),
            headers: new Map(Object.entries(headers)),
            request: options,
          };
          return mapErrors(response as never, z as never, { authData: AUTH } as never);
        },
      };
      const client = clientFor(z as never, { authData: AUTH }, 'cashier');
      const own = {
        409: { kind: 'halt', text: { en: 'Nothing was done: own words.', ar: 'لم يُنفَّذ شيء.' } },
      } as const;
      const error = await client.post('/orders/X/cancel', undefined, own).then(
        () => new Error('no error'),
        (e: Error) => e,
      );
      expect(error.name).toBe('HaltedError');
      expect(error.message).toBe(
        `Nothing was done: own words. The cashier interface said: "${refusal.message}"`,
      );
      expect(seen).toHaveLength(1);
      const carried = seen[0]!.middlewareData;
      expect(carried).toEqual(JSON.parse(JSON.stringify(carried)));
      expect(carried).toEqual({ api: 'cashier', handle: [409] });
      expect(seen[0]!.skipThrowForStatus).toBe(true);
    });
  });

  describe('answers that cannot be used', () => {
    it('a 200 that is not JSON gives a clear error', async () => {
      // hand-built: a maintenance page in place of JSON, which the sandbox never sends.
      clinicApi()
        .get(clinicPath('/meta'))
        .reply(200, '<html><body>Maintenance</body></html>', { 'Content-Type': 'text/html' });

      await expect(withClient('clinic', (c) => c.get('/meta'))).rejects.toThrow(
        /clinic interface sent an answer that is not JSON \(HTTP 200\)/,
      );
    });

    it('says it in English, then Arabic, when the connection is in Arabic', async () => {
      // hand-built: an empty 200, which the sandbox never sends.
      clinicApi('ar').get(clinicPath('/meta')).reply(200, '');

      await expect(
        appTester((z, bundle) => clientFor(z, bundle, 'clinic').get('/meta'), {
          authData: { ...AUTH, language: 'ar' },
        }),
      ).rejects.toThrow(
        /clinic interface sent an empty answer \(HTTP 200\).* — .*أرسلت واجهة العيادة ردًا فارغًا/,
      );
    });

    it('a refused connection names the interface and its base address', async () => {
      cashierApi()
        .get(cashierPath('/branches'))
        .query(true)
        .replyWithError(
          Object.assign(new Error('connect ECONNREFUSED 10.0.0.9:443'), { code: 'ECONNREFUSED' }),
        );

      await expect(withClient('cashier', (c) => c.page('/branches'))).rejects.toThrow(
        /Could not reach the cashier interface .*ECONNREFUSED.*cashier base address/,
      );
    });
  });
});
