/*
 * Zapier Transfer: performList in bulk read pages through a trigger's history, oldest first, then answers []. The
 * answers are recorded from the sandbox's history (scripts/record.ts, transfer-*); each test asserts the requests
 * it expects, page by page, and compares every item with the item a live delivery of the same object makes.
 */
import App from '../../index';
import { EVENTS } from '../../lib/hooks/events';
import type { HookEvent } from '../../lib/hooks/types';
import type { SubscribeData } from '../../lib/hooks/types';
import { sampleKeysOf } from '../../scripts/checks/definition';
import {
  body,
  definition,
  delivered,
  pathOf,
  queryOf,
  recorded,
  replayInOrder,
  reply,
  type Json,
} from '../fixtures';
import { given, recording } from '../support/recorder';
import {
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  clinicApi,
  clinicPath,
  contactOf,
  delivery,
  messageOf,
  useNock,
} from '../helpers';
import { cursorStandIn, transferAll, transferPage } from '../../harness/transfer';

useNock();
beforeEach(() => {
  (appTester as unknown as { zcacheTestObj: object }).zcacheTestObj = {};
});

type Fn = (z: unknown, bundle: unknown) => unknown;
type Item = Record<string, Json>;
const tester = (fn: Fn, bundle: object) => appTester(fn as never, bundle as never) as Promise<unknown>;
interface HookOp {
  perform: Fn;
  performList: Fn;
  canPaginate?: boolean;
}
const operation = (key: string) =>
  (App.triggers as unknown as Record<string, { operation: HookOp }>)[key]!.operation;
const rowOf = (key: string): HookEvent => EVENTS.find((e) => e.key === key)!;
const transfer = (key: string, inputData: object = {}) =>
  transferAll<Item>(tester, operation(key).performList, { authData: AUTH, inputData });

/**
 * The interceptor of a scenario's requests, answered in the order the app makes them (`replayInOrder`): each must be
 * the request recorded at its place, and every one recorded must be made. In record mode it takes whatever the app
 * asks and the recording follows the sandbox's answers, so no request of the scenario is taken from its file.
 */
const expectInOrder = (api: typeof clinicApi, path: string | RegExp, scenario: string) =>
  (recording ? api().persist() : api())
    .get(path)
    .query(true)
    .times(recording ? 1 : recorded(scenario).length)
    .reply(replayInOrder(scenario));

/** Every list page a scenario recorded, in order (its patient reads left out). */
const listPages = (scenario: string) =>
  recorded(scenario)
    .map((d, i) => ({ d, i }))
    .filter(({ d }) => Array.isArray(d.response?.data));

/**
 * The objects of pages read by key, as a transfer hands them on: each page's objects after the last one of the
 * page before (a page begins with the last object already seen).
 */
const byKey = (pages: Item[][]): Item[] => {
  const seen = new Set<string>();
  return pages.flat().filter((o) => !seen.has(o.id) && !!seen.add(o.id));
};

/**
 * The pages a list of 258 (then 55) objects is read in: each holds the last object of the one before, and reaches as
 * far past it as a page of at most 100 (25) can (lib/hooks/paging.ts, plan).
 */
const INVOICE_PAGES = [
  { page: 1, per_page: 100 },
  { page: 2, per_page: 99 },
  { page: 3, per_page: 98 },
];
const PAID_PAGES = [
  { page: 1, per_page: 25 },
  { page: 2, per_page: 24 },
  { page: 3, per_page: 23 },
];

/** Record mode: the history the transfer scenarios page through, enough for three pages of receipts and invoices. */
const TRANSFER_HISTORY = { receipts: 260, invoices: 250, appointments: 120, customers: 0 };
for (const scenario of [
  'transfer-receipts',
  'transfer-invoices',
  'transfer-invoices-paid-patients',
  'transfer-appointments-completed',
]) {
  given(scenario, { sandbox: { history: TRANSFER_HISTORY } });
}

const SECRET = 'whsec_transfer';
const TARGET_PATH = '/hooks/standard/1234/abcd5678/';

/**
 * The item perform makes of a signed delivery of `data`, in the envelope of the event's recorded delivery (the
 * live path the history items must look like).
 */
