/** The café chain's seed (sandbox/README.md, Seed data). */
import { isoLocal, type Random } from '../ids';
import SEED from '../data/seed.json';
import { cashTaken, giveBack, newSession, numberByArrival, saleLine, sellBasket } from './money';
import { newCustomer, newOrder, newStockLevel, orderLine } from './records';
import { DAY, idsAt, MIN, times } from './seed';
import type { ApiClientRecord, CashierData, OrderStatus, TillSession } from './types';
import { newCashierData } from './types';

const OPENING = '07:00';
const CLOSING = '23:00';

/** Ids of seeded objects tests and the README point at ('' and 0 where a sandbox without business data has none). */
const cashierRefs = (data: CashierData) => {
  const session = (status: TillSession['status'], branch: number) =>
    data.sessions.find((s) => s.status === status && s.branch_id === branch)?.id ?? '';
  const openJeddah = session('open', 2);
  return {
    ...SEED.cashier.refs,
    openSession: openJeddah,
    closedSession: session('closed', 1),
    receipt: data.receipts.find((r) => r.session_id === openJeddah && r.kind !== 'credit_note')?.id ?? '',
    creditNote: data.receipts.find((r) => r.kind === 'credit_note')?.id ?? '',
    ...idsAt(data.orders, SEED.cashier.refsAt.orders, ''),
    ...idsAt(data.customers, SEED.cashier.refsAt.customers, 0),
  };
};

export const seedCashier = (now: number, random: Random, full: boolean, clients: ApiClientRecord[]) => {
  const fixed = Date.parse('2023-05-14T08:00:00+03:00');
  const data = newCashierData(SEED.cashier.refs.tenantId);
  for (const { variants, modifier_group_ids, ...item } of SEED.cashier.catalogue) {
    data.items.push({
      ...item,
      default_price_halalas: variants[0]?.price_halalas ?? 0,
      variants: variants.map((v, i) => ({ ...v, is_default: i === 0 })),
      modifier_group_ids,
      combo_slots: [],
      created_at: isoLocal(fixed),
      updated_at: isoLocal(Math.min(now - 7 * DAY, fixed + 500 * DAY)),
    });
  }
  for (const branch of data.branches) {
    for (const { category_id, variants } of data.items) {
      for (const v of variants) {
        data.stock.push(
          newStockLevel({
            branch_id: branch.id,
            variant_id: v.id,
            qty: 20 + random.int(60),
            // Packaged goods keep a smaller stock than what the bar makes.
            reorder_point: category_id >= 6 ? 6 : 10,
            par_level: category_id >= 6 ? 24 : 40,
            updated_at: isoLocal(now - (1 + random.int(48)) * 60 * MIN),
          }),
        );
      }
    }
  }
  // Three levels low, one well above: the refs' lowStock and okStock.
  for (const [branch, variant, qty] of SEED.cashier.stockQty) {
    data.stock.find((s) => s.branch_id === branch && s.variant_id === variant)!.qty = qty!;
  }

  const t = times(now);
  // The tills open at 07:00 and close at 23:00, a café's day: today's are open, yesterday's closed. Before an
  // hour of trade has passed the open sessions are still yesterday's.
  const today = now - t.day(0, OPENING) >= 60 * MIN ? 0 : -1;
  for (const branch of data.branches) {
    for (const register of branch.registers) {
      if (full) {
        const opened = t.day(today - 1, OPENING);
        data.sessions.push(newSession(random, branch.id, register, opened, t.day(today - 1, CLOSING)));
      }
      data.sessions.push(newSession(random, branch.id, register, t.day(today, OPENING), null));
    }
  }
  if (!full) return { data, refs: cashierRefs(data) };
  /** A moment `share` of the way through a session's trading, to the minute: the open ones up to now. */
  const into = (s: TillSession, share: number) => {
    const opened = Date.parse(s.opened_at);
    const until = s.closed_at ? Date.parse(s.closed_at) : now;
    return opened + Math.round((share * (until - opened)) / MIN) * MIN;
  };

  const baskets = SEED.cashier.baskets as Array<Array<[number, number]>>;
  // Receipts arrive in the order the tills sync: by issue time, except the offline one below.
  const sales: Array<[number, TillSession, Array<[number, number]>, string | undefined]> = [];
  for (const [si, s] of data.sessions.entries()) {
    const count = s.status === 'closed' ? 3 : 2 + (si % 3);
    for (let k = 0; k < count; k += 1) {
      const at = into(s, (20 + k * 55 + si * 3) / 300);
      sales.push([at, s, baskets[(si + k) % baskets.length] ?? [[118, 1]], k % 3 === 2 ? 'cash' : undefined]);
    }
  }
  sales.sort((a, b) => a[0] - b[0]);
  for (const [at, s, basket, tender] of sales)
    data.receipts.push(sellBasket(data, random, s, basket, at, tender));
  const open = (branch: number) => data.sessions.find((s) => s.status === 'open' && s.branch_id === branch)!;
  const sale = data.receipts.find((r) => r.session_id === open(2).id)!;
  const noteAt = Date.parse(sale.issued_at) + 25 * MIN;
  data.receipts.push(giveBack(data, random, open(2), sale, sale.lines[sale.lines.length - 1]!, noteAt));
  // A till in Al Nakheel sold offline early in its session and synced ten minutes ago: it arrives last.
  const offline = SEED.cashier.offlineSale as Array<[number, number]>;
  data.receipts.push(sellBasket(data, random, open(3), offline, into(open(3), 0.2), 'cash', now - 10 * MIN));
  numberByArrival(data);
  for (const s of data.sessions.filter((x) => x.status === 'closed')) {
    // Register 1's drawer is 2.50 short.
    s.counted_cash_halalas =
      s.opening_float_halalas + cashTaken(data.receipts, s) - (s.register_id === 1 ? 250 : 0);
  }

  for (const [i, { consents, ...customer }] of SEED.cashier.customers.entries()) {
    const created = now - (120 - i * 17) * DAY;
    data.customers.push(
      newCustomer({
        id: 5521 + i,
        ...customer,
        consents: consents.map((c, k) => ({ ...c, at: isoLocal(created + k * 30 * DAY) })),
        created_at: isoLocal(created),
        updated_at: isoLocal(created + (consents.length - 1) * 30 * DAY),
      }),
    );
  }
  data.counters.customer = Math.max(...data.customers.map((c) => c.id));

  const shop = clients.find((c) => c.key === 'cashierNoWebhooks')!;
  for (const { in_min: inMin, basket, open_items: openItems, ...order } of SEED.cashier.orders) {
    const created = t.rel(inMin);
    const lines = (basket as Array<[number, number]>).map(([v, q], i) => {
      const { name, unit_price_halalas: unit } = saleLine(data, v, q);
      return orderLine(i + 1, v, name, q, unit);
    });
    for (const open of openItems ?? []) {
      lines.push(orderLine(lines.length + 1, null, open.name, 1, open.unit_price_halalas));
    }
    data.orders.push(
      newOrder({
        ...order,
        id: random.ulid(created),
        provider: shop.provider,
        client_id: shop.id,
        status: order.status as OrderStatus,
        lines,
        total_halalas: lines.reduce((n, l) => n + l.total_halalas, 0),
        created_at: isoLocal(created),
        updated_at: isoLocal(created + 4 * MIN),
      }),
    );
  }
  return { data, refs: cashierRefs(data) };
};
