import type { Bundle, ZObject } from 'zapier-platform-core';
import nock from 'nock';
import { LABEL_MAX } from '../lib/dropdowns';
import { body, data, definition, replay, reply, type Json } from './fixtures';
import { choicesPath } from './support/choices';
import { clockAtRecording } from './support/recorder';
import {
  App,
  appTester,
  AUTH,
  cashierApi,
  cashierPath,
  clinicApi,
  clinicPath,
  runAt,
  useNock,
} from './helpers';

/* The branch dropdown (hidden trigger branch_list over the cashier's GET /branches). */

type Option = { id: string; label: string };
type Perform = (z: ZObject, bundle: Bundle) => Promise<Option[]>;

/** A trigger's perform; the operation type is a union in core's types (PLATFORM-NOTES), so narrow it here. */
const performOf = (key: string): Perform => {
  const operation = App.triggers?.[key]?.operation as unknown as { perform?: Perform } | undefined;
  if (typeof operation?.perform !== 'function')
    throw new Error(`the app has no trigger ${key} with a perform`);
  return operation.perform;
};

const listBranches = (meta?: { page?: number }) =>
  appTester(performOf('branch_list'), { authData: AUTH, ...(meta ? { meta } : {}) });

/** The options a recorded page of branches should give: English name, the Arabic one beside it. */
const optionsOf = (fixture: string): Option[] =>
  data(fixture).map((b: Json) => ({ id: String(b.id), label: `${b.name_en} (${b.name_ar})` }));

useNock();

describe('branch_list dropdown', () => {
  it('is a hidden trigger that offers "load more"', () => {
    const trigger = App.triggers?.branch_list;
    expect(trigger?.display.hidden).toBe(true);
    expect((trigger?.operation as { canPaginate?: boolean }).canPaginate).toBe(true);
  });

  it.each([
    [0, '1', 'dropdown-branches'],
    [1, '2', 'dropdown-branches-past-end'],
    [4, '5', 'dropdown-branches-past-end'],
  ])('bundle.meta.page %d asks page=%s, per_page=100', async (zapierPage, apiPage, fixture) => {
    const scope = cashierApi().get(cashierPath('/branches')).query({ page: apiPage, per_page: '100' });
    // Page 5 gets the recorded empty page 2 again: an answer reused on purpose for another page.
    if (apiPage === '5') scope.reply(...reply(fixture));
    else scope.reply(replay(fixture));

    await expect(listBranches({ page: zapierPage })).resolves.toEqual(optionsOf(fixture));
  });

  it('asks page 1 when Zapier sends no page', async () => {
    cashierApi()
      .get(cashierPath('/branches'))
      .query({ page: '1', per_page: '100' })
      .reply(replay('dropdown-branches'));

    const options = await listBranches();
    expect(options).toEqual(optionsOf('dropdown-branches'));
    expect(options.length).toBeGreaterThan(0);
  });

  it('labels a branch with its name and the Arabic name beside it, or falls back to its number', async () => {
    // hand-built: one branch per naming case (names missing, blank, only Arabic…), which the sandbox's three
    // fully named branches cannot show.
    cashierApi()
      .get(cashierPath('/branches'))
      .query(true)
      .reply(200, {
        data: [
          { id: 1, name_en: 'Riyadh - Olaya', name_ar: 'الرياض - العليا' },
          { id: 2, name: 'Jeddah - Tahlia', name_ar: 'جدة - التحلية' },
          // The shape of the resource's sample: `name` already Arabic, English in name_en.
          { id: 3, name: 'الدمام - الشاطئ', name_ar: 'الدمام - الشاطئ', name_en: 'Dammam - Corniche' },
          { id: 4, name_ar: 'الخبر' },
          { id: 5, name: 'Khobar', name_ar: 'Khobar' },
          { id: 7 },
          { id: 8, name: '   ', name_ar: '' },
        ],
        meta: { total: 7 },
      });

    const options = await listBranches({ page: 0 });

    expect(options).toEqual([
      { id: '1', label: 'Riyadh - Olaya (الرياض - العليا)' },
      { id: '2', label: 'Jeddah - Tahlia (جدة - التحلية)' },
      { id: '3', label: 'Dammam - Corniche (الدمام - الشاطئ)' },
      { id: '4', label: 'الخبر' },
      { id: '5', label: 'Khobar' },
      { id: '7', label: 'Branch 7' },
      { id: '8', label: 'Branch 8' },
    ]);
  });
});

