/**
 * The Zapier app's actions, searches and search-or-create pairs as the action node's resources and operations: one
 * row each, made from the app's own definitions (creates/, searches/, searches/search_or_creates.ts), so an action
 * added to the app is an operation of the node without a line here.
 */
import type { Bundle, LockObject, ZObject } from 'zapier-platform-core';
import { creates } from '../../creates';
import { searches } from '../../searches';
import { searchOrCreates } from '../../searches/search_or_creates';
import type { ZapierField } from './fields';

/** What the node reads of a Zapier create or search definition. */
export interface Definition {
  key: string;
  noun: string;
  display: { label?: string; description?: string };
  operation: { inputFields?: unknown; perform?: unknown; lock?: LockObject };
}

export type Kind = 'create' | 'search' | 'searchOrCreate';

/** A Zapier action or search as an n8n resource and operation; its inputs, checks and perform are the app's. */
export interface Operation {
  /** The noun in camelCase ("stockLevel"), as n8n names resources. */
  resource: string;
  /** The operation's words in camelCase ("findOrCreate"). */
  operation: string;
  /** The label without its noun: "Book", "Find or Create". */
  name: string;
  label: string;
  description: string;
  kind: Kind;
  /** The definitions it runs: one, or a search and the create that follows when nothing is found. */
  parts: Definition[];
}

const camel = (words: string) =>
  words
    .split(/[\s-]+/)
    .filter(Boolean)
    .map((w, i) => (i === 0 ? w.toLowerCase() : w[0]!.toUpperCase() + w.slice(1).toLowerCase()))
    .join('');

const rowOf = (kind: Kind, noun: string, label: string, description: string, parts: Definition[]) => {
  const name = label.endsWith(noun) ? label.slice(0, -noun.length).trim() : label;
  return { resource: camel(noun), operation: camel(name), name, label, description, kind, parts };
};

const definitionOf = (defs: readonly Definition[], key: string): Definition => {
  const def = defs.find((d) => d.key === key);
  if (!def) throw new Error(`No definition ${key}`);
  return def;
};

const definedCreates: readonly Definition[] = creates;
const definedSearches: readonly Definition[] = searches;

export const OPERATIONS: Operation[] = [
  ...definedCreates.map((d) =>
    rowOf('create', d.noun, d.display.label ?? d.key, d.display.description ?? '', [d]),
  ),
  ...definedSearches.map((d) =>
    rowOf('search', d.noun, d.display.label ?? d.key, d.display.description ?? '', [d]),
  ),
  ...searchOrCreates.map((pair) => {
    const search = definitionOf(definedSearches, pair.search);
    return rowOf('searchOrCreate', search.noun, pair.display.label, pair.display.description, [
      search,
      definitionOf(definedCreates, pair.create),
    ]);
  }),
];

/** The resources, in the order their first operation comes. */
export const RESOURCES = [...new Map(OPERATIONS.map((op) => [op.resource, op.parts[0]!.noun]))].map(
  ([value, name]) => ({ name, value }),
);

/** A definition's input fields (Zapier also allows functions there; the app declares plain fields). */
export const fieldsOfDefinition = (def: Definition): ZapierField[] =>
  ((def.operation.inputFields ?? []) as unknown[]).filter(
    (f): f is ZapierField => !!f && typeof f === 'object' && 'key' in f,
  );

/** The inputs an operation shows: its definitions' fields (the two of a pair share no key). */
export const fieldsOf = (op: Operation): ZapierField[] => op.parts.flatMap(fieldsOfDefinition);

type Perform = (z: ZObject, bundle: Bundle) => Promise<unknown>;

/** How a create runs: the node wraps it in what it can give of Zapier's lock (src/in-process.ts). */
export type RunCreate = (def: Definition, perform: () => Promise<unknown>) => Promise<unknown>;

const performOf = (def: Definition) => def.operation.perform as Perform;

/**
 * What an operation answers, as a list of items: a create its one object; a search every object found (none when
 * nothing is); a search-or-create, as Zapier's, the first object found or else the one the create made.
 */
export const runOperation = async (
  op: Operation,
  z: ZObject,
  bundle: Bundle,
  runCreate: RunCreate,
): Promise<unknown[]> => {
  const [first, then] = op.parts as [Definition, Definition | undefined];
  if (op.kind === 'create') return [await runCreate(first, () => performOf(first)(z, bundle))];
  const found = (await performOf(first)(z, bundle)) as unknown[];
  if (op.kind === 'search' || !then) return found;
  return found.length ? found.slice(0, 1) : [await runCreate(then, () => performOf(then)(z, bundle))];
};
