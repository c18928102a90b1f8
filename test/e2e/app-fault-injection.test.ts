/**
 * Every fault the sandbox can inject (an error status, an answer slower than the app's time-out, a reset
 * connection, malformed JSON, a proxy's HTML page, an empty body, a body cut short) against a representative
 * operation of every family: the connection test, a hook's performList on each interface, a dropdown page on
 * each, every search and every action. Each operation either succeeds with a correct result or fails with a
 * clear message (it names the interface and says what happened); none hangs; and an action whose answer was lost
 * after the interface performed it (`when: 'after'`), run again as a Zapier replay would, leaves one object.
 *
 * A baseline without a fault proves every operation's check and replay. The app's time-out is 3 s here
 * (./short-timeout, imported before the app); a hang fails its case at jest's per-case time-out. afterAll reports
 * (VERBOSE=1 prints it) faults × operations with the outcomes and the slowest case of each operation.
 *
 * Each case has an API client of its own, and its fault matches only that client's token: the cases that wait out
 * the time-out run together, before the others, without taking each other's faults.
 */
import { REQUEST_TIMEOUT_MS } from './short-timeout';
import { abilitiesOf, type FaultSpec, type FaultWhen } from '../../sandbox';
import { freeSlot, startWorld, type Json, type Kind, type World } from './app-helpers';
import { report } from '../support/report';

/** A slow answer comes this long after the request: well past the app's time-out. */
const SLOW_MS = REQUEST_TIMEOUT_MS + 1000;
/** Longer than any case may take: a hang fails the case (jest's time-out) rather than the run. */
const CASE_TIMEOUT_MS = 20_000;

let w: World;

beforeAll(async () => {
  w = await startWorld({ quiet: true });
  // Every operation once without a fault, before the cases: the first call of each compiles what it loads (the
  // app's lazy modules, the sandbox's routes), which the cases must not wait for at once.
  for (const op of OPERATIONS) {
    const c = await newCase(op.api);
    await op.run(c, op.prepare ? await op.prepare(c) : undefined);
  }
}, 60_000);
afterAll(async () => {
  printSummary();
  await w?.close();
  // The next file this jest worker runs (of either project) gets the app's own time-out.
  delete process.env.PARTNER_REQUEST_TIMEOUT_MS;
});

type Api = 'clinic' | 'cashier';

/**
 * One case's own API client on the interface its operation calls (the owner's token on the other): its fault
 * matches only this token, and its idempotency keys are only this client's.
 */
interface Case {
  tag: string;
  authData: Record<string, string>;
  token: string;
}

let cases = 0;
const newCase = async (api: Api): Promise<Case> => {
  cases += 1;
  const tag = `FI${String(cases).padStart(3, '0')}`;
  const made = await w.control('/tokens', {
    body: { interface: api, abilities: abilitiesOf(api), owner: true, name: tag },
  });
  expect(made.status).toBe(201);
  const token: string = made.body.data.token;
  return { tag, token, authData: { ...w.authData, [`${api}_api_token`]: token } };
};

const run = (c: Case, kind: Kind, key: string, inputData: object = {}, extra: object = {}, fn?: string) =>
  w.run(kind, key, inputData, { authData: c.authData, ...extra }, fn);

const ids = (list: Json[]) => list.map((o) => String(o.id));

interface Operation {
  name: string;
  family: 'connection' | 'hook' | 'dropdown' | 'search' | 'action';
  api: Api;
  /** The request the fault takes: its method and path under the interface's base address (a prefix). */
  method: 'GET' | 'POST' | 'PUT';
  path: (p: Json) => string;
  /** What the case needs in the sandbox before it runs (made without faults). */
  prepare?: (c: Case) => Promise<Json>;
  run: (c: Case, p: Json) => Promise<Json>;
  /** A success must be right: checked against what the sandbox holds. */
  check: (c: Case, p: Json, result: Json) => Promise<void>;
  /** Actions: whether the sandbox shows the action done, and how many objects it holds for the case's key. */
  done?: (c: Case, p: Json) => Promise<boolean>;
  held?: (c: Case, p: Json) => Promise<number>;
  /** Creates answer `duplicate` on a repeat with the same idempotency key. */
  duplicateFlag?: boolean;
  /** What a replay may answer instead of succeeding once the first run was performed (create_item: SKU taken). */
  replayRefusal?: RegExp;
}

