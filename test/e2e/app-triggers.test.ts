/**
 * The app's instant triggers end to end: every row of the event table is subscribed through the app by the
 * hook-intake stand-in, the event happens in the sandbox (through its control endpoints or the app's own
 * actions), the signed delivery reaches the intake over real HTTP, and the item the trigger's perform made is
 * compared with the object the sandbox holds. Then each trigger's performList against the same sandbox.
 */
import { WITH_PATIENT } from '../../lib/hooks/extensions';
import { EVENTS } from '../../lib/hooks/events';
import type { SubscribeData } from '../../lib/hooks/types';
import { expectSarSiblings, freeSlot, startWorld, type Json, type World } from './app-helpers';
import { frontDeskBooking } from './app-helpers';

const ULID = /^[0-9A-HJKMNP-TV-Z]{26}$/;

interface Case {
  /** Done before the Zap is turned on (objects the event is about); its result goes to `cause`. */
  prepare?: (w: World) => Promise<Json>;
  /** Makes the event happen; answers the id of the object it is about. */
  cause: (w: World, prepared: Json) => Promise<string | number>;
  /** The object as the sandbox holds it (partner interface or control endpoint). */
  held: (w: World, id: string | number, prepared: Json) => Promise<Json>;
  /** Fields the item must carry as the sandbox holds them. */
  fields: string[];
  /** Whether the object has amounts in halalas (so `_sar` siblings must be there). */
  money: boolean;
  /** More checks: the item, the held object, the delivery's body as sent. */
  check?: (item: Json, held: Json, sent: Json, w: World) => void | Promise<void>;
  /**
   * What performList's items are: the clinic's recent events (the newest objects, so some this file made), real
   * objects from a cashier list, the last arrived of the receipts cursor, or the account's sample.
   */
  listed: 'recent' | 'list' | 'cursor' | 'sample';
  /** The id of an object as performList shows it. */
  idPattern: RegExp;
}

const APPOINTMENT_FIELDS = [
  'id',
  'patient_id',
  'branch_id',
  'practitioner_id',
  'appointment_type_id',
  'room_id',
  'status',
  'starts_at',
  'ends_at',
  'source',
  'external_ref',
  'note',
  'cancel_reason',
  'cancelled_at',
  'created_at',
  'updated_at',
];
const INVOICE_FIELDS = [
  'id',
  'number',
  'kind',
  'status',
  'patient_id',
  'branch_id',
  'buyer_kind',
  'currency',
  'issued_at',
  'subtotal_halalas',
  'discount_halalas',
  'vat_halalas',
  'total_halalas',
  'paid_halalas',
  'due_halalas',
];
const RECEIPT_FIELDS = [
  'id',
  'number',
  'kind',
  'refund_of',
  'branch_id',
  'register_id',
  'session_id',
  'issued_at',
  'business_date',
  'currency',
  'subtotal_halalas',
  'tax_halalas',
  'total_halalas',
];
const PRIVATE_LINE_FIELDS = ['code', 'description', 'tooth', 'surfaces'];

/** Invoice lines the way a dental clinic issues them: with codes, teeth and surfaces the Zap must never see. */
const dentalLines = [
  {
    unit_halalas: 25_000,
    code: 'D1110',
    description: 'Prophylaxis - adult',
    tooth: '16',
    surfaces: ['O'],
  },
  {
    unit_halalas: 12_050,
    qty: 2,
    code: 'D2391',
    description: 'Composite',
    tooth: '36',
    surfaces: ['M', 'O'],
  },
];

const issueInvoice = async (w: World) =>
  (
    await w.control('/clinic/invoices', {
      body: { patient_id: w.sb.refs.clinic.patient, lines: dentalLines },
    })
  ).body.data;

const appointmentOf = async (w: World, id: string | number) =>
  (await w.clinic(`/appointments/${id}`)).body.data;
const invoiceOf = async (w: World, id: string | number) => (await w.clinic(`/invoices/${id}`)).body.data;
const receiptOf = async (w: World, id: string | number) => (await w.cashier(`/receipts/${id}`)).body.data;