describe('list dropdowns: one option per object of the first page', () => {
  beforeEach(clockAtRecording);
  afterEach(() => jest.useRealTimers());

  it.each([
    ['category_list', 'dropdown-categories'],
    ['item_list', 'dropdown-items'],
    ['patient_list', 'dropdown-patients'],
    ['upcoming_appointment_list', 'dropdown-appointments'],
  ])('%s lists %s as recorded', async (key, fixture) => {
    const { scope, path } = definition(fixture);
    // Any query here: `replay` holds the request to the recorded one (page 1 of 100, upcoming from now).
    nock(scope).get(path.split('?')[0]!).query(true).reply(replay(fixture));

    const options = await appTester(performOf(key), { authData: AUTH, meta: { page: 0 } });

    expect(options.length).toBeGreaterThan(0);
    expect(options.map((o) => o.id)).toEqual(data(fixture).map((o: Json) => String(o.id)));
  });
});

describe('dynamic and search references', () => {
  type Field = { key: string; dynamic?: string; search?: string; children?: Field[] };

  const staticFields = (fields: unknown): Field[] =>
    Array.isArray(fields)
      ? (fields.filter((f) => f && typeof f === 'object') as Field[]).flatMap((f) => [
          f,
          ...staticFields(f.children),
        ])
      : [];

  const operations = () =>
    (['triggers', 'creates', 'searches'] as const).flatMap((kind) =>
      Object.entries((App[kind] ?? {}) as Record<string, { operation?: { inputFields?: unknown } }>).map(
        ([key, def]) => ({ where: `${kind}.${key}`, fields: staticFields(def.operation?.inputFields) }),
      ),
    );

  // Zapier's local validation does not check these targets (PLATFORM-NOTES): a wrong one breaks the editor.
  it('every `dynamic` names a hidden trigger whose output has the value and label fields', () => {
    const refs = operations().flatMap(({ where, fields }) =>
      fields.filter((f) => f.dynamic).map((f) => ({ where: `${where}.${f.key}`, ref: f.dynamic! })),
    );
    expect(refs.length).toBeGreaterThan(0);
    for (const { where, ref } of refs) {
      const [trigger, value, label] = ref.split('.');
      const def = App.triggers?.[trigger!];
      expect({ where, ref, exists: !!def }).toEqual({ where, ref, exists: true });
      const keys = ((def?.operation as { outputFields?: Array<{ key: string }> }).outputFields ?? []).map(
        (o) => o.key,
      );
      expect({ where, ref, keys }).toEqual({ where, ref, keys: expect.arrayContaining([value, label]) });
      expect({ where, ref, hidden: def?.display.hidden }).toEqual({ where, ref, hidden: true });
    }
  });

  it('every `search` names a search of the app', () => {
    const refs = operations().flatMap(({ where, fields }) =>
      fields.filter((f) => f.search).map((f) => ({ where: `${where}.${f.key}`, ref: f.search! })),
    );
    expect(refs.length).toBeGreaterThan(0);
    for (const { where, ref } of refs) {
      const [search] = ref.split('.');
      expect({ where, ref, exists: !!App.searches?.[search!] }).toEqual({ where, ref, exists: true });
    }
  });
});

/*
 * The `choices: { perform }` dropdowns, run through the definition as Zapier runs them: each perform by its path
 * in the step's input fields, called with the step's other inputs. A child's choices follow its parent's value, and
 * the request shows it.
 */

