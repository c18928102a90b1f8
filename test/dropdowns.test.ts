import type { Bundle, ZObject } from 'zapier-platform-core';
import nock from 'nock';
import { data, definition, replay, reply, type Json } from './fixtures';
import { clockAtRecording } from './support/recorder';
import { App, appTester, AUTH, cashierApi, cashierPath, useNock } from './helpers';

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
