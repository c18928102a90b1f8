/**
 * Zapier Transfer end to end: the real app's performList in bulk read, over real HTTP, paging through the sandbox's
 * history (months of receipts and customers before the seed) until it answers [], compared with what the sandbox
 * holds, read directly.
 */
import { createAppTester } from 'zapier-platform-core';
import { transferAll } from '../support/transfer';
import { App, expectSarSiblings, startWorld, type Json, type World } from './app-helpers';

type Fn = (z: unknown, bundle: unknown) => unknown;
const performList = (key: string) =>
  (App.triggers as unknown as Record<string, { operation: { performList: Fn } }>)[key]!.operation.performList;

let w: World;
const tester = createAppTester(App) as unknown as (fn: Fn, bundle: object) => Promise<unknown>;

beforeAll(async () => {
  w = await startWorld({ history: { receipts: 400, invoices: 20, appointments: 20, customers: 250 } });
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
