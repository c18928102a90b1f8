import { readFileSync } from 'node:fs';
import path from 'node:path';
import {
  cloneDefinition,
  loadDefinition,
  staticFields,
  type AppDefinition,
} from '../scripts/checks/definition';
import {
  breakingChanges,
  contractOf,
  contractTableProblems,
  DOCUMENTED_DEVIATIONS,
  parseContract,
} from '../scripts/contract';
import { readSnapshot, SNAPSHOT_PATH } from '../scripts/snapshot';
import { sharedFileIfPresent } from '../scripts/shared';
import { App } from './helpers';

/*
 * The contract live Zaps depend on (Zapier's C001–C003 and promotion guardrails): nothing the committed snapshot
 * holds may disappear, be renamed or become required. The snapshot changes only by `npm run contract:update`,
 * run deliberately and committed with the change; these tests never write it.
 */

const definition = loadDefinition(App);
const current = contractOf(definition);
// Absent on a plain clone (scripts/shared.ts says so once, before the suites): the tables' checks are skipped.
const CONTRACT_MD = sharedFileIfPresent('CONTRACT.md');
const TABLES = CONTRACT_MD ? parseContract(readFileSync(CONTRACT_MD, 'utf8')) : undefined;
const withContract = TABLES ? describe : describe.skip;

describe('the committed contract snapshot (C001–C003)', () => {
  const snapshot = readSnapshot();

  it(`exists (${path.relative(path.resolve(__dirname, '..'), SNAPSHOT_PATH)})`, () => {
    expect(snapshot).toBeDefined();
  });

  it('C001 no trigger, action, search or search-or-create of the snapshot is gone, and no trigger changed type', () => {
    const problems = breakingChanges(snapshot!, current).filter((p) =>
      /^\w+\.\w+: (removed|type|now)/.test(p),
    );
    expect(problems).toEqual([]);
  });

  it('C002 no input or connection field key of the snapshot is gone, and none became required', () => {
    const problems = breakingChanges(snapshot!, current).filter((p) =>
      /^(authentication|\w+\.\w+\.inputFields)/.test(p),
    );
    expect(problems).toEqual([]);
  });

  it('C003 no sample key of the snapshot is gone', () => {
    const problems = breakingChanges(snapshot!, current).filter((p) => /\.sample\./.test(p));
    expect(problems).toEqual([]);
  });

  it('nothing at all breaks a Zap built on the snapshot', () => {
    expect(breakingChanges(snapshot!, current)).toEqual([]);
  });
});

withContract('CONTRACT.md §1–§4: every fixed key exists', () => {
  // Read only by the tests, which run only when the tables are there.
  const tables = TABLES!;

  it('reads the tables (connection fields, 13 triggers, 6 actions, 8 searches)', () => {
    expect(tables.authentication).toEqual(
      expect.arrayContaining(['clinic_api_token', 'cashier_api_token', 'clinic_base_url', 'language']),
    );
    expect(tables.triggers).toHaveLength(13);
    expect(tables.creates.map((c) => c.key)).toHaveLength(6);
    expect(tables.searches.map((s) => s.key)).toHaveLength(8);
    const createOrder = tables.creates.find((c) => c.key === 'create_order')!;
    expect(createOrder.inputs).toEqual(
      expect.arrayContaining(['external_id', 'lines', 'lines[]unit_price_sar']),
    );
    expect(createOrder.outputs).toEqual(['duplicate']);
    expect(tables.searches.find((s) => s.key === 'find_item')!.pairedWith).toEqual(['create_item']);
  });

  it('the definition has every one of them', () => {
    expect(contractTableProblems(tables, definition)).toEqual([]);
  });

  it('the one documented deviation (docs/assumptions.md) is the variants’ Arabic name', () => {
    expect(tables.creates.find((c) => c.key === 'create_item')!.inputs).toContain('variants[]name_ar');
    expect(DOCUMENTED_DEVIATIONS).toEqual({
      'creates.create_item.variants[]name_ar': 'variants[]variant_name_ar',
    });
    expect(current.creates.create_item!.inputFields).toHaveProperty(['variants[]variant_name_ar']);
  });
});

// ---------------------------------------------------------------------------------------------------------
// The checker itself, on broken copies of the definition.

const broken = (change: (d: AppDefinition) => void) => {
  const copy = cloneDefinition(definition);
  change(copy);
  return breakingChanges(current, contractOf(copy));
};

const inputsOf = (d: AppDefinition, kind: 'triggers' | 'creates' | 'searches', key: string) =>
  staticFields(d[kind][key]!.operation.inputFields);

