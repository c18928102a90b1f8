import { compileApp, serializeApp } from 'zapier-platform-core/src/tools/schema';

/*
 * The app definition as Zapier sees it: core compiles the app and serializes it the way `zapier-platform build`
 * writes definition.json, functions turned into `$func$<arity>$<t|f>$` markers. The integration checks and the
 * contract snapshot read this form only, so they judge what Zapier judges.
 */

export interface FieldDef {
  key: string;
  label?: string;
  helpText?: string;
  placeholder?: string;
  type?: string;
  required?: boolean;
  list?: boolean;
  default?: string;
  dict?: boolean;
  dynamic?: string;
  search?: string;
  choices?: unknown;
  /** Inputs a `choices.perform` dropdown follows: filled first, and clearing it when they change. */
  dependsOn?: string[];
  meta?: Record<string, unknown>;
  computed?: boolean;
  primary?: boolean;
  children?: FieldDef[];
}

export interface Display {
  label?: string;
  description?: string;
  hidden?: boolean;
}

export interface OperationDef {
  type?: string;
  perform?: unknown;
  performList?: unknown;
  performSubscribe?: unknown;
  performUnsubscribe?: unknown;
  canPaginate?: boolean;
  /** Static fields are objects; a function (dynamic fields) is a `$func$` marker. */
  inputFields?: Array<FieldDef | string>;
  outputFields?: Array<FieldDef | string>;
  sample?: Record<string, unknown>;
}

export interface ActionDef {
  key: string;
  noun: string;
  display: Display;
  operation: OperationDef;
}

export interface SearchOrCreateDef {
  key: string;
  display: Display;
  search: string;
  create: string;
}

export interface AppDefinition {
  version: string;
  platformVersion: string;
  authentication?: {
    type: string;
    fields?: FieldDef[];
    test?: unknown;
    connectionLabel?: unknown;
  };
  triggers: Record<string, ActionDef>;
  creates: Record<string, ActionDef>;
  searches: Record<string, ActionDef>;
  searchOrCreates?: Record<string, SearchOrCreateDef>;
}

export const KINDS = ['triggers', 'creates', 'searches'] as const;
export type Kind = (typeof KINDS)[number];

/** The app's definition.json, from the app object (sources in tests, dist/ in scripts). */
export const loadDefinition = (app: object): AppDefinition => serializeApp(compileApp(app)) as AppDefinition;

/** A deep copy to break on purpose, or to compare. */
export const cloneDefinition = (definition: AppDefinition): AppDefinition =>
  JSON.parse(JSON.stringify(definition)) as AppDefinition;

/** A function in the serialized definition (or a live one, or a request object). */
export const isPerform = (value: unknown): boolean =>
  typeof value === 'function' ||
  (typeof value === 'string' && value.startsWith('$func$')) ||
  (!!value && typeof value === 'object' && 'url' in value);

/** Whether a field's choices come from a perform (core's `choices: { perform }`), not a static list. */
export const hasChoicesPerform = (field: FieldDef): boolean =>
  !!field.choices &&
  typeof field.choices === 'object' &&
  !Array.isArray(field.choices) &&
  isPerform((field.choices as { perform?: unknown }).perform);

/** A dropdown filled as it opens: a hidden trigger's (`dynamic`) or a perform's. */
export const hasDynamicDropdown = (field: FieldDef): boolean => !!field.dynamic || hasChoicesPerform(field);

export interface OperationRef {
  kind: Kind;
  key: string;
  action: ActionDef;
  /** `creates.book_appointment`, the way problems name it. */
  where: string;
}

export const operationsOf = (definition: AppDefinition, kinds: readonly Kind[] = KINDS): OperationRef[] =>
  kinds.flatMap((kind) =>
    Object.entries(definition[kind] ?? {}).map(([key, action]) => ({
      kind,
      key,
      action,
      where: `${kind}.${key}`,
    })),
  );

export const staticFields = (fields: ReadonlyArray<FieldDef | string> | undefined): FieldDef[] =>
  (fields ?? []).filter((f): f is FieldDef => !!f && typeof f === 'object');

export interface FieldRef {
  field: FieldDef;
  /** `lines[]variant_id` for a child of line items, as Zapier names it in the editor. */
  path: string;
  where: string;
  parent?: FieldDef;
}

/** Every static input field of every operation, children of line items included. */
export const inputFieldsOf = (definition: AppDefinition, kinds: readonly Kind[] = KINDS): FieldRef[] =>
  operationsOf(definition, kinds).flatMap(({ where, action }) =>
    staticFields(action.operation.inputFields).flatMap((field) => [
      { field, path: field.key, where: `${where}.inputFields.${field.key}` },
      ...staticFields(field.children).map((child) => ({
        field: child,
        path: `${field.key}[]${child.key}`,
        where: `${where}.inputFields.${field.key}[]${child.key}`,
        parent: field,
      })),
    ]),
  );

export const authFieldsOf = (definition: AppDefinition): FieldRef[] =>
  staticFields(definition.authentication?.fields).map((field) => ({
    field,
    path: field.key,
    where: `authentication.fields.${field.key}`,
  }));

export interface SampleValue {
  /** Zapier's flattened key: `z_report__sales__total_halalas`, `lines[]qty`. */
  path: string;
  value: unknown;
}

const isRecord = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The values of a sample under the keys a Zap builder maps: nested objects join with `__`, arrays of objects
 * with `[]`; arrays of plain values (and empty arrays) stay whole.
 */
export const flattenSample = (value: unknown, prefix = ''): SampleValue[] => {
  if (!isRecord(value)) return [];
  return Object.entries(value).flatMap(([key, v]): SampleValue[] => {
    const path = `${prefix}${key}`;
    if (isRecord(v)) return flattenSample(v, `${path}__`);
    if (Array.isArray(v) && v.length && v.every(isRecord)) {
      return v.flatMap((element) => flattenSample(element, `${path}[]`));
    }
    return [{ path, value: v }];
  });
};

/** Distinct flattened keys of a sample, in order of first appearance. */
export const sampleKeysOf = (sample: unknown): string[] => [
  ...new Set(flattenSample(sample).map((s) => s.path)),
];