type Choices = { results: Option[]; paging_token: string | null };

/** The choices of input `field` of the step `key`, the step's other inputs being `inputData`. */
const choose = (key: string, field: string, inputData: object, paging_token?: string) =>
  runAt<Choices>(choicesPath(App, key, field), {
    authData: AUTH,
    inputData,
    ...(paging_token ? { meta: { paging_token } } : {}),
  });

/** What the recorded appointments give for `field`: distinct values, most frequent first. */
const distinctIn = (fixture: string, field: string): string[] => {
  const counts = new Map<string, number>();
  for (const a of data(fixture) as Json[])
    counts.set(String(a[field]), (counts.get(String(a[field])) ?? 0) + 1);
  return [...counts.entries()].sort((a, b) => b[1] - a[1]).map(([v]) => v);
};

/** An interceptor of GET /appointments that keeps the query it was asked with. */
const appointmentsAsked = (fixture: string) => {
  const asked: Array<Record<string, string>> = [];
  clinicApi()
    .get(clinicPath('/appointments'))
    .query((q) => {
      asked.push(q as Record<string, string>);
      return true;
    })
    .reply(replay(fixture));
  return asked;
};

describe('Book Appointment: Branch → Practitioner → Appointment Type (choices.perform)', () => {
  beforeEach(clockAtRecording);
  afterEach(() => jest.useRealTimers());

  it('Practitioner lists those of the chosen branch: two branches, two lists, each asked for its branch', async () => {
    const lists: string[][] = [];
    for (const branch of ['1', '2']) {
      const fixture = `choices-practitioners-branch-${branch}`;
      const asked = appointmentsAsked(fixture);
      const { results, paging_token } = await choose('book_appointment', 'practitioner_id', {
        branch_id: branch,
      });
      expect(asked).toEqual([expect.objectContaining({ branch_id: branch, page: '1', per_page: '100' })]);
      expect(asked[0]).not.toHaveProperty('practitioner_id');
      expect(data(fixture).every((a: Json) => String(a.branch_id) === branch)).toBe(true);
      expect(results.map((o) => o.id)).toEqual(distinctIn(fixture, 'practitioner_id'));
      expect(results[0]?.label).toMatch(/^Practitioner \w+ · \d+ recent appointments?$/);
      expect(paging_token).toBeNull();
      lists.push(results.map((o) => o.id));
    }
    expect(lists[0]!.length).toBeGreaterThan(0);
    expect(lists[1]!.length).toBeGreaterThan(0);
    expect(lists[0]).not.toEqual(lists[1]);
  });

  it('Appointment Type lists the types seen with the chosen practitioner, or at the branch without one', async () => {
    const atBranch = appointmentsAsked('choices-types-branch-2');
    const branchOnly = await choose('book_appointment', 'appointment_type_id', { branch_id: '2' });
    expect(atBranch).toEqual([expect.objectContaining({ branch_id: '2' })]);
    expect(atBranch[0]).not.toHaveProperty('practitioner_id');

    const practitioner = distinctIn('choices-practitioners-branch-2', 'practitioner_id')[0]!;
    const withHim = appointmentsAsked('choices-types-practitioner');
    const narrowed = await choose('book_appointment', 'appointment_type_id', {
      branch_id: '2',
      practitioner_id: practitioner,
    });
    expect(withHim).toEqual([expect.objectContaining({ branch_id: '2', practitioner_id: practitioner })]);

    expect(branchOnly.results.map((o) => o.id)).toEqual(
      distinctIn('choices-types-branch-2', 'appointment_type_id'),
    );
    expect(narrowed.results.map((o) => o.id)).toEqual(
      distinctIn('choices-types-practitioner', 'appointment_type_id'),
    );
    expect(narrowed.results.length).toBeLessThan(branchOnly.results.length);
    expect(narrowed.results[0]?.label).toMatch(/^Appointment Type \d+ · \d+ recent appointments?$/);
  });

  it('Branch lists the branches of recent appointments, and reads no other input', async () => {
    const asked = appointmentsAsked('dropdown-appointments-60-days');
    const { results } = await choose('book_appointment', 'branch_id', { practitioner_id: 'X' });
    expect(asked).toEqual([expect.not.objectContaining({ practitioner_id: expect.anything() })]);
    expect(results.map((o) => o.id)).toEqual(distinctIn('dropdown-appointments-60-days', 'branch_id'));
  });

  it('a mapped Branch ({{…}}) narrows nothing: every recent practitioner is offered', async () => {
    const asked = appointmentsAsked('dropdown-appointments-60-days');
    await choose('book_appointment', 'practitioner_id', { branch_id: '{{12__branch_id}}' });
    expect(asked).toEqual([expect.not.objectContaining({ branch_id: expect.anything() })]);
  });

  it('pages with a paging_token while the appointments have more, never offering a practitioner twice', async () => {
    // hand-built: three pages of two appointments, which the sandbox's few recent appointments cannot show.
    const page = (n: number, rows: Array<[string, number]>) =>
      clinicApi()
        .get(clinicPath('/appointments'))
        .query((q) => q.page === String(n) && q.branch_id === '1')
        .reply(200, {
          data: rows.map(([practitioner_id, i]) => ({ id: `A${n}${i}`, branch_id: 1, practitioner_id })),
          meta: { total: 6, page: n, per_page: 2 },
        });
    page(1, [
      ['P1', 1],
      ['P2', 2],
    ]);
    page(2, [
      ['P2', 3],
      ['P3', 4],
    ]);
    page(3, [
      ['P1', 5],
      ['P4', 6],
    ]);

    const first = await choose('book_appointment', 'practitioner_id', { branch_id: '1' });
    expect(first.results.map((o) => o.id)).toEqual(['P1', 'P2']);
    expect(first.paging_token).toEqual(expect.any(String));
    const second = await choose(
      'book_appointment',
      'practitioner_id',
      { branch_id: '1' },
      first.paging_token!,
    );
    expect(second.results.map((o) => o.id)).toEqual(['P3']);
    const third = await choose(
      'book_appointment',
      'practitioner_id',
      { branch_id: '1' },
      second.paging_token!,
    );
    expect(third.results.map((o) => o.id)).toEqual(['P4']);
    expect(third.paging_token).toBeNull();
  });
});

