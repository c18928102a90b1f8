/**
 * The action node's dropdowns: n8n loadOptions methods made from the app's dropdown inputs, one per input, each
 * running that input's own list over the seam: its `choices.perform` (lib/dropdowns.ts choicesOf, which knows the
 * list of lib/dropdown-lists.ts it reads and which of the step's inputs narrow it), or, for a `dynamic` reference,
 * the list of the hidden trigger it names. n8n offers no "load more": a loader reads up to LOAD_PAGES pages at once.
 */
// eslint-disable-next-line @n8n/community-nodes/no-restricted-imports -- types only, erased by the build
import type { Bundle, ZObject } from 'zapier-platform-core';
import { LIST } from '../../lib/dropdown-lists';
import { dropdownPerform, type ChoicesPage, type ListDef, type Option } from '../../lib/dropdowns';
import { DROPDOWN } from '../../lib/keys';
import { authDataFrom } from './connection';
import type { LoaderOf, ZapierField } from './fields';
import type { LoadOptionsFunctions, NodeOption } from './n8n-types';
import { fieldsOfDefinition, type Definition } from './operations';
import { inputDataOf, seam } from './seam';

/** Pages a loader reads at most (of the interface's largest page, 100 options each). */
export const LOAD_PAGES = 5;

type Meta = Record<string, unknown>;

/** One page of a field's options, and the bundle.meta of the next page (none after the last). */
type ReadPage = (z: ZObject, bundle: Bundle, meta: Meta) => Promise<{ options: Option[]; next?: Meta }>;

const listOfDynamic = (dynamic: string): ListDef | undefined => {
  const key = dynamic.split('.')[0];
  const name = (Object.keys(DROPDOWN) as Array<keyof typeof DROPDOWN>).find((n) => DROPDOWN[n] === key);
  return name ? LIST[name] : undefined;
};

/** How a field's options are read, or undefined when it has no list to read (then it is typed or mapped). */
const readerOf = (field: ZapierField): { start: Meta; read: ReadPage } | undefined => {
  const choices = field.choices as { perform?: (z: ZObject, b: Bundle) => Promise<ChoicesPage> } | undefined;
  const perform = choices?.perform;
  if (perform) {
    return {
      start: { paging_token: null },
      read: async (z, bundle) => {
        const page = await perform(z, bundle);
        return {
          options: page.results,
          next: page.paging_token ? { paging_token: page.paging_token } : undefined,
        };
      },
    };
  }
  const list = field.dynamic ? listOfDynamic(field.dynamic) : undefined;
  // A list the interface has no endpoint for offers nothing: the field stays a text field for a mapped id.
  if (!list?.path) return undefined;
  const listPage = dropdownPerform(list);
  return {
    start: { page: 0 },
    read: async (z, bundle, meta) => {
      const options = await listPage(z, bundle);
      return { options, next: options.length ? { page: Number(meta.page) + 1 } : undefined };
    },
  };
};

const nameOf = (def: Definition, field: ZapierField) => `${def.key}.${field.key}`;

/** The fields of a definition a loader lists, line items' children included. */
const withChildren = (def: Definition) => fieldsOfDefinition(def).flatMap((f) => [f, ...(f.children ?? [])]);

/** The step's other inputs as the editor holds them now: the plain values a list may be narrowed by. */
const givenOf = (params: Record<string, unknown> | undefined) =>
  inputDataOf(
    Object.fromEntries(
      Object.entries(params ?? {}).filter(([, v]) => typeof v === 'string' || typeof v === 'number'),
    ),
  );

const loaderFor = (field: ZapierField, reader: NonNullable<ReturnType<typeof readerOf>>) =>
  async function (this: LoadOptionsFunctions): Promise<NodeOption[]> {
    const authData = await authDataFrom(this);
    const inputData = givenOf(this.getCurrentNodeParameters());
    const options: Option[] = [];
    let meta: Meta | undefined = reader.start;
    for (let n = 0; meta && n < LOAD_PAGES; n += 1) {
      const at: Meta = meta;
      const { z, bundle } = seam({ authData, inputData, meta: { isFillingDynamicDropdown: true, ...at } });
      const page: { options: Option[]; next?: Meta } = await reader.read(z, bundle, at);
      options.push(...page.options);
      meta = page.next;
    }
    return [
      // An optional input can be left empty again, as on Zapier.
      ...(field.required ? [] : [{ name: '(None)', value: '' }]),
      ...options.map((o) => ({ name: o.label, value: o.id })),
    ];
  };

/** The loadOptions methods of the definitions' dropdown inputs, by name. */
export const loadersOf = (defs: readonly Definition[]) =>
  Object.fromEntries(
    defs.flatMap((def) =>
      withChildren(def).flatMap((field) => {
        const reader = readerOf(field);
        return reader ? [[nameOf(def, field), loaderFor(field, reader)] as const] : [];
      }),
    ),
  );

/** The loader a definition's field is listed by, for fields.ts's propertyOf. */
export const loaderOf =
  (def: Definition): LoaderOf =>
  (field) =>
    readerOf(field) ? nameOf(def, field) : undefined;
