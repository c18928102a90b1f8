import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { EVENTS } from '../../lib/hooks/events';
import { withSar } from '../../lib/money';
import * as cashier from '../../lib/resources/cashier';
import * as clinic from '../../lib/resources/clinic';
import type { Field, Resource } from '../../lib/resources/define';
import { MAX_DEPTH, UNSAFE_KEYS } from '../../lib/resources/present';
import { delivered, DELIVERIES_DIR } from '../fixtures';
import { expectEqual } from '../support/equal';
import { resourceSchemaOf, resourcesOf, schemaOf } from '../support/schemas';

/*
 * The presenter reads deliveries without zod, in one walk over the field table. Here it is held to what zod schemas
 * of the same table (test/support/schemas.ts) make of the same data, on every recorded delivery and on generated
 * data. The reference: cut below MAX_DEPTH, parse with the resource's schema, field by field with each field's schema
 * when the whole does not parse, decorate, then the SAR siblings at any depth.
 */

type Any = Record<string, unknown>;
const isObject = (v: unknown): v is Any => !!v && typeof v === 'object' && !Array.isArray(v);

const bounded = (value: unknown, depth: number): unknown => {
  if (!value || typeof value !== 'object') return value;
  if (depth <= 0) return null;
  if (Array.isArray(value)) return value.map((v) => bounded(v, depth - 1));
  const out: Any = {};
  // Members that would set or shadow a prototype are never copied (present.ts, UNSAFE_KEYS).
  for (const [k, v] of Object.entries(value)) if (!UNSAFE_KEYS.has(k)) out[k] = bounded(v, depth - 1);
  return out;
};

const lenient = (fields: Record<string, Field>, data: Any, loose: boolean): Any => {
  const out: Any = loose ? { ...data } : {};
  for (const [key, field] of Object.entries(fields)) {
    if (!Object.hasOwn(data, key)) continue;
    const value = data[key];
    if (field.kind === 'rows') {
      out[key] = Array.isArray(value)
        ? value.filter(isObject).map((row) => lenient(field.children!, row, false))
        : null;
    } else if (field.children) {
      out[key] = isObject(value) ? lenient(field.children, value, !!field.looseChildren) : null;
    } else {
      const parsed = schemaOf(field).safeParse(value);
      out[key] = parsed.success ? parsed.data : null;
    }
  }
  return out;
};

type AnyResource = Resource<Record<string, Field>>;

/** What the schema makes of `data`. */
const bySchema = (resource: AnyResource, data: unknown) => {
  const input = bounded(isObject(data) ? data : {}, MAX_DEPTH) as Any;
  const result = resourceSchemaOf(resource).safeParse(input);
  const parsed = (result.success ? result.data : lenient(resource.fields, input, resource.loose)) as Any;
  return withSar({ ...parsed, ...(resource.decorate?.(parsed as never) ?? {}) });
};

const RESOURCES = (Object.entries({ ...clinic, ...cashier }) as Array<[string, unknown]>).filter(
  (e): e is [string, AnyResource] => isObject(e[1]) && 'present' in e[1],
);