describe('Update Item: a variant row lists the chosen Item’s variants (choices.perform)', () => {
  it('two items, two lists, each read from its item', async () => {
    const lists: string[][] = [];
    for (const item of ['311', '312']) {
      const fixture = `choices-variants-item-${item}`;
      cashierApi()
        .get(cashierPath(`/items/${item}`))
        .reply(replay(fixture));
      const { results, paging_token } = await choose('update_item', 'variants[]variant_id', {
        item_id: item,
      });
      const stored = data(fixture) as Json;
      expect(results.map((o) => o.id)).toEqual(stored.variants.map((v: Json) => String(v.id)));
      expect(results[0]?.label).toContain(stored.name_en);
      expect(paging_token).toBeNull();
      lists.push(results.map((o) => o.id));
    }
    expect(lists[0]!.length).toBeGreaterThan(0);
    expect(lists[0]).not.toEqual(lists[1]);
  });

  it('offers every item’s variants, page by page, while the Item is mapped rather than chosen', async () => {
    // hand-built: a catalogue over two pages (the recorded one fits in one).
    const items = (n: number) =>
      cashierApi()
        .get(cashierPath('/items'))
        .query({ page: String(n), per_page: '100' })
        .reply(200, {
          data: [{ id: 300 + n, name_en: `Item ${n}`, variants: [{ id: 100 + n }] }],
          meta: { total: 150, page: n, per_page: 100 },
        });
    items(1);
    items(2);
    const first = await choose('update_item', 'variants[]variant_id', { item_id: '{{7__id}}' });
    expect(first.results.map((o) => o.id)).toEqual(['101']);
    const second = await choose('update_item', 'variants[]variant_id', { item_id: '' }, first.paging_token!);
    expect(second.results.map((o) => o.id)).toEqual(['102']);
    expect(second.paging_token).toBeNull();
  });
});

