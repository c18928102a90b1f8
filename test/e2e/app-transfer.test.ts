/**
 * Zapier Transfer end to end: the real app's performList in bulk read, over real HTTP, paging through the sandbox's
 * history (months of receipts and customers before the seed) until it answers [], compared with what the sandbox
 * holds, read directly.
 */
import { createAppTester } from 'zapier-platform-core';
import { cursorStandIn, transferAll, transferPage } from '../../harness/transfer';
import { clockAtRecording } from '../support/recorder';
import { App, expectSarSiblings, frontDeskBooking, startWorld, type Json, type World } from './app-helpers';

type Fn = (z: unknown, bundle: unknown) => unknown;
const performList = (key: string) =>
  (App.triggers as unknown as Record<string, { operation: { performList: Fn } }>)[key]!.operation.performList;

let w: World;
const tester = createAppTester(App) as unknown as (fn: Fn, bundle: object) => Promise<unknown>;

beforeAll(async () => {
  w = await startWorld({ history: { receipts: 400, invoices: 400, appointments: 20, customers: 250 } });
});
afterAll(() => w.close());

/** Every receipt and credit note the cursor holds, oldest first, read as a client of the interface would. */
const allReceipts = async (): Promise<Json[]> => {
  const out: Json[] = [];
  let since: string | undefined;
  for (;;) {
    const page = await w.cashier(`/receipts?per_page=100${since ? `&since_id=${since}` : ''}`);
    out.push(...page.body.data);
    if (!page.body.meta.has_more) return out;
    since = page.body.meta.next_since_id;
  }
};

it('New Receipt moves every receipt of the history once, in arrival order, one request a page, then []', async () => {
  const held = (await allReceipts()).filter((r) => r.kind !== 'credit_note');
  expect(held.length).toBeGreaterThan(400);
  w.sb.resetRequests();
  const pages = await transferAll<Json>(tester, performList('receipt_issued'), { authData: w.authData });
  const items = pages.flat();
  expect(items.map((r) => r.id)).toEqual(held.map((r) => r.id));
  expect(pages.at(-1)).toEqual([]);
  expect(pages.slice(0, -1).every((p) => p.length > 0 && p.length <= 100)).toBe(true);
  // One list request a call; the call after the last page (the cursor said no more) asks nothing.
  expect(w.sb.requestCount({ path: '/api/partner/v1/receipts' })).toBe(pages.length - 1);
  expect(w.sb.requestCount()).toBe(pages.length - 1);
  for (const item of items.slice(0, 20)) {
    expect(item.event_id).toBe(`receipt.issued:${item.id}`);
    expect(expectSarSiblings(item)).toBeGreaterThan(0);
  }
});

it('New Customer with a consent channel moves only the customers who agreed to it, page by page', async () => {
  const consented: Json[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await w.cashier(
      `/customers?consented_only=true&consent_channel=sms&page=${page}&per_page=100`,
    );
    consented.push(...answer.body.data);
    if (answer.body.data.length < 100) break;
  }
  expect(consented.length).toBeGreaterThan(100);
  w.sb.resetRequests();
  const pages = await transferAll<Json>(tester, performList('customer_created'), {
    authData: w.authData,
    inputData: { consent_channel: 'sms' },
  });
  expect(
    pages
      .flat()
      .map((c) => c.id)
      .sort((a, b) => a - b),
  ).toEqual(consented.map((c) => c.id).sort((a, b) => a - b));
  expect(pages.flat().every((c) => c.marketing_consent === true)).toBe(true);
  // The list is asked for consenting customers; no check per customer.
  expect(w.sb.requestCount()).toBe(pages.length - 1);
});

/** Every invoice of a status, read page by page as a client of the interface would (nothing changes meanwhile). */
const invoicesOf = async (status: string): Promise<Json[]> => {
  const out: Json[] = [];
  for (let page = 1; ; page += 1) {
    const answer = await w.clinic(`/invoices?status=${status}&page=${page}&per_page=100`);
    out.push(...answer.body.data);
    if (page * answer.body.meta.per_page >= answer.body.meta.total) return out;
  }
};