/** The invoice item's lines are the interface's own lines, never the line details a delivery carries. */
const checkInvoiceLines = (item: Json, held: Json, sent: Json) => {
  expect(sent.data.lines[0]).toMatchObject({ code: 'D1110', tooth: '16', surfaces: ['O'] });
  expect(item.lines).toHaveLength(held.lines.length);
  held.lines.forEach((line: Json, i: number) => expect(item.lines[i]).toMatchObject(line));
  for (const line of item.lines) for (const key of PRIVATE_LINE_FIELDS) expect(line).not.toHaveProperty(key);
  expect(JSON.stringify(item)).not.toMatch(/D1110|D2391|Prophylaxis|Composite/);
  expect(item.tax_breakdown).toEqual(
    expect.arrayContaining([expect.objectContaining(held.tax_breakdown[0])]),
  );
};

/** The front desk moves an appointment to another status, as the back office would. */
const moveTo = async (w: World, id: string, status: string) => {
  const res = await w.control(`/clinic/appointments/${id}`, { method: 'PATCH', body: { status } });
  expect(res.status).toBe(200);
};

/**
 * A status trigger: the appointment is moved along `before` ahead of the subscription (those updates are not this
 * Zap's), then to `status`, which is the one delivery the Zap must fire on.
 */
const becameCase = (before: string[], status: string): Case => ({
  prepare: async (w) => {
    const booked = await frontDeskBooking(w);
    for (const s of before) await moveTo(w, booked.id, s);
    return booked;
  },
  cause: async (w, booked) => {
    await moveTo(w, booked.id, status);
    return booked.id;
  },
  held: appointmentOf,
  fields: APPOINTMENT_FIELDS,
  money: false,
  check: (item, _held, sent) => {
    const from = before.at(-1) ?? 'booked';
    expect(sent.data.changes).toEqual({ status: [from, status] });
    expect(item).toMatchObject({ status, changed_fields: ['status'], previous_status: from });
  },
  listed: 'recent',
  idPattern: ULID,
});

