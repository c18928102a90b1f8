import * as zod from 'zod';
import * as cashier from '../../lib/resources/cashier';
import * as clinic from '../../lib/resources/clinic';
import { decoratedKeys, resourceSchemaOf, resourcesOf } from '../support/schemas';

/* Output fields made from each resource's field table (CONTRACT §2, §5). */

const ALL = [...resourcesOf(clinic), ...resourcesOf(cashier)];

/** Through optional, nullable and array wrappers to the schema that holds the value. */
const unwrap = (schema: zod.ZodType): zod.ZodType => {
  let current = schema;
  for (;;) {
    if (current instanceof zod.ZodOptional || current instanceof zod.ZodNullable) {
      current = current.unwrap() as zod.ZodType;
    } else if (current instanceof zod.ZodArray) {
      current = current.element as zod.ZodType;
    } else {
      return current;
    }
  }
};

/** Whether the schema has the nested key path (`lines[]unit_halalas` → lines → unit_halalas). */
const schemaHas = (schema: zod.ZodType, path: string[]): boolean => {
  let current: zod.ZodType = schema;
  for (const segment of path) {
    const object = unwrap(current);
    if (!(object instanceof zod.ZodObject)) return false;
    const next = (object.shape as Record<string, zod.ZodType | undefined>)[segment];
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

describe.each(ALL)('output fields of %s', (_name, resource) => {
  it('every output field names a key the schema has (or one the resource adds, like a stock level’s id)', () => {
    const added = decoratedKeys(resource);
    const schema = resourceSchemaOf(resource);
    const missing = resource.outputFields
      .map((o) => o.key)
      .filter((key) => !schemaHas(schema, schemaPathOf(key)) && !added.includes(key));
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
});