const clinicRefs = () => w.sb.refs.clinic;
const cashierRefs = () => w.sb.refs.cashier;

const appointmentsAt = async (patientId: string, startsAt: string) => {
  const at = Date.parse(startsAt);
  const window = `from=${new Date(at - 60_000).toISOString()}&to=${new Date(at + 60_000).toISOString()}`;
  const list = await w.clinic(`/appointments?patient_id=${patientId}&${window}&per_page=100`);
  return (list.body.data as Json[]).filter((a) => Date.parse(a.starts_at) === at);
};

const OPERATIONS: Operation[] = [
  {
    name: 'connection test',
    family: 'connection',
    api: 'clinic',
    method: 'GET',
    path: () => '/ping',
    run: (c) => w.testConnection(c.authData),
    check: async (_c, _p, result) => {
      expect(result.label).toBe('Clinic: Smile Dental Clinics · Cashier: Olaya Café');
    },
  },
  {
    name: 'appointment_created performList',
    family: 'hook',
    api: 'clinic',
    method: 'GET',
    path: () => '/webhooks/events/appointment.created/recent',
    run: (c) => run(c, 'triggers', 'appointment_created', {}, {}, 'performList'),
    // Recent appointments the interface holds, not the app's fallback sample (whose id it does not know).
    check: async (_c, _p, result) => {
      expect(result.length).toBeGreaterThan(0);
      for (const item of result) {
        const held = await w.clinic(`/appointments/${item.id}`);
        expect([item.id, held.status]).toEqual([item.id, 200]);
        expect(item).toMatchObject({ event_id: expect.any(String), starts_at: held.body.data.starts_at });
      }
    },
  },
  {
    name: 'receipt_issued performList',
    family: 'hook',
    api: 'cashier',
    method: 'GET',
    path: () => '/receipts',
    run: (c) => run(c, 'triggers', 'receipt_issued', {}, {}, 'performList'),
    // The shop's last arrived receipts, not the account's sample or the app's fallback.
    check: async (_c, _p, result) => {
      const page = await w.cashier('/receipts?per_page=100');
      expect(page.body.meta.has_more).toBe(false);
      const sales = (page.body.data as Json[]).filter((r) => r.kind !== 'credit_note');
      expect(result.map((i: Json) => [i.id, i.number])).toEqual(
        sales
          .slice(-3)
          .reverse()
          .map((r) => [r.id, r.number]),
      );
    },
  },
  {
    name: 'patient_list page',
    family: 'dropdown',
    api: 'clinic',
    method: 'GET',
    path: () => '/patients',
    run: (c) => run(c, 'triggers', 'patient_list', {}, { meta: { page: 0 } }),
    check: async (_c, _p, result) => {
      const held = (await w.clinic('/patients?per_page=100')).body.data;
      expect(ids(result)).toEqual(ids(held));
    },
  },
  {
    name: 'branch_list page',
    family: 'dropdown',
    api: 'cashier',
    method: 'GET',
    path: () => '/branches',
    run: (c) => run(c, 'triggers', 'branch_list', {}, { meta: { page: 0 } }),
    check: async (_c, _p, result) => {
      expect(ids(result)).toEqual(['1', '2', '3']);
    },
  },
  ...(
    [
      ['find_patient', 'clinic', '/patients/', () => ({ patient_id: clinicRefs().patient })],
      [
        'find_appointment',
        'clinic',
        '/appointments/',
        () => ({ appointment_id: clinicRefs().appointmentConfirmed }),
      ],
      ['find_invoice', 'clinic', '/invoices/', () => ({ invoice_id: clinicRefs().invoicePaid })],
      ['find_item', 'cashier', '/items', () => ({ sku: cashierRefs().variantSku })],
      ['find_order', 'cashier', '/orders/', () => ({ order_id: cashierRefs().orderReceived })],
      ['find_receipt', 'cashier', '/receipts/', () => ({ receipt_id: cashierRefs().receipt })],
      [
        'find_stock_level',
        'cashier',
        '/stock/levels',
        () => ({
          branch_id: String(cashierRefs().lowStock.branch_id),
          variant_id: String(cashierRefs().lowStock.variant_id),
        }),
      ],
      ['find_z_report', 'cashier', '/sessions/', () => ({ session_id: cashierRefs().closedSession })],
    ] as const
  ).map(([key, api, path, input]): Operation => ({
    name: key,
    family: 'search',
    api,
    method: 'GET',
    path: () => path,
    run: (c) => run(c, 'searches', key, input()),
    check: async (_c, _p, result) => {
      expect(result).toHaveLength(1);
      const wanted: Record<string, string> = {
        find_patient: clinicRefs().patient,
        find_appointment: clinicRefs().appointmentConfirmed,
        find_invoice: clinicRefs().invoicePaid,
        find_item: String(cashierRefs().item),
        find_order: cashierRefs().orderReceived,
        find_receipt: cashierRefs().receipt,
        find_stock_level: `${cashierRefs().lowStock.branch_id}:${cashierRefs().lowStock.variant_id}`,
        find_z_report: cashierRefs().closedSession,
      };
      expect(String(result[0].id)).toBe(wanted[key]);
    },
  })),
  {
    name: 'book_appointment',
    family: 'action',
    api: 'clinic',
    method: 'POST',
    path: () => '/appointments',
    duplicateFlag: true,
    // No Booking Reference: the app derives one from the Zap and the booking, as a replay derives it again.
    prepare: async (c) => ({
      inputs: {
        patient_id: clinicRefs().patient,
        branch_id: '1',
        appointment_type_id: '1',
        starts_at: freeSlot(),
      },
      meta: { zap: { id: `zap-${c.tag}` } },
    }),
    run: (c, p) => run(c, 'creates', 'book_appointment', p.inputs, { meta: p.meta }),
    check: async (_c, p, result) => {
      const [held] = await appointmentsAt(p.inputs.patient_id, p.inputs.starts_at);
      expect(result).toMatchObject({ id: held.id, status: 'booked', external_ref: held.external_ref });
      expect(held.external_ref).toMatch(/^zap-[0-9a-f]{32}$/);
    },
    done: async (_c, p) => (await appointmentsAt(p.inputs.patient_id, p.inputs.starts_at)).length > 0,
    held: async (_c, p) => (await appointmentsAt(p.inputs.patient_id, p.inputs.starts_at)).length,
  },
  {
    name: 'cancel_appointment',
    family: 'action',
    api: 'clinic',
    method: 'POST',
    path: (p) => `/appointments/${p.id}/cancel`,
    prepare: async () => {
      const booked = await w.control('/clinic/appointments', {
        body: {
          branch_id: 1,
          appointment_type_id: 1,
          starts_at: freeSlot(),
          patient_id: clinicRefs().patient,
        },
      });
      expect(booked.status).toBe(201);
      return { id: booked.body.data.id };
    },
    run: (c, p) => run(c, 'creates', 'cancel_appointment', { appointment_id: p.id, reason: 'clinic' }),
    check: async (_c, p, result) => {
      const held = (await w.clinic(`/appointments/${p.id}`)).body.data;
      expect(held).toMatchObject({ status: 'cancelled', cancel_reason: 'clinic' });
      expect(result).toMatchObject({ id: p.id, status: 'cancelled', cancelled_at: held.cancelled_at });
    },
    done: async (_c, p) => (await w.clinic(`/appointments/${p.id}`)).body.data.status === 'cancelled',
  },
  {
    name: 'create_order',
    family: 'action',
    api: 'cashier',
    method: 'POST',
    path: () => '/orders',
    duplicateFlag: true,
    prepare: async (c) => ({
      inputs: {
        external_id: `${c.tag}-ORDER`,
        branch_id: '1',
        lines: [{ sku: cashierRefs().variantSku, qty: '2' }],
      },
    }),
    run: (c, p) => run(c, 'creates', 'create_order', p.inputs),
    check: async (_c, p, result) => {
      const [held] = (await w.control(`/cashier/orders?external_id=${p.inputs.external_id}`)).body.data;
      expect(result).toMatchObject({ id: held.id, status: 'received', total_halalas: held.total_halalas });
    },
    done: async (_c, p) =>
      (await w.control(`/cashier/orders?external_id=${p.inputs.external_id}`)).body.data.length > 0,
    held: async (_c, p) =>
      (await w.control(`/cashier/orders?external_id=${p.inputs.external_id}`)).body.data.length,
  },
  {
    name: 'cancel_order',
    family: 'action',
    api: 'cashier',
    method: 'POST',
    path: (p) => `/orders/${p.id}/cancel`,
    prepare: async (c) => {
      const made = await w.cashier('/orders', {
        token: c.token,
        body: {
          external_id: `${c.tag}-PREP`,
          branch_id: 1,
          lines: [{ sku: cashierRefs().variantSku, qty: 1 }],
        },
      });
      expect(made.status).toBe(201);
      return { id: made.body.data.id };
    },
    run: (c, p) => run(c, 'creates', 'cancel_order', { order_id: p.id }),
    check: async (_c, p, result) => {
      expect((await w.cashier(`/orders/${p.id}`)).body.data.status).toBe('cancelled');
      expect(result).toMatchObject({ id: p.id, status: 'cancelled' });
    },
    done: async (_c, p) => (await w.cashier(`/orders/${p.id}`)).body.data.status === 'cancelled',
  },
  {
    name: 'create_item',
    family: 'action',
    api: 'cashier',
    method: 'POST',
    path: () => '/items',
    replayRefusal: /Variants #1 SKU: is already used in this account/,
    prepare: async (c) => ({
      sku: `${c.tag}-SKU`,
      inputs: {
        name_ar: 'شاي',
        name_en: `Tea ${c.tag}`,
        category_id: String(cashierRefs().category),
        variants: [{ variant_name_ar: 'عادي', sku: `${c.tag}-SKU`, price_sar: '5' }],
      },
    }),
    run: (c, p) => run(c, 'creates', 'create_item', p.inputs),
    check: async (_c, p, result) => {
      const [held] = (await w.cashier(`/items?sku=${p.sku}`)).body.data;
      expect(result).toMatchObject({ id: held.id, name_en: p.inputs.name_en });
      expect(result.variants).toEqual([expect.objectContaining({ sku: p.sku, price_halalas: 500 })]);
    },
    done: async (_c, p) => (await w.cashier(`/items?sku=${p.sku}`)).body.meta.total > 0,
    held: async (_c, p) => (await w.cashier(`/items?sku=${p.sku}`)).body.meta.total,
  },
  {
    name: 'update_item',
    family: 'action',
    api: 'cashier',
    method: 'PUT',
    path: (p) => `/items/${p.id}`,
    prepare: async (c) => {
      const made = await w.cashier('/items', {
        token: c.token,
        body: {
          name_ar: 'قهوة',
          category_id: cashierRefs().category,
          variants: [{ name_ar: 'عادي', sku: `${c.tag}-UPD`, price_halalas: 500 }],
        },
      });
      expect(made.status).toBe(201);
      const item = made.body.data;
      return { id: item.id, variant: item.variants[0].id, name: `Coffee ${c.tag}` };
    },
    // A name and one variant's price: the app reads the item (GET), then sends it (PUT, where the fault is).
    run: (c, p) =>
      run(c, 'creates', 'update_item', {
        item_id: String(p.id),
        name_en: p.name,
        variants: [{ variant_id: String(p.variant), price_sar: '6.25' }],
      }),
    check: async (_c, p, result) => {
      const held = (await w.cashier(`/items/${p.id}`)).body.data;
      expect(held).toMatchObject({
        name_en: p.name,
        variants: [expect.objectContaining({ price_halalas: 625 })],
      });
      expect(result).toMatchObject({
        id: p.id,
        name_en: p.name,
        variants: [expect.objectContaining(held.variants[0])],
      });
    },
    done: async (_c, p) => (await w.cashier(`/items/${p.id}`)).body.data.name_en === p.name,
    held: async (c) => (await w.cashier(`/items?sku=${c.tag}-UPD`)).body.meta.total,
  },
];

