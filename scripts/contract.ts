import {
  KINDS,
  sampleKeysOf,
  staticFields,
  type AppDefinition,
  type FieldDef,
  type Kind,
} from './checks/definition';

/*
 * The public contract a live Zap depends on, read from the definition: operation keys, trigger types, input
 * field keys (and whether each is required), sample keys, auth fields. A committed snapshot of it
 * (test/contract/definition-snapshot.json) is compared with the current definition, the way Zapier compares a
 * new version with the public one before promotion (checks C001–C003, and the promotion guardrails): removing
 * or renaming any of these, or making an optional field required, breaks Zaps that use it.
 */

/** `required` unless it may be left blank; a required field with a default does not break a Zap. */
type Need = 'required' | 'optional';

export interface OperationContract {
  /** Triggers only: polling or hook; switching breaks every Zap on it. */
  type?: string;
  /** Input keys, children of line items as `lines[]qty`. */
  inputFields: Record<string, Need>;
  /** The keys a Zap maps from the step's output, flattened as in the editor. */
  sampleKeys: string[];
}

export interface ContractSnapshot {
  authentication: { type: string; fields: Record<string, Need> };
  triggers: Record<string, OperationContract>;
  creates: Record<string, OperationContract>;
  searches: Record<string, OperationContract>;
  searchOrCreates: Record<string, { search: string; create: string }>;
}

const needOf = (field: FieldDef): Need =>
  field.required && field.default === undefined ? 'required' : 'optional';

/** Input keys of an operation with what each needs, children as `parent[]child`. */
export const inputNeedsOf = (fields: ReadonlyArray<FieldDef | string> | undefined): Record<string, Need> =>
  Object.fromEntries(
    staticFields(fields).flatMap((field) => [
      [field.key, needOf(field)] as const,
      ...staticFields(field.children).map((child) => [`${field.key}[]${child.key}`, needOf(child)] as const),
    ]),
  );

const sorted = <T>(record: Record<string, T>): Record<string, T> =>
  Object.fromEntries(Object.entries(record).sort(([a], [b]) => a.localeCompare(b)));

export const contractOf = (definition: AppDefinition): ContractSnapshot => {
  const operations = (kind: Kind) =>
    sorted(
      Object.fromEntries(
        Object.entries(definition[kind] ?? {}).map(([key, action]): [string, OperationContract] => [
          key,
          {
            ...(kind === 'triggers' ? { type: action.operation.type ?? 'polling' } : {}),
            inputFields: inputNeedsOf(action.operation.inputFields),
            sampleKeys: sampleKeysOf(action.operation.sample),
          },
        ]),
      ),
    );
  return {
    authentication: {
      type: definition.authentication?.type ?? 'none',
      fields: inputNeedsOf(definition.authentication?.fields),
    },
    triggers: operations('triggers'),
    creates: operations('creates'),
    searches: operations('searches'),
    searchOrCreates: sorted(
      Object.fromEntries(
        Object.entries(definition.searchOrCreates ?? {}).map(([key, pair]) => [
          key,
          { search: pair.search, create: pair.create },
        ]),
      ),
    ),
  };
};

/**
 * What breaks a Zap built on the snapshot's version: everything it has that the current contract lacks or
 * changed, and required fields the current one adds to what the snapshot had. Additions of optional fields,
 * sample keys and operations are fine.
 */
export const breakingChanges = (snapshot: ContractSnapshot, current: ContractSnapshot): string[] => {
  const problems: string[] = [];
  const compareFields = (where: string, before: Record<string, Need>, after: Record<string, Need>) => {
    for (const [key, need] of Object.entries(before)) {
      if (!(key in after)) problems.push(`${where}.${key}: removed or renamed`);
      else if (need === 'optional' && after[key] === 'required') {
        problems.push(`${where}.${key}: was optional, is now required without a default`);
      }
    }
    for (const [key, need] of Object.entries(after)) {
      if (!(key in before) && need === 'required') {
        problems.push(`${where}.${key}: a new required field without a default`);
      }
    }
  };

  if (snapshot.authentication.type !== current.authentication.type) {
    problems.push(
      `authentication: type changed from ${snapshot.authentication.type} to ${current.authentication.type}`,
    );
  }
  compareFields('authentication.fields', snapshot.authentication.fields, current.authentication.fields);

  for (const kind of KINDS) {
    for (const [key, before] of Object.entries(snapshot[kind])) {
      const where = `${kind}.${key}`;
      const after = current[kind][key];
      if (!after) {
        problems.push(`${where}: removed or renamed (hide it instead)`);
        continue;
      }
      if (before.type !== after.type) {
        problems.push(`${where}: type changed from ${String(before.type)} to ${String(after.type)}`);
      }
      compareFields(`${where}.inputFields`, before.inputFields, after.inputFields);
      for (const sampleKey of before.sampleKeys) {
        if (!after.sampleKeys.includes(sampleKey))
          problems.push(`${where}.sample.${sampleKey}: removed or renamed`);
      }
    }
  }

  for (const [key, pair] of Object.entries(snapshot.searchOrCreates)) {
    const now = current.searchOrCreates[key];
    if (!now) problems.push(`searchOrCreates.${key}: removed or renamed`);
    else if (now.search !== pair.search || now.create !== pair.create) {
      problems.push(`searchOrCreates.${key}: now pairs ${now.search} with ${now.create}`);
    }
  }
  return problems;
};

// ---------------------------------------------------------------------------------------------------------
// ../shared/CONTRACT.md: the keys fixed before the first version, read from its tables (sections 1 to 4).