describe('breakingChanges catches what breaks a live Zap', () => {
  it('a removed action', () => {
    expect(
      broken((d) => {
        delete d.creates.cancel_order;
      }),
    ).toEqual(['creates.cancel_order: removed or renamed (hide it instead)']);
  });

  it('a renamed trigger', () => {
    expect(
      broken((d) => {
        d.triggers.invoice_paid_v2 = d.triggers.invoice_paid!;
        delete d.triggers.invoice_paid;
      }),
    ).toEqual(['triggers.invoice_paid: removed or renamed (hide it instead)']);
  });

  it('a trigger switched from hook to polling', () => {
    expect(
      broken((d) => {
        d.triggers.stock_low!.operation.type = 'polling';
      }),
    ).toEqual(['triggers.stock_low: type changed from hook to polling']);
  });

  it('a renamed input field, children of line items too', () => {
    expect(
      broken((d) => {
        inputsOf(d, 'creates', 'book_appointment').find((f) => f.key === 'starts_at')!.key = 'start';
        const lines = inputsOf(d, 'creates', 'create_order').find((f) => f.key === 'lines')!;
        staticFields(lines.children).find((c) => c.key === 'qty')!.key = 'quantity';
      }),
    ).toEqual([
      'creates.book_appointment.inputFields.starts_at: removed or renamed',
      'creates.book_appointment.inputFields.start: a new required field without a default',
      'creates.create_order.inputFields.lines[]qty: removed or renamed',
      'creates.create_order.inputFields.lines[]quantity: a new required field without a default',
    ]);
  });

  it('an optional field made required, and a new required field without a default', () => {
    expect(
      broken((d) => {
        inputsOf(d, 'searches', 'find_stock_level').find((f) => f.key === 'low_only')!.required = true;
        d.creates.cancel_order!.operation.inputFields!.push({ key: 'note', label: 'Note', required: true });
      }),
    ).toEqual([
      'creates.cancel_order.inputFields.note: a new required field without a default',
      'searches.find_stock_level.inputFields.low_only: was optional, is now required without a default',
    ]);
  });

  it('a removed sample key, nested ones too', () => {
    expect(
      broken((d) => {
        delete d.searches.find_invoice!.operation.sample!.due_sar;
        const lines = d.triggers.receipt_issued!.operation.sample!.lines as Array<Record<string, unknown>>;
        for (const line of lines) delete line.unit_price_sar;
      }),
    ).toEqual([
      'triggers.receipt_issued.sample.lines[]unit_price_sar: removed or renamed',
      'searches.find_invoice.sample.due_sar: removed or renamed',
    ]);
  });

  it('a renamed connection field, a new required one, a changed auth type', () => {
    expect(
      broken((d) => {
        d.authentication!.fields!.find((f) => f.key === 'language')!.key = 'locale';
        d.authentication!.fields!.push({ key: 'tenant', label: 'Tenant', required: true });
        d.authentication!.type = 'oauth2';
      }),
    ).toEqual([
      'authentication: type changed from custom to oauth2',
      'authentication.fields.language: removed or renamed',
      'authentication.fields.tenant: a new required field without a default',
    ]);
  });

  it('a search-or-create pair removed', () => {
    expect(
      broken((d) => {
        delete d.searchOrCreates!.find_item;
      }),
    ).toEqual(['searchOrCreates.find_item: removed or renamed']);
  });

  it('but not additions: a new operation, optional input, sample key or connection field', () => {
    expect(
      broken((d) => {
        d.searches.find_customer = { ...d.searches.find_order!, key: 'find_customer' };
        d.creates.create_order!.operation.inputFields!.push({
          key: 'table_no',
          label: 'Table',
          required: false,
        });
        d.creates.create_order!.operation.sample!.table_no = 12;
        d.authentication!.fields!.push({ key: 'region', label: 'Region', required: false });
      }),
    ).toEqual([]);
  });
});

withContract('contractTableProblems catches a CONTRACT.md key the definition lacks', () => {
  const tables = TABLES!;
  const problemsOf = (change: (d: AppDefinition) => void) => {
    const copy = cloneDefinition(definition);
    change(copy);
    return contractTableProblems(tables, copy);
  };

  it('a connection field, a trigger, an input, an output and the search-or-create pair', () => {
    expect(
      problemsOf((d) => {
        d.authentication!.fields = d.authentication!.fields!.filter((f) => f.key !== 'cashier_base_url');
        delete d.triggers.customer_created;
        inputsOf(d, 'searches', 'find_appointment').find((f) => f.key === 'to')!.key = 'until';
        delete d.creates.book_appointment!.operation.sample!.duplicate;
        delete d.searchOrCreates!.find_item;
      }),
    ).toEqual([
      '§1 connection field cashier_base_url is missing',
      '§2 trigger customer_created is missing',
      'creates.book_appointment: output duplicate is missing',
      'searches.find_appointment: input to is missing',
      'searches.find_item: no search-or-create pair with create_item',
    ]);
  });

  it('the variants’ Arabic name under any other key than the documented one', () => {
    expect(
      problemsOf((d) => {
        const variants = inputsOf(d, 'creates', 'create_item').find((f) => f.key === 'variants')!;
        staticFields(variants.children).find((c) => c.key === 'variant_name_ar')!.key = 'arabic_name';
      }),
    ).toEqual(['creates.create_item: input variants[]name_ar is missing']);
  });
});