interface FaultRow {
  label: string;
  /** Null: no fault (the baseline, which must succeed, and proves each operation's check and replay). */
  spec: Omit<FaultSpec, 'pathPrefix' | 'method' | 'token' | 'when'> | null;
  /**
   * When it strikes an action: faults that happen on the way (a gateway's error, a time-out, a reset) both
   * before and after the interface acted; a spoiled answer after it (the answer exists only once it acted).
   * Searches, dropdowns, performList and the connection test take the first.
   */
  when: FaultWhen[];
  /** What the error message must say. */
  says: RegExp;
  /** Only these operations (the row tests the error mapper, which every operation shares); default all. */
  only?: string[];
}

const timedOut = (what: string) => new RegExp(`${what} within ${REQUEST_TIMEOUT_MS / 1000} seconds`);
const onTheWay: FaultWhen[] = ['before', 'after'];
const spoiled: FaultWhen[] = ['after'];

const FAULTS: FaultRow[] = [
  { label: 'none', spec: null, when: ['before'], says: /^$/ },
  {
    label: '503',
    spec: { kind: 'status', status: 503 },
    when: onTheWay,
    says: /answered an error \(HTTP 503, server_error\)/,
  },
  {
    label: 'slow',
    spec: { kind: 'slow', delayMs: SLOW_MS },
    when: onTheWay,
    says: timedOut('did not answer'),
  },
  { label: 'reset', spec: { kind: 'reset' }, when: onTheWay, says: /closed the connection before answering/ },
  {
    label: 'HTML 502',
    spec: { kind: 'html' },
    when: onTheWay,
    // An HTML page is no error envelope: the status is named, nothing of the page is shown.
    says: /answered an error \(HTTP 502\)\.$/,
  },
  {
    label: 'bad JSON',
    spec: { kind: 'malformed_json' },
    when: spoiled,
    says: /answer that is not JSON \(HTTP 20[01]\)/,
  },
  { label: 'empty', spec: { kind: 'empty' }, when: spoiled, says: /sent an empty answer \(HTTP 20[01]\)/ },
  {
    label: 'truncated',
    spec: { kind: 'truncated' },
    when: spoiled,
    says: timedOut('the rest of its answer did not arrive'),
  },
  // The same spoiled bodies on an error status, through the error mapper every operation shares.
  ...(
    [
      {
        label: 'bad JSON 500',
        spec: { kind: 'malformed_json', status: 500 },
        when: spoiled,
        says: /answered an error \(HTTP 500\)/,
      },
      {
        label: 'empty 503',
        spec: { kind: 'empty', status: 503 },
        when: spoiled,
        says: /answered an error \(HTTP 503\)\.$/,
      },
      {
        label: 'truncated 503',
        spec: { kind: 'truncated', status: 503 },
        when: spoiled,
        says: timedOut('the rest of its answer did not arrive'),
      },
    ] as Array<Omit<FaultRow, 'only'>>
  ).map((row): FaultRow => ({ ...row, only: ['connection test', 'find_item', 'create_order'] })),
];

