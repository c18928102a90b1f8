import { z } from 'zod';
import pkg from '../package.json';
import { halalasToSar } from '../lib/money';
import * as cashier from '../lib/resources/cashier';
import * as clinic from '../lib/resources/clinic';
import { MAX_DEPTH, type Field, type OutputField } from '../lib/resources/define';
import { APP_VERSION } from '../lib/version';
import { App } from './helpers';

/* Resource schemas, samples and output fields (clinic spec §2, cashier spec §2, CONTRACT §2, §5, §7). */

interface AnyResource {
  noun: string;
  schema: z.ZodObject;
  fields: Record<string, Field>;
  outputFields: OutputField[];
  present(data: unknown): Record<string, unknown>;
  sample: Record<string, unknown>;
}

const isResource = (v: unknown): v is AnyResource =>
  !!v &&
  typeof v === 'object' &&
  'schema' in v &&
  'outputFields' in v &&
  typeof (v as { present?: unknown }).present === 'function';

const resourcesOf = (mod: Record<string, unknown>): Array<[string, AnyResource]> =>
  Object.entries(mod).filter((e): e is [string, AnyResource] => isResource(e[1]));

const CLINIC = resourcesOf(clinic);
const CASHIER = resourcesOf(cashier);
const ALL = [...CLINIC, ...CASHIER];

/** Through optional, nullable and array wrappers to the schema that holds the value. */
const unwrap = (schema: z.ZodType): z.ZodType => {
  let current = schema;
  for (;;) {
    if (current instanceof z.ZodOptional || current instanceof z.ZodNullable) {
      current = current.unwrap() as z.ZodType;
    } else if (current instanceof z.ZodArray) {
      current = current.element as z.ZodType;
    } else {
      return current;
    }
  }
};

/** Whether the schema has the nested key path (`lines[]unit_halalas` → lines → unit_halalas). */
const schemaHas = (schema: z.ZodType, path: string[]): boolean => {
  let current: z.ZodType = schema;
  for (const segment of path) {
    const object = unwrap(current);
    if (!(object instanceof z.ZodObject)) return false;
    const next = (object.shape as Record<string, z.ZodType | undefined>)[segment];
    if (!next) return false;
    current = next;
  }
  return true;
};

/** The schema key path an output field stands for: `[]` and `__` nest, a `_sar` sibling stands for `_halalas`. */
const schemaPathOf = (key: string): string[] => {
  const path = key.split(/\[\]|__/);
  const last = path.length - 1;
  path[last] = path[last]!.replace(/_sar$/, '_halalas');
  return path;
};

/** Top-level keys that `present` adds to an object holding only the schema's own keys (e.g. a composite id). */
const decoratedKeys = (resource: AnyResource): string[] => {
  const bare = resource.schema.strip().parse(resource.sample);
  return Object.keys(resource.present(bare)).filter(
    (key) => !(key in resource.schema.shape) && !key.endsWith('_sar'),
  );
};

