import { clientFor, unwrapOne, type ApiClient } from '../lib/http';
import type { Api } from '../lib/interfaces';
import { appTester, AUTH, cashierApi, cashierPath, clinicApi, clinicPath, useNock } from './helpers';

/** Runs `fn` with a client of `api` inside the app (core's middleware and the app's afterResponse included). */
const withClient = <T>(api: Api, fn: (client: ApiClient) => Promise<T>) =>
  appTester((z, bundle) => fn(clientFor(z, bundle, api)), { authData: AUTH });

const rows = (from: number, count: number) =>
  Array.from({ length: count }, (_, i) => ({ id: `A${String(from + i).padStart(4, '0')}` }));

describe('unwrapOne', () => {
  it('unwraps {data: {...}}', () => {
    expect(unwrapOne({ data: { id: 'A1', status: 'booked' } })).toEqual({ id: 'A1', status: 'booked' });
  });

  it('keeps a bare object as it is', () => {
    expect(unwrapOne({ id: 'O1', status: 'received', total_halalas: 100 })).toEqual({
      id: 'O1',
      status: 'received',
      total_halalas: 100,
    });
  });

  it('carries a top-level duplicate flag onto the unwrapped object', () => {
    expect(unwrapOne({ data: { id: 'A1' }, duplicate: true })).toEqual({ id: 'A1', duplicate: true });
    expect(unwrapOne({ data: { id: 'A1' }, duplicate: false })).toEqual({ id: 'A1', duplicate: false });
  });

  it('keeps {id, secret, data} (a new webhook subscription) as it is', () => {
    const body = { id: 42, secret: 'whsec_abc', data: { id: 42, event: 'appointment.created' } };
    expect(unwrapOne(body)).toEqual(body);
  });

  it.each([null, undefined, 'text', [1, 2], 7])('gives {} for %p', (body) => {
    expect(unwrapOne(body)).toEqual({});
  });
});

