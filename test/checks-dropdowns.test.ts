import type { Bundle, ZObject } from 'zapier-platform-core';
import { App, appTester, AUTH, clinicApi, clinicPath, useNock } from './helpers';

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
  it('lists the invoices issued in the last 60 days, labelled by number, total and status', async () => {
    let issuedFrom = '';
    clinicApi()
      .get(clinicPath('/invoices'))
      .query((q) => {
        issuedFrom = String(q.issued_from);
        return q.page === '1' && q.per_page === '100';
      })
      .reply(200, {
        data: [
          {
            id: '01JDA5N2P8R4S6T8V0W2X4Y6Z8',
            number: 'INV-RYD-2026-018342',
            status: 'partially_paid',
            total_halalas: 46000,
            issued_at: '2026-11-21T11:20:45+03:00',
          },
          { id: '01JDA5N2P8R4S6T8V0W2X4Y6Z9' },
        ],
        meta: {},
      });

    const options = await appTester(triggerOf('invoice_list').perform, { authData: AUTH, meta: { page: 0 } });

    expect(options).toEqual([
      {
        id: '01JDA5N2P8R4S6T8V0W2X4Y6Z8',
        label: 'INV-RYD-2026-018342 · 460.00 SAR · partially paid 2026-11-21',
      },
      { id: '01JDA5N2P8R4S6T8V0W2X4Y6Z9', label: 'Invoice 01JDA5N2P8R4S6T8V0W2X4Y6Z9' },
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