/** The message a Zap builder reads: a Zapier error's JSON message, without core's "What happened" block. */
const readable = (error: Error): string => {
  let text = error.message;
  try {
    const parsed = JSON.parse(text);
    if (typeof parsed?.message === 'string') text = parsed.message;
  } catch {
    // a plain message
  }
  return text.split('\nWhat happened:')[0] ?? text;
};

const expectClear = (error: unknown, api: Api, says: RegExp) => {
  expect(error).toBeInstanceOf(Error);
  const text = readable(error as Error);
  expect(text).toMatch(new RegExp(`\\b${api} interface\\b`));
  expect(text).toMatch(says);
  // Core's enrichment is off (lib/seal.ts): the message is the app's own, never followed by the bundle.
  expect((error as Error).message).not.toMatch(/What happened|with bundle|Bad Gateway|nginx/);
  // Not a raw failure: no parser or transport internals, no stack, no half-read object.
  expect(text).not.toMatch(
    /Unexpected token|SyntaxError|FetchError|JSON\.parse|undefined|documented shape|\n\s+at /,
  );
  expect(text.length).toBeLessThan(600);
};

const timed = async (fn: () => Promise<Json>) => {
  const start = Date.now();
  try {
    return { ok: true as const, value: await fn(), ms: Date.now() - start };
  } catch (error) {
    return { ok: false as const, error, ms: Date.now() - start };
  }
};

