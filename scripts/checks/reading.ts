import {
  authFieldsOf,
  flattenSample,
  inputFieldsOf,
  operationsOf,
  staticFields,
  type AppDefinition,
  type FieldDef,
  type OperationRef,
} from './definition';

/*
 * What both sets of rules read in a definition: its prose, labels, links and samples. Each rule returns its problems,
 * one sentence each, naming where: an empty list is a pass.
 */

export interface Rule {
  id: string;
  title: string;
  check(definition: AppDefinition): string[];
}

/** Backtick code spans: literal values (examples, paths), not prose. */
export const withoutCode = (text: string) => text.replace(/`[^`]*`/g, '');

export const MARKDOWN_LINK = /\[([^\]\n]+)\]\(([^()\s]+)\)/g;

export const linksOf = (text: string): string[] =>
  [...withoutCode(text).matchAll(MARKDOWN_LINK)].map((m) => m[2]!);

export const DATE = /^\d{4}-\d{2}-\d{2}$/;
export const DATETIME_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;

export const outputFieldsOf = (op: OperationRef): FieldDef[] =>
  staticFields(op.action.operation.outputFields);

/** Whether an operation's output names a key: an output field, or a key of its sample. */
export const outputHas = (op: OperationRef, key: string): boolean =>
  outputFieldsOf(op).some((o) => o.key === key) ||
  flattenSample(op.action.operation.sample).some((s) => s.path === key);

export const isCredential = (field: FieldDef) =>
  field.type === 'password' || /token|secret|api_?key|password/i.test(field.key);

/** Labels a Zap builder reads: operations, search-or-create pairs, input, auth and output fields. */
export const labelsOf = (definition: AppDefinition): Array<{ where: string; label: string }> => [
  ...operationsOf(definition).flatMap((op) => [
    ...(op.action.display.label ? [{ where: op.where, label: op.action.display.label }] : []),
    ...outputFieldsOf(op)
      .filter((o) => o.label)
      .map((o) => ({ where: `${op.where}.outputFields.${o.key}`, label: o.label! })),
  ]),
  ...Object.entries(definition.searchOrCreates ?? {}).flatMap(([key, pair]) =>
    pair.display.label ? [{ where: `searchOrCreates.${key}`, label: pair.display.label }] : [],
  ),
  ...[...inputFieldsOf(definition), ...authFieldsOf(definition)]
    .filter((ref) => ref.field.label)
    .map((ref) => ({ where: ref.where, label: ref.field.label! })),
];

/** Help texts and descriptions: the prose of the editor. */
export const proseOf = (definition: AppDefinition): Array<{ where: string; text: string }> => [
  ...operationsOf(definition).flatMap((op) =>
    op.action.display.description ? [{ where: op.where, text: op.action.display.description }] : [],
  ),
  ...Object.entries(definition.searchOrCreates ?? {}).flatMap(([key, pair]) =>
    pair.display.description ? [{ where: `searchOrCreates.${key}`, text: pair.display.description }] : [],
  ),
  ...[...inputFieldsOf(definition), ...authFieldsOf(definition)]
    .filter((ref) => ref.field.helpText)
    .map((ref) => ({ where: ref.where, text: ref.field.helpText! })),
];

/**
 * Every string of the definition except samples (data, not configuration), with where it is: a field of a list
 * is named by its key (`authentication.fields.clinic_api_token.helpText`), anything else by its position.
 */
export const stringsOf = (value: unknown, where = ''): Array<{ where: string; text: string }> => {
  const at = (k: string) => (where ? `${where}.${k}` : k);
  if (typeof value === 'string') return [{ where: where || '(app)', text: value }];
  if (Array.isArray(value)) {
    return value.flatMap((v, i) => {
      const key: unknown = v && typeof v === 'object' ? (v as { key?: unknown }).key : undefined;
      return stringsOf(v, typeof key === 'string' ? at(key) : `${where}[${i}]`);
    });
  }
  if (!value || typeof value !== 'object') return [];
  return Object.entries(value).flatMap(([k, v]) => (k === 'sample' ? [] : stringsOf(v, at(k))));
};

/** Hosts that never belong to the vendor: documentation examples, test domains, this computer. */
const PLACEHOLDER_HOST =
  /^(?:[^.]+\.)*example\.(?:com|org|net)$|\.(?:example|test|invalid|localhost)$|^localhost$|^127\.|^0\.0\.0\.0$|^\[::1?\]$|your-?(?:domain|company|app|site)|placeholder/i;

const WEB_ADDRESS = /\b(?:https?:\/\/|www\.)[^\s)"'`<>\]]+/gi;

/** The placeholder links of a text: web addresses whose host is an example, a test domain or this computer. */
export const placeholderLinks = (text: string): string[] =>
  [...text.matchAll(WEB_ADDRESS)]
    .map((m) => m[0].replace(/[.,;:!?]+$/, ''))
    .filter((url) => {
      const host = /^(?:https?:\/\/)?(?:[^@/]*@)?(\[[^\]]*\]|[^/:?#]+)/i.exec(url)?.[1] ?? '';
      return PLACEHOLDER_HOST.test(host.toLowerCase());
    });

/** Every string of the definition, samples included (a sample's address is shown in the editor too). */
export const allStringsOf = (definition: AppDefinition) => [
  ...stringsOf(definition),
  ...operationsOf(definition).flatMap((op) =>
    flattenSample(op.action.operation.sample)
      .filter((s): s is { path: string; value: string } => typeof s.value === 'string')
      .map((s) => ({ where: `${op.where}: sample ${s.path}`, text: s.value })),
  ),
];