/** `path: x_halalas=… but x_sar=…` for every amount whose SAR sibling is missing or different. */
const moneyMismatches = (value: unknown, path = ''): string[] => {
  if (Array.isArray(value)) return value.flatMap((v, i) => moneyMismatches(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  return Object.entries(record).flatMap(([key, v]) => {
    const nested = moneyMismatches(v, `${path}${path ? '.' : ''}${key}`);
    if (!key.endsWith('_halalas') || typeof v !== 'number') return nested;
    const sarKey = key.replace(/_halalas$/, '_sar');
    const sar = record[sarKey];
    return sar === halalasToSar(v)
      ? nested
      : [...nested, `${path}${path ? '.' : ''}${key}=${v} but ${sarKey}=${String(sar)}`];
  });
};

/**
 * Known bug, reported: creditNote's sample spreads receipt.sample (already presented, with receipt's `_sar`
 * values) and overrides only the `_halalas`; withSar (lib/money.ts) then lets the stale incoming `_sar` member
 * overwrite the computed one, so the sample shows total_halalas 1100 with total_sar "35.00". `it.failing` turns
 * red the day it is fixed: then delete this entry.
 */

describe('resources', () => {
  it('finds the resources of both interfaces', () => {
    expect(CLINIC.map(([name]) => name)).toEqual(
      expect.arrayContaining(['patient', 'appointment', 'invoice', 'claim', 'patientErasure']),
    );
    expect(CASHIER.map(([name]) => name)).toEqual(
      expect.arrayContaining([
        'receipt',
        'creditNote',
        'session',
        'stockLevel',
        'orderStatusChange',
        'customer',
      ]),
    );
  });

  describe.each(ALL)('%s', (_name, resource) => {
    it('its sample parses with its schema', () => {
      const parsed = resource.schema.safeParse(resource.sample);
      expect(parsed.error?.issues ?? []).toEqual([]);
      expect(parsed.success).toBe(true);
    });

    it('every output field names a key the schema has (or one the resource adds, like a stock level’s id)', () => {
      const added = decoratedKeys(resource);
      const missing = resource.outputFields
        .map((o) => o.key)
        .filter((key) => !schemaHas(resource.schema, schemaPathOf(key)) && !added.includes(key));
      expect(missing).toEqual([]);
    });

    it('output field keys are unique and labelled', () => {
      const keys = resource.outputFields.map((o) => o.key);
      expect(new Set(keys).size).toBe(keys.length);
      for (const o of resource.outputFields) expect(o.label.trim()).not.toBe('');
    });

    it('every *_halalas output field has a *_sar sibling, and every *_sar a *_halalas', () => {
      const keys = new Set(resource.outputFields.map((o) => o.key));
      for (const key of keys) {
        if (key.endsWith('_halalas')) expect(keys).toContain(key.replace(/_halalas$/, '_sar'));
        if (key.endsWith('_sar')) expect(keys).toContain(key.replace(/_sar$/, '_halalas'));
      }
      const sarFields = resource.outputFields.filter((o) => o.key.endsWith('_sar'));
      for (const o of sarFields) expect(o.type).toBe('string');
    });

    // A sample built by spreading another one keeps that one's `_sar` members: they must not win over the
    // amounts of this sample (the credit note's is built so).
    it('every amount in its sample, nested ones too, has the matching SAR sibling', () => {
      expect(moneyMismatches(resource.sample)).toEqual([]);
    });
  });
});

describe('privacy whitelists (CONTRACT §7)', () => {
  const rawInvoice = {
    ...clinic.invoice.sample,
    diagnosis: 'K02.1 caries',
    clinical_notes: 'deep pocket on 16',
    lines: [
      {
        line_no: 1,
        nature: 'medical',
        qty: 1,
        unit_halalas: 45000,
        net_halalas: 40000,
        vat_halalas: 6000,
        total_halalas: 46000,
        tax_category: 'standard',
        code: 'D1110',
        description: 'Scaling and polishing',
        tooth: '16',
        surfaces: ['M', 'O'],
      },
    ],
    payments: [{ method: 'card', scheme: 'mada', last4: '4417', amount_halalas: 46000, card_holder: 'N A' }],
  };

  it('invoice lines never carry code, description, tooth or surfaces', () => {
    const presented = clinic.invoice.present(rawInvoice);
    const lines = presented.lines as Array<Record<string, unknown>>;

    expect(Object.keys(lines[0]!).sort()).toEqual(
      [
        'line_no',
        'nature',
        'qty',
        'unit_halalas',
        'unit_sar',
        'net_halalas',
        'net_sar',
        'vat_halalas',
        'vat_sar',
        'total_halalas',
        'total_sar',
        'tax_category',
      ].sort(),
    );
    expect(JSON.stringify(presented)).not.toMatch(/D1110|Scaling|surfaces|tooth|description/);
  });

  it('invoices drop unknown top-level keys and unknown payment members', () => {
    const presented = clinic.invoice.present(rawInvoice);

    expect(presented).not.toHaveProperty('diagnosis');
    expect(presented).not.toHaveProperty('clinical_notes');
    expect((presented.payments as Array<Record<string, unknown>>)[0]).toEqual({
      method: 'card',
      scheme: 'mada',
      last4: '4417',
      amount_halalas: 46000,
      amount_sar: '460.00',
    });
  });

  it.each(CLINIC)('clinic %s is strict: keys outside its fields are dropped', (_name, resource) => {
    const presented = resource.present({
      ...resource.sample,
      diagnosis: 'K02.1',
      photo_url: 'https://x/y.jpg',
    });

    expect(presented).not.toHaveProperty('diagnosis');
    expect(presented).not.toHaveProperty('photo_url');
    // The fields, their SAR siblings and what the resource derives from them (an appointment's readable times).
    const allowed = new Set([
      ...Object.keys(resource.fields).flatMap((k) => [k, k.replace(/_halalas$/, '_sar')]),
      ...resource.outputFields.map((o) => o.key.split(/\[\]|__/)[0]!),
    ]);
    for (const key of Object.keys(presented)) expect(allowed).toContain(key);
  });

  it.each(CASHIER)('cashier %s keeps members beyond its listed fields', (_name, resource) => {
    const presented = resource.present({ ...resource.sample, loyalty_tier: 'gold', table_no: 12 });

    expect(presented.loyalty_tier).toBe('gold');
    expect(presented.table_no).toBe(12);
  });
});

describe('stock level (CONTRACT §2)', () => {
  it('gets the id <branch_id>:<variant_id>', () => {
    const level = cashier.stockLevel.present({
      branch_id: 3,
      variant_id: 41,
      sku: 'DATE-CAKE',
      name_ar: 'كعكة التمر',
      qty: 2,
      reorder_point: '5',
      suggested_qty: '20',
    });

    expect(level.id).toBe('3:41');
    expect(decoratedKeys(cashier.stockLevel as unknown as AnyResource)).toEqual(['id']);
    expect(cashier.stockLevel.outputFields.map((o) => o.key)).toContain('id');
    // Quantities are decimal strings; a number is read as one.
    expect(level.qty).toBe('2');
  });

  it('two variants of one branch get different ids', () => {
    const a = cashier.stockLevel.present({ branch_id: 1, variant_id: 118 });
    const b = cashier.stockLevel.present({ branch_id: 11, variant_id: 18 });
    expect(a.id).not.toBe(b.id);
  });
});

describe('a sample or delivery of the wrong shape (never lost: misfits become null)', () => {
  it.each([
    [
      'appointment branch_id',
      clinic.appointment,
      { ...clinic.appointment.sample, branch_id: 'x' },
      { branch_id: null, status: 'booked', patient_id: clinic.appointment.sample.patient_id },
    ],
    [
      'appointment without id',
      clinic.appointment,
      { ...clinic.appointment.sample, id: undefined },
      { id: null, starts_at: clinic.appointment.sample.starts_at },
    ],
    [
      'invoice line qty',
      clinic.invoice,
      { ...clinic.invoice.sample, lines: [{ line_no: 1, qty: 'two', total_halalas: 500 }] },
      { lines: [{ line_no: 1, qty: null, total_halalas: 500, total_sar: '5.00' }], total_sar: '460.00' },
    ],
    [
      'receipt total',
      cashier.receipt,
      { ...cashier.receipt.sample, total_halalas: '35.00' },
      { total_halalas: null, number: cashier.receipt.sample.number, subtotal_sar: '30.43' },
    ],
    ['stock level variant_id', cashier.stockLevel, { branch_id: 1 }, { branch_id: 1, id: '1:undefined' }],
  ] as const)('%s: the item comes through with the misfit as null', (_case, resource, data, expected) => {
    const item = (resource.present as (d: unknown) => Record<string, unknown>)(data);
    expect(item).toMatchObject(expected);
  });

  it('a body that is not an object gives an empty item, not an error', () => {
    expect(clinic.patient.present('not an object')).toEqual({});
  });

  it('keeps a clinic object to its whitelist even when the whole-object parse fails', () => {
    const item = clinic.invoice.present({
      ...clinic.invoice.sample,
      status: 7,
      diagnosis: 'K02.1',
      lines: [{ ...clinic.invoice.sample.lines![0], code: 'D1110', tooth: '16', description: 'scaling' }],
    });
    expect(item.status).toBeNull();
    expect(item).not.toHaveProperty('diagnosis');
    expect(JSON.stringify(item)).not.toMatch(/D1110|scaling|"tooth"/);
  });

  it('cuts members nested deeper than MAX_DEPTH, so any depth can be serialised', () => {
    const deep = JSON.parse(`${'{"a":'.repeat(20_000)}1${'}'.repeat(20_000)}`) as unknown;
    const item = cashier.receipt.present({ ...cashier.receipt.sample, extra: deep, prepaid_applied: deep });
    const depth = (v: unknown): number =>
      v && typeof v === 'object' ? 1 + Math.max(0, ...Object.values(v).map(depth)) : 0;
    expect(() => JSON.stringify(item)).not.toThrow();
    expect(item.total_sar).toBe('35.00');
    expect(depth(item)).toBeLessThanOrEqual(MAX_DEPTH);
    expect(depth(item)).toBeGreaterThan(MAX_DEPTH - 2); // cut, not dropped
  });
});

describe('version', () => {
  it('APP_VERSION equals package.json’s version, and the app declares it', () => {
    expect(APP_VERSION).toBe(pkg.version);
    expect(App.version).toBe(pkg.version);
  });
});