type Outcome = 'ok' | 'clear error';
interface Row {
  fault: string;
  when: FaultWhen;
  operation: string;
  family: Operation['family'];
  outcome: Outcome;
  /** Actions: what the replay did (ok, or the refusal create_item may answer), and the objects held after it. */
  replay?: string;
  ms: number;
}
const results: Row[] = [];

/** Operation by operation, every fault in turn. */
const matrix = OPERATIONS.flatMap((op) =>
  FAULTS.filter((fault) => !fault.only || fault.only.includes(op.name)).flatMap((fault) =>
    (op.family === 'action' ? fault.when : fault.when.slice(0, 1)).map(
      (when) =>
        [`${op.name} × ${fault.spec ? `${fault.label} (${when})` : 'no fault'}`, fault, op, when] as const,
    ),
  ),
);

/**
 * One case: the operation under the fault, then (actions) Zapier's replay of it. A waited case's `taken` is called
 * once the fault has taken the operation's request (the request reached the sandbox; the case only waits from
 * there), or when the first run ends. A default, so that jest's it.each does not take it for a `done` callback.
 */
const runCase = async (
  _name: string,
  fault: FaultRow,
  op: Operation,
  when: FaultWhen,
  taken: (() => void) | undefined = undefined,
) => {
  const c = await newCase(op.api);
  const p = op.prepare ? await op.prepare(c) : undefined;
  const base = new URL(op.api === 'clinic' ? w.sb.clinicBaseUrl : w.sb.cashierBaseUrl).pathname;
  /** The operation's own request: where a fault takes it, and what is counted at the sandbox. */
  const target = `${base}${op.path(p)}`;
  const spec = fault.spec;
  const id =
    spec &&
    w.sb.injectFault({
      ...spec,
      when,
      method: op.method,
      pathPrefix: target,
      token: c.token,
    });

  // A request that failed is never sent again by the app (a hang would be jest's case time-out; a second try
  // of a timed-out request, a second request here).
  const sent = () =>
    w.sb.requests({ token: c.token, method: op.method }).filter((r) => r.path.startsWith(target)).length;
  /** How many more requests the case's fault will take (0: it took the operation's). */
  const left = () => w.sb.faults().find((f) => f.id === id)?.times;
  const watch = id && taken ? setInterval(() => left() === 0 && taken(), 20) : undefined;
  const first = await timed(() => op.run(c, p)).finally(() => {
    clearInterval(watch);
    taken?.();
  });
  // The fault took the operation's request, and the operation made it once.
  if (id) expect(left()).toBe(0);
  expect(sent()).toBe(1);
  if (first.ok) await op.check(c, p, first.value);
  else if (!spec) throw first.error;
  else expectClear(first.error, op.api, fault.says);
  // Whether the interface did the action: `before`, it did nothing; `after`, it did, and only its answer was lost.
  const acted = first.ok || when === 'after';
  const row: Row = {
    fault: fault.label,
    when,
    operation: op.name,
    family: op.family,
    outcome: first.ok ? 'ok' : 'clear error',
    ms: first.ms,
  };

  if (op.done) {
    expect(await op.done(c, p)).toBe(acted);
    // Zapier's replay: the same step, same inputs, same Zap.
    const again = await timed(() => op.run(c, p));
    // The replay sends the request once more at most (none when it finds what the first run did).
    expect(sent()).toBeLessThanOrEqual(2);
    if (again.ok) {
      await op.check(c, p, again.value);
      if (op.duplicateFlag) expect(again.value.duplicate).toBe(acted);
      row.replay = 'ok';
    } else {
      // Only a create_item that went through may be refused (its SKU is taken now); anything else fails here.
      if (!op.replayRefusal || !acted) throw again.error;
      expectClear(again.error, op.api, op.replayRefusal);
      row.replay = 'refused (SKU taken)';
    }
    expect(await op.done(c, p)).toBe(true);
    if (op.held) expect(await op.held(c, p)).toBe(1);
  }
  results.push(row);
};

