/**
 * Zapier input fields as n8n node properties, so a node shows the inputs the Zapier app declares (lib/inputs.ts,
 * lib/hooks/filters.ts), with their labels and help, and nothing is declared twice; and the node's parameters back
 * as the inputData the app's perform reads.
 */
import { helpIn, HOST_HELP, type HostHelp } from '../../lib/host';
import { CHOICES_READ } from '../../lib/keys';
import type { NodeProperty } from './n8n-types';
import { inputDataOf } from './seam';
import { N8N } from './host';
import { withOffsetIn } from './times';

export interface ZapierField {
  key: string;
  label?: string;
  helpText?: string;
  /** The help as a function of the host's words, where it speaks of the host's things (lib/host.ts). */
  [HOST_HELP]?: HostHelp;
  type?: string;
  required?: boolean;
  default?: unknown;
  placeholder?: string;
  list?: boolean;
  choices?: unknown;
  dynamic?: string;
  dependsOn?: string[];
  meta?: Record<string, string>;
  children?: ZapierField[];
}

type Show = Record<string, string[]>;

/** The n8n loadOptions method that lists a field's choices, when it has one (src/dropdowns.ts). */
export type LoaderOf = (field: ZapierField) => string | undefined;

/**
 * The one option of a line-items collection: n8n keeps its rows under this name (`{ rows: [{…}, {…}] }`), where
 * Zapier's bundle.inputData has the array itself.
 */
export const ROWS = 'rows';

/** Fixed choices as n8n options; dynamic ones (`choices.perform`) are listed by a loader instead. */
const optionsOf = (choices: unknown): Array<{ name: string; value: string }> | undefined => {
  if (Array.isArray(choices)) {
    return choices
      .map((c: { value: string; label?: string }) => ({ name: c.label ?? c.value, value: c.value }))
      .sort(byName);
  }
  if (choices && typeof choices === 'object' && !('perform' in choices)) {
    return Object.entries(choices as Record<string, string>)
      .map(([value, name]) => ({ name, value }))
      .sort(byName);
  }
  return undefined;
};

