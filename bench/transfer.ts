/**
 * Zapier Transfer (moving past data): calls and time to move 1,000 receipts, and invoices with and without their
 * patients, from the sandbox's history.
 */
import { createAppTester } from 'zapier-platform-core';
import App from '../index';
import { appConnection, startSandbox } from '../sandbox';
import { cursorStandIn, transferPage } from '../harness/transfer';
import { ops, table, waitOutThrottle, type Fn } from './shared';

/**
 * Transfer as Zapier runs it: performList in bulk read, page 0, 1, 2… until [], the cursor kept between pages, a
 * ThrottledError answered by asking the same page again after its delay. Requests are counted at the sandbox.
 */
export const transfer = async () => {
  const timeScale = Number(process.env.BENCH_TIME_SCALE ?? 10);
  // 975 past sales receipts and the seed’s 25 of the last day: 1,000 receipts (and the credit notes between them).
  const sb = await startSandbox({
    port: 0,
    quiet: true,
    timeScale,
    holdBackMs: 0,
    history: { receipts: 975, invoices: 600, appointments: 40, customers: 0 },
  });
  try {
    const authData = appConnection(sb);
    const tester = createAppTester(App) as unknown as (fn: Fn, bundle: object) => Promise<unknown>;
    const rows: Array<Array<string | number>> = [];
    const run = async (name: string, key: string, inputData: object, api: RegExp) => {
      sb.resetRequests();
      const cursor = cursorStandIn();
      const ids: unknown[] = [];
      let pages = 0;
      let throttled = 0;
      let slowest = 0;
      let most = 0;
      const started = Date.now();
      for (let page = 0; ;) {
        const before = sb.requestCount();
        const t = Date.now();
        let items: Array<{ id: unknown }>;
        try {
          items = await transferPage(
            tester,
            ops('triggers')[key]!.operation.performList!,
            { authData, inputData },
            page,
            cursor,
          );
        } catch (e) {
          await waitOutThrottle(e, timeScale);
          throttled += 1;
          continue;
        }
        slowest = Math.max(slowest, Date.now() - t);
        most = Math.max(most, sb.requestCount() - before);
        pages += 1;
        if (!items.length) break;
        ids.push(...items.map((i) => i.id));
        page += 1;
      }
      const ms = Date.now() - started;
      rows.push([
        name,
        ids.length,
        new Set(ids).size === ids.length ? 'once each' : 'REPEATS',
        pages,
        sb.requestCount({ path: api }),
        sb.requestCount(),
        most,
        throttled,
        `${(ms / 1000).toFixed(1)} s`,
        `${slowest} ms`,
      ]);
    };
    await run('New Receipt (cursor, 100 a page)', 'receipt_issued', {}, /\/receipts$/);
    await run(
      'New Invoice, no patient (100 a page)',
      'invoice_issued',
      { include_patient: 'false' },
      /\/invoices$/,
    );
    await run('Invoice Paid with patients (25 a page)', 'invoice_paid', {}, /\/invoices$/);
    table(
      `Zapier Transfer against 120 requests a minute (sandbox clock ×${timeScale}; 429s waited out at that speed)`,
      [
        'transfer',
        'objects',
        '',
        'calls',
        'list requests',
        'all requests',
        'most in a call',
        '429s',
        'real time',
        'slowest call',
      ],
      rows,
    );
  } finally {
    await sb.close();
  }
};