const liveItem = async (def: HookEvent, data: Item, inputData: object, n: number): Promise<Item> => {
  const subscribeData: SubscribeData = {
    id: 77,
    secret: SECRET,
    target_path: TARGET_PATH,
    event: def.event,
    api: def.api,
  };
  const envelope = { ...delivered(def.event), id: `evt_transfer_${n}`, data };
  const [item] = (await tester(operation(def.key).perform, {
    authData: AUTH,
    inputData,
    subscribeData,
    ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
  })) as Item[];
  return item!;
};

/** What only the live path knows: the delivery's event id and time, and what history leaves empty. */
const withoutEventFacts = (item: Item, more: string[] = []) => {
  const { event_id: _id, occurred_at: _at, ...rest } = item;
  for (const k of more) delete rest[k];
  return rest;
};

describe('New Receipt: the receipts cursor', () => {
  const scenario = 'transfer-receipts';
  const expectPages = () => expectInOrder(cashierApi, cashierPath('/receipts'), scenario);

  it('moves every receipt once, oldest first (arrival order), 100 a request, then []', async () => {
    expectPages();
    const result = await transfer('receipt_issued');
    const pages = listPages(scenario);
    // Each page after the first asks from where the page before said the next one begins.
    expect(pages.map(({ d }) => queryOf(d))).toEqual(
      pages.map((_, n) => ({
        ...(n === 0 ? {} : { since_id: body(scenario, pages[n - 1]!.i).meta.next_since_id }),
        per_page: '100',
      })),
    );
    const listed: Item[] = pages.flatMap(({ i }) => body(scenario, i).data);
    const receipts = listed.filter((r) => r.kind !== 'credit_note');
    expect(receipts.length).toBeGreaterThanOrEqual(250);
    expect(listed.length - receipts.length).toBeGreaterThan(0); // the cursor also holds credit notes
    // One call per recorded page, then one more that asks nothing (the cursor said there was no more).
    expect(result.map((p) => p.length)).toEqual([
      ...pages.map(({ i }) => body(scenario, i).data.filter((r: Item) => r.kind !== 'credit_note').length),
      0,
    ]);
    const items = result.flat();
    expect(items.map((r) => r.id)).toEqual(receipts.map((r) => r.id));
    expect(new Set(items.map((r) => r.id)).size).toBe(items.length);
    expect(body(scenario, pages.at(-1)!.i).meta.has_more).toBe(false);
  });

  it('gives each receipt exactly as a live delivery of it, its own time as occurred_at', async () => {
    expectPages();
    const items = (await transfer('receipt_issued')).flat();
    const pages = listPages(scenario);
    const def = rowOf('receipt_issued');
    const live = await liveItem(def, delivered('receipt.issued').data, {}, 0);
    const keys = sampleKeysOf(live).sort();
    for (const [n, item] of items.entries()) {
      if (n < 5 || n % 50 === 0) {
        const listed = pages.flatMap(({ i }) => body(scenario, i).data).find((r: Item) => r.id === item.id);
        expect(withoutEventFacts(item)).toEqual(withoutEventFacts(await liveItem(def, listed, {}, n + 1)));
      }
      expect(sampleKeysOf(item).sort()).toEqual(keys);
      expect(item.event_id).toBe(`receipt.issued:${item.id}`);
      expect(item.occurred_at).toBe(item.issued_at);
    }
  });

  it('New Credit Note asks the cursor for credit notes only', async () => {
    const pages = listPages(scenario);
    const first = definition(scenario, pages[0]!.i);
    const notes = first.response.data.filter((r: Item) => r.kind === 'credit_note');
    // hand-built: the recorded page's credit notes, as the cursor answers kind=credit_note at its end.
    cashierApi()
      .get(cashierPath('/receipts'))
      .query({ kind: 'credit_note', per_page: 100 })
      .reply(200, { data: notes, meta: { next_since_id: notes.at(-1).id, has_more: false, per_page: 100 } });
    const result = await transfer('credit_note_issued');
    expect(result.map((p) => p.map((r) => r.id))).toEqual([notes.map((r: Item) => r.id), []]);
  });

  it('page 0 starts from the beginning whatever an earlier transfer left in the cursor', async () => {
    const pages = listPages(scenario);
    cashierApi()
      .get(cashierPath('/receipts'))
      .query({ per_page: 100 })
      .reply(...reply(scenario, pages[0]!.i));
    const stale = cursorStandIn(JSON.stringify({ since: body(scenario, pages[1]!.i).meta.next_since_id }));
    const items = await transferPage<Item>(
      tester,
      operation('receipt_issued').performList,
      { authData: AUTH },
      0,
      stale,
    );
    expect(items[0]!.id).toBe(body(scenario, pages[0]!.i).data[0].id);
    expect(JSON.parse(stale.value!)).toEqual({ since: body(scenario, pages[0]!.i).meta.next_since_id });
  });

  it('a later page without the cursor Zapier keeps says the place is lost, and asks nothing', async () => {
    await expect(
      transferPage(tester, operation('receipt_issued').performList, { authData: AUTH }, 3, cursorStandIn()),
    ).rejects.toThrow(/no longer holds where this transfer stopped/);
  });

  it('a page of credit notes only is followed at once by the next, in the same call', async () => {
    const pages = listPages(scenario);
    const first = body(scenario, pages[0]!.i);
    const notes = first.data.filter((r: Item) => r.kind === 'credit_note');
    const receipts = first.data.filter((r: Item) => r.kind !== 'credit_note');
    // hand-built: a cursor page that happens to hold credit notes only, then the receipts after them.
    cashierApi()
      .get(cashierPath('/receipts'))
      .query({ per_page: 100 })
      .reply(200, { data: notes, meta: { next_since_id: notes.at(-1).id, has_more: true, per_page: 100 } });
    cashierApi()
      .get(cashierPath('/receipts'))
      .query({ since_id: notes.at(-1).id, per_page: 100 })
      .reply(200, { data: receipts, meta: { next_since_id: 'R-LAST', has_more: true, per_page: 100 } });
    const cursor = cursorStandIn();
    const items = await transferPage<Item>(
      tester,
      operation('receipt_issued').performList,
      { authData: AUTH },
      0,
      cursor,
    );
    expect(items.map((r) => r.id)).toEqual(receipts.map((r: Item) => r.id));
    expect(JSON.parse(cursor.value!)).toEqual({ since: 'R-LAST' });
  });

  it('asks the interface for the branch the Zap filters on', async () => {
    const pages = listPages(scenario);
    const first = body(scenario, pages[0]!.i);
    // hand-built: the recorded page's receipts of branch 2, as the cursor answers branch_id=2.
    const branch2 = first.data.filter((r: Item) => r.branch_id === 2);
    cashierApi()
      .get(cashierPath('/receipts'))
      .query({ branch_id: '2', per_page: 100 })
      .reply(200, { data: branch2, meta: { next_since_id: first.meta.next_since_id, has_more: false } });
    const result = await transfer('receipt_issued', { branch_id: '2' });
    expect(result.flat().map((r) => r.id)).toEqual(
      branch2.filter((r: Item) => r.kind !== 'credit_note').map((r: Item) => r.id),
    );
  });
});