// Markdown of Zapier's help text reads as plain text in n8n's hints, without the backticks and stars.
const plain = (text: string | undefined) => (text ?? '').replace(/\*\*|`/g, '');

/*
 * n8n's conventions for what its editor lists, as its node rules state them (test/n8n/description-lint.test.ts):
 * a one-sentence description without its final period, options in alphabetical order, an operation's action in
 * sentence case. The words stay the app's.
 */

/** Zapier help text as an n8n description: plain text; one sentence loses its final period. */
export const hintOf = (text: string | undefined): string => {
  const hint = plain(text).trim();
  return hint.replace('e.g.', '').split('. ').length === 1 ? hint.replace(/\.$/, '') : hint;
};

/** n8n lists options by name, and a collection's inputs by display name. */
export const byName = (a: { name: string }, b: { name: string }) => a.name.localeCompare(b.name);
const byDisplayName = (a: { displayName: string }, b: { displayName: string }) =>
  a.displayName.localeCompare(b.displayName);

/** "Find or Create Item" as n8n's action "Find or create item"; an all-capitals word (SKU) and a name (Z-Report) stay. */
export const sentenceOf = (label: string): string =>
  label
    .split(' ')
    .map((word, i) =>
      i === 0 || word === word.toUpperCase() || word.includes('-') ? word : word.toLowerCase(),
    )
    .join(' ');

/** The inputs a dropdown's choices read (Zapier's dependsOn, and the optional ones that narrow the list). */
const readsOf = (field: ZapierField): string[] =>
  (field.meta?.[CHOICES_READ] ?? field.dependsOn?.join(' ') ?? '').split(' ').filter(Boolean);

export const propertyOf = (field: ZapierField, show?: Show, loaderOf?: LoaderOf): NodeProperty => {
  const options = optionsOf(field.choices);
  // A help that speaks of the host's things is rendered in n8n's words (src/host.ts).
  const help = helpIn(N8N, field);
  const description = hintOf(help);
  const base = {
    displayName: field.label ?? field.key,
    name: field.key,
    ...(description ? { description } : {}),
    ...(field.required ? { required: true } : {}),
    ...(field.placeholder ? { placeholder: field.placeholder } : {}),
    ...(show ? { displayOptions: { show } } : {}),
  };
  if (field.children) {
    return {
      ...base,
      type: 'fixedCollection',
      placeholder: `Add ${field.label ?? field.key}`,
      typeOptions: { multipleValues: true },
      default: {},
      options: [
        {
          name: ROWS,
          displayName: field.label ?? field.key,
          values: field.children.map((child) => propertyOf(child, undefined, loaderOf)).sort(byDisplayName),
        },
      ],
    };
  }
  const loader = loaderOf?.(field);
  if (loader) {
    const reads = readsOf(field);
    return {
      ...base,
      // n8n accepts an expression in any options field: a mapped id works as on Zapier.
      description: hintOf(`${help ?? ''} Choose from the list, or specify an ID using an expression.`),
      type: 'options',
      default: '',
      typeOptions: { loadOptionsMethod: loader, ...(reads.length ? { loadOptionsDependsOn: reads } : {}) },
    };
  }
  if (options) {
    if (field.list) return { ...base, type: 'multiOptions', options, default: [] };
    return field.default === undefined
      ? { ...base, type: 'options', options: [{ name: '(Any)', value: '' }, ...options], default: '' }
      : { ...base, type: 'options', options, default: String(field.default) };
  }
  if (field.type === 'boolean') {
    // Without a default, "not given" differs from No (Zapier leaves an untouched field out): a choice of three.
    return field.default === undefined
      ? {
          ...base,
          type: 'options',
          options: [
            { name: '(Not Set)', value: '' },
            { name: 'Yes', value: 'true' },
            { name: 'No', value: 'false' },
          ],
          default: '',
        }
      : { ...base, type: 'boolean', default: String(field.default) === 'true' };
  }
  if (field.type === 'datetime') {
    // n8n's date picker gives a local time without an offset, which inputDataFrom reads in the workflow's timezone.
    return { ...base, type: 'dateTime', default: '' };
  }
  if (field.type === 'integer' || field.type === 'number') {
    // A string, not n8n's number: an empty field must stay "not given" (n8n's number field defaults to 0).
    return { ...base, type: 'string', default: '' };
  }
  return {
    ...base,
    type: 'string',
    default: '',
    ...(field.type === 'text' ? { typeOptions: { rows: 3 } } : {}),
    ...(field.type === 'password' ? { typeOptions: { password: true } } : {}),
  };
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object';

/** A line-items parameter (`{ rows: [...] }`) as Zapier's line items: an array of rows, each without its blanks. */
const rowsOf = (value: unknown): Array<Record<string, unknown>> | undefined => {
  const rows = isObject(value) ? value[ROWS] : undefined;
  return Array.isArray(rows) ? rows.filter(isObject).map(inputDataOf) : undefined;
};

/** A parameter as Zapier hands the input over: a datetime without an offset given the timezone's, as Zapier does. */
const valueFor = (field: ZapierField, value: unknown, timeZone: string) => {
  if (field.children) return rowsOf(value);
  return field.type === 'datetime' && typeof value === 'string' ? withOffsetIn(value, timeZone) : value;
};

/**
 * The node's parameters for `fields` as Zapier's bundle.inputData: line items as arrays of rows, a field left
 * empty absent, as Zapier leaves an untouched field out, and a datetime without an offset read in `timeZone` (the
 * workflow's, where Zapier reads it in the Zap's).
 */
export const inputDataFrom = (
  fields: readonly ZapierField[],
  valueOf: (key: string) => unknown,
  timeZone: string,
): Record<string, unknown> =>
  inputDataOf(Object.fromEntries(fields.map((f) => [f.key, valueFor(f, valueOf(f.key), timeZone)])));