describe('every list dropdown of a trigger filter, an action or a search is a choices.perform over the list its hidden trigger reads', () => {
  beforeEach(clockAtRecording);
  afterEach(() => jest.useRealTimers());

  it.each([
    ['create_item', 'category_id', 'category_list', 'dropdown-categories'],
    ['update_item', 'category_id', 'category_list', 'dropdown-categories'],
    ['find_item', 'item_id', 'item_list', 'dropdown-items'],
    ['update_item', 'item_id', 'item_list', 'dropdown-items'],
    ['find_patient', 'patient_id', 'patient_list', 'dropdown-patients'],
    ['book_appointment', 'patient_id', 'patient_list', 'dropdown-patients'],
    ['find_invoice', 'patient_id', 'patient_list', 'dropdown-patients'],
    ['find_appointment', 'patient_id', 'patient_list', 'dropdown-patients'],
    ['cancel_appointment', 'appointment_id', 'upcoming_appointment_list', 'dropdown-appointments'],
    ['find_appointment', 'appointment_id', 'upcoming_appointment_list', 'dropdown-appointments'],
    ['appointment_created', 'branch_id', 'clinic_branch_list', 'dropdown-appointments-60-days'],
    ['appointment_updated', 'practitioner_id', 'practitioner_list', 'dropdown-appointments-60-days'],
    [
      'appointment_starting_soon',
      'appointment_type_id',
      'appointment_type_list',
      'dropdown-appointments-60-days',
    ],
    ['invoice_issued', 'branch_id', 'clinic_branch_list', 'dropdown-appointments-60-days'],
    ['receipt_issued', 'branch_id', 'branch_list', 'dropdown-branches'],
    ['stock_low', 'branch_id', 'branch_list', 'dropdown-branches'],
  ])('%s %s offers what %s offers (%s)', async (key, field, trigger, fixture) => {
    const { scope, path } = definition(fixture);
    nock(scope).get(path.split('?')[0]!).query(true).times(2).reply(replay(fixture));
    const fromTrigger = await appTester(performOf(trigger), { authData: AUTH, meta: { page: 0 } });
    const { results } = await choose(key, field, {});
    expect(results.length).toBeGreaterThan(0);
    expect(results).toEqual(fromTrigger.map((o) => ({ id: String(o.id), label: expect.any(String) })));
  });
});

