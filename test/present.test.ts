import { readdirSync } from 'node:fs';
import fc from 'fast-check';
import { EVENTS } from '../lib/hooks/events';
import { withSar } from '../lib/money';
import * as cashier from '../lib/resources/cashier';
import * as clinic from '../lib/resources/clinic';
import { MAX_DEPTH, presenterTiers, UNSAFE_KEYS, type Field, type Resource } from '../lib/resources/define';
import { delivered, DELIVERIES_DIR } from './fixtures';
import { expectEqual, expectStrictEqual } from './support/equal';

/*
 * The presenter reads deliveries without zod, in one pass driven by the field table. zod stays the
 * source of truth for types: here the presenter is held to what the schema makes of the same data, on every
 * recorded delivery and on generated data. The reference is the zod path as it was: cut below MAX_DEPTH, parse with
 * the resource's schema, field by field with each field's schema when the whole does not parse, decorate, then the
 * SAR siblings at any depth.
 */

type Any = Record<string, unknown>;
const isObject = (v: unknown): v is Any => !!v && typeof v === 'object' && !Array.isArray(v);

const bounded = (value: unknown, depth: number): unknown => {
  if (!value || typeof value !== 'object') return value;
  if (depth <= 0) return null;
  if (Array.isArray(value)) return value.map((v) => bounded(v, depth - 1));
  const out: Any = {};
  // Members that would set or shadow a prototype are never copied (define.ts, UNSAFE_KEYS).
  for (const [k, v] of Object.entries(value)) if (!UNSAFE_KEYS.has(k)) out[k] = bounded(v, depth - 1);
  return out;
};

const lenient = (fields: Record<string, Field>, data: Any, loose: boolean): Any => {
  const out: Any = loose ? { ...data } : {};
  for (const [key, field] of Object.entries(fields)) {
    if (!Object.hasOwn(data, key)) continue;
    const value = data[key];
    if (field.children && field.childrenAreList) {
      out[key] = Array.isArray(value)
        ? value.filter(isObject).map((row) => lenient(field.children!, row, false))
        : null;
    } else if (field.children) {
      out[key] = isObject(value) ? lenient(field.children, value, !!field.looseChildren) : null;
    } else {
      const parsed = field.schema().safeParse(value);
      out[key] = parsed.success ? parsed.data : null;
    }
  }
  return out;
};

type AnyResource = Resource<Record<string, Field>>;

/** What the schema makes of `data`. */
const bySchema = (resource: AnyResource, data: unknown) => {
  const input = bounded(isObject(data) ? data : {}, MAX_DEPTH) as Any;
  const result = resource.schema.safeParse(input);
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
        case 'id':
          return fc.string({ minLength: 1 });
        case 'intId':
        case 'int':
          return fc.oneof(fc.integer(), fc.maxSafeInteger());
        case 'decimal':
          return fc.oneof(fc.string(), fc.integer(), fc.double({ noNaN: true, noDefaultInfinity: true }));
        case 'bool':
          return fc.boolean();
        case 'texts':
          return fc.array(fc.string(), { maxLength: 3 });
        case 'any':
          return fc.jsonValue({ maxDepth: 3 });
        case 'rows':
          return fc.array(fc.oneof({ weight: 5, arbitrary: objectOf(field.children!, level + 1) }, junk), {
            maxLength: 4,
          });
        case 'object':
          return objectOf(field.children!, level);
        default:
          return fc.string();
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

  // A resource's first COMPILE_AFTER items go through the field-table tier, the rest through the compiled one: both
  // are held to each other here (key order included, so a Zap sees the same item either way) and, through
  // `present` above, to the schema.
  it.each(RESOURCES)('the field-table and compiled tiers present %s alike', (_name, resource) => {
    const { table, compiled } = presenterTiers(resource.fields, resource.loose);
    const alike = (data: Any) => {
      const a = table(data, 0);
      const b = compiled(data, 0);
      expectStrictEqual(a, b);
      const [ja, jb] = [JSON.stringify(a), JSON.stringify(b)];
      if (ja !== jb) expect(ja).toBe(jb);
    };
    for (const event of events) alike(delivered(event).data as Any);
    fc.assert(fc.property(objectOf(resource.fields, 0), alike), { numRuns: 300 });
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
