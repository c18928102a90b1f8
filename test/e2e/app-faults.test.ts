/**
 * What goes wrong between the app and the partner interfaces, end to end against the sandbox: a rotated
 * signing secret, a Zap that is gone (410), the rate limit (429), and a delivery the sender repeats after the
 * Zap already took it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { SubscribeData } from '../../lib/hooks/types';
import { failure, frontDeskBooking, startWorld, type Json, type World } from './app-helpers';

let w: World;

beforeAll(async () => {
  w = await startWorld();
});
afterAll(async () => {
  await w?.close();
});

const subscribeDataOf = (hook: string) => w.intake.subscribeData(hook) as unknown as SubscribeData;
const subscriptionOf = (hook: string) =>
  w.sb.subscriptions().find((s) => s.id === Number(subscribeDataOf(hook).id));

/** An appointment booked at the front desk, then cancelled there: appointment.cancelled. */
const cancelAtFrontDesk = async () => {
  const booked = await frontDeskBooking(w);
  await w.control(`/clinic/appointments/${booked.id}`, {
    method: 'PATCH',
    body: { status: 'cancelled', cancel_reason: 'clinic' },
  });
  await w.sb.settle();
  return booked.id as string;
};

/** A claim sent to the payer: one claim.updated. */
const fileClaim = async () => {
  const invoice = await w.control('/clinic/invoices', {
    body: { patient_id: w.sb.refs.clinic.patient, lines: [{ unit_halalas: 10_000 }] },
  });
  const claim = await w.control('/clinic/claims', { body: { invoice_id: invoice.body.data.id } });
  await w.sb.settle();
  return claim.body.data.id as string;
};

const addCustomer = async () => {
  const res = await w.control('/cashier/customers', { body: { name: 'E2E', marketing_consent: true } });
  await w.sb.settle();
  return res.body.data.id as number;
};

describe('app: a rotated signing secret', () => {
  it('refuses the delivery with a HaltedError that says to turn the Zap off and on; on again, it works', async () => {
    const hook = await w.intake.subscribe('appointment_cancelled');
    const { id } = subscribeDataOf(hook);
    const rotated = await w.clinic(`/webhooks/${id}/rotate`, { method: 'POST' });
    expect(rotated.status).toBe(200);
    expect(rotated.body.secret).not.toBe(subscribeDataOf(hook).secret);

    await cancelAtFrontDesk();
    const [run] = await w.intake.waitForRuns(hook, 1, 3000);
    expect(run?.items).toEqual([]);
    expect(run?.error).toMatchObject({ name: 'HaltedError' });
    expect(run?.error?.message).toMatch(/signature does not match/);
    expect(run?.error?.message).toMatch(/turn the Zap off and on/);
    // Zapier acknowledged it: the sandbox counts the delivery as sent, and does not retry.
    expect(w.sb.deliveries({ subscriptionId: Number(id) })[0]).toMatchObject({ status: 'sent', attempts: 1 });

    // Turning the Zap off and on subscribes anew, with the new subscription's secret.
    await w.intake.unsubscribe(hook);
    const again = await w.intake.subscribe('appointment_cancelled');
    const cancelled = await cancelAtFrontDesk();
    const [ok] = await w.intake.waitForRuns(again, 1, 3000);
    expect(ok?.error).toBeUndefined();
    expect(ok?.items).toEqual([expect.objectContaining({ id: cancelled, status: 'cancelled' })]);
    await w.intake.unsubscribe(again);
  });
});

describe('app: a Zap that is gone', () => {
  it.each([
    ['claim_updated', fileClaim],
    ['customer_created', addCustomer],
  ] as const)(
    '%s: the intake answers 410 and the sandbox switches the subscription off',
    async (key, cause) => {
      const hook = await w.intake.subscribe(key);
      expect(subscriptionOf(hook)).toMatchObject({ status: 'active' });
      w.intake.drop(hook);
      await cause();
      expect(subscriptionOf(hook)).toMatchObject({ status: 'disabled', disabled_reason: 'gone' });
      const [delivery] = w.sb.deliveries({ subscriptionId: Number(subscribeDataOf(hook).id) });
      expect(delivery).toMatchObject({ status: 'dead', attempts: 1, last_http: 410 });
      expect(w.intake.runs(hook)).toEqual([]);
      // A later event is not sent at all.
      await cause();
      expect(w.sb.deliveries({ subscriptionId: Number(subscribeDataOf(hook).id) })).toHaveLength(1);
      // Removing what is left of it is harmless (the app counts a 404 as gone too).
      await expect(w.intake.unsubscribe(hook)).resolves.toEqual({ removed: true });
      await expect(w.intake.unsubscribe(hook)).resolves.toEqual({ removed: false });
    },
  );
});

/**
 * A gateway in front of the intake that passes each delivery on and, for the first `lose` of them, loses the
 * intake's acknowledgement (answers 502 after the intake has run the Zap): the sender then repeats the delivery.
 */