/** Faults the app waits out: an answer slower than its time-out, or the rest of a body that never comes. */
const waited = ([, fault]: (typeof matrix)[number]) =>
  fault.spec?.kind === 'slow' || fault.spec?.kind === 'truncated';
const waitedCases = matrix.filter(waited);

describe('app under injected faults: a clear error or a right result, never a hang or a second action', () => {
  describe('faults the app waits out', () => {
    /**
     * Each waited case's run, by name. They start here, each once the one before has reached its wait (its faulted
     * request is at the sandbox), and wait together; each test then judges its own. So their work (a token, their
     * operation, core's compile of the app for every call) never piles up in this event loop, which the sandbox
     * answers from and the app's time-out fires in: on a loaded machine, cases started on a clock, beside the
     * others, delayed faulted requests past the time-out before the sandbox had seen them.
     */
    const runs = new Map<string, Promise<void>>();
    beforeAll(() => {
      let previous = Promise.resolve();
      for (const row of waitedCases) {
        let taken: () => void = () => undefined;
        const reached = new Promise<void>((resolve) => (taken = resolve));
        const run = previous.then(() => runCase(...row, taken)).finally(taken);
        run.catch(() => undefined); // judged by its test, not reported as unhandled meanwhile
        runs.set(row[0], run);
        previous = reached;
      }
    });
    it.each(waitedCases)('%s', (name) => runs.get(name), CASE_TIMEOUT_MS);
  });
  it.each(matrix.filter((row) => !waited(row)))('%s', runCase, CASE_TIMEOUT_MS);
});