const CASES: Record<string, Case> = {
  appointment_confirmed: becameCase([], 'confirmed'),
  patient_arrived: becameCase(['confirmed'], 'arrived'),
  appointment_completed: becameCase(['arrived', 'in_progress'], 'completed'),
  appointment_no_show: becameCase(['confirmed'], 'no_show'),
  appointment_created: {
    // The app's own action books: the trigger sees what Book Appointment made.
    cause: async (w) => {
      const booked = await w.run('creates', 'book_appointment', {
        patient_id: w.sb.refs.clinic.patient,
        branch_id: '1',
        appointment_type_id: '4',
        starts_at: freeSlot(),
        note: 'E2E trigger',
        external_ref: 'E2E-TRIGGER-CREATED',
      });
      expect(booked.duplicate).toBe(false);
      return booked.id;
    },
    held: appointmentOf,
    fields: APPOINTMENT_FIELDS,
    money: false,
    check: (item) => expect(item).toMatchObject({ status: 'booked', source: 'api', note: 'E2E trigger' }),
    listed: 'recent',
    idPattern: ULID,
  },
  appointment_updated: {
    prepare: (w) => frontDeskBooking(w),
    cause: async (w, booked) => {
      const res = await w.control(`/clinic/appointments/${booked.id}`, {
        method: 'PATCH',
        body: { status: 'confirmed' },
      });
      expect(res.status).toBe(200);
      return booked.id;
    },
    held: appointmentOf,
    fields: APPOINTMENT_FIELDS,
    money: false,
    check: (item, _held, sent) => {
      expect(sent.data.changes).toEqual({ status: ['booked', 'confirmed'] });
      expect(item).toMatchObject({
        status: 'confirmed',
        changed_fields: ['status'],
        previous_status: 'booked',
      });
      expect(item).not.toHaveProperty('changes');
    },
    listed: 'recent',
    idPattern: ULID,
  },
  appointment_rescheduled: {
    prepare: (w) => frontDeskBooking(w),
    // The front desk moves the visit to another free slot: the update carries the start's old and new values.
    cause: async (w, booked) => {
      const res = await w.control(`/clinic/appointments/${booked.id}`, {
        method: 'PATCH',
        body: { starts_at: freeSlot() },
      });
      expect(res.status).toBe(200);
      return booked.id;
    },
    held: appointmentOf,
    fields: APPOINTMENT_FIELDS,
    money: false,
    check: (item, held, sent) => {
      const [before, after] = sent.data.changes.starts_at as [string, string];
      expect(Date.parse(after)).toBe(Date.parse(held.starts_at));
      expect(before).not.toBe(after);
      expect(item.changed_fields).toContain('starts_at');
      expect(item).toMatchObject({ previous_starts_at: before, starts_at: held.starts_at });
      expect(item.starts_at_text_en).toEqual(expect.stringMatching(/\d{4}, \d{1,2}:\d\d [AP]M$/));
      expect(item.patient).toEqual(expect.objectContaining({ name_en: expect.any(String) }));
    },
    listed: 'recent',
    idPattern: ULID,
  },
  appointment_cancelled: {
    prepare: (w) => frontDeskBooking(w),
    // The app's own action cancels.
    cause: async (w, booked) => {
      const cancelled = await w.run('creates', 'cancel_appointment', {
        appointment_id: booked.id,
        reason: 'patient_request',
      });
      expect(cancelled.status).toBe('cancelled');
      return booked.id;
    },
    held: appointmentOf,
    fields: APPOINTMENT_FIELDS,
    money: false,
    check: (item) =>
      expect(item).toMatchObject({
        status: 'cancelled',
        cancel_reason: 'patient_request',
        cancelled_at: expect.any(String),
      }),
    listed: 'recent',
    idPattern: ULID,
  },
  invoice_issued: {
    cause: async (w) => (await issueInvoice(w)).id,
    held: invoiceOf,
    fields: INVOICE_FIELDS,
    money: true,
    check: (item, held, sent) => {
      checkInvoiceLines(item, held, sent);
      expect(item).toMatchObject({ status: 'issued', total_sar: expect.stringMatching(/^\d+\.\d\d$/) });
    },
    listed: 'recent',
    idPattern: ULID,
  },
  invoice_paid: {
    prepare: (w) => issueInvoice(w),
    cause: async (w, invoice) => {
      const res = await w.control(`/clinic/invoices/${invoice.id}/payments`, {
        body: { method: 'card', scheme: 'mada', last4: '4417' },
      });
      expect(res.body.data.status).toBe('paid');
      return invoice.id;
    },
    held: invoiceOf,
    fields: INVOICE_FIELDS,
    money: true,
    check: (item, held, sent) => {
      checkInvoiceLines(item, held, sent);
      expect(item).toMatchObject({
        status: 'paid',
        due_halalas: 0,
        due_sar: '0.00',
        paid_at: sent.data.paid_at,
      });
      expect(item.paid_at).toEqual(expect.any(String));
      expect(item.payments).toEqual(held.payments.map((p: Json) => expect.objectContaining(p)));
      expect(item.payments[0]).toMatchObject({ scheme: 'mada', last4: '4417' });
    },
    listed: 'recent',
    idPattern: ULID,
  },
  claim_updated: {
    prepare: async (w) => {
      const invoice = await issueInvoice(w);
      const claim = await w.control('/clinic/claims', { body: { invoice_id: invoice.id } });
      expect(claim.status).toBe(201);
      return { claim: claim.body.data };
    },
    cause: async (w, prepared) => {
      const res = await w.control(`/clinic/claims/${prepared.claim.id}`, {
        method: 'PATCH',
        body: { status: 'adjudicated', outcome: 'partial', approved_halalas: 20_000 },
      });
      expect(res.status).toBe(200);
      prepared.adjudicated = res.body.data;
      return prepared.claim.id;
    },
    // The clinic interface has no claim endpoint: the control endpoint's answer is the object it holds.
    held: async (_w, _id, prepared) => prepared.adjudicated,
    fields: [
      'id',
      'invoice_id',
      'patient_id',
      'payer_id',
      'status',
      'previous_status',
      'outcome',
      'claimed_halalas',
      'approved_halalas',
      'patient_share_halalas',
      'updated_at',
    ],
    money: true,
    check: (item) =>
      expect(item).toMatchObject({
        status: 'adjudicated',
        previous_status: 'submitted',
        approved_halalas: 20_000,
        approved_sar: '200.00',
      }),
    listed: 'recent',
    idPattern: ULID,
  },
  patient_erased: {
    // A new patient file, opened by a booking by phone, so the seeded patients stay as they are.
    prepare: (w) =>
      frontDeskBooking(w, { patient_id: undefined, patient_phone: '+966500000321', patient_name: 'E2E' }),
    cause: async (w, booked) => {
      const res = await w.control(`/clinic/patients/${booked.patient_id}/erase`, { method: 'POST' });
      expect(res.status).toBe(200);
      return booked.patient_id;
    },
    held: async (w, id) => {
      const stored = (await w.control(`/clinic/patients/${id}`)).body.data.stored;
      return { id: stored.id, erased_at: stored.erased_at };
    },
    fields: ['id', 'erased_at'],
    money: false,
    check: async (item, _held, _sent, w) => {
      expect(item.erased_at).toEqual(expect.any(String));
      expect(Object.keys(item).sort()).toEqual(['erased_at', 'event_id', 'id', 'occurred_at']);
      expect((await w.clinic(`/patients/${item.id}`)).body.data).not.toHaveProperty('phone');
    },
    listed: 'recent',
    idPattern: ULID,
  },
  receipt_issued: {
    cause: async (w) => {
      const res = await w.control('/cashier/receipts', {
        body: {
          branch_id: 2,
          lines: [
            { variant_id: w.sb.refs.cashier.variant, qty: 2 },
            { sku: w.sb.refs.cashier.variantSku, qty: 1 },
          ],
          tender: 'card',
        },
      });
      expect(res.status).toBe(201);
      return res.body.data.id;
    },
    held: receiptOf,
    fields: RECEIPT_FIELDS,
    money: true,
    check: (item, held) => {
      expect(item.kind).not.toBe('credit_note');
      expect(item.lines).toHaveLength(2);
      held.lines.forEach((line: Json, i: number) => expect(item.lines[i]).toMatchObject(line));
      held.payments.forEach((p: Json, i: number) => expect(item.payments[i]).toMatchObject(p));
    },
    listed: 'cursor',
    idPattern: ULID,
  },
  credit_note_issued: {
    cause: async (w) => {
      const res = await w.control(`/cashier/receipts/${w.sb.refs.cashier.receipt}/credit-note`, {
        body: { lines: [{ line_no: 1, qty: 1 }] },
      });
      expect(res.status).toBe(201);
      return res.body.data.id;
    },
    held: receiptOf,
    fields: RECEIPT_FIELDS,
    money: true,
    check: (item, held, _sent, w) => {
      expect(item).toMatchObject({ kind: 'credit_note', refund_of: w.sb.refs.cashier.receipt });
      expect(item.number).toMatch(/-CN-\d{6}$/);
      held.lines.forEach((line: Json, i: number) => expect(item.lines[i]).toMatchObject(line));
    },
    listed: 'cursor',
    idPattern: ULID,
  },
  session_closed: {
    cause: async (w) => {
      const res = await w.control(`/cashier/sessions/${w.sb.refs.cashier.openSession}/close`, {
        body: { counted_cash_halalas: 12_345 },
      });
      expect(res.status).toBe(200);
      return w.sb.refs.cashier.openSession;
    },
    held: async (w, id) => (await w.cashier(`/sessions/${id}/z-report`)).body.data,
    fields: [
      'id',
      'branch_id',
      'register_id',
      'status',
      'business_date',
      'receipts',
      'total_halalas',
      'net_sales_halalas',
      'variance_halalas',
    ],
    money: true,
    check: (item, held) => {
      expect(item.status).toBe('closed');
      expect(item.z_report).toMatchObject(held.z_report);
      expect(item.z_report.sales.total_sar).toEqual(expect.stringMatching(/^\d+\.\d\d$/));
    },
    listed: 'sample',
    idPattern: ULID,
  },
  stock_low: {
    cause: async (w) => {
      const { branch_id, variant_id } = w.sb.refs.cashier.okStock;
      const res = await w.control('/cashier/stock', { body: { branch_id, variant_id } });
      expect(res.status).toBe(200);
      return `${branch_id}:${variant_id}`;
    },
    held: async (w, id) => {
      const [branch, variant] = String(id).split(':');
      const res = await w.cashier(`/stock/levels?branch_id=${branch}&variant_id=${variant}`);
      expect(res.body.data).toHaveLength(1);
      return { ...res.body.data[0], id };
    },
    fields: ['id', 'branch_id', 'variant_id', 'sku', 'name_ar', 'qty', 'reorder_point', 'suggested_qty'],
    money: false,
    check: (item) => expect(Number(item.qty)).toBeLessThanOrEqual(Number(item.reorder_point)),
    listed: 'list',
    idPattern: /^\d+:\d+$/,
  },
  order_status_changed: {
    // The app's own action sends the order; the cashier accepts it at the till.
    prepare: (w) =>
      w.run('creates', 'create_order', {
        external_id: 'E2E-TRIGGER-ORDER',
        branch_id: '1',
        lines: [{ variant_id: String(w.sb.refs.cashier.variant), qty: '2' }],
        customer_name: 'E2E',
        customer_phone: '0501234567',
      }),
    cause: async (w, order) => {
      const res = await w.control(`/cashier/orders/${order.id}/accept`, { method: 'POST' });
      expect(res.body.data.status).toBe('accepted');
      return order.id;
    },
    held: async (w, id) => (await w.cashier(`/orders/${id}`)).body.data,
    fields: ['id', 'external_id', 'provider', 'status', 'total_halalas'],
    money: true,
    check: (item) =>
      expect(item).toMatchObject({
        from: 'received',
        to: 'accepted',
        status: 'accepted',
        external_id: 'E2E-TRIGGER-ORDER',
        provider: 'zapier',
      }),
    listed: 'sample',
    idPattern: ULID,
  },
  customer_created: {
    cause: async (w) => {
      const res = await w.control('/cashier/customers', {
        body: {
          name: 'نوف السالم',
          phone: '+966501112233',
          email: 'nouf@example.com',
          marketing_consent: true,
        },
      });
      expect(res.status).toBe(201);
      return res.body.data.id;
    },
    held: async (w, id) => {
      const res = await w.cashier('/customers?per_page=100');
      return res.body.data.find((c: Json) => c.id === id);
    },
    fields: ['id', 'marketing_consent', 'name', 'phone', 'email', 'vat_number'],
    money: false,
    check: (item) => expect(item).toMatchObject({ marketing_consent: true, phone: '+966501112233' }),
    listed: 'list',
    idPattern: /^\d+$/,
  },
};