describe('trigger filters: Branch, Practitioner and Appointment Type dropdowns (choices.perform)', () => {
  beforeEach(clockAtRecording);
  afterEach(() => jest.useRealTimers());

  type Field = { key: string; dynamic?: string; dependsOn?: string[]; choices?: { perform?: unknown } };
  const DROPDOWN_FILTERS = ['branch_id', 'practitioner_id', 'appointment_type_id'];
  const filterFields = () =>
    Object.entries(App.triggers ?? {})
      .filter(([, t]) => !t.display.hidden)
      .flatMap(([key, t]) =>
        ((t.operation.inputFields ?? []) as Field[])
          .filter((f) => DROPDOWN_FILTERS.includes(f.key))
          .map((field) => ({ where: `${key}.${field.key}`, field })),
      );

  it('every one is a choices.perform, with no hidden trigger and no dependsOn', () => {
    const fields = filterFields();
    // The appointment triggers and Appointment Starting Soon (three each), the invoice and cashier ones (one each).
    expect(fields.length).toBeGreaterThanOrEqual(20);
    for (const { where, field } of fields) {
      expect({ where, perform: typeof field.choices?.perform }).toEqual({ where, perform: 'function' });
      expect({ where, dynamic: field.dynamic, dependsOn: field.dependsOn }).toEqual({ where });
    }
  });

  it('Practitioner offers every recent practitioner whatever Branch holds: the filters are optional, so none waits for another', async () => {
    const fixture = 'dropdown-appointments-60-days';
    const asked = appointmentsAsked(fixture);
    const { results, paging_token } = await choose('appointment_created', 'practitioner_id', {
      branch_id: '2',
    });
    expect(asked).toEqual([expect.objectContaining({ page: '1', per_page: '100' })]);
    expect(asked[0]).not.toHaveProperty('branch_id');
    expect(results.map((o) => o.id)).toEqual(distinctIn(fixture, 'practitioner_id'));
    expect(results[0]?.label).toMatch(/^Practitioner \w+ · \d+ recent appointments?$/);
    expect(paging_token).toBeNull();
  });

  it('the cashier Branch lists the cashier’s branches, asked page by page', async () => {
    cashierApi()
      .get(cashierPath('/branches'))
      .query({ page: '1', per_page: '100' })
      .reply(replay('dropdown-branches'));
    const { results, paging_token } = await choose('receipt_issued', 'branch_id', {});
    expect(results).toEqual(optionsOf('dropdown-branches'));
    expect(paging_token).toBeNull();
  });
});