const startLossyGateway = async (intakeUrl: string) => {
  let lose = 0;
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const headers: Record<string, string> = {};
      for (const [k, v] of Object.entries(req.headers)) {
        if (typeof v === 'string' && (k.startsWith('x-partner-') || k === 'content-type')) headers[k] = v;
      }
      void fetch(`${intakeUrl}${req.url ?? '/'}`, { method: 'POST', headers, body: Buffer.concat(chunks) })
        .then(async (answer) => {
          await answer.text();
          if (lose > 0) {
            lose -= 1;
            res.writeHead(502).end('acknowledgement lost');
          } else res.writeHead(answer.status).end();
        })
        .catch(() => res.writeHead(504).end());
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    loseNext: (n: number) => {
      lose = n;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
};

describe('app: a delivery repeated with the same event id', () => {
  let gateway: Awaited<ReturnType<typeof startLossyGateway>>;
  beforeAll(async () => {
    gateway = await startLossyGateway(w.intake.url);
  });
  afterAll(async () => {
    await gateway.close();
  });

  it('triggers the Zap once, whether the sandbox retries it or it is re-sent', async () => {
    const hook = await w.intake.subscribe('claim_updated');
    const { id, target_path } = subscribeDataOf(hook);
    // The signature covers the path only, so the hook's path behind the gateway still verifies.
    const moved = await w.clinic(`/webhooks/${id}`, {
      method: 'PUT',
      body: { target_url: `${gateway.url}${target_path}` },
    });
    expect(moved.status).toBe(200);

    // 1. The sender's own retry, 60 s later on the sandbox clock.
    gateway.loseNext(1);
    const claim = await fileClaim();
    const [first] = await w.intake.waitForRuns(hook, 1, 3000);
    expect(first?.error).toBeUndefined();
    expect(first?.items).toEqual([expect.objectContaining({ id: claim, status: 'submitted' })]);
    const [delivery] = w.sb.deliveries({ subscriptionId: Number(id) });
    expect(delivery).toMatchObject({ status: 'failed', attempts: 1, last_http: 502 });
    await w.sb.clock.advance(60_000);
    const runs = await w.intake.waitForRuns(hook, 2, 3000);
    expect(runs[1]).toEqual({ at: expect.any(Number), items: [] });
    const retried = w.sb.deliveries({ subscriptionId: Number(id) });
    expect(retried).toEqual([
      expect.objectContaining({
        id: delivery?.id,
        event_id: delivery?.event_id,
        status: 'sent',
        attempts: 2,
      }),
    ]);

    // 2. A re-send of a delivery whose acknowledgement was lost.
    gateway.loseNext(1);
    await fileClaim();
    await w.intake.waitForRuns(hook, 3, 3000);
    expect(w.intake.runs(hook)[2]?.items).toHaveLength(1);
    const [, second] = w.sb.deliveries({ subscriptionId: Number(id) });
    expect(second).toMatchObject({ status: 'failed' });
    const resent = await w.control(`/deliveries/${second?.id}/resend`, { method: 'POST' });
    expect(resent.body.data).toMatchObject({ event_id: second?.event_id, status: 'sent', attempts: 2 });
    const all = await w.intake.waitForRuns(hook, 4, 3000);
    expect(all[3]).toEqual({ at: expect.any(Number), items: [] });
    expect(w.intake.items(hook)).toHaveLength(2);
    await w.intake.unsubscribe(hook);
  });
});

describe('app: the rate limit', () => {
  afterEach(async () => {
    w.sb.config.rateLimitPerMinute = 1000;
    await w.control('/rate-limits/reset', { method: 'POST' });
    w.sb.clock.setTimeScale(1);
  });

  it.each([
    ['clinic', 'find_patient', () => ({ patient_id: w.sb.refs.clinic.patient }), '/patients'],
    ['cashier', 'find_item', () => ({ item_id: String(w.sb.refs.cashier.item) }), '/items'],
  ] as const)(
    '%s: over the limit, %s throws a ThrottledError that waits as long as Retry-After says',
    async (api, key, input, path) => {
      // The clock stands still, so the window's remaining time is known exactly.
      w.sb.clock.setTimeScale(0);
      await w.control('/rate-limits/reset', { method: 'POST' });
      const config = await w.control('/config', { method: 'PATCH', body: { rate_limit_per_minute: 2 } });
      expect(config.body.data.rate_limit_per_minute).toBe(2);

      expect(await w.run<Json[]>('searches', key, input())).toHaveLength(1);
      await w.sb.clock.advance(17_000);
      expect(await w.run<Json[]>('searches', key, input())).toHaveLength(1);
      const error = await failure(w.run('searches', key, input()));
      expect(error.name).toBe('ThrottledError');
      const { delay, message } = JSON.parse(error.message);

      const direct = await (api === 'clinic' ? w.clinic : w.cashier)(path);
      expect(direct.status).toBe(429);
      expect(direct.body.error).toBe('rate_limited');
      expect(delay).toBe(Number(direct.headers.get('retry-after')));
      expect(delay).toBe(43);
      expect(message).toMatch(/rate limit/i);
    },
  );
});
