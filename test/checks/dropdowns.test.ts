import type { Bundle, ZObject } from 'zapier-platform-core';
import { body, replay, type Json } from '../fixtures';
import { clockAtRecording } from '../support/recorder';
import { App, appTester, AUTH, clinicApi, clinicPath, useNock } from '../helpers';

/*
 * The dropdown lists added so every id field has one (Zapier checks D004, D014): invoices from the clinic, and
 * the cashier's orders, receipts and till sessions, which the interface cannot list and which therefore offer
 * nothing (the id is mapped from an earlier step).
 */

type Option = { id: string; label: string };
type Perform = (z: ZObject, bundle: Bundle) => Promise<Option[]>;

const triggerOf = (key: string) => {
  const trigger = App.triggers?.[key];
  const operation = trigger?.operation as unknown as { perform?: Perform; canPaginate?: boolean } | undefined;
  if (!trigger || typeof operation?.perform !== 'function')
    throw new Error(`no trigger ${key} with a perform`);
  return { display: trigger.display, perform: operation.perform, canPaginate: operation.canPaginate };
};

const DAY = 24 * 3600 * 1000;

useNock();

describe('invoice_list', () => {
  beforeEach(clockAtRecording);
  afterEach(() => jest.useRealTimers());

  it('lists the invoices issued in the last 60 days, labelled by number, total and status', async () => {
    let issuedFrom = '';
    const page = body('dropdown-invoices');
    // hand-built last row: an invoice without number, total or status, which the sandbox never lists.
    const bare = { id: '01JDA5N2P8R4S6T8V0W2X4Y6Z9' };
    clinicApi()
      .get(clinicPath('/invoices'))
      .query((q) => {
        issuedFrom = String(q.issued_from);
        return q.page === '1' && q.per_page === '100';
      })
      .reply(replay('dropdown-invoices', 0, (answer) => ({ ...answer, data: [...answer.data, bare] })));

    const options = await appTester(triggerOf('invoice_list').perform, { authData: AUTH, meta: { page: 0 } });

    expect(page.data.length).toBeGreaterThan(0);
    expect(options).toEqual([
      ...page.data.map((i: Json) => ({
        id: i.id,
        label: `${i.number} · ${(i.total_halalas / 100).toFixed(2)} SAR · ${i.status.replace(/_/g, ' ')} ${i.issued_at.slice(0, 10)}`,
      })),
      { id: bare.id, label: `Invoice ${bare.id}` },
    ]);
    expect(issuedFrom).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    const daysAgo = (Date.now() - Date.parse(`${issuedFrom}T00:00:00+03:00`)) / DAY;
    expect(daysAgo).toBeGreaterThanOrEqual(59);
    expect(daysAgo).toBeLessThanOrEqual(61);
    expect(triggerOf('invoice_list').canPaginate).toBe(true);
  });
});

describe.each(['order_list', 'receipt_list', 'till_session_list'])('%s', (key) => {
  it('offers nothing, without asking the interface, and no "load more"', async () => {
    const { perform, canPaginate, display } = triggerOf(key);

    await expect(appTester(perform, { authData: AUTH, meta: { page: 0 } })).resolves.toEqual([]);
    expect(canPaginate).toBe(false);
    expect(display.hidden).toBe(true);
    expect(display.description).toMatch(/mapped from an earlier step/);
  });
});
