import * as zod from 'zod';
import type { Field, Fields, OutputField } from '../../lib/resources/define';

/*
 * zod schemas of a field table: the reference the presenter (lib/resources/present.ts) is held to. Each kind's
 * type rule is written here a second time, in zod's terms and apart from the product, so the two readings check each
 * other (test/resources/present.test.ts) and the app never loads zod to show an item.
 */

/** A field's value: absent or null allowed except for a required one (an id), which is also never empty. */
export const schemaOf = (field: Field): zod.ZodType => {
  const nullable = (schema: zod.ZodType) => (field.required ? schema : schema.nullish());
  switch (field.kind) {
    case 'string':
      return nullable(field.required ? zod.string().min(1) : zod.string());
    case 'integer':
      return nullable(zod.number().int());
    case 'decimal':
      return nullable(zod.union([zod.string(), zod.number()]).transform(String));
    case 'boolean':
      return nullable(zod.boolean());
    case 'strings':
      return nullable(zod.array(zod.string()));
    case 'any':
      return zod.unknown().optional();
    case 'rows':
      return nullable(zod.array(objectSchemaOf(field.children!, false)));
    case 'object':
      return nullable(objectSchemaOf(field.children!, !!field.looseChildren));
  }
};

/** An object with these fields; `loose` keeps the members beyond them. */
export const objectSchemaOf = (fields: Fields, loose: boolean): zod.ZodObject => {
  const shape: Record<string, zod.ZodType> = {};
  for (const [key, field] of Object.entries(fields)) shape[key] = schemaOf(field);
  return loose ? zod.looseObject(shape) : zod.object(shape);
};

/** A resource's schema. */
export const resourceSchemaOf = (resource: { fields: Fields; loose: boolean }): zod.ZodObject =>
  objectSchemaOf(resource.fields, resource.loose);

/** A resource as the tests read it, whatever its fields. */
export interface AnyResource {
  noun: string;
  fields: Fields;
  loose: boolean;
  outputFields: OutputField[];
  present(data: unknown): Record<string, unknown>;
  sample: Record<string, unknown>;
}

const isResource = (v: unknown): v is AnyResource =>
  !!v &&
  typeof v === 'object' &&
  'fields' in v &&
  'outputFields' in v &&
  typeof (v as { present?: unknown }).present === 'function';

/** The resources a module exports, by name. */
export const resourcesOf = (mod: Record<string, unknown>): Array<[string, AnyResource]> =>
  Object.entries(mod).filter((e): e is [string, AnyResource] => isResource(e[1]));

/** Top-level keys that `present` adds to an object holding only the schema's own keys (e.g. a composite id). */
export const decoratedKeys = (resource: AnyResource): string[] => {
  const schema = resourceSchemaOf(resource);
  const bare = schema.strip().parse(resource.sample);
  return Object.keys(resource.present(bare)).filter((key) => !(key in schema.shape) && !key.endsWith('_sar'));
};