describe('the presenter agrees with the zod schema', () => {
  const events = readdirSync(DELIVERIES_DIR)
    .filter((f) => f.endsWith('.json'))
    .map((f) => f.replace(/\.json$/, ''));

  it.each(events)('on the recorded delivery %s', (event) => {
    const envelope = delivered(event);
    const rows = EVENTS.filter((e) => e.event === event);
    // ping.json is the interfaces' test delivery: no trigger takes it, every resource must still agree on it.
    for (const resource of rows.length ? rows.map((r) => r.resource) : RESOURCES.map(([, r]) => r)) {
      expect(resource.present(envelope.data)).toEqual(bySchema(resource, envelope.data));
    }
  });

  it('every resource is checked', () => {
    expect(RESOURCES.map(([k]) => k)).toEqual(
      expect.arrayContaining(['invoice', 'receipt', 'session', 'item']),
    );
  });

  /** Data shaped like the field table: each field valid, of another type, null or absent, plus extra members. */
  const valueOf = (field: Field, level: number): fc.Arbitrary<unknown> => {
    const junk = fc.oneof(
      fc.constant(null),
      fc.string(),
      fc.integer(),
      fc.double(),
      fc.boolean(),
      fc.constant(''),
      fc.constant(2 ** 53),
      fc.constant(-0),
      fc.array(fc.string(), { maxLength: 2 }),
      fc.jsonValue({ maxDepth: 2 }),
    );
    const good: fc.Arbitrary<unknown> = (() => {
      switch (field.kind) {
        case 'string':
          return fc.string({ minLength: field.required ? 1 : 0 });
        case 'integer':
          return fc.oneof(fc.integer(), fc.maxSafeInteger());
        case 'decimal':
          return fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
        case 'boolean':
          return fc.boolean();
        case 'strings':
          return fc.array(fc.string(), { maxLength: 3 });
        case 'any':
          return fc.jsonValue({ maxDepth: 3 });
        case 'rows':
          return fc.array(fc.oneof({ weight: 5, arbitrary: objectOf(field.children!, level + 1) }, junk), {
            maxLength: 4,
          });
        case 'object':
          return objectOf(field.children!, level);
      }
    })();
    return fc.oneof({ weight: 6, arbitrary: good }, { weight: 1, arbitrary: junk });
  };
  const extraKey = fc.oneof(
    fc.string({ maxLength: 8 }),
    fc.constantFrom('extra_halalas', 'total_sar', 'deep', '_halalas', 'x_halalas'),
  );
  const objectOf = (fields: Record<string, Field>, level: number): fc.Arbitrary<Any> =>
    fc
      .tuple(
        fc.record(Object.fromEntries(Object.entries(fields).map(([k, f]) => [k, valueOf(f, level + 1)])), {
          requiredKeys: [],
        }),
        fc.dictionary(extraKey, fc.oneof(fc.integer(), fc.jsonValue({ maxDepth: 4 })), { maxKeys: 3 }),
      )
      .map(([known, extra]) => ({ ...extra, ...known }));

  it.each(RESOURCES)('on generated data shaped like %s', (_name, resource) => {
    fc.assert(
      fc.property(objectOf(resource.fields, 0), (data) => {
        expectEqual(resource.present(data), bySchema(resource, data));
      }),
      { numRuns: 300 },
    );
  });

  // One shape of item whatever the data: the listed members in the table's order, however the data orders them.
  it.each(RESOURCES)('%s presents its listed members in the table’s order', (_name, resource) => {
    const inOrder = (data: Any) => {
      const listed = Object.keys(resource.present(data)).filter((k) => Object.hasOwn(resource.fields, k));
      expect(listed).toEqual(Object.keys(resource.fields).filter((k) => listed.includes(k)));
    };
    const reversed = (data: Any) => Object.fromEntries(Object.entries(data).reverse());
    for (const event of events) inOrder(reversed(delivered(event).data as Any));
    fc.assert(fc.property(objectOf(resource.fields, 0).map(reversed), inOrder), { numRuns: 300 });
  });

  it.each(RESOURCES)('on any JSON, nested past MAX_DEPTH too (%s)', (_name, resource) => {
    const deep = fc.letrec((tie) => ({
      node: fc.oneof(
        { depthSize: 'small', withCrossShrink: true },
        fc.integer(),
        fc.dictionary(fc.constantFrom('a', 'a_halalas', 'a_sar'), tie('node'), { maxKeys: 2 }),
        fc.array(tie('node'), { maxLength: 2 }),
      ),
    })).node;
    fc.assert(
      fc.property(
        fc.oneof(
          fc.jsonValue(),
          fc.dictionary(fc.constantFrom(...Object.keys(resource.fields), 'x'), deep, { maxKeys: 4 }),
          fc.integer({ min: 9, max: 14 }).map((n) => {
            let v: unknown = { total_halalas: 5 };
            for (let i = 0; i < n; i += 1) v = { nest: v, list: [v] };
            return { ...(resource.sample as Any), extra: v };
          }),
        ),
        (data) => {
          expectEqual(resource.present(data), bySchema(resource, data));
        },
      ),
      { numRuns: 200 },
    );
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

  it.each(resourcesOf(clinic))(
    'clinic %s is strict: keys outside its fields are dropped',
    (_name, resource) => {
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
    },
  );

  it.each(resourcesOf(cashier))('cashier %s keeps members beyond its listed fields', (_name, resource) => {
    const presented = resource.present({ ...resource.sample, loyalty_tier: 'gold', table_no: 12 });

    expect(presented.loyalty_tier).toBe('gold');
    expect(presented.table_no).toBe(12);
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
