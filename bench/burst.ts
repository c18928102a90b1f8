/** A burst of 300 Create Order actions against the interfaces' 120 requests a minute: each done once, none lost. */
import { createAppTester } from 'zapier-platform-core';
import App from '../index';
import { startSandbox } from '../sandbox';
import { ops, table, waitOutThrottle } from './shared';

export const burst = async () => {
  const timeScale = Number(process.env.BENCH_TIME_SCALE ?? 10);
  const sb = await startSandbox({ port: 0, quiet: true, timeScale, holdBackMs: 0 });
  try {
    const authData = { cashier_api_token: sb.tokens.cashierOwner, cashier_base_url: sb.cashierBaseUrl };
    const tester = createAppTester(App);
    const perform = ops('creates').create_order!.operation.perform!;
    const count = 300;
    const results = new Map<string, { id: string; tries: number }>();
    let throttled = 0;
    const started = Date.now();
    const one = async (i: number) => {
      const external_id = `BENCH-BURST-${i}`;
      for (let tries = 1; ; tries += 1) {
        try {
          const order = (await tester(
            perform as never,
            {
              authData,
              inputData: {
                external_id,
                branch_id: sb.refs.cashier.branchRiyadh,
                lines: [{ sku: sb.refs.cashier.variantSku, qty: 1 }],
              },
            } as never,
          )) as { id: string };
          results.set(external_id, { id: order.id, tries });
          return;
        } catch (e) {
          await waitOutThrottle(e, timeScale);
          throttled += 1;
        }
      }
    };
    const queue = Array.from({ length: count }, (_, i) => i);
    await Promise.all(
      Array.from({ length: 8 }, async () => {
        for (let i = queue.shift(); i !== undefined; i = queue.shift()) await one(i);
      }),
    );
    const created = sb.requests({ method: 'POST', path: /\/orders$/ }).filter((q) => q.status === 201).length;
    const ids = new Set([...results.values()].map((v) => v.id));
    table(
      `Burst of ${count} Create Order actions against 120 requests a minute (sandbox clock ×${timeScale})`,
      ['figure', 'value'],
      [
        ['actions done', `${results.size} of ${count}`],
        ['distinct orders returned', ids.size],
        ['orders created at the sandbox (201)', created],
        ['429 answers honoured (Retry-After)', throttled],
        ['sandbox time', `${(((Date.now() - started) * timeScale) / 60000).toFixed(1)} min`],
        ['real time', `${((Date.now() - started) / 1000).toFixed(1)} s`],
        [
          'lost or doubled',
          results.size === count && ids.size === count && created === count ? 'none' : 'SOME',
        ],
      ],
    );
  } finally {
    await sb.close();
  }
};