describe('New Invoice: pages of the invoices list', () => {
  const scenario = 'transfer-invoices';
  const expectPages = () => expectInOrder(clinicApi, clinicPath('/invoices'), scenario);
  const listedOnce = (): Item[] => byKey(listPages(scenario).map(({ i }) => body(scenario, i).data));

  it('moves every invoice once, oldest first, up to 100 a page, one request a page, then []', async () => {
    expectPages();
    const result = await transfer('invoice_issued', { include_patient: 'false' });
    const pages = listPages(scenario);
    expect(pages.map(({ d }) => queryOf(d))).toEqual(
      INVOICE_PAGES.map((q) => ({ page: String(q.page), per_page: String(q.per_page) })),
    );
    const listed = listedOnce();
    expect(listed.length).toBeGreaterThanOrEqual(250);
    expect(body(scenario, pages[0]!.i).meta.total).toBe(listed.length);
    // Each page after the first begins with an invoice of the one before: the witness that none was skipped.
    pages.slice(1).forEach(({ i }, n) => {
      const before = body(scenario, pages[n]!.i).data.map((inv: Item) => inv.id);
      expect(before).toContain(body(scenario, i).data[0].id);
    });
    expect(result.map((p) => p.length)).toEqual([100, 98, listed.length - 198, 0]);
    const items = result.flat();
    expect(items.map((r) => r.id)).toEqual(listed.map((r) => r.id));
    expect(new Set(items.map((r) => r.id)).size).toBe(items.length);
    const times = items.map((r) => Date.parse(r.issued_at));
    expect(times).toEqual([...times].sort((a, b) => a - b));
  });

  it('gives each invoice exactly as a live delivery of it', async () => {
    expectPages();
    const input = { include_patient: 'false' };
    const items = (await transfer('invoice_issued', input)).flat();
    const def = rowOf('invoice_issued');
    const keys = Object.keys(await liveItem(def, delivered('invoice.issued').data, input, 0)).sort();
    const listed = listedOnce();
    for (const [n, item] of items.entries()) {
      expect(Object.keys(item).sort()).toEqual(keys);
      if (n < 5 || n % 25 === 0) {
        expect(withoutEventFacts(item)).toEqual(
          withoutEventFacts(await liveItem(def, listed[n]!, input, n + 1)),
        );
      }
      expect(item.occurred_at).toBe(item.issued_at);
    }
  });

  it('reads on in the same call while a filter the list cannot apply keeps nothing, then goes on from there', async () => {
    const pages = listPages(scenario);
    const [first, second] = pages;
    const all: Item[] = body(scenario, second!.i).data;
    // The first invoice of page 2 is the last of page 1, already passed over.
    const branch2 = all.slice(1).filter((inv) => inv.branch_id === 2);
    // hand-built: page 1 holds no invoice of the two branches chosen (several values: the app checks them), page 2 some.
    clinicApi()
      .get(clinicPath('/invoices'))
      .query(INVOICE_PAGES[0]!)
      .reply(200, {
        ...body(scenario, first!.i),
        data: body(scenario, first!.i).data.map((i: Item) => ({ ...i, branch_id: 1 })),
      });
    clinicApi()
      .get(clinicPath('/invoices'))
      .query(INVOICE_PAGES[1]!)
      .reply(...reply(scenario, second!.i));
    const cursor = cursorStandIn();
    const input = { include_patient: 'false', branch_id: '2,3' };
    const items = await transferPage<Item>(
      tester,
      operation('invoice_issued').performList,
      { authData: AUTH, inputData: input },
      0,
      cursor,
    );
    expect(items.map((i) => i.id)).toEqual(branch2.map((i) => i.id));
    const last = all.at(-1)!;
    expect(JSON.parse(cursor.value!)).toEqual({
      at: 198,
      after: [Date.parse(last.issued_at), last.id],
      began: expect.any(Number),
    });
  });

  it('stops with a message after 5 pages that keep nothing, keeping the place', async () => {
    const pages = listPages(scenario);
    // hand-built: 1,000 invoices of branch 1 only (the recorded page's, one a minute), as a long run of one branch
    // would answer, paged as the sandbox pages.
    const template: Item = body(scenario, pages[0]!.i).data[0];
    const invoices = Array.from({ length: 1000 }, (_, n) => ({
      ...template,
      id: `01K00000000000000000${String(n).padStart(6, '0')}`,
      issued_at: new Date(Date.parse('2025-01-01T06:00:00Z') + n * 60_000).toISOString(),
      branch_id: 1,
    }));
    const asked: Array<{ page: number; per_page: number }> = [];
    clinicApi()
      .get(clinicPath('/invoices'))
      .query(true)
      .times(5)
      .reply((uri) => {
        const q = new URL(uri, 'http://x').searchParams;
        const page = Number(q.get('page'));
        const perPage = Number(q.get('per_page'));
        asked.push({ page, per_page: perPage });
        const data = invoices.slice((page - 1) * perPage, page * perPage);
        return [200, { data, meta: { total: invoices.length, page, per_page: perPage } }];
      });
    const cursor = cursorStandIn();
    const run = transferPage(
      tester,
      operation('invoice_issued').performList,
      { authData: AUTH, inputData: { include_patient: 'false', branch_id: '2,3' } },
      0,
      cursor,
    );
    await expect(run).rejects.toThrow(/None of the next 480 objects passed this Zap's filters/);
    expect(asked).toEqual([
      { page: 1, per_page: 100 },
      { page: 2, per_page: 99 },
      { page: 3, per_page: 98 },
      { page: 4, per_page: 97 },
      { page: 5, per_page: 96 },
    ]);
    const last = invoices[479]!;
    expect(JSON.parse(cursor.value!)).toEqual({
      at: 480,
      after: [Date.parse(last.issued_at), last.id],
      began: expect.any(Number),
    });
  });

  it('checks Transfer From and Transfer Before before any request', async () => {
    const run = transfer('invoice_issued', { transfer_from: '2026-03-01', transfer_to: '2026-02-30' });
    await expect(run).rejects.toThrow(/Transfer Before: is not a real date/);
    const order = transfer('invoice_issued', { transfer_from: '2026-03-01', transfer_to: '2026-02-01' });
    await expect(order).rejects.toThrow(/Transfer Before: must be later than Transfer From/);
  });
});

describe('Invoice Paid with Include Patient Details: 25 a page, each patient read once a page', () => {
  const scenario = 'transfer-invoices-paid-patients';
  const input = { transfer_from: '2026-01-01', transfer_to: '2026-05-01' };
  const LIST = { status: 'paid', issued_from: '2026-01-01', issued_to: '2026-05-01' };

  /** The scenario's requests, in order: the list pages and the patient reads of each. */
  const expectAll = () =>
    expectInOrder(clinicApi, new RegExp(`^${clinicPath('')}/(invoices|patients/[^/]+)$`), scenario);

  it('moves the paid invoices of the dates given with their patients, reading each distinct patient once a page', async () => {
    expectAll();
    const result = await transfer('invoice_paid', input);
    const all = recorded(scenario);
    const pages = listPages(scenario);
    expect(pages.map(({ d }) => queryOf(d))).toEqual(
      PAID_PAGES.map((q) => ({ ...LIST, page: String(q.page), per_page: String(q.per_page) })),
    );
    // Each page after the first begins at or before the last invoice of the one before.
    const handed: Item[][] = [];
    pages.forEach(({ i }) => {
      const seen = new Set(handed.flat().map((r) => r.id));
      handed.push(body(scenario, i).data.filter((r: Item) => !seen.has(r.id)));
    });
    expect(result.map((p) => p.length)).toEqual([...handed.map((p) => p.length), 0]);
    expect(result.slice(0, -1).every((p) => p.length <= 25)).toBe(true);
    pages.forEach(({ i }, n) => {
      const next = pages[n + 1]?.i ?? all.length;
      const reads = all.slice(i + 1, next).map((d) => d.path.split('/').at(-1));
      const patients = [...new Set(handed[n]!.map((r: Item) => r.patient_id))];
      expect(reads).toEqual(patients);
    });
    const contacts = new Map(
      all
        .filter((d) => !Array.isArray(d.response?.data))
        // A patient without consent has no phone or email in the answer: empty fields on the item.
        .map((d) => [
          d.response.data.id,
          Object.fromEntries(Object.entries(contactOf(d.response.data)).map(([k, v]) => [k, v ?? null])),
        ]),
    );
    for (const item of result.flat()) {
      expect(item.status).toBe('paid');
      expect(item.issued_at >= '2026-01-01' && item.issued_at < '2026-05-01').toBe(true);
      expect(item.patient).toEqual(contacts.get(item.patient_id));
      // The list does not show when an invoice was paid: empty, as the key a live item has.
      expect(item.paid_at).toBeNull();
      expect(item.occurred_at).toBe(item.issued_at);
    }
  });

  it('has the keys of a live Invoice Paid item', async () => {
    // The live delivery's patient, answered with a recorded patient (only the keys are compared); read before the
    // transfer, whose interceptor takes every patient read in record mode.
    clinicApi()
      .get(clinicPath(`/patients/${delivered('invoice.paid').data.patient_id}`))
      .reply(...reply('find-patient-by-id'));
    const live = await liveItem(rowOf('invoice_paid'), delivered('invoice.paid').data, {}, 0);
    expectAll();
    const [first] = (await transfer('invoice_paid', input)).flat();
    expect(live.paid_at).toEqual(expect.any(String));
    expect(sampleKeysOf(first).sort()).toEqual(sampleKeysOf(live).sort());
  });

  it('a 429 on a patient read fails the page for Zapier to ask again, and keeps the place', async () => {
    const [page] = listPages(scenario);
    clinicApi()
      .get(clinicPath('/invoices'))
      .query(queryOf(definition(scenario, page!.i)))
      .reply(...reply(scenario, page!.i));
    clinicApi()
      .get(clinicPath(pathOf(definition(scenario, 1))))
      .reply(...reply('clinic-errors-en', { status: 429 }));
    const cursor = cursorStandIn();
    const run = transferPage(
      tester,
      operation('invoice_paid').performList,
      { authData: AUTH, inputData: input },
      0,
      cursor,
    );
    await expect(run).rejects.toMatchObject({ name: 'ThrottledError' });
    expect(cursor.value).toBeNull();
  });
});

describe('a status trigger: Appointment Completed', () => {
  const scenario = 'transfer-appointments-completed';

  it('moves the appointments completed now, with no change record: changed_fields empty, previous_status null', async () => {
    expectInOrder(clinicApi, clinicPath('/appointments'), scenario);
    const input = { include_patient: 'false' };
    const result = await transfer('appointment_completed', input);
    const pages = listPages(scenario);
    expect(pages.map(({ d }) => queryOf(d))).toEqual(
      pages.map((_, n) => ({ status: 'completed', page: String(n + 1), per_page: '100' })),
    );
    const listed: Item[] = pages.flatMap(({ i }) => body(scenario, i).data);
    expect(result.flat().map((a) => a.id)).toEqual(listed.map((a) => a.id));
    expect(result.at(-1)).toEqual([]);
    const def = rowOf('appointment_completed');
    // The live item of the same appointment, delivered as an update whose status became completed.
    const live = await liveItem(
      def,
      { ...listed[0], changes: { status: ['in_progress', 'completed'] } },
      input,
      0,
    );
    const [first] = result[0]!;
    expect(Object.keys(first!).sort()).toEqual(Object.keys(live).sort());
    expect(first).toMatchObject({
      changed_fields: [],
      previous_status: null,
      occurred_at: listed[0]!.updated_at,
    });
    expect(withoutEventFacts(first!, ['changed_fields', 'previous_status'])).toEqual(
      withoutEventFacts(live, ['changed_fields', 'previous_status']),
    );
  });
});

describe('outside a transfer, and events without a list', () => {
  it('every trigger with a list can page (z.cursor keeps the place); the others cannot', () => {
    for (const def of EVENTS) expect(!!operation(def.key).canPaginate).toBe(!!def.transfer);
    expect(EVENTS.filter((e) => !e.transfer).map((e) => e.key)).toEqual([
      'appointment_rescheduled',
      'claim_updated',
      'patient_erased',
      'session_closed',
      'order_status_changed',
    ]);
  });

  it.each(EVENTS.filter((e) => !e.transfer).map((e) => [e.key] as const))(
    '%s has no past to move: [] at once, nothing asked',
    async (key) => {
      await expect(transfer(key)).resolves.toEqual([[]]);
    },
  );

  it.each(EVENTS.filter((e) => e.transfer).map((e) => [e.key] as const))(
    '%s: "load more" outside a transfer asks nothing and finds nothing beyond the recent objects',
    async (key) => {
      const items = await tester(operation(key).performList, {
        authData: AUTH,
        inputData: {},
        meta: { page: 1 },
      });
      expect(items).toEqual([]);
    },
  );

  it('the message of a lost place is the app’s own, in the connection’s language', async () => {
    const error = await transferPage(
      tester,
      operation('invoice_issued').performList,
      { authData: { ...AUTH, language: 'ar' } },
      2,
      cursorStandIn('not json'),
    ).catch((e: unknown) => e);
    expect(messageOf(error)).toMatch(/ابدأ النقل من جديد/);
  });
});