let w: World;
/** Ids of the objects this file made, for performList's check. */
const made = new Set<string>();

beforeAll(async () => {
  w = await startWorld();
});
afterAll(async () => {
  await w?.close();
});

describe('app: instant triggers over the sandbox (subscribe, signed delivery, perform, unsubscribe)', () => {
  it('has an end-to-end case for every row of the event table', () => {
    expect(Object.keys(CASES).sort()).toEqual(EVENTS.map((e) => e.key).sort());
  });

  it.each(EVENTS.map((e) => [e.key, e.event, e.api] as const))(
    '%s: a %s delivery from the %s interface becomes the object the sandbox holds',
    async (key, event, api) => {
      const c = CASES[key];
      if (!c) throw new Error(`no end-to-end case for ${key}`);
      const prepared = c.prepare ? await c.prepare(w) : undefined;
      await w.sb.settle();

      const hook = await w.intake.subscribe(key);
      const sub = w.intake.subscribeData(hook) as unknown as SubscribeData;
      expect(sub).toMatchObject({ event, api, secret: expect.stringMatching(/^whsec_/) });
      const held = w.sb.subscriptions().find((s) => s.id === Number(sub.id));
      expect(held).toMatchObject({ api, status: 'active', events: [event], secret: sub.secret });
      expect(new URL(held?.target_url ?? '').pathname).toBe(sub.target_path);

      const id = await c.cause(w, prepared);
      await w.sb.settle();
      const [run, ...more] = await w.intake.waitForRuns(hook, 1, 3000);
      expect(more).toEqual([]);
      expect(run?.error).toBeUndefined();
      expect(run?.items).toHaveLength(1);
      const item = run?.items[0] as Json;

      const [delivery, ...others] = w.sb.deliveries({ subscriptionId: Number(sub.id) });
      expect(others).toEqual([]);
      expect(delivery).toMatchObject({ event, status: 'sent', attempts: 1, last_http: 200 });
      const sent = JSON.parse(delivery?.body ?? '{}');
      // X-Partner-Event-Id carries the delivery record's event id (the body's id).
      expect(sent.id).toBe(delivery?.event_id);
      expect(item.event_id).toBe(delivery?.event_id);
      expect(item.occurred_at).toBe(sent.occurred_at);
      expect(item.occurred_at).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?\+03:00$/);

      const object = await c.held(w, id, prepared);
      expect(object).toBeDefined();
      expect(String(item.id)).toBe(String(id));
      const expected = Object.fromEntries(c.fields.map((f) => [f, object[f]]));
      expect(item).toMatchObject(expected);
      const siblings = expectSarSiblings(item);
      if (c.money) expect(siblings).toBeGreaterThan(0);
      else expect(Object.keys(item).filter((k) => k.endsWith('_sar'))).toEqual([]);
      await c.check?.(item, object, sent, w);
      const def = EVENTS.find((e) => e.key === key)!;
      if (def.extensions?.includes(WITH_PATIENT)) {
        // The patient as the clinic holds them, and nothing else of the patient (CONTRACT §8).
        const patient = (await w.clinic(`/patients/${String(item.patient_id)}`)).body.data;
        expect(item.patient).toEqual({
          name_ar: patient.name_ar,
          name_en: patient.name_en,
          phone: patient.phone,
          email: patient.email,
          file_no: patient.file_no,
          status: 'found',
        });
        expect(item.patient.phone).toMatch(/^\+9665\d{8}$/);
      }
      made.add(String(id));
      if (prepared?.id) made.add(String(prepared.id));

      await w.intake.unsubscribe(hook);
      expect(w.sb.subscriptions().some((s) => s.id === Number(sub.id))).toBe(false);
    },
  );
});