describe('the interface client', () => {
  useNock();

  describe('page()', () => {
    it('never asks per_page above 100, even when asked for 500', async () => {
      clinicApi()
        .get(clinicPath('/patients'))
        .query({ page: '2', per_page: '100' })
        .reply(200, { data: [{ id: 'P1' }], meta: { total: 101, page: 2, per_page: 100 } });

      const page = await withClient('clinic', (c) => c.page('/patients', { page: 2, per_page: 500 }));

      expect(page).toEqual({ data: [{ id: 'P1' }], meta: { total: 101, page: 2, per_page: 100 } });
    });

    it('asks 100 when no per_page is given and keeps a smaller one', async () => {
      clinicApi().get(clinicPath('/patients')).query({ per_page: '100' }).reply(200, { data: [], meta: {} });
      clinicApi()
        .get(clinicPath('/patients'))
        .query({ per_page: '20' })
        .reply(200, { data: [{ id: 'P1' }], meta: {} });

      await expect(withClient('clinic', (c) => c.page('/patients'))).resolves.toEqual({ data: [], meta: {} });
      await expect(withClient('clinic', (c) => c.page('/patients', { per_page: 20 }))).resolves.toEqual({
        data: [{ id: 'P1' }],
        meta: {},
      });
    });

    it('reads a body without data or meta as an empty page', async () => {
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
    it('walks page=1, page=2 … until a short page', async () => {
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

      const all = await withClient('clinic', (c) =>
        c.all('/appointments', { branch_id: 3, status: undefined }, 500),
      );

      expect(all).toEqual(rows(0, 207));
    });

    it('stops when meta.total is reached, without asking an empty page', async () => {
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

    it('returns at most `limit` objects and stops asking once it has them', async () => {
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
      clinicApi()
        .get(clinicPath('/patients'))
        .query({ page: '1', per_page: '5' })
        .reply(200, { data: rows(0, 5), meta: { total: 60 } });

      await expect(withClient('clinic', (c) => c.all('/patients', {}, 5))).resolves.toEqual(rows(0, 5));
    });
  });

  describe('single objects', () => {
    it('get() unwraps {data} and asks for JSON', async () => {
      clinicApi()
        .get(clinicPath('/appointments/01JDA3F7Q9B2C4D6E8G0H1J3K5'))
        .matchHeader('accept', 'application/json')
        .reply(200, { data: { id: '01JDA3F7Q9B2C4D6E8G0H1J3K5', status: 'booked' } });

      await expect(
        withClient('clinic', (c) => c.get('/appointments/01JDA3F7Q9B2C4D6E8G0H1J3K5')),
      ).resolves.toEqual({ id: '01JDA3F7Q9B2C4D6E8G0H1J3K5', status: 'booked' });
    });

    it('get() accepts a bare object from the cashier', async () => {
      cashierApi().get(cashierPath('/orders/O1')).reply(200, { id: 'O1', status: 'accepted' });

      await expect(withClient('cashier', (c) => c.get('/orders/O1'))).resolves.toEqual({
        id: 'O1',
        status: 'accepted',
      });
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
        .reply(200, { data: [], meta: {} });

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
      cashierApi()
        .post(cashierPath('/orders'), body)
        .matchHeader('content-type', /^application\/json/)
        .reply(201, { data: { id: 'O1', status: 'received' } });

      await expect(withClient('cashier', (c) => c.post('/orders', body))).resolves.toEqual({
        status: 201,
        body: { data: { id: 'O1', status: 'received' } },
      });
    });

    it('POST without a body sends neither a body nor a Content-Type', async () => {
      clinicApi()
        .post(clinicPath('/webhooks/7/rotate'), (b) => {
          expect(b).toBe('');
          return true;
        })
        .matchHeader('content-type', (v) => v === undefined)
        .reply(200, { id: 7, secret: 'whsec_new', data: { id: 7 } });

      await expect(withClient('clinic', (c) => c.post('/webhooks/7/rotate'))).resolves.toEqual({
        status: 200,
        body: { id: 7, secret: 'whsec_new', data: { id: 7 } },
      });
    });

    it('PUT sends the body as JSON', async () => {
      cashierApi()
        .put(cashierPath('/items/9'), { name_en: 'Arabic Coffee' })
        .matchHeader('content-type', /^application\/json/)
        .reply(200, { id: 9, name_en: 'Arabic Coffee' });

      await expect(
        withClient('cashier', (c) => c.put('/items/9', { name_en: 'Arabic Coffee' })),
      ).resolves.toEqual({ status: 200, body: { id: 9, name_en: 'Arabic Coffee' } });
    });

    it('GET sends no Content-Type and no body', async () => {
      clinicApi()
        .get(clinicPath('/meta'))
        .matchHeader('content-type', (v) => v === undefined)
        .reply(200, { data: { api_version: 'v1' } });

      await expect(withClient('clinic', (c) => c.get('/meta'))).resolves.toEqual({ api_version: 'v1' });
    });

    it('DELETE answers true when it was there (204) and false on 404', async () => {
      clinicApi().delete(clinicPath('/webhooks/7')).reply(204);
      clinicApi()
        .delete(clinicPath('/webhooks/8'))
        .reply(404, { error: 'not_found', message: 'No such subscription', details: {} });

      await expect(withClient('clinic', (c) => c.remove('/webhooks/7'))).resolves.toBe(true);
      await expect(withClient('clinic', (c) => c.remove('/webhooks/8'))).resolves.toBe(false);
    });
  });

  describe('answers that cannot be used', () => {
    it('a 200 that is not JSON gives a clear error', async () => {
      clinicApi()
        .get(clinicPath('/meta'))
        .reply(200, '<html><body>Maintenance</body></html>', { 'Content-Type': 'text/html' });

      await expect(withClient('clinic', (c) => c.get('/meta'))).rejects.toThrow(
        /clinic interface sent an answer that is not JSON \(HTTP 200\)/,
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