/** faults × operations: the outcome of each case, the replays and the slowest case of each operation. */
const printSummary = () => {
  if (!results.length) return;
  const names = OPERATIONS.map((o) => o.name);
  const width = Math.max(...names.map((n) => n.length));
  const of = (op: string) => results.filter((r) => r.operation === op);
  const cell = (op: string, fault: string) =>
    of(op)
      .filter((r) => r.fault === fault)
      .sort((a, b) => (a.when === b.when ? 0 : a.when === 'before' ? -1 : 1))
      .map((r) => (r.outcome === 'ok' ? 'ok' : 'err'))
      .join(' ') || '·';
  const cols = FAULTS.map((f) => Math.max(f.label.length, ...names.map((n) => cell(n, f.label).length)));
  const replays = (op: string) => {
    const rows = of(op).filter((r) => r.replay);
    if (!rows.length) return '';
    const refused = rows.filter((r) => r.replay !== 'ok').length;
    return `${rows.length - refused} ok${refused ? `, ${refused} refused (SKU taken)` : ''}`;
  };
  const line = (first: string, cells: string[], ms: string, replay: string) =>
    `${first.padEnd(width)} | ${cells.map((t, i) => t.padEnd(cols[i] ?? 0)).join(' | ')} | ${ms.padStart(6)} | ${replay}`;
  const count = (pred: (r: Row) => boolean) => results.filter(pred).length;
  const ms = (rows: Row[]) => String(Math.max(...rows.map((r) => r.ms)));
  report(
    [
      `Fault injection: ${results.length} cases, ${FAULTS.filter((f) => f.spec).length} faults and none × ` +
        `${OPERATIONS.length} operations: ` +
        `${count((r) => r.outcome === 'ok')} ok, ${count((r) => r.outcome === 'clear error')} failed with a clear message; ` +
        `${count((r) => !!r.replay)} replays of actions, each action done once; ` +
        `slowest ${ms(results)} ms (request time-out ${REQUEST_TIMEOUT_MS} ms, slow answers after ${SLOW_MS} ms).`,
      'err = a clear error, ok = a right result, · = not run; actions: before after (spoiled answers: after only); none = no fault.',
      line(
        'operation',
        FAULTS.map((f) => f.label),
        'max ms',
        'replays',
      ),
      line(
        '-'.repeat(width),
        cols.map((n) => '-'.repeat(n)),
        '------',
        '-------',
      ),
      ...names.map((n) =>
        line(
          n,
          FAULTS.map((f) => cell(n, f.label)),
          ms(of(n)),
          replays(n),
        ),
      ),
    ].join('\n'),
  );
};