describe('app: performList of every instant trigger against the sandbox', () => {
  it.each(EVENTS.map((e) => [e.key, e.event] as const))(
    '%s lists %s items with the ids of real objects or the account’s sample',
    async (key, event) => {
      const c = CASES[key];
      if (!c) throw new Error(`no end-to-end case for ${key}`);
      const items = await w.run<Json[]>('triggers', key, {}, {}, 'performList');
      expect(items.length).toBeGreaterThan(0);
      for (const item of items) {
        expect(String(item.id)).toMatch(c.idPattern);
        expect(item.event_id).toEqual(expect.any(String));
        expectSarSiblings(item);
        if (key.startsWith('invoice_'))
          for (const line of item.lines ?? [])
            for (const k of PRIVATE_LINE_FIELDS) expect(line).not.toHaveProperty(k);
      }
      if (c.listed === 'sample') {
        // The cashier lists none of these objects cheaply: the account's sample from GET /webhooks/events.
        const catalogue = await w.cashier('/webhooks/events');
        const sample = catalogue.body.data.find((e: Json) => e.event === event).sample;
        expect(items).toHaveLength(1);
        expect(items[0]).toMatchObject({ id: sample.data.id, event_id: sample.id });
        return;
      }
      const ids = items.map((i) => String(i.id));
      if (c.listed === 'cursor') {
        // The shop's last arrived receipts (or credit notes), last first: those this file sold among them.
        const query = key === 'credit_note_issued' ? 'kind=credit_note&per_page=100' : 'per_page=100';
        const page = (await w.cashier(`/receipts?${query}`)).body;
        expect(page.meta.has_more).toBe(false);
        const latest = (page.data as Json[])
          .filter((r) => key === 'credit_note_issued' || r.kind !== 'credit_note')
          .slice(-3)
          .reverse();
        expect(ids).toEqual(latest.map((r) => String(r.id)));
        for (const item of items) expect(item.occurred_at).toBe(item.issued_at);
        if (made.size) expect(ids.some((id) => made.has(id))).toBe(true);
      } else if (c.listed === 'recent') {
        // The clinic's recent events, newest first: those this file made above are among them.
        // A status trigger shows the recent updates whose status became its own (up to 3 of the last 25).
        const def = EVENTS.find((e) => e.key === key)!;
        const recent = await w.clinic(`/webhooks/events/${event}/recent?limit=${def.when ? 25 : 3}`);
        const firing = (recent.body.data as Json[]).filter((e) => !def.when || def.when(e.data)).slice(0, 3);
        expect(firing.length).toBeGreaterThan(0);
        expect(ids).toEqual(firing.map((e: Json) => String(e.data.id)));
        for (const item of items) expect(item.event_id).toBe(`${event}:${item.id}`);
        if (def.when) for (const item of items) expect(item.status).toBe(def.sampleData?.status);
        if (made.size) expect(ids.some((id) => made.has(id))).toBe(true);
      } else {
        // The first objects of the cashier's own list.
        const path = key === 'stock_low' ? '/stock/levels?low_only=true&per_page=3' : '/customers?per_page=3';
        const listed = (await w.cashier(path)).body.data as Json[];
        expect(ids).toEqual(listed.map((o) => String(o.id ?? `${o.branch_id}:${o.variant_id}`)));
      }
      for (const item of items) {
        if (key === 'claim_updated') continue; // no claim endpoint to read one back
        const object = await c.held(w, item.id, undefined);
        expect(object).toBeDefined();
        expect(String(object.id)).toBe(String(item.id));
      }
    },
  );
});