it('Invoice Paid moves every invoice paid for the whole transfer exactly once while older invoices become paid between pages', async () => {
  const paid = await invoicesOf('paid');
  // The oldest unpaid invoices: paying one puts it into the paid list before the place, shifting every page after it.
  const unpaid = (await invoicesOf('issued')).slice(0, 24);
  expect(paid.length).toBeGreaterThan(250);
  expect(unpaid.length).toBe(24);
  const cursor = cursorStandIn();
  const handed: Json[] = [];
  const paidMeanwhile: string[] = [];
  for (let page = 0; page < 20; page += 1) {
    if (page > 0) {
      for (const invoice of unpaid.splice(0, 8)) {
        const res = await w.control(`/clinic/invoices/${invoice.id}/payments`, { body: {} });
        expect(res.body.data.status).toBe('paid');
        paidMeanwhile.push(invoice.id);
      }
    }
    const items = await transferPage<Json>(
      tester,
      performList('invoice_paid'),
      { authData: w.authData, inputData: { include_patient: 'false' } },
      page,
      cursor,
    );
    handed.push(...items);
    if (!items.length) break;
  }
  expect(paidMeanwhile).toHaveLength(24);
  const ids = handed.map((i) => i.id);
  expect(new Set(ids).size).toBe(ids.length);
  const once = new Set(ids);
  expect(paid.filter((i) => !once.has(i.id)).map((i) => i.id)).toEqual([]);
  expect(handed.every((i) => i.status === 'paid')).toBe(true);
  // Oldest first: the issue times handed on only grow.
  const times = handed.map((i) => Date.parse(i.issued_at));
  expect(times).toEqual([...times].sort((a, b) => a - b));
});

it('New Appointment moves an appointment rescheduled from ahead of the place to behind it while it runs, once', async () => {
  // Booked at the front desk before the transfer (weeks ahead, one a day): with the patient, 25 a page.
  const booked: Json[] = [];
  for (let i = 0; i < 30; i += 1) booked.push(await frontDeskBooking(w));
  // The transfer begins ten minutes later: only Date moves (the app's and the in-process sandbox's clocks alike).
  clockAtRecording(Date.now() + 10 * 60_000);
  try {
    const yesterday = new Date(Date.now() + 3 * 3_600_000 - 86_400_000).toISOString().slice(0, 10);
    const listed = async (): Promise<Json[]> =>
      (await w.clinic(`/appointments?from=${yesterday}&per_page=100`)).body.data;
    const before = await listed();
    expect(before.length).toBeGreaterThan(25);
    expect(before.length).toBeLessThan(100);
    const cursor = cursorStandIn();
    const handed: Json[] = [];
    let moved: Json | undefined;
    for (let page = 0; page < 20; page += 1) {
      if (page === 1) {
        // The last of the bookings, not handed on yet, moves to the day after tomorrow: behind the place.
        const place = Date.parse(handed.at(-1)!.starts_at);
        moved = booked.at(-1)!;
        expect(Date.parse(moved.starts_at)).toBeGreaterThan(place);
        const to = new Date(Date.now() + 2 * 86_400_000);
        to.setUTCHours(6, 0, 0, 0);
        const res = await w.control(`/clinic/appointments/${moved.id}`, {
          method: 'PATCH',
          body: { starts_at: to.toISOString(), force: true },
        });
        expect(res.status).toBe(200);
        expect(Date.parse(res.body.data.starts_at)).toBeLessThan(place);
      }
      const items = await transferPage<Json>(
        tester,
        performList('appointment_created'),
        { authData: w.authData, inputData: { transfer_from: yesterday } },
        page,
        cursor,
      );
      handed.push(...items);
      if (!items.length) break;
    }
    const ids = handed.map((a) => a.id);
    expect(ids.filter((id) => id === moved!.id)).toHaveLength(1);
    expect(new Set(ids).size).toBe(ids.length);
    expect([...ids].sort()).toEqual(before.map((a) => a.id).sort());
  } finally {
    jest.useRealTimers();
  }
});
