import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineSearch } from 'zapier-platform-core';
import type { OwnAnswers } from './errors';
import { clientFor, type ApiClient, type Query } from './http';
import { declareInputs, type Input, type Inputs, type Parsed } from './inputs';
import type { Api } from './partner-apis';
import type { OutputField } from './resources/define';
import { throttleOf } from './throttle';

/** An operation's perform, carrying the interface it speaks to: its throttle is built from it (`throttleOf`). */
export type Perform<T> = ((z: ZObject, bundle: Bundle) => Promise<T>) & { readonly api: Api };

/**
 * An operation's perform: the interface it speaks to, stated once, and its inputs checked before any request (bad
 * input gets one clear error and nothing is sent).
 */
export const performOn = <D extends Record<string, Input>, T>(
  api: Api,
  inputs: Inputs<D>,
  run: (z: ZObject, bundle: Bundle, input: Parsed<D>, client: ApiClient) => Promise<T>,
): Perform<T> =>
  Object.assign(
    async (z: ZObject, bundle: Bundle): Promise<T> =>
      run(z, bundle, inputs.parse(z, bundle), clientFor(z, bundle, api)),
    { api },
  );

/** The object at `path` as the search's result, or nothing found when the interface answers 404. */
export const findOne = async <T>(
  client: ApiClient,
  path: string,
  present: (found: Record<string, unknown>) => T,
  own?: OwnAnswers,
): Promise<T[]> => {
  const found = await client.find(path, undefined, own);
  return found ? [present(found)] : [];
};

/**
 * The object at `one` when the search names it by id (404: nothing found), else the first page of the list at
 * `list` filtered by `query`.
 */
export const findOneOrList = async <T>(
  client: ApiClient,
  one: string | undefined,
  list: { path: string; query: Query },
  present: (found: Record<string, unknown>) => T,
): Promise<T[]> => {
  if (one !== undefined) return findOne(client, one, present);
  const { data } = await client.page<Record<string, unknown>>(list.path, list.query);
  return data.map(present);
};

/**
 * A search that finds one object by the id its one input names: `GET {path}`, 404 → nothing found, the object
 * presented as its resource shows it. `own`: answers that mean the object cannot be read yet, in the search's own
 * words (lib/errors.ts, OwnAnswers).
 */
export const searchById = <K extends string, I extends Input>(def: {
  key: string;
  noun: string;
  display: { label: string; description: string };
  api: Api;
  input: Record<K, I>;
  path: (id: string) => string;
  resource: {
    present: (found: unknown) => Record<string, unknown>;
    sample: Record<string, unknown>;
    outputFields: OutputField[];
  };
  own?: OwnAnswers;
}) => {
  const inputs = declareInputs(def.input);
  const [key] = Object.keys(def.input) as [K];
  const perform = performOn(def.api, inputs, (_z, _bundle, input, client) =>
    findOne(client, def.path(String(input[key])), (found) => def.resource.present(found), def.own),
  );
  return defineSearch({
    key: def.key,
    noun: def.noun,
    display: def.display,
    operation: {
      throttle: throttleOf(perform),
      inputFields: inputs.fields,
      perform,
      sample: def.resource.sample,
      outputFields: def.resource.outputFields,
    },
  });
};

/**
 * A search that finds one object by the id input `id` names (`GET {path}`, 404: nothing found) or, without it, the
 * first page of the list at `list` filtered by the other inputs (their request names are the list's parameters).
 * `then`: what the found objects carry besides (a clinic object's patient).
 */
export const searchByIdOrList = <D extends Record<string, Input>>(def: {
  key: string;
  noun: string;
  display: { label: string; description: string };
  api: Api;
  inputs: Inputs<D>;
  id: keyof D & string;
  path: (id: string) => string;
  list: { path: string; perPage: number };
  present: (found: unknown) => Record<string, unknown>;
  shown: { sample: Record<string, unknown>; outputFields: OutputField[] };
  then?: (
    z: ZObject,
    bundle: Bundle,
    found: Array<Record<string, unknown>>,
  ) => Promise<Array<Record<string, unknown>>>;
}) => {
  const perform = performOn(def.api, def.inputs, async (z, bundle, input, client) => {
    const { [def.id]: _id, ...query } = def.inputs.request(input);
    const id = input[def.id];
    const found = await findOneOrList(
      client,
      id === undefined ? undefined : def.path(String(id)),
      { path: def.list.path, query: { ...(query as Query), per_page: def.list.perPage } },
      def.present,
    );
    return def.then ? def.then(z, bundle, found) : found;
  });
  return defineSearch({
    key: def.key,
    noun: def.noun,
    display: def.display,
    operation: {
      throttle: throttleOf(perform),
      inputFields: def.inputs.fields,
      perform,
      sample: def.shown.sample,
      outputFields: def.shown.outputFields,
    },
  });
};

/** What the registry reads of an action's or search's definition. */
export interface StepDefinition {
  key: string;
  noun: string;
  operation: { throttle?: { key?: string } };
}

/**
 * The interface an action or search spends its requests on, as its definition declares it: its throttle's key,
 * which `throttleOf(perform)` (lib/throttle.ts) takes from the perform `performOn(api, …)` built; the one part of
 * the definition Zapier itself keys by interface.
 */
export const apiOf = (def: StepDefinition): Api => {
  const key = def.operation.throttle?.key;
  if (key === 'clinic' || key === 'cashier') return key;
  throw new Error(
    `${def.key} declares no interface: build its perform with \`performOn(api, inputs, …)\` (lib/operation.ts) and give its operation \`throttle: throttleOf(perform)\` (lib/throttle.ts)`,
  );
};
