/**
 * The sandbox itself, over real HTTP (Node's fetch to 127.0.0.1), against the rules of both specs.
 */
import http from 'node:http';
import net from 'node:net';
import type { AddressInfo } from 'node:net';
import { verify } from '../../lib/signature';
import { startSandbox, type Sandbox } from '../../sandbox';
import { call, type Answer } from '../../harness/call';

interface Received {
  path: string;
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local webhook receiver that records what arrives and answers with a status the test chooses. */
const startReceiver = async () => {
  const received: Received[] = [];
  let status = 200;
  const server = http.createServer((req, res) => {
    let body = '';
    req.setEncoding('utf8');
    req.on('data', (chunk: string) => (body += chunk));
    req.on('end', () => {
      received.push({ path: req.url ?? '', headers: req.headers, body });
      res.statusCode = status;
      res.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    received,
    answer: (s: number) => {
      status = s;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

type Receiver = Awaited<ReturnType<typeof startReceiver>>;

const header = (r: Received, name: string): string => String(r.headers[name.toLowerCase()] ?? '');

/** A slot far from the seeded appointments, unique per call. */
let slot = 0;
const freeSlot = () => {
  slot += 1;
  return new Date(Date.now() + (30 + slot) * 24 * 3600_000).toISOString().replace(/\.\d+Z$/, 'Z');
};

describe('sandbox: clinic and cashier interfaces', () => {
  let sb: Sandbox;
  const clinic = (path: string) => `${sb.clinicBaseUrl}${path}`;
  const cashier = (path: string) => `${sb.cashierBaseUrl}${path}`;
  const control = (path: string) => `${sb.controlUrl}${path}`;

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, quiet: true, holdBackMs: 0 });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('answers ping on both interfaces with the client, its abilities and the account', async () => {
    const c = await call(clinic('/ping'), { token: sb.tokens.clinicOwner });
    expect(c.status).toBe(200);
    expect(c.body.data.client.abilities).toEqual(expect.arrayContaining(['webhooks', 'appointments:write']));
    expect(c.body.data.clinic.name).toEqual(expect.any(String));
    const k = await call(cashier('/ping'), { token: sb.tokens.cashierOwner });
    expect(k.body.data.account.name).toEqual(expect.any(String));
    expect(k.body.data.client.abilities).toEqual(['pos:read', 'pos:write', 'pos:orders', 'pos:webhooks']);
  });

  it('pages lists with {data, meta: {total, page, per_page}}', async () => {
    const first = await call(clinic('/patients?per_page=5'), { token: sb.tokens.clinicOwner });
    expect(first.status).toBe(200);
    expect(first.body.meta).toEqual({ total: expect.any(Number), page: 1, per_page: 5 });
    expect(first.body.data).toHaveLength(5);
    const total: number = first.body.meta.total;
    const last = await call(clinic(`/patients?per_page=5&page=${Math.ceil(total / 5)}`), {
      token: sb.tokens.clinicOwner,
    });
    expect(last.body.data).toHaveLength(total % 5 || 5);
    const beyond = await call(clinic('/patients?per_page=5&page=99'), { token: sb.tokens.clinicOwner });
    expect(beyond.body).toEqual({ data: [], meta: { total, page: 99, per_page: 5 } });
    const defaults = await call(cashier('/items'), { token: sb.tokens.cashierOwner });
    expect(defaults.body.meta).toMatchObject({ page: 1, per_page: 50 });
  });

  it('caps per_page at 100 and page at a minimum of 1 (422 validation_failed beyond)', async () => {
    const ok = await call(clinic('/appointments?per_page=100'), { token: sb.tokens.clinicOwner });
    expect(ok.status).toBe(200);
    for (const query of ['per_page=101', 'per_page=0', 'page=0', 'per_page=abc']) {
      const bad = await call(clinic(`/appointments?${query}`), { token: sb.tokens.clinicOwner });
      expect(bad.status).toBe(422);
      expect(bad.body.error).toBe('validation_failed');
      expect(bad.body.details.errors[0].field).toBe(query.split('=')[0]);
    }
    const cashierBad = await call(cashier('/stock/levels?per_page=500'), { token: sb.tokens.cashierOwner });
    expect(cashierBad.status).toBe(422);
  });

  it('answers what a route schema refuses as validation_failed, every field in the request language', async () => {
    const bad = await call(clinic('/appointments'), {
      token: sb.tokens.clinicOwner,
      headers: { 'Accept-Language': 'ar' },
      body: {
        branch_id: '1',
        starts_at: '2026-12-01 10:00',
        patient_phone: '0501234567',
        note: 'x'.repeat(2001),
      },
    });
    expect([bad.status, bad.body.error, bad.body.message]).toEqual([
      422,
      'validation_failed',
      'بعض الحقول غير صالحة.',
    ]);
    expect(bad.body.details.errors).toEqual(
      expect.arrayContaining([
        { field: 'branch_id', code: 'integer', message: 'يجب أن يكون عددًا صحيحًا' },
        { field: 'appointment_type_id', code: 'required', message: 'مطلوب' },
        { field: 'starts_at', code: 'date_time', message: expect.any(String) },
        { field: 'patient_phone', code: 'phone', message: expect.any(String) },
        { field: 'note', code: 'range', message: 'يجب أن يكون من 1 إلى 2000' },
      ]),
    );
    expect(bad.body.details.errors).toHaveLength(5);
    const cases: Array<[string, unknown, string, string]> = [
      ['/appointments', 'not an object', 'body', 'object'],
      ['/appointments/01JAAAAAAAAAAAAAAAAAAAAAAA/cancel', { reason: 'bored' }, 'reason', 'one_of'],
      ['/webhooks', { target_url: 5, event: 'appointment.created' }, 'target_url', 'string'],
    ];
    for (const [path, body, field, code] of cases) {
      const answer = await call(clinic(path), { token: sb.tokens.clinicOwner, body });
      expect([answer.status, answer.body.details.errors]).toEqual([
        422,
        [expect.objectContaining({ field, code })],
      ]);
    }
    const notJson = await fetch(clinic('/appointments'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${sb.tokens.clinicOwner}`, 'Content-Type': 'application/json' },
      body: '{"branch_id":',
    });
    expect(((await notJson.json()) as Answer['body']).details.errors).toEqual([
      { field: 'body', code: 'not_json', message: 'is not valid JSON' },
    ]);
    // The token and the ability are checked before the body.
    const anonymous = await call(clinic('/appointments'), { body: 'not an object' });
    expect([anonymous.status, anonymous.body.error]).toEqual([401, 'unauthenticated']);
    const flags = await call(cashier('/customers?consented_only=YES&per_page=%201'), {
      token: sb.tokens.cashierOwner,
    });
    expect([flags.status, flags.body.meta.per_page]).toEqual([200, 1]);
    const badFlag = await call(cashier('/customers?consented_only=maybe'), { token: sb.tokens.cashierOwner });
    expect(badFlag.body.details.errors).toEqual([
      { field: 'consented_only', code: 'boolean', message: 'must be true or false' },
    ]);
  });

  it('checks partner and sandbox-only bodies by their route schemas, then what only the data can say', async () => {
    const cases: Array<[string, unknown, Array<[string, string]>]> = [
      [
        cashier('/orders'),
        { external_id: 'x'.repeat(101), branch_id: 1, lines: [{ qty: 1, unit_price_halalas: -1 }] },
        [
          ['external_id', 'range'],
          ['lines[0].unit_price_halalas', 'min'],
        ],
      ],
      [
        cashier('/orders'),
        { external_id: 'e-1', lines: 'none' },
        [
          ['branch_id', 'required'],
          ['lines', 'array'],
        ],
      ],
      [
        control('/cashier/receipts'),
        { branch_id: 1, lines: [{ variant_id: 1.5, qty: 0 }] },
        [
          ['lines[0].variant_id', 'integer'],
          ['lines[0].qty', 'number'],
        ],
      ],
      [
        control('/clinic/invoices'),
        { patient_id: 'p', lines: [{ nature: 'toy' }] },
        [
          ['lines[0].unit_halalas', 'required'],
          ['lines[0].nature', 'one_of'],
        ],
      ],
      [
        control('/config'),
        { rate_limit_per_minute: '5', allow_loopback_receivers: 'yes' },
        [
          ['rate_limit_per_minute', 'integer'],
          ['allow_loopback_receivers', 'boolean'],
        ],
      ],
      [
        // An empty string is no value only where the schema declares text; elsewhere it is the wrong type.
        control('/config'),
        { allow_loopback_receivers: '', hold_back_ms: '', time_scale: 'x' },
        [
          ['hold_back_ms', 'integer'],
          ['allow_loopback_receivers', 'boolean'],
          ['time_scale', 'min'],
        ],
      ],
      [
        control(`/cashier/receipts/${sb.refs.cashier.receipt}/credit-note`),
        { lines: '' },
        [['lines', 'array']],
      ],
      [
        control('/tokens'),
        { interface: 'shop' },
        [
          ['abilities', 'required'],
          ['interface', 'one_of'],
        ],
      ],
    ];
    for (const [url, body, problems] of cases) {
      const method = url.endsWith('/config') ? 'PATCH' : 'POST';
      const answer = await call(url, { token: sb.tokens.cashierOwner, method, body });
      expect([url, answer.status, answer.body.error]).toEqual([url, 422, 'validation_failed']);
      expect(
        answer.body.details.errors.map((e: { field: string; code: string }) => [e.field, e.code]),
      ).toEqual(problems);
    }
    // Once the schema passes, the operation checks what only the stored data can say.
    const unknown = await call(cashier('/orders'), {
      token: sb.tokens.cashierOwner,
      body: { external_id: 'e-2', branch_id: 999, lines: [{ name: 'Tea', qty: '2' }] },
    });
    expect(unknown.body.details.errors).toEqual([
      { field: 'branch_id', code: 'unknown', message: 'does not exist' },
      { field: 'lines[0].unit_price_halalas', code: 'open_item_price', message: expect.any(String) },
    ]);
  });

  it('answers every authentication failure with its code, in English or Arabic', async () => {
    const cases: Array<[string | undefined, number, string]> = [
      [undefined, 401, 'unauthenticated'],
      ['nope', 401, 'token_invalid'],
      [sb.tokens.clinicRevokedToken, 401, 'token_invalid'],
      [sb.tokens.clinicRevokedClient, 409, 'client_revoked'],
      [sb.tokens.clinicSuspended, 403, 'tenant_inactive'],
      [sb.tokens.clinicNotEntitled, 403, 'not_entitled'],
      [sb.tokens.cashierOwner, 401, 'token_invalid'],
    ];
    for (const [token, status, error] of cases) {
      const res = await call(clinic('/ping'), { token });
      expect([token, res.status, res.body.error]).toEqual([token, status, error]);
      expect(res.body).toEqual({ error, message: expect.any(String), details: expect.any(Object) });
    }
    const ar = await call(clinic('/ping'), { token: 'nope', headers: { 'Accept-Language': 'ar' } });
    expect(ar.body.message).toMatch(/[\u0600-\u06FF]/);
    const en = await call(clinic('/ping'), { token: 'nope', headers: { 'Accept-Language': 'en' } });
    expect(en.body.message).toMatch(/^[\x20-\x7E’]+$/);
    const apiKey = await call(clinic('/ping'), { headers: { 'X-Api-Key': sb.tokens.clinicOwner } });
    expect(apiKey.status).toBe(200);
  });

  it('needs the endpoint’s ability: 403 insufficient_ability with details.required_ability', async () => {
    const book = await call(clinic('/appointments'), {
      token: sb.tokens.clinicReadOnly,
      body: {
        branch_id: 1,
        appointment_type_id: 4,
        starts_at: freeSlot(),
        patient_id: sb.refs.clinic.patient,
      },
    });
    expect(book.status).toBe(403);
    expect(book.body).toMatchObject({
      error: 'insufficient_ability',
      details: { required_ability: 'appointments:write' },
    });
    const hooks = await call(clinic('/webhooks'), { token: sb.tokens.clinicReadOnly });
    expect(hooks.body.details.required_ability).toBe('webhooks');
    const order = await call(cashier('/orders'), { token: sb.tokens.cashierReadOnly, body: {} });
    expect(order.body.details.required_ability).toBe('pos:orders');
    const item = await call(cashier('/items'), { token: sb.tokens.cashierReadOnly, body: {} });
    expect([item.status, item.body.details.required_ability]).toEqual([403, 'pos:write']);
  });

  it('keeps the clinic’s webhooks to the account owner and to clients that read the event’s data', async () => {
    const nonOwner = await call(clinic('/webhooks'), { token: sb.tokens.clinicNonOwner });
    expect([nonOwner.status, nonOwner.body.error]).toEqual([403, 'forbidden']);
    const noRead = await call(clinic('/webhooks'), {
      token: sb.tokens.clinicWebhooksOnly,
      body: { target_url: 'https://hooks.example.com/a', event: 'appointment.created' },
    });
    expect(noRead.status).toBe(403);
    expect(noRead.body.details.required_ability).toBe('appointments:read');
    const recent = await call(clinic('/webhooks/events/invoice.paid/recent'), {
      token: sb.tokens.clinicWebhooksOnly,
    });
    expect(recent.body.details.required_ability).toBe('invoices:read');
  });

  it('takes HTTPS receivers on public addresses and loopback ones; refuses the rest with url_not_allowed', async () => {
    const subscribe = (target_url: string, event = 'claim.updated') =>
      call(clinic('/webhooks'), { token: sb.tokens.clinicOwner, body: { target_url, event } });
    for (const url of [
      'http://hooks.example.com/a',
      'https://10.1.2.3/a',
      'https://192.168.0.10/a',
      'https://169.254.169.254/latest',
      'https://intranet/a',
      'ftp://hooks.example.com/a',
    ]) {
      const res = await subscribe(url);
      expect([url, res.status, res.body.error]).toEqual([url, 422, 'url_not_allowed']);
    }
    const unknown = await subscribe('https://hooks.example.com/a', 'claim.deleted');
    expect([unknown.status, unknown.body.error]).toEqual([422, 'event_unknown']);
    const created: number[] = [];
    for (const url of [
      'https://hooks.example.com/zap/1',
      'http://127.0.0.1:9/hook',
      'http://localhost:9/hook',
    ]) {
      const res = await subscribe(url);
      expect(res.status).toBe(201);
      expect(res.body).toEqual({
        id: expect.any(Number),
        secret: expect.stringMatching(/^whsec_/),
        data: expect.any(Object),
      });
      expect(res.body.data).toMatchObject({ id: res.body.id, event: 'claim.updated', target_url: url });
      created.push(res.body.id);
    }
    const viaAlias = await call(clinic('/webhooks'), {
      token: sb.tokens.clinicOwner,
      body: { url: 'https://hooks.example.com/zap/2', events: ['invoice.issued', 'invoice.paid'] },
    });
    expect(viaAlias.body.data.events).toEqual(['invoice.issued', 'invoice.paid']);
    created.push(viaAlias.body.id);
    const limit = sb.config.webhookLimit;
    sb.config.webhookLimit = created.length;
    const tooMany = await subscribe('https://hooks.example.com/zap/3');
    expect([tooMany.status, tooMany.body.error]).toEqual([422, 'webhook_limit']);
    sb.config.webhookLimit = limit;
    for (const id of created) {
      expect(
        (await call(clinic(`/webhooks/${id}`), { token: sb.tokens.clinicOwner, method: 'DELETE' })).status,
      ).toBe(204);
    }
    const gone = await call(clinic(`/webhooks/${created[0]}`), {
      token: sb.tokens.clinicOwner,
      method: 'DELETE',
    });
    expect(gone.status).toBe(404);
  });

  it('books idempotently by external_ref per client: 201, then 200 with duplicate true', async () => {
    const body = {
      branch_id: 1,
      appointment_type_id: 4,
      starts_at: freeSlot(),
      patient_id: sb.refs.clinic.patient,
      external_ref: 'zap-e2e-booking-1',
    };
    const first = await call(clinic('/appointments'), { token: sb.tokens.clinicOwner, body });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      status: 'booked',
      source: 'api',
      external_ref: 'zap-e2e-booking-1',
    });
    expect(first.body.duplicate).toBeUndefined();
    const again = await call(clinic('/appointments'), { token: sb.tokens.clinicOwner, body });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, data: { id: first.body.data.id } });
    const taken = await call(clinic('/appointments'), {
      token: sb.tokens.clinicOwner,
      body: { ...body, external_ref: 'zap-e2e-booking-2', practitioner_id: first.body.data.practitioner_id },
    });
    expect([taken.status, taken.body.error]).toEqual([409, 'slot_taken']);
    const byPhone = await call(clinic('/appointments'), {
      token: sb.tokens.clinicNoWebhooks,
      body: { ...body, patient_id: undefined, patient_phone: '+966500000001', patient_name: 'Test Patient' },
    });
    expect(byPhone.status).toBe(201);
    expect(byPhone.body.data.id).not.toBe(first.body.data.id);
    const patient = await call(clinic(`/patients/${byPhone.body.data.patient_id}`), {
      token: sb.tokens.clinicOwner,
    });
    expect(patient.body.data).toMatchObject({ name_en: 'Test Patient', name_ar: '', phone: '+966500000001' });
    // A name given only in Arabic is the Arabic name; the English one stays empty, never a copy of it.
    const inArabic = await call(clinic('/appointments'), {
      token: sb.tokens.clinicNoWebhooks,
      body: {
        ...body,
        starts_at: freeSlot(),
        external_ref: 'zap-e2e-booking-arabic-name',
        patient_id: undefined,
        patient_phone: '+966500000002',
        patient_name: 'ريم الحربي',
      },
    });
    expect(inArabic.status).toBe(201);
    const arabicPatient = await call(clinic(`/patients/${inArabic.body.data.patient_id}`), {
      token: sb.tokens.clinicOwner,
    });
    expect(arabicPatient.body.data).toMatchObject({ name_ar: 'ريم الحربي', name_en: '' });
    const invalid = await call(clinic('/appointments'), {
      token: sb.tokens.clinicOwner,
      body: { branch_id: 'one', starts_at: 'tomorrow', patient_phone: '0501234567' },
    });
    expect(invalid.status).toBe(422);
    expect(invalid.body.details.errors.map((e: { field: string }) => e.field).sort()).toEqual(
      ['appointment_type_id', 'branch_id', 'patient_phone', 'starts_at'].sort(),
    );
  });

  it('cancels an appointment unless it is in progress or completed (409 appointment_locked)', async () => {
    for (const id of [sb.refs.clinic.appointmentInProgress, sb.refs.clinic.appointmentCompleted]) {
      const res = await call(clinic(`/appointments/${id}/cancel`), {
        token: sb.tokens.clinicOwner,
        body: { reason: 'clinic' },
      });
      expect([res.status, res.body.error]).toEqual([409, 'appointment_locked']);
    }
    const id = sb.refs.clinic.appointmentConfirmed;
    const res = await call(clinic(`/appointments/${id}/cancel`), {
      token: sb.tokens.clinicOwner,
      body: { reason: 'patient_request' },
    });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({ id, status: 'cancelled', cancel_reason: 'patient_request' });
    expect(res.body.data.cancelled_at).toMatch(/\+03:00$/);
    const again = await call(clinic(`/appointments/${id}/cancel`), {
      token: sb.tokens.clinicOwner,
      method: 'POST',
    });
    expect(again.status).toBe(200);
    expect(again.body.data.cancelled_at).toBe(res.body.data.cancelled_at);
    const badReason = await call(clinic(`/appointments/${sb.refs.clinic.appointmentBooked}/cancel`), {
      token: sb.tokens.clinicOwner,
      body: { reason: 'bored' },
    });
    expect(badReason.status).toBe(422);
  });

  it('answers 501 not_implemented on endpoints marked planned, after their ability check', async () => {
    sb.config.planned.add('GET /invoices');
    const planned = await call(clinic('/invoices'), { token: sb.tokens.clinicOwner });
    expect([planned.status, planned.body.error]).toEqual([501, 'not_implemented']);
    const noAbility = await call(clinic('/invoices'), { token: sb.tokens.clinicWebhooksOnly });
    expect(noAbility.body.error).toBe('insufficient_ability');
    sb.config.planned.delete('GET /invoices');
    expect((await call(clinic('/invoices'), { token: sb.tokens.clinicOwner })).status).toBe(200);
  });

  it('never shows invoice line codes, descriptions, teeth or surfaces in the interface’s answers', async () => {
    const res = await call(clinic(`/invoices/${sb.refs.clinic.invoiceIssued}`), {
      token: sb.tokens.clinicOwner,
    });
    expect(Object.keys(res.body.data.lines[0]).sort()).toEqual(
      [
        'line_no',
        'nature',
        'qty',
        'unit_halalas',
        'net_halalas',
        'vat_halalas',
        'total_halalas',
        'tax_category',
      ].sort(),
    );
    const recent = await call(clinic('/webhooks/events/invoice.issued/recent?limit=2'), {
      token: sb.tokens.clinicOwner,
    });
    expect(recent.body.data).toHaveLength(2);
    expect(recent.body.data[0].id).toMatch(/^invoice\.issued:[0-9A-Z]{26}$/);
    expect(recent.body.data[0].data.lines[0]).toHaveProperty('code');
    expect(Date.parse(recent.body.data[0].occurred_at)).toBeGreaterThanOrEqual(
      Date.parse(recent.body.data[1].occurred_at),
    );
    expect(recent.body.meta).toMatchObject({ event: 'invoice.issued', count: 2 });
    expect(recent.body.meta.sample.data.lines[0]).toMatchObject({ tooth: '36', surfaces: ['O'] });
    const tooMany = await call(clinic('/webhooks/events/invoice.issued/recent?limit=26'), {
      token: sb.tokens.clinicOwner,
    });
    expect(tooMany.status).toBe(422);
    const unknown = await call(clinic('/webhooks/events/invoice.lost/recent'), {
      token: sb.tokens.clinicOwner,
    });
    expect(unknown.body.error).toBe('event_unknown');
  });

  it('replaces arrays present in PUT /items and leaves absent ones untouched', async () => {
    const created = await call(cashier('/items'), {
      token: sb.tokens.cashierOwner,
      body: {
        name_ar: 'موكا',
        name_en: 'Mocha',
        category_id: 4,
        modifier_group_ids: [1, 2],
        variants: [
          {
            name_ar: 'عادي',
            sku: 'E2E-MOC-R',
            barcode: '6299990000011',
            price_halalas: 1700,
            is_default: true,
          },
          { name_ar: 'كبير', sku: 'E2E-MOC-L', price_halalas: 2100 },
        ],
      },
    });
    expect(created.status).toBe(201);
    const item = created.body.data;
    const [regular, large] = item.variants;
    expect(regular).toMatchObject({ plu: `V${regular.id}`, is_default: true });
    const renamed = await call(cashier(`/items/${item.id}`), {
      token: sb.tokens.cashierOwner,
      method: 'PUT',
      body: { name_en: 'Café Mocha' },
    });
    expect(renamed.body.data.variants).toEqual(item.variants);
    expect(renamed.body.data.modifier_group_ids).toEqual([1, 2]);
    const replaced = await call(cashier(`/items/${item.id}`), {
      token: sb.tokens.cashierOwner,
      method: 'PUT',
      body: {
        variants: [
          { id: regular.id, price_halalas: 1800 },
          { name_ar: 'صغير', sku: 'E2E-MOC-S', price_halalas: 1400 },
        ],
        modifier_group_ids: [],
      },
    });
    expect(replaced.status).toBe(200);
    const variants = replaced.body.data.variants;
    expect(variants.map((v: { id: number }) => v.id)).not.toContain(large.id);
    expect(variants[0]).toMatchObject({
      id: regular.id,
      price_halalas: 1800,
      sku: 'E2E-MOC-R',
      is_default: true,
    });
    expect(variants[1]).toMatchObject({ id: expect.any(Number), sku: 'E2E-MOC-S', is_default: false });
    expect(replaced.body.data.modifier_group_ids).toEqual([]);
    expect(replaced.body.data.name_en).toBe('Café Mocha');
    const taken = await call(cashier(`/items/${item.id}`), {
      token: sb.tokens.cashierOwner,
      method: 'PUT',
      body: { variants: [{ id: regular.id }, { name_ar: 'x', sku: 'COF-AR-L', price_halalas: 100 }] },
    });
    expect(taken.status).toBe(422);
    expect(taken.body.details.errors[0].field).toBe('variants[1].sku');
    const foreign = await call(cashier(`/items/${item.id}`), {
      token: sb.tokens.cashierOwner,
      method: 'PUT',
      body: { variants: [{ id: sb.refs.cashier.variant }] },
    });
    expect(foreign.status).toBe(422);
    const single = await call(cashier('/items'), {
      token: sb.tokens.cashierOwner,
      body: { name_ar: 'ماء', category_id: 5, default_price_halalas: 300 },
    });
    expect(single.body.data.variants).toEqual([
      expect.objectContaining({ price_halalas: 300, is_default: true }),
    ]);
    const bySku = await call(cashier('/items?sku=E2E-MOC-S'), { token: sb.tokens.cashierOwner });
    expect(bySku.body.data.map((i: { id: number }) => i.id)).toEqual([item.id]);
  });

  it('returns customer contact fields only with marketing consent; VAT and CR numbers always', async () => {
    const all = await call(cashier('/customers'), { token: sb.tokens.cashierOwner });
    const byId = (id: number) => all.body.data.find((c: { id: number }) => c.id === id);
    expect(byId(sb.refs.cashier.customerConsented)).toMatchObject({
      marketing_consent: true,
      name: expect.any(String),
    });
    for (const id of [
      sb.refs.cashier.customerNoConsent,
      sb.refs.cashier.customerWithdrawn,
      sb.refs.cashier.customerErased,
    ]) {
      expect(byId(id)).toMatchObject({
        marketing_consent: false,
        name: null,
        phone: null,
        email: null,
        address: null,
      });
    }
    const company = all.body.data.find((c: { vat_number: string | null }) => c.vat_number);
    expect(company).toMatchObject({
      name: null,
      vat_number: expect.any(String),
      cr_number: expect.any(String),
    });
    const consented = await call(cashier('/customers?consented_only=true'), {
      token: sb.tokens.cashierOwner,
    });
    const ids = consented.body.data.map((c: { id: number }) => c.id);
    expect(ids).toContain(sb.refs.cashier.customerConsented);
    expect(ids).not.toContain(sb.refs.cashier.customerWithdrawn);
    expect(ids).not.toContain(sb.refs.cashier.customerErased);
    const email = await call(cashier('/customers?consented_only=true&consent_channel=email'), {
      token: sb.tokens.cashierOwner,
    });
    expect(email.body.data.length).toBeLessThan(ids.length + 1);
    expect(email.body.data.every((c: { email: string | null }) => c.email)).toBe(true);
    const whatsapp = await call(cashier('/customers?consent_channel=whatsapp'), {
      token: sb.tokens.cashierOwner,
    });
    expect(whatsapp.body.data.map((c: { id: number }) => c.id)).toEqual([sb.refs.cashier.customerConsented]);
  });

  it('reads receipts oldest first in arrival order with a since_id cursor', async () => {
    const seen: Array<{ id: string; issued_at: string }> = [];
    let since: string | undefined;
    for (let i = 0; i < 50; i += 1) {
      const res = await call(cashier(`/receipts?per_page=4${since ? `&since_id=${since}` : ''}`), {
        token: sb.tokens.cashierOwner,
      });
      expect(res.status).toBe(200);
      seen.push(...res.body.data);
      if (res.body.data.length)
        expect(res.body.meta.next_since_id).toBe(res.body.data[res.body.data.length - 1].id);
      since = res.body.meta.next_since_id;
      if (!res.body.meta.has_more) break;
    }
    expect(new Set(seen.map((r) => r.id)).size).toBe(seen.length);
    expect(seen.length).toBeGreaterThan(8);
    // The offline sale synced last comes last although it was issued hours before others.
    const last = seen[seen.length - 1] as { issued_at: string };
    expect(seen.some((r) => Date.parse(r.issued_at) > Date.parse(last.issued_at))).toBe(true);
    const done = await call(cashier(`/receipts?since_id=${since}`), { token: sb.tokens.cashierOwner });
    expect(done.body).toEqual({ data: [], meta: { next_since_id: since, has_more: false, per_page: 50 } });
    const notes = await call(cashier('/receipts?kind=credit_note'), { token: sb.tokens.cashierOwner });
    expect(
      notes.body.data.every(
        (r: { kind: string; refund_of: string }) => r.kind === 'credit_note' && r.refund_of,
      ),
    ).toBe(true);
    const bad = await call(cashier('/receipts?since_id=01ZZZZZZZZZZZZZZZZZZZZZZZZ'), {
      token: sb.tokens.cashierOwner,
    });
    expect([bad.status, bad.body.details.errors[0].field]).toEqual([422, 'since_id']);
    const badKind = await call(cashier('/receipts?kind=refund'), { token: sb.tokens.cashierOwner });
    expect(badKind.status).toBe(422);
  });

  it('sends orders idempotently per client and cancels them', async () => {
    const body = {
      external_id: 'E2E-ORDER-1',
      branch_id: 1,
      order_type: 'pickup',
      customer: { name: 'خالد', phone: '+966555012345' },
      lines: [
        { plu: `V${sb.refs.cashier.variant}`, qty: 2 },
        { sku: 'BAK-DATE', qty: 1, unit_price_halalas: 1000 },
        { name: 'Gift card', qty: 1, unit_price_halalas: 5000 },
      ],
    };
    const first = await call(cashier('/orders'), { token: sb.tokens.cashierOwner, body });
    expect(first.status).toBe(201);
    expect(first.body.data).toMatchObject({
      external_id: 'E2E-ORDER-1',
      provider: 'zapier',
      status: 'received',
      total_halalas: 2400 + 1000 + 5000,
    });
    expect(first.body.data.lines[2]).toMatchObject({ open_item: true, variant_id: null });
    const again = await call(cashier('/orders'), { token: sb.tokens.cashierOwner, body });
    expect(again.status).toBe(200);
    expect(again.body).toMatchObject({ duplicate: true, data: { id: first.body.data.id } });
    const other = await call(cashier('/orders'), { token: sb.tokens.cashierNoWebhooks, body });
    expect(other.status).toBe(201);
    const noPrice = await call(cashier('/orders'), {
      token: sb.tokens.cashierOwner,
      body: { ...body, external_id: 'E2E-ORDER-2', lines: [{ name: 'Mystery', qty: 1 }] },
    });
    expect(noPrice.body.details.errors[0].field).toBe('lines[0].unit_price_halalas');
    const cancelled = await call(cashier(`/orders/${first.body.data.id}/cancel`), {
      token: sb.tokens.cashierOwner,
      method: 'POST',
    });
    expect(cancelled.body.data.status).toBe('cancelled');
    const twice = await call(cashier(`/orders/${first.body.data.id}/cancel`), {
      token: sb.tokens.cashierOwner,
      method: 'POST',
    });
    expect([twice.status, twice.body.data.status]).toEqual([200, 'cancelled']);
    const rejected = await call(control(`/cashier/orders/${other.body.data.id}/status`), {
      body: { status: 'rejected' },
    });
    expect(rejected.body.data.status).toBe('rejected');
    const locked = await call(cashier(`/orders/${other.body.data.id}/cancel`), {
      token: sb.tokens.cashierNoWebhooks,
      method: 'POST',
    });
    expect(locked.status).toBe(409);
    expect((await call(cashier('/orders/nope'), { token: sb.tokens.cashierOwner })).status).toBe(404);
  });

  it('serves a Z-report once the session is closed (409 while open)', async () => {
    const open = await call(cashier(`/sessions/${sb.refs.cashier.openSession}/z-report`), {
      token: sb.tokens.cashierOwner,
    });
    expect(open.status).toBe(409);
    const closed = await call(cashier(`/sessions/${sb.refs.cashier.closedSession}/z-report`), {
      token: sb.tokens.cashierOwner,
    });
    expect(closed.status).toBe(200);
    expect(closed.body.data).toMatchObject({
      status: 'closed',
      z_report: { sales: { total_halalas: expect.any(Number) }, prepayments_applied: expect.any(Object) },
      expected: expect.any(Object),
      counted: expect.any(Object),
    });
    expect(closed.body.data.variance_halalas).toBe(
      closed.body.data.counted.cash_halalas - closed.body.data.expected.cash_halalas,
    );
  });

  it('lists low stock and counts requests per token and path', async () => {
    sb.resetRequests();
    const low = await call(cashier('/stock/levels?low_only=true'), { token: sb.tokens.cashierReadOnly });
    expect(low.body.data.length).toBeGreaterThan(0);
    expect(
      low.body.data.every(
        (s: { qty: string; reorder_point: string }) => Number(s.qty) <= Number(s.reorder_point),
      ),
    ).toBe(true);
    await call(clinic('/ping'), { token: sb.tokens.clinicOwner });
    await call(clinic('/ping'), { token: sb.tokens.clinicOwner });
    await call(control('/cashier/orders'));
    expect(sb.requestCount()).toBe(3);
    expect(sb.requestCount({ token: 'clinicOwner', path: '/partner/v1/ping' })).toBe(2);
    expect(sb.requestCount({ token: sb.tokens.cashierReadOnly })).toBe(1);
    expect(sb.requestCount({ interface: 'sandbox' })).toBe(1);
  });

  it('answers unknown paths under an interface with 404 not_found after the token check', async () => {
    const unknown = await call(clinic('/doctors'), { token: sb.tokens.clinicOwner });
    expect([unknown.status, unknown.body.error]).toEqual([404, 'not_found']);
    expect(unknown.headers.get('x-ratelimit-limit')).toBe('120');
    const noToken = await call(clinic('/doctors'));
    expect(noToken.body.error).toBe('unauthenticated');
    const missing = await call(clinic('/patients/01ZZZZZZZZZZZZZZZZZZZZZZZZ'), {
      token: sb.tokens.clinicOwner,
    });
    expect(missing.status).toBe(404);
    const badJson = await fetch(clinic('/appointments'), {
      method: 'POST',
      headers: { Authorization: `Bearer ${sb.tokens.clinicOwner}`, 'Content-Type': 'application/json' },
      body: '{"branch_id":',
    });
    expect(badJson.status).toBe(422);
  });
});

describe('sandbox: injected faults', () => {
  let sb: Sandbox;
  const clinic = (path: string) => `${sb.clinicBaseUrl}${path}`;
  const cashier = (path: string) => `${sb.cashierBaseUrl}${path}`;
  const control = (path: string) => `${sb.controlUrl}${path}`;
  /**
   * The answer exactly as it arrives, over a plain socket (Node's http module may be patched by zapier-platform-core
   * in this worker): status, headers and the body bytes received until the connection closed.
   */
  const raw = (url: string, token: string, method = 'GET', body?: unknown) =>
    new Promise<{ status?: number; headers: Record<string, string>; text: string }>((resolve) => {
      const { hostname, port, pathname } = new URL(url);
      const payload = body === undefined ? '' : JSON.stringify(body);
      const chunks: Buffer[] = [];
      const socket = net.connect(Number(port), hostname, () =>
        socket.end(
          [
            `${method} ${pathname} HTTP/1.1`,
            `Host: ${hostname}:${port}`,
            `Authorization: Bearer ${token}`,
            'Content-Type: application/json',
            `Content-Length: ${Buffer.byteLength(payload)}`,
            'Connection: close',
            '',
            payload,
          ].join('\r\n'),
        ),
      );
      socket.on('data', (c: Buffer) => chunks.push(c));
      // A reset connection ends in 'close' too, with nothing received.
      socket.on('error', () => undefined);
      socket.on('close', () => {
        const all = Buffer.concat(chunks).toString();
        const at = all.indexOf('\r\n\r\n');
        const [statusLine = '', ...lines] = (at < 0 ? all : all.slice(0, at)).split('\r\n');
        const headers = Object.fromEntries(
          lines.map((l) => [l.slice(0, l.indexOf(':')).toLowerCase(), l.slice(l.indexOf(':') + 1).trim()]),
        );
        const status = /^HTTP\/1\.1 (\d{3})/.exec(statusLine)?.[1];
        resolve({
          status: status ? Number(status) : undefined,
          headers,
          text: at < 0 ? '' : all.slice(at + 4),
        });
      });
    });

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, quiet: true, holdBackMs: 0 });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('answers each kind before the request is processed, for the matching token and method only', async () => {
    const owner = sb.tokens.clinicOwner;
    const path = '/partner/v1/patients';
    const forReadOnly = sb.injectFault({ pathPrefix: path, status: 503, token: 'clinicReadOnly' });
    sb.injectFault({ pathPrefix: path, status: 500, method: 'POST' });
    expect((await call(clinic('/patients'), { token: owner })).status).toBe(200);
    const scoped = await call(clinic('/patients'), { token: sb.tokens.clinicReadOnly });
    expect(scoped.status).toBe(503);
    expect(scoped.body).toEqual({
      error: 'server_error',
      message: 'Fault injected in the sandbox.',
      details: { fault_id: forReadOnly },
    });
    expect(sb.faults().map((f) => f.times)).toEqual([0, 1]);

    sb.injectFault({ pathPrefix: path, kind: 'html' });
    const html = await raw(clinic('/patients'), owner);
    expect([html.status, html.headers['content-type']]).toEqual([502, 'text/html; charset=utf-8']);
    expect(html.text).toMatch(/<title>502 Bad Gateway<\/title>/);

    sb.injectFault({ pathPrefix: path, kind: 'malformed_json' });
    const malformed = await raw(clinic('/patients'), owner);
    expect([malformed.status, malformed.headers['content-type'], malformed.text]).toEqual([
      200,
      'application/json; charset=utf-8',
      '{"data": [',
    ]);

    sb.injectFault({ pathPrefix: path, kind: 'empty', status: 503 });
    const empty = await raw(clinic('/patients'), owner);
    expect([empty.status, empty.headers['content-length'], empty.text]).toEqual([503, '0', '']);

    sb.injectFault({ pathPrefix: path, kind: 'reset' });
    const reset = await raw(clinic('/patients'), owner);
    expect([reset.status, reset.text]).toEqual([undefined, '']);

    sb.injectFault({ pathPrefix: path, kind: 'truncated' });
    const truncated = await raw(clinic('/patients'), owner);
    expect(truncated.status).toBe(200);
    expect(Number(truncated.headers['content-length'])).toBeGreaterThan(Buffer.byteLength(truncated.text));
    expect(truncated.text.startsWith('{"error":"server_error"')).toBe(true);

    sb.injectFault({ pathPrefix: path, kind: 'slow', delayMs: 300 });
    const start = Date.now();
    const slow = await call(clinic('/patients'), { token: owner });
    expect(Date.now() - start).toBeGreaterThanOrEqual(290);
    expect([slow.status, slow.body.error]).toEqual([504, 'gateway_timeout']);
  });

  it('processes the request first with when "after": the object exists, its answer is spoiled', async () => {
    const token = sb.tokens.cashierOwner;
    const order = (external_id: string) => ({
      external_id,
      branch_id: 1,
      lines: [{ sku: sb.refs.cashier.variantSku, qty: 1 }],
    });
    const held = async (externalId: string) =>
      (await call(control(`/cashier/orders?external_id=${externalId}`))).body.data;

    sb.injectFault({
      pathPrefix: '/api/partner/v1/orders',
      method: 'POST',
      kind: 'truncated',
      when: 'after',
    });
    const cut = await raw(cashier('/orders'), token, 'POST', order('FAULT-AFTER-1'));
    const [created] = await held('FAULT-AFTER-1');
    expect(cut.status).toBe(201);
    expect(cut.text).toBe(JSON.stringify({ data: created }).slice(0, cut.text.length));
    expect(cut.text.length).toBeLessThan(Number(cut.headers['content-length']));

    sb.injectFault({ pathPrefix: '/api/partner/v1/orders', kind: 'reset', when: 'after' });
    await raw(cashier('/orders'), token, 'POST', order('FAULT-AFTER-2'));
    expect(await held('FAULT-AFTER-2')).toHaveLength(1);
    // The same order again is the idempotent repeat, so the replay of a lost answer acts once.
    const again = await call(cashier('/orders'), { token, body: order('FAULT-AFTER-2') });
    expect([again.status, again.body.duplicate]).toEqual([200, true]);
    expect(await held('FAULT-AFTER-2')).toHaveLength(1);

    sb.injectFault({ pathPrefix: '/api/partner/v1/orders', kind: 'slow', delayMs: 200, when: 'after' });
    const slow = await call(cashier('/orders'), { token, body: order('FAULT-AFTER-3') });
    expect([slow.status, slow.body.data.external_id]).toEqual([201, 'FAULT-AFTER-3']);

    sb.injectFault({ pathPrefix: '/api/partner/v1/orders', kind: 'reset', when: 'before' });
    await raw(cashier('/orders'), token, 'POST', order('FAULT-BEFORE'));
    expect(await held('FAULT-BEFORE')).toEqual([]);
  });

  it('close() drops a slow answer still waiting: the connection ends unanswered and its timer goes too', async () => {
    const own = await startSandbox({ port: 0, quiet: true, holdBackMs: 0 });
    // Timers that keep the process alive: a slow answer's wait left behind would keep a jest worker from exiting.
    const timers = () => process.getActiveResourcesInfo().filter((r) => r === 'Timeout').length;
    const before = timers();
    own.injectFault({ pathPrefix: '/partner/v1/patients', kind: 'slow' });
    const answer = raw(`${own.clinicBaseUrl}/patients`, own.tokens.clinicOwner);
    while (timers() === before) await new Promise((resolve) => setTimeout(resolve, 10));
    await own.close();
    expect((await answer).status).toBeUndefined();
    expect(timers()).toBe(before);
  });
});

describe('sandbox: rate limits and the receipts hold-back', () => {
  let sb: Sandbox;

  beforeAll(async () => {
    sb = await startSandbox({
      port: 0,
      quiet: true,
      timeScale: 0,
      rateLimitPerMinute: 3,
      anonymousRateLimitPerMinute: 2,
      holdBackMs: 2000,
    });
  });
  afterAll(async () => {
    await sb.close();
  });

  it('counts down X-RateLimit-Remaining and answers 429 rate_limited with Retry-After', async () => {
    const url = `${sb.clinicBaseUrl}/ping`;
    const remaining: Array<string | null> = [];
    for (let i = 0; i < 3; i += 1) {
      const res = await call(url, { token: sb.tokens.clinicOwner });
      expect(res.status).toBe(200);
      expect(res.headers.get('x-ratelimit-limit')).toBe('3');
      remaining.push(res.headers.get('x-ratelimit-remaining'));
    }
    expect(remaining).toEqual(['2', '1', '0']);
    const limited = await call(url, { token: sb.tokens.clinicOwner, headers: { 'Accept-Language': 'ar' } });
    expect(limited.status).toBe(429);
    expect(limited.body.error).toBe('rate_limited');
    expect(Number(limited.headers.get('retry-after'))).toBeGreaterThan(0);
    expect(limited.headers.get('x-ratelimit-remaining')).toBe('0');
    // Another client has its own allowance; bad tokens share one per address.
    expect((await call(url, { token: sb.tokens.clinicReadOnly })).status).toBe(200);
    expect((await call(url, { token: 'bad-1' })).status).toBe(401);
    expect((await call(url, { token: 'bad-2' })).headers.get('x-ratelimit-limit')).toBe('2');
    expect((await call(url, { token: 'bad-3' })).status).toBe(429);
    await sb.clock.advance(60_000);
    expect((await call(url, { token: sb.tokens.clinicOwner })).status).toBe(200);
  });

  it('holds back receipts that arrived within the hold-back period', async () => {
    const token = sb.tokens.cashierOwner;
    await call(`${sb.controlUrl}/rate-limits/reset`, { method: 'POST' });
    sb.config.rateLimitPerMinute = 120;
    let since: string | undefined;
    for (;;) {
      const res = await call(
        `${sb.cashierBaseUrl}/receipts?per_page=100${since ? `&since_id=${since}` : ''}`,
        { token },
      );
      since = res.body.meta.next_since_id;
      if (!res.body.meta.has_more) break;
    }
    const sold = await call(`${sb.controlUrl}/cashier/receipts`, {
      body: { branch_id: 2, lines: [{ variant_id: sb.refs.cashier.variant, qty: 1 }] },
    });
    expect(sold.status).toBe(201);
    const held = await call(`${sb.cashierBaseUrl}/receipts?since_id=${since}`, { token });
    expect(held.body.data).toEqual([]);
    expect(held.body.meta.next_since_id).toBe(since);
    await sb.clock.advance(2000);
    const shown = await call(`${sb.cashierBaseUrl}/receipts?since_id=${since}`, { token });
    expect(shown.body.data.map((r: { id: string }) => r.id)).toEqual([sold.body.data.id]);
    expect(shown.body.data[0]).toMatchObject({
      total_halalas: 1200,
      tax_halalas: 157,
      subtotal_halalas: 1043,
    });
  });
});

describe('sandbox: signed webhook deliveries', () => {
  let sb: Sandbox;
  let receiver: Receiver;
  const owner = () => sb.tokens.clinicOwner;

  const subscribe = async (event: string, path = '/hooks/standard/1/abc/') => {
    const res = await call(`${sb.clinicBaseUrl}/webhooks`, {
      token: owner(),
      body: { target_url: `${receiver.url}${path}?zap=1`, event },
    });
    expect(res.status).toBe(201);
    return res.body as { id: number; secret: string };
  };
  const unsubscribe = (id: number) =>
    call(`${sb.clinicBaseUrl}/webhooks/${id}`, { token: owner(), method: 'DELETE' });
  const check = (r: Received, secret: string, path = '/hooks/standard/1/abc/') =>
    verify({
      secret,
      path,
      rawBody: r.body,
      timestamp: header(r, 'X-Partner-Timestamp'),
      signature: header(r, 'X-Partner-Signature'),
      nowSeconds: sb.clock.nowSeconds(),
    });
  const moveAppointment = (body: Record<string, unknown>, id = sb.refs.clinic.appointmentBooked) =>
    call(`${sb.controlUrl}/clinic/appointments/${id}?wait=true`, { method: 'PATCH', body });

  beforeAll(async () => {
    sb = await startSandbox({ port: 0, quiet: true, timeScale: 0 });
    receiver = await startReceiver();
  });
  beforeEach(() => {
    receiver.received.length = 0;
    receiver.answer(200);
  });
  afterAll(async () => {
    await sb.close();
    await receiver.close();
  });

  it('posts the envelope with all five headers and a signature the app’s verify accepts', async () => {
    const sub = await subscribe('appointment.created');
    const booked = await call(`${sb.clinicBaseUrl}/appointments`, {
      token: owner(),
      body: {
        branch_id: 2,
        appointment_type_id: 2,
        starts_at: freeSlot(),
        patient_id: sb.refs.clinic.patient,
        external_ref: 'e2e-hook-1',
      },
    });
    await sb.settle();
    expect(receiver.received).toHaveLength(1);
    const r = receiver.received[0] as Received;
    expect(r.path).toBe('/hooks/standard/1/abc/?zap=1');
    expect(header(r, 'content-type')).toBe('application/json');
    const body = JSON.parse(r.body);
    expect(body).toEqual({
      id: expect.stringMatching(/^evt_/),
      event: 'appointment.created',
      tenant_id: sb.refs.clinic.tenantId,
      occurred_at: expect.stringMatching(/\+03:00$/),
      api_version: 'v1',
      data: booked.body.data,
    });
    expect(header(r, 'X-Partner-Event')).toBe('appointment.created');
    expect(header(r, 'X-Partner-Event-Id')).toBe(body.id);
    expect(header(r, 'X-Partner-Delivery')).toMatch(/^\d+$/);
    expect(header(r, 'X-Partner-Timestamp')).toMatch(/^\d+$/);
    expect(Math.abs(Number(header(r, 'X-Partner-Timestamp')) - Date.now() / 1000)).toBeLessThan(5);
    // The sandbox signs with its own signer (signDelivery in sandbox/webhooks.ts, written from the spec): the app's verify
    // accepting it checks the app's reading of the spec against an independent one.
    expect(check(r, sub.secret)).toEqual({ ok: true });
    expect(check(r, 'whsec_other')).toEqual({ ok: false, reason: 'mismatch' });
    const middle = Math.floor(r.body.length / 2);
    const flipped = String.fromCharCode(r.body.charCodeAt(middle) ^ 1);
    const oneByteChanged = { ...r, body: r.body.slice(0, middle) + flipped + r.body.slice(middle + 1) };
    expect(check(oneByteChanged, sub.secret)).toEqual({ ok: false, reason: 'mismatch' });
    const [delivery] = sb.deliveries({ subscriptionId: sub.id });
    expect(delivery).toMatchObject({ status: 'sent', attempts: 1, last_http: 200, event_id: body.id });
    await unsubscribe(sub.id);
  });

  it('carries changes on appointment.updated and invoice line details on invoice.issued', async () => {
    const updated = await subscribe('appointment.updated');
    const issued = await subscribe('invoice.issued');
    await moveAppointment({ status: 'confirmed' });
    const invoice = await call(`${sb.controlUrl}/clinic/invoices?wait=true`, {
      body: {
        patient_id: sb.refs.clinic.patient,
        lines: [
          {
            nature: 'medical',
            unit_halalas: 30000,
            code: 'D2140',
            description: 'Amalgam - one surface',
            tooth: '46',
            surfaces: ['O'],
          },
        ],
      },
    });
    expect(invoice.status).toBe(201);
    const bodies = receiver.received.map((r) => JSON.parse(r.body));
    const change = bodies.find((b) => b.event === 'appointment.updated');
    expect(change.data).toMatchObject({ status: 'confirmed', changes: { status: ['booked', 'confirmed'] } });
    const bill = bodies.find((b) => b.event === 'invoice.issued');
    expect(bill.data.lines[0]).toMatchObject({
      code: 'D2140',
      tooth: '46',
      surfaces: ['O'],
      vat_halalas: 4500,
    });
    const api = await call(`${sb.clinicBaseUrl}/invoices/${bill.data.id}`, { token: owner() });
    expect(api.body.data.lines[0]).not.toHaveProperty('code');
    await unsubscribe(updated.id);
    await unsubscribe(issued.id);
  });

  it('answers a test ping with the delivery record', async () => {
    const sub = await subscribe('claim.updated');
    const res = await call(`${sb.clinicBaseUrl}/webhooks/${sub.id}/test`, { token: owner(), method: 'POST' });
    expect(res.status).toBe(200);
    expect(res.body.data).toMatchObject({
      subscription_id: sub.id,
      event: 'ping',
      status: 'sent',
      attempts: 1,
      last_http: 200,
      payload_redacted: false,
    });
    const ping = JSON.parse((receiver.received[0] as Received).body);
    expect(ping).toMatchObject({
      event: 'ping',
      data: { subscription_id: sub.id, message: expect.any(String) },
    });
    await unsubscribe(sub.id);
  });

  it('retries after 60 s, doubling, on the sandbox clock, then succeeds', async () => {
    const sub = await subscribe('claim.updated');
    receiver.answer(503);
    await call(`${sb.controlUrl}/clinic/claims/${sb.refs.clinic.claimPending}?wait=true`, {
      method: 'PATCH',
      body: { status: 'under_review' },
    });
    const id = (sb.deliveries({ subscriptionId: sub.id })[0] as { id: number }).id;
    const get = () => sb.deliveries().find((d) => d.id === id);
    expect(get()).toMatchObject({
      status: 'failed',
      attempts: 1,
      last_http: 503,
      last_error_code: 'http_503',
    });
    await sb.clock.advance(59_000);
    expect(get()?.attempts).toBe(1);
    await sb.clock.advance(1_000);
    expect(get()?.attempts).toBe(2);
    await sb.clock.advance(119_000);
    expect(get()?.attempts).toBe(2);
    receiver.answer(200);
    await sb.clock.advance(1_000);
    expect(get()).toMatchObject({ status: 'sent', attempts: 3, last_http: 200 });
    const [a, b, c] = receiver.received;
    expect(header(a as Received, 'X-Partner-Event-Id')).toBe(header(c as Received, 'X-Partner-Event-Id'));
    expect(
      Number(header(c as Received, 'X-Partner-Timestamp')) -
        Number(header(b as Received, 'X-Partner-Timestamp')),
    ).toBe(120);
    expect(check(c as Received, sub.secret)).toEqual({ ok: true });
    // A delivery that succeeded cannot be sent again.
    const resend = await call(`${sb.controlUrl}/deliveries/${id}/resend`, { method: 'POST' });
    expect([resend.status, resend.body.error]).toEqual([409, 'delivery_sent']);
    await unsubscribe(sub.id);
  });

  it('gives a delivery up after 10 attempts and switches the subscription off after 20 consecutive failures', async () => {
    const sub = await subscribe('appointment.updated');
    receiver.answer(500);
    await moveAppointment({ note: 'first' }, sb.refs.clinic.appointmentArrived);
    await sb.clock.advance(9 * 60 * 60 * 1000);
    const [first] = sb.deliveries({ subscriptionId: sub.id });
    expect(first).toMatchObject({ status: 'dead', attempts: 10 });
    const gaps = (first?.log ?? [])
      .slice(1)
      .map((a, i) => Number(a.timestamp) - Number(first?.log[i]?.timestamp));
    expect(gaps).toEqual([60, 120, 240, 480, 960, 1920, 3840, 7680, 15360]);
    let record = await call(`${sb.clinicBaseUrl}/webhooks/${sub.id}`, { token: owner() });
    expect(record.body.data).toMatchObject({ status: 'active', consecutive_failures: 10 });
    await moveAppointment({ note: 'second' }, sb.refs.clinic.appointmentArrived);
    await sb.clock.advance(9 * 60 * 60 * 1000);
    record = await call(`${sb.clinicBaseUrl}/webhooks/${sub.id}`, { token: owner() });
    expect(record.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'failures' });
    expect(receiver.received).toHaveLength(20);
    const test = await call(`${sb.clinicBaseUrl}/webhooks/${sub.id}/test`, {
      token: owner(),
      method: 'POST',
    });
    expect([test.status, test.body.error]).toEqual([409, 'webhook_disabled']);
    await unsubscribe(sub.id);
  });

  it('switches a subscription off at once on 410 Gone, and back on with PUT status active', async () => {
    const sub = await subscribe('appointment.cancelled');
    receiver.answer(410);
    const cancel = (id: string) =>
      call(`${sb.clinicBaseUrl}/appointments/${id}/cancel`, { token: owner(), body: { reason: 'clinic' } });
    await cancel(sb.refs.clinic.appointmentBooked);
    await sb.settle();
    const record = await call(`${sb.clinicBaseUrl}/webhooks/${sub.id}`, { token: owner() });
    expect(record.body.data).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
    expect(sb.deliveries({ subscriptionId: sub.id })[0]).toMatchObject({
      status: 'dead',
      attempts: 1,
      last_http: 410,
    });
    const blocked = await call(`${sb.clinicBaseUrl}/webhooks/${sub.id}`, {
      token: owner(),
      method: 'PUT',
      body: { description: 'renamed' },
    });
    expect([blocked.status, blocked.body.error]).toEqual([409, 'webhook_disabled']);
    receiver.answer(200);
    const on = await call(`${sb.clinicBaseUrl}/webhooks/${sub.id}`, {
      token: owner(),
      method: 'PUT',
      body: { status: 'active' },
    });
    expect(on.body.data).toMatchObject({ status: 'active', consecutive_failures: 0 });
    const test = await call(`${sb.clinicBaseUrl}/webhooks/${sub.id}/test`, {
      token: owner(),
      method: 'POST',
    });
    expect(test.body.data.status).toBe('sent');
    await unsubscribe(sub.id);
  });

  it('rotates the secret: later deliveries are signed with the new one only', async () => {
    const sub = await subscribe('patient.erased', '/hooks/erased');
    const rotated = await call(`${sb.clinicBaseUrl}/webhooks/${sub.id}/rotate`, {
      token: owner(),
      method: 'POST',
    });
    expect(rotated.status).toBe(200);
    expect(rotated.body).toMatchObject({
      id: sub.id,
      secret: expect.stringMatching(/^whsec_/),
      data: { id: sub.id },
    });
    expect(rotated.body.secret).not.toBe(sub.secret);
    const listed = await call(`${sb.clinicBaseUrl}/webhooks/${sub.id}`, { token: owner() });
    expect(listed.body.data).not.toHaveProperty('secret');
    await call(`${sb.controlUrl}/clinic/patients/${sb.refs.clinic.patientWithoutConsent}/erase?wait=true`, {
      method: 'POST',
    });
    const r = receiver.received[0] as Received;
    expect(JSON.parse(r.body)).toMatchObject({
      event: 'patient.erased',
      data: { id: sb.refs.clinic.patientWithoutConsent },
    });
    expect(check(r, rotated.body.secret, '/hooks/erased')).toEqual({ ok: true });
    expect(check(r, sub.secret, '/hooks/erased')).toEqual({ ok: false, reason: 'mismatch' });
    await unsubscribe(sub.id);
  });

  it('removes delivery bodies about an erased patient (409 payload_redacted on resend)', async () => {
    const sub = await subscribe('appointment.created');
    receiver.answer(500);
    const booked = await call(`${sb.clinicBaseUrl}/appointments`, {
      token: owner(),
      body: {
        branch_id: 1,
        appointment_type_id: 1,
        starts_at: freeSlot(),
        patient_phone: '+966500000077',
        patient_name: 'Erase Me',
      },
    });
    await sb.settle();
    const [delivery] = sb.deliveries({ subscriptionId: sub.id });
    expect(delivery?.status).toBe('failed');
    await call(`${sb.controlUrl}/clinic/patients/${booked.body.data.patient_id}/erase`, { method: 'POST' });
    const after = sb.deliveries({ subscriptionId: sub.id })[0];
    expect(after).toMatchObject({ payload_redacted: true, body: null, status: 'dead' });
    const resend = await call(`${sb.controlUrl}/deliveries/${delivery?.id}/resend`, { method: 'POST' });
    expect([resend.status, resend.body.error]).toEqual([409, 'payload_redacted']);
    const patient = await call(`${sb.clinicBaseUrl}/patients/${booked.body.data.patient_id}`, {
      token: owner(),
    });
    expect(patient.body.data).not.toHaveProperty('phone');
    await unsubscribe(sub.id);
  });

  it('emits what the back office and tills do through the sandbox-only endpoints', async () => {
    const clinicSubs = [await subscribe('invoice.paid'), await subscribe('claim.updated')];
    const token = sb.tokens.cashierOwner;
    const cashierSubs: number[] = [];
    for (const event of ['credit_note.issued', 'session.closed', 'customer.created']) {
      const res = await call(`${sb.cashierBaseUrl}/webhooks`, {
        token,
        body: { target_url: `${receiver.url}/pos`, event },
      });
      cashierSubs.push(res.body.id);
    }
    const paid = await call(
      `${sb.controlUrl}/clinic/invoices/${sb.refs.clinic.invoicePartiallyPaid}/payments?wait=true`,
      {
        body: { method: 'card', scheme: 'mada', last4: '4417' },
      },
    );
    expect(paid.body.data).toMatchObject({ status: 'paid', due_halalas: 0 });
    expect(paid.body.events).toEqual([
      expect.objectContaining({ event: 'invoice.paid', deliveries: [expect.any(Number)] }),
    ]);
    const claim = await call(`${sb.controlUrl}/clinic/claims?wait=true`, {
      body: { invoice_id: sb.refs.clinic.invoicePartiallyPaid },
    });
    expect(claim.status).toBe(201);
    const adjudicated = await call(`${sb.controlUrl}/clinic/claims/${claim.body.data.id}?wait=true`, {
      method: 'PATCH',
      body: { status: 'adjudicated', outcome: 'partial', approved_halalas: 10000 },
    });
    expect(adjudicated.body.data).toMatchObject({
      previous_status: 'submitted',
      patient_share_halalas: claim.body.data.claimed_halalas - 10000,
    });
    const note = await call(
      `${sb.controlUrl}/cashier/receipts/${sb.refs.cashier.receipt}/credit-note?wait=true`,
      {
        body: { lines: [{ line_no: 1, qty: 1 }] },
      },
    );
    expect(note.body.data).toMatchObject({ kind: 'credit_note', refund_of: sb.refs.cashier.receipt });
    const closed = await call(
      `${sb.controlUrl}/cashier/sessions/${sb.refs.cashier.openSession}/close?wait=true`,
      {
        body: { counted_cash_halalas: 50_000 },
      },
    );
    expect(closed.body.data).toMatchObject({ status: 'closed', z_report: { sales: expect.any(Object) } });
    expect(closed.body.next_session.status).toBe('open');
    const zReport = await call(`${sb.cashierBaseUrl}/sessions/${sb.refs.cashier.openSession}/z-report`, {
      token,
    });
    expect(zReport.status).toBe(200);
    const customer = await call(`${sb.controlUrl}/cashier/customers?wait=true`, {
      body: {
        name: 'نوف السالم',
        phone: '+966501112233',
        vat_number: '310123456700003',
        marketing_consent: false,
      },
    });
    expect(customer.status).toBe(201);
    const bodies = receiver.received.map((r) => JSON.parse(r.body));
    const of = (event: string) => bodies.find((b) => b.event === event)?.data;
    expect(of('invoice.paid')).toMatchObject({ status: 'paid', paid_at: expect.any(String), due_halalas: 0 });
    expect(of('invoice.paid').payments.length).toBe(2);
    expect(bodies.filter((b) => b.event === 'claim.updated')).toHaveLength(2);
    expect(of('credit_note.issued')).toMatchObject({
      kind: 'credit_note',
      refund_of: sb.refs.cashier.receipt,
    });
    expect(of('session.closed')).toMatchObject({
      id: sb.refs.cashier.openSession,
      z_report: expect.any(Object),
    });
    expect(of('customer.created')).toEqual({
      id: customer.body.data.id,
      marketing_consent: false,
      name: null,
      phone: null,
      email: null,
      vat_number: '310123456700003',
    });
    for (const sub of clinicSubs) await unsubscribe(sub.id);
    for (const id of cashierSubs)
      await call(`${sb.cashierBaseUrl}/webhooks/${id}`, { token, method: 'DELETE' });
  });

  it('never connects to receivers off this machine: such attempts fail as refused addresses', async () => {
    const res = await call(`${sb.clinicBaseUrl}/webhooks`, {
      token: owner(),
      body: { target_url: 'https://hooks.example.com/hooks/standard/9/x/', event: 'appointment.updated' },
    });
    await moveAppointment({ note: 'public receiver' }, sb.refs.clinic.appointmentInProgress);
    expect(sb.deliveries({ subscriptionId: res.body.id })[0]).toMatchObject({
      status: 'failed',
      last_http: null,
      last_error_code: 'address_refused',
    });
    await unsubscribe(res.body.id);
  });

  it('delivers cashier events: receipts, stock falling low, order status changes', async () => {
    const token = sb.tokens.cashierOwner;
    const subs: number[] = [];
    for (const event of ['receipt.issued', 'stock.low', 'order.status_changed']) {
      const res = await call(`${sb.cashierBaseUrl}/webhooks`, {
        token,
        body: { target_url: `${receiver.url}/pos`, event },
      });
      expect(res.status).toBe(201);
      subs.push(res.body.id);
    }
    const order = await call(`${sb.cashierBaseUrl}/orders`, {
      token,
      body: {
        external_id: 'E2E-HOOK-1',
        branch_id: 1,
        lines: [{ variant_id: sb.refs.cashier.variant, qty: 1 }],
      },
    });
    await call(`${sb.controlUrl}/cashier/orders/${order.body.data.id}/accept?wait=true`, { method: 'POST' });
    await call(`${sb.controlUrl}/cashier/stock?wait=true`, { body: sb.refs.cashier.okStock });
    const events = receiver.received.map((r) => JSON.parse(r.body));
    expect(events.map((e) => e.event).sort()).toEqual([
      'order.status_changed',
      'receipt.issued',
      'stock.low',
    ]);
    expect(events.find((e) => e.event === 'order.status_changed').data).toMatchObject({
      from: 'received',
      to: 'accepted',
      id: order.body.data.id,
    });
    expect(events.find((e) => e.event === 'stock.low').data).toMatchObject({
      ...sb.refs.cashier.okStock,
      reorder_point: '10',
      qty: '9',
    });
    const secret = sb.subscriptions().find((s) => s.id === subs[0])?.secret ?? '';
    const receipt = receiver.received.find(
      (r) => header(r, 'X-Partner-Event') === 'receipt.issued',
    ) as Received;
    expect(check(receipt, secret, '/pos')).toEqual({ ok: true });
    for (const id of subs) {
      expect((await call(`${sb.cashierBaseUrl}/webhooks/${id}`, { token, method: 'DELETE' })).status).toBe(
        204,
      );
    }
  });
});

describe('sandbox: the history', () => {
  it("counts a till's drawer as its Z-report expects it, cash refunds out of it", async () => {
    const sb = await startSandbox({
      port: 0,
      quiet: true,
      timeScale: 0,
      holdBackMs: 0,
      history: { receipts: 1000, invoices: 0, appointments: 0, customers: 0 },
    });
    try {
      const token = sb.tokens.cashierOwner;
      const cashRefunds: Array<{ session_id: string }> = [];
      let since: string | null = null;
      for (let more = true; more;) {
        const page = await call(
          `${sb.cashierBaseUrl}/receipts?kind=credit_note&per_page=100${since ? `&since_id=${since}` : ''}`,
          { token },
        );
        const notes = page.body.data as Array<{ session_id: string; payments: Array<{ tender: string }> }>;
        cashRefunds.push(...notes.filter((r) => r.payments.some((p) => p.tender === 'cash')));
        ({ next_since_id: since, has_more: more } = page.body.meta);
      }
      // The history refunds some sales in cash, each in a closed session of its own, counted as expected.
      expect(cashRefunds.length).toBeGreaterThan(0);
      for (const { session_id } of cashRefunds) {
        const z = await call(`${sb.cashierBaseUrl}/sessions/${session_id}/z-report`, { token });
        expect({ session_id, variance: z.body.data.variance_halalas }).toEqual({ session_id, variance: 0 });
      }
    } finally {
      await sb.close();
    }
  });
});

describe('sandbox: a clock running faster than real time', () => {
  it('lets the 60 s and 120 s back-offs pass in milliseconds', async () => {
    const sb = await startSandbox({ port: 0, quiet: true, timeScale: 3000 });
    const receiver = await startReceiver();
    try {
      receiver.answer(500);
      const sub = await call(`${sb.clinicBaseUrl}/webhooks`, {
        token: sb.tokens.clinicOwner,
        body: { target_url: `${receiver.url}/fast`, event: 'invoice.issued' },
      });
      await call(`${sb.controlUrl}/clinic/invoices?wait=true`, {
        body: { patient_id: sb.refs.clinic.patient, lines: [{ unit_halalas: 25_000 }] },
      });
      const started = Date.now();
      while (receiver.received.length < 2 && Date.now() - started < 3000)
        await new Promise((r) => setTimeout(r, 5));
      receiver.answer(200);
      while (sb.deliveries()[0]?.status !== 'sent' && Date.now() - started < 5000)
        await new Promise((r) => setTimeout(r, 5));
      expect(sb.deliveries({ subscriptionId: sub.body.id })[0]).toMatchObject({
        status: 'sent',
        attempts: 3,
      });
      expect(Date.now() - started).toBeLessThan(2000);
    } finally {
      await sb.close();
      await receiver.close();
    }
  });
});