describe('app: New Appointment samples the appointments as they were booked', () => {
  it('shows an appointment cancelled since as booked, as its delivery did', async () => {
    const booked = await frontDeskBooking(w);
    const cancelled = await w.clinic(`/appointments/${booked.id}/cancel`, {
      method: 'POST',
      body: { reason: 'patient_request' },
    });
    expect(cancelled.body.data.status).toBe('cancelled');
    const items = await w.run<Json[]>('triggers', 'appointment_created', {}, {}, 'performList');
    const item = items.find((i) => i.id === booked.id);
    expect(item).toMatchObject({
      status: 'booked',
      cancelled_at: null,
      cancel_reason: null,
      created_at: booked.created_at,
      updated_at: booked.created_at,
      occurred_at: booked.created_at,
    });
    for (const i of items) expect(i.status).toBe('booked');
  });
});

describe('app: trigger filters and the polling trigger against the sandbox', () => {
  it('a Branch filter lets through only deliveries of that branch (the other is acknowledged, no item)', async () => {
    const hook = await w.intake.subscribe('receipt_issued', { branch_id: '1' });
    const sell = (branch_id: number) =>
      w.control('/cashier/receipts?wait=true', {
        body: { branch_id, lines: [{ variant_id: w.sb.refs.cashier.variant, qty: 1 }] },
      });
    await sell(2);
    const kept = (await sell(1)).body.data;
    const runs = await w.intake.waitForRuns(hook, 2, 3000);
    expect(runs.map((r) => [r.error, r.items.length])).toEqual([
      [undefined, 0],
      [undefined, 1],
    ]);
    expect(runs[1]?.items[0]).toMatchObject({ id: kept.id, branch_id: 1 });
    await w.intake.unsubscribe(hook);
  });

  it('New Customer with a Consent Channel fires for a customer who agreed to email only on email, not on SMS', async () => {
    const email = await w.intake.subscribe('customer_created', { consent_channel: 'email' });
    const sms = await w.intake.subscribe('customer_created', { consent_channel: 'sms' });
    w.sb.resetRequests();
    const res = await w.control('/cashier/customers?wait=true', {
      body: {
        name: 'هند القحطاني',
        phone: '+966502223344',
        email: 'hind.q@example.com',
        marketing_consent: true,
        consent_channels: ['email'],
      },
    });
    expect(res.status).toBe(201);
    const [byEmail] = await w.intake.waitForRuns(email, 1, 3000);
    const [bySms] = await w.intake.waitForRuns(sms, 1, 3000);
    expect(byEmail?.error).toBeUndefined();
    expect(byEmail?.items).toHaveLength(1);
    expect(byEmail?.items[0]).toMatchObject({ id: res.body.data.id, email: 'hind.q@example.com' });
    // Acknowledged without an item: the customer never agreed to SMS.
    expect(bySms?.error).toBeUndefined();
    expect(bySms?.items).toEqual([]);
    // One consent check per delivery.
    expect(w.sb.requestCount({ method: 'GET', path: /\/customers$/ })).toBe(2);
    await w.intake.unsubscribe(email);
    await w.intake.unsubscribe(sms);
  });

  it('appointment_starting_soon lists the upcoming appointments of the next day, as the sandbox holds them', async () => {
    const now = Date.now();
    const items = await w.run<Json[]>('triggers', 'appointment_starting_soon', { minutes_before: '1440' });
    const all = (await w.clinic('/appointments?per_page=100')).body.data as Json[];
    const expected = all.filter(
      (a) =>
        ['booked', 'confirmed', 'arrived'].includes(a.status) &&
        Date.parse(a.starts_at) >= now &&
        Date.parse(a.starts_at) < now + 24 * 3600_000,
    );
    expect(expected.length).toBeGreaterThan(0);
    expect(items.map((i) => i.id).sort()).toEqual(expected.map((a) => a.id).sort());
    for (const item of items) {
      expect(item).toMatchObject(all.find((a) => a.id === item.id));
      expect(item.minutes_until_start).toBeGreaterThanOrEqual(0);
      expect(item.minutes_until_start).toBeLessThanOrEqual(1440);
    }
  });
});