export interface ContractTables {
  authentication: string[];
  triggers: string[];
  creates: Array<{ key: string; inputs: string[]; outputs: string[] }>;
  searches: Array<{ key: string; inputs: string[]; pairedWith: string[] }>;
}

/** Rows of the markdown tables of the section whose heading starts with `## <n>.`, as arrays of cells. */
const tableRows = (markdown: string, section: number): string[][] => {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.startsWith(`## ${section}.`));
  if (start < 0) throw new Error(`CONTRACT.md has no section ${section}`);
  const end = lines.findIndex((l, i) => i > start && l.startsWith('## '));
  return lines
    .slice(start + 1, end < 0 ? undefined : end)
    .filter((l) => l.trim().startsWith('|'))
    .map((l) =>
      l
        .trim()
        .replace(/^\||\|$/g, '')
        .split('|')
        .map((c) => c.trim()),
    )
    .filter((cells) => !cells.every((c) => /^:?-+:?$/.test(c)))
    .slice(1);
};

const KEY = /^[a-z][a-z0-9_]*$/;
const firstKey = (cell: string | undefined) => /`([^`]+)`/.exec(cell ?? '')?.[1] ?? '';

/**
 * The keys a notes cell names: `a`, `b` (`c`, `d`) gives a, b, b[]c, b[]d (children of line items follow their
 * parent in brackets). Clauses starting "output" name output keys; operation keys are references, not inputs.
 */
const keysOfNotes = (cell: string, operationKeys: ReadonlySet<string>) => {
  const inputs: string[] = [];
  const outputs: string[] = [];
  const references: string[] = [];
  for (const clause of cell.split(';')) {
    const isOutput = /^\s*output\b/i.test(clause);
    let depth = 0;
    let last: string | undefined;
    let parent: string | undefined;
    for (const m of clause.matchAll(/`([^`]+)`|\(|\)/g)) {
      if (m[0] === '(') {
        depth += 1;
        if (depth === 1) parent = last;
      } else if (m[0] === ')') {
        depth = Math.max(0, depth - 1);
        if (depth === 0) parent = undefined;
      } else {
        const token = m[1]!;
        if (!KEY.test(token)) continue;
        if (operationKeys.has(token)) references.push(token);
        else if (isOutput) outputs.push(token);
        else if (depth > 0 && parent) inputs.push(`${parent}[]${token}`);
        else {
          inputs.push(token);
          last = token;
        }
      }
    }
  }
  return { inputs, outputs, references };
};

export const parseContract = (markdown: string): ContractTables => {
  const authentication = tableRows(markdown, 1).map((r) => firstKey(r[0]));
  const triggers = tableRows(markdown, 2).map((r) => firstKey(r[0]));
  const createRows = tableRows(markdown, 3);
  const searchRows = tableRows(markdown, 4);
  const operationKeys = new Set([...triggers, ...[...createRows, ...searchRows].map((r) => firstKey(r[0]))]);
  return {
    authentication,
    triggers,
    creates: createRows.map((r) => {
      const { inputs, outputs } = keysOfNotes(r[2] ?? '', operationKeys);
      return { key: firstKey(r[0]), inputs, outputs };
    }),
    searches: searchRows.map((r) => {
      const { inputs, references } = keysOfNotes(r[1] ?? '', operationKeys);
      return { key: firstKey(r[0]), inputs, pairedWith: references };
    }),
  };
};

/**
 * Deliberate, documented deviations from CONTRACT.md (docs/assumptions.md). The variants' Arabic name is
 * `variant_name_ar`, not `name_ar`: Zapier requires input keys to be unique across an action, children included,
 * and `name_ar` is already the item's own.
 */
export const DOCUMENTED_DEVIATIONS: Readonly<Record<string, string>> = {
  'creates.create_item.variants[]name_ar': 'variants[]variant_name_ar',
};

/** Every key of CONTRACT.md's tables that the definition lacks, or where it is not what the table says. */
export const contractTableProblems = (tables: ContractTables, definition: AppDefinition): string[] => {
  const problems: string[] = [];
  const current = contractOf(definition);
  for (const key of tables.authentication) {
    if (!(key in current.authentication.fields)) problems.push(`§1 connection field ${key} is missing`);
  }
  for (const key of tables.triggers) {
    if (!current.triggers[key]) problems.push(`§2 trigger ${key} is missing`);
    else if (current.triggers[key]!.type !== 'hook') problems.push(`§2 trigger ${key} is not a REST hook`);
  }
  const checkInputs = (kind: 'creates' | 'searches', key: string, inputs: string[]) => {
    const op = current[kind][key]!;
    for (const input of inputs) {
      const actual = DOCUMENTED_DEVIATIONS[`${kind}.${key}.${input}`] ?? input;
      if (!(actual in op.inputFields)) problems.push(`${kind}.${key}: input ${input} is missing`);
    }
  };
  for (const row of tables.creates) {
    const op = current.creates[row.key];
    if (!op) {
      problems.push(`§3 action ${row.key} is missing`);
      continue;
    }
    checkInputs('creates', row.key, row.inputs);
    for (const output of row.outputs) {
      if (!op.sampleKeys.includes(output)) problems.push(`creates.${row.key}: output ${output} is missing`);
    }
  }
  for (const row of tables.searches) {
    if (!current.searches[row.key]) {
      problems.push(`§4 search ${row.key} is missing`);
      continue;
    }
    checkInputs('searches', row.key, row.inputs);
    for (const create of row.pairedWith) {
      if (current.searchOrCreates[row.key]?.create !== create) {
        problems.push(`searches.${row.key}: no search-or-create pair with ${create}`);
      }
    }
  }
  return problems;
};