describe('core 19.1’s appTester and a trigger field’s choices.perform', () => {
  beforeEach(clockAtRecording);
  afterEach(() => jest.useRealTimers());

  /*
   * appTester names the function it is given by its place in the app (resolve-method-path.js), with an array
   * index in brackets: `triggers.appointment_created.operation.inputFields[0].choices.perform`. should-paginate.js
   * then splits that at the dots and hands the parts to lodash's `get`, which takes `inputFields[0]` as one key and
   * finds nothing; for a method under `triggers.` it reads `.type` of that nothing. A create's or search's path is
   * never read there. Zapier and `zapier-platform invoke` run a choices.perform by its dotted path, which never
   * goes through should-paginate.js, so these tests run every one by its path (choicesPath, runAt).
   */
  const perform = () => {
    const fields = App.triggers!.appointment_created!.operation.inputFields as Array<{
      key: string;
      choices?: { perform?: unknown };
    }>;
    return fields.find((f) => f.key === 'branch_id')!.choices!.perform;
  };

  it('appTester still throws in should-paginate.js, before the perform runs: when this fails, core reads the path right', () => {
    let thrown: Error | undefined;
    try {
      // Once core is fixed the perform runs, and its request meets no interceptor: the suite fails then too.
      void appTester(perform() as never, { authData: AUTH } as never).catch(() => undefined);
    } catch (error) {
      thrown = error as Error;
    }
    expect(thrown?.message).toBe("Cannot read properties of undefined (reading 'type')");
    expect(thrown?.stack).toMatch(
      /at shouldPaginate \(.*zapier-platform-core\/src\/tools\/should-paginate\.js/,
    );
  });

  it('the same perform, run by its path, answers', async () => {
    clinicApi().get(clinicPath('/appointments')).query(true).reply(replay('dropdown-appointments-60-days'));
    const { results } = await choose('appointment_created', 'branch_id', {});
    expect(results.map((o) => o.id)).toEqual(distinctIn('dropdown-appointments-60-days', 'branch_id'));
  });
});

describe('an interface that ignores `page` never makes a dropdown repeat itself', () => {
  // hand-built: the recorded branches answered to every page, as an interface that ignores `page` would, with a
  // total that says more pages follow.
  const recorded = () => body('dropdown-branches') as { data: Json[] };
  const ignoringPage = (times: number) =>
    cashierApi()
      .get(cashierPath('/branches'))
      .query(true)
      .times(times)
      .reply(200, { data: recorded().data, meta: { total: 1000, per_page: 100 } });

  it('choices.perform: the page that repeats the first ends the list, with nothing offered twice', async () => {
    ignoringPage(2);
    const first = await choose('receipt_issued', 'branch_id', {});
    expect(first.results).toEqual(optionsOf('dropdown-branches'));
    expect(first.paging_token).toEqual(expect.any(String));
    const second = await choose('receipt_issued', 'branch_id', {}, first.paging_token!);
    expect(second).toEqual({ results: [], paging_token: null });
  });

  it('a page that brings rows alongside repeated ones offers its own, and a later repeat still ends the list', async () => {
    const [a, b, c] = recorded().data;
    const pages = [
      [a, b],
      [b, c],
      [a, c],
    ];
    cashierApi()
      .get(cashierPath('/branches'))
      .query(true)
      .times(3)
      .reply((uri) => {
        const page = Number(new URL(uri, 'https://x').searchParams.get('page'));
        return [200, { data: pages[page - 1], meta: { total: 1000, per_page: 100 } }];
      });
    const first = await choose('receipt_issued', 'branch_id', {});
    const second = await choose('receipt_issued', 'branch_id', {}, first.paging_token!);
    expect(second.results.map((o) => o.id)).toEqual([String(b!.id), String(c!.id)]);
    const third = await choose('receipt_issued', 'branch_id', {}, second.paging_token!);
    expect(third).toEqual({ results: [], paging_token: null });
  });

  it('a hidden dropdown trigger: "load more" answers nothing when the page repeats the one before', async () => {
    ignoringPage(5); // page 1; pages 2 and 1; pages 8 and 7
    await expect(listBranches({ page: 0 })).resolves.toEqual(optionsOf('dropdown-branches'));
    await expect(listBranches({ page: 1 })).resolves.toEqual([]);
    await expect(listBranches({ page: 7 })).resolves.toEqual([]);
  });
});

describe('option labels are clean', () => {
  it.each([
    ['a right-to-left override', 'Riyadh \u202eayhlO', 'Riyadh ayhlO'],
    ['an isolate left open', '\u2067الرياض - العليا', 'الرياض - العليا'],
    ['marks and embeddings', '\u200fRiyadh\u200e \u202bOlaya\u202c \u061c', 'Riyadh Olaya'],
    ['new lines and tabs', 'Riyadh\n- Olaya\r\n\tBranch\u2028two', 'Riyadh - Olaya Branch two'],
    ['control characters', 'Riy\u0000adh\u0007', 'Riy adh'],
  ])('%s: dropped, on one line', async (_name, name, label) => {
    // hand-built: a name the sandbox would never store
    cashierApi()
      .get(cashierPath('/branches'))
      .query(true)
      .reply(200, { data: [{ id: 1, name_en: name }], meta: { total: 1 } });
    await expect(listBranches({ page: 0 })).resolves.toEqual([{ id: '1', label }]);
  });

  it('a 20,000-character name is cut to a readable length with an ellipsis, in both kinds of dropdown', async () => {
    const name = 'Olaya '.repeat(3_334).slice(0, 20_000);
    cashierApi()
      .get(cashierPath('/branches'))
      .query(true)
      .times(2)
      .reply(200, { data: [{ id: 1, name_en: name }], meta: { total: 1 } });
    const [option] = await listBranches({ page: 0 });
    expect(option!.label).toHaveLength(LABEL_MAX);
    expect(option!.label.endsWith('…')).toBe(true);
    expect(name.startsWith(option!.label.slice(0, -1))).toBe(true);
    const { results } = await choose('receipt_issued', 'branch_id', {});
    expect(results).toEqual([option]);
  });

  it('a name of nothing readable falls back to the id', async () => {
    cashierApi()
      .get(cashierPath('/branches'))
      .query(true)
      .reply(200, { data: [{ id: 9, name_en: '\u202e\u2066\n' }], meta: { total: 1 } });
    await expect(listBranches({ page: 0 })).resolves.toEqual([{ id: '9', label: '9' }]);
  });
});
