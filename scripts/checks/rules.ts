import {
  authFieldsOf,
  flattenSample,
  inputFieldsOf,
  isPerform,
  operationsOf,
  staticFields,
  type AppDefinition,
  type FieldDef,
  type FieldRef,
  type OperationRef,
} from './definition';

/*
 * Zapier's integration checks that can be read from the definition alone, plus the house rules of this app.
 * Zapier runs its own on its servers (`zapier-platform validate` online, and again before publishing); these run
 * offline in `npm test`, so the app passes them by construction. Each rule returns its problems, one sentence
 * each, naming where: an empty list is a pass. Check ids are Zapier's (docs.zapier.com, "Integration check
 * reference"); APP-* rules are this app's own.
 */

export interface Rule {
  id: string;
  title: string;
  check(definition: AppDefinition): string[];
}

// ---------------------------------------------------------------------------------------------------------
// Text helpers

/** Backtick code spans: literal values (examples, paths), not prose. */
const withoutCode = (text: string) => text.replace(/`[^`]*`/g, '');

const MARKDOWN_LINK = /\[([^\]\n]+)\]\(([^()\s]+)\)/g;

const linksOf = (text: string): string[] => [...withoutCode(text).matchAll(MARKDOWN_LINK)].map((m) => m[2]!);

/** What is wrong with the links of a help text or description (D008), if anything. */
const markdownProblems = (text: string): string[] => {
  const problems: string[] = [];
  const prose = withoutCode(text);
  for (const url of linksOf(text)) {
    if (!/^https?:\/\/[^\s/]+\.[^\s]+$/.test(url))
      problems.push(`the link target "${url}" is not a web address`);
  }
  const rest = prose.replace(MARKDOWN_LINK, '');
  if (/\b(?:https?:\/\/|www\.)/i.test(rest)) {
    problems.push('has a bare web address: make it a [text](https://…) link or put it in `backticks`');
  }
  if (/\]\s*\(|\[[^\]]*$|^[^[]*\]/m.test(rest)) problems.push('has a broken markdown link');
  return problems;
};

const SMALL_WORDS = new Set(
  'a an and as at but by for from in into nor of off on or per so than the to up via vs with yet'.split(' '),
);

/** Title Case as Zapier asks for it (D018): every word capitalised except small words inside the label. */
export const titleCaseProblem = (label: string): string | undefined => {
  const words = label.split(/\s+/).filter(Boolean);
  const wrong = words.filter((word, i) => {
    const core = word.replace(/^[("'‘“]+|[)"'’”:,.;!?]+$/g, '');
    const small = SMALL_WORDS.has(core) && i > 0 && i < words.length - 1;
    return !small && core.split('-').some((part) => /^\p{Ll}/u.test(part));
  });
  return wrong.length ? `"${label}" is not in Title Case (${wrong.join(', ')})` : undefined;
};

/** Letters of a script other than Latin, outside `code` spans. */
const foreignLetters = (text: string): string =>
  [...withoutCode(text)].filter((ch) => /\p{L}/u.test(ch) && !/\p{Script=Latin}/u.test(ch)).join('');

const STOP_WORDS = new Set('a an the this that of for to in on at by is it its your their'.split(' '));
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter((w) => w && !STOP_WORDS.has(w));

const DATE = /^\d{4}-\d{2}-\d{2}$/;
const DATETIME_WITH_ZONE = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d+)?)?(Z|[+-]\d{2}:?\d{2})$/;
const LOOKS_LIKE_DATE = /^\d{4}-\d{2}-\d{2}(?:$|[T ])/;

// ---------------------------------------------------------------------------------------------------------
// Definition helpers

const outputFieldsOf = (op: OperationRef): FieldDef[] => staticFields(op.action.operation.outputFields);

/** Whether an operation's output names a key: an output field, or a key of its sample. */
const outputHas = (op: OperationRef, key: string): boolean =>
  outputFieldsOf(op).some((o) => o.key === key) ||
  flattenSample(op.action.operation.sample).some((s) => s.path === key);

const isCredential = (field: FieldDef) =>
  field.type === 'password' || /token|secret|api_?key|password/i.test(field.key);

/** Labels a Zap builder reads: operations, search-or-create pairs, input, auth and output fields. */
const labelsOf = (definition: AppDefinition): Array<{ where: string; label: string }> => [
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
const proseOf = (definition: AppDefinition): Array<{ where: string; text: string }> => [
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
const stringsOf = (value: unknown, where = ''): Array<{ where: string; text: string }> => {
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

/** The sample's values of an output field: one per row for line items. */
const sampleValuesOf = (op: OperationRef, key: string) =>
  flattenSample(op.action.operation.sample).filter((s) => s.path === key);

const typeMatches = (type: string | undefined, value: unknown): boolean => {
  switch (type ?? 'string') {
    case 'integer':
      return Number.isInteger(value);
    case 'number':
      return typeof value === 'number' && Number.isFinite(value);
    case 'boolean':
      return typeof value === 'boolean';
    case 'datetime':
      return typeof value === 'string' && !Number.isNaN(Date.parse(value));
    default:
      return typeof value === 'string';
  }
};

const sarOf = (halalas: number): string => {
  const abs = Math.abs(halalas);
  return `${halalas < 0 ? '-' : ''}${Math.floor(abs / 100)}.${String(abs % 100).padStart(2, '0')}`;
};

/** `path x_halalas=… without x_sar "…"` for every amount whose SAR sibling is missing or different. */
const moneyMismatches = (value: unknown, path = ''): string[] => {
  if (Array.isArray(value)) return value.flatMap((v, i) => moneyMismatches(v, `${path}[${i}]`));
  if (!value || typeof value !== 'object') return [];
  const record = value as Record<string, unknown>;
  return Object.entries(record).flatMap(([key, v]) => {
    const here = `${path}${path ? '.' : ''}${key}`;
    const nested = moneyMismatches(v, here);
    if (!key.endsWith('_halalas') || !Number.isInteger(v)) return nested;
    const sarKey = key.replace(/_halalas$/, '_sar');
    return record[sarKey] === sarOf(v as number)
      ? nested
      : [...nested, `${here}=${String(v)} without ${sarKey} "${sarOf(v as number)}"`];
  });
};

/**
 * Inputs that name an object of the app by its id. `external_*` ids are the Zap builder's own references (a web
 * shop's order number), not something the app could offer to pick.
 */
const idInputs = (definition: AppDefinition): FieldRef[] =>
  inputFieldsOf(definition).filter(
    (ref) => /(^|_)id$/.test(ref.field.key) && !ref.field.key.startsWith('external_') && !ref.field.children,
  );

/** Each operation's static inputs, then each line-items group's children: the lists a Zap builder reads in order. */
const inputListsOf = (definition: AppDefinition): Array<{ where: string; fields: FieldDef[] }> =>
  operationsOf(definition).flatMap((op) => {
    const fields = staticFields(op.action.operation.inputFields);
    return [
      { where: `${op.where}.inputFields`, fields },
      ...fields
        .filter((f) => f.children)
        .map((f) => ({ where: `${op.where}.inputFields.${f.key}[]`, fields: staticFields(f.children) })),
    ];
  });

/**
 * Inputs that take a date and a time, so must be `datetime` fields (Zapier then reads "tomorrow 10am", a Unix time
 * or ISO-8601, and applies the Zap's timezone to a time typed without an offset):
 * - a key ending `_at` or `_since` (`starts_at`, `updated_since`), or the range keys `from`, `to`, `since`, `until`
 *   on their own (Find Appointment's range takes a date or a date and time: clinic spec, GET /appointments);
 * - a label with the word "Time" (not "Time Zone");
 * - help text whose example is a date with a time (`2026-11-24T10:30`).
 * Date-only inputs stay text: `issued_from` / `issued_to` take an ISO date only (clinic spec, GET /invoices), and a
 * `datetime` field would send a time the interface refuses. Their help gives a date-only example, which this rule
 * leaves alone; a `*_from` / `*_to` key alone says nothing about whether a time is taken.
 */
const takesDateTime = (field: FieldDef): boolean =>
  /(^|_)(at|since)$|^(from|to|until)$/.test(field.key) ||
  /\bTime\b(?!\s*Zone)/.test(field.label ?? '') ||
  /\d{4}-\d{2}-\d{2}T\d{2}:\d{2}/.test(field.helpText ?? '');

const isQuantity = (field: FieldDef): boolean => /^(qty|quantity)$|_(qty|quantity)$/.test(field.key);

/** What kind of value a Zap builder types that needs an example to get right, if any. */
const exampleKind = (field: FieldDef): 'phone' | 'money' | 'id' | undefined => {
  if (/(^|_)(phone|mobile)$/.test(field.key)) return 'phone';
  if (/_(sar|halalas)$|(^|_)(price|amount)(_|$)/.test(field.key)) return 'money';
  if (/(^|_)id$/.test(field.key)) return 'id';
  return undefined;
};

const EXAMPLE_IN_HELP = /\be\.g\.|\bfor example\b/i;

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
const allStringsOf = (definition: AppDefinition) => [
  ...stringsOf(definition),
  ...operationsOf(definition).flatMap((op) =>
    flattenSample(op.action.operation.sample)
      .filter((s): s is { path: string; value: string } => typeof s.value === 'string')
      .map((s) => ({ where: `${op.where}: sample ${s.path}`, text: s.value })),
  ),
];

/**
 * What is wrong with a connection label as a Zap builder sees it (Zapier's publishing rules: it names the account),
 * if anything. A function label is judged by what it returns (test/auth.test.ts); a `{{template}}` counts as a word.
 */
export const connectionLabelProblem = (label: string): string | undefined => {
  const words = label.split(/\s+/).filter((w) => /\p{L}|\{\{/u.test(w));
  if (words.length < 2) return `"${label}" is a bare word, not a description of the accounts it opens`;
  if (/\b(?:undefined|null|NaN)\b|\[object/.test(label)) return `"${label}" shows a missing value`;
  const prose = label.replace(/\{\{[^}]*\}\}/g, '');
  if (!/\b(?:clinic|cashier)\b/i.test(prose)) return `"${label}" names neither the clinic nor the cashier`;
  return undefined;
};

/** Where a Zap builder is told a credential is found: a web link, or a back-office path in bold (`**A → B**`). */
const saysWhereFound = (help: string): boolean =>
  linksOf(help).some((url) => url.startsWith('https://')) || /\*\*[^*\n]+ → [^*\n]+\*\*/.test(help);

// ---------------------------------------------------------------------------------------------------------
// The rules

export const RULES: readonly Rule[] = [
  {
    // Zapier asks the help text of a credential to lead the Zap builder to it. A link needs a page to link to; the
    // vendor publishes none yet (docs/assumptions.md), so a back-office path in bold (**Developers → API clients**)
    // says it too. Placeholder links are refused by APP-NO-PLACEHOLDER-LINK.
    id: 'D002',
    title: "auth fields' help text says where to find the credentials (a link or the back-office path)",
    check: (d) =>
      authFieldsOf(d)
        .filter((ref) => isCredential(ref.field))
        .filter((ref) => !saysWhereFound(ref.field.helpText ?? ''))
        .map(
          (ref) =>
            `${ref.where}: help text has neither an https link nor a back-office path (**A → B**) to where the credential is found`,
        ),
  },
  {
    id: 'D003',
    title: 'a connection label is set and shows no secrets',
    check: (d) => {
      const label = d.authentication?.connectionLabel;
      if (!d.authentication) return [];
      if (label === undefined || label === null || label === '')
        return ['authentication: no connectionLabel'];
      // A function label is judged by what it returns: test/auth.test.ts shows it names the accounts, no token.
      if (typeof label !== 'string' || isPerform(label)) return [];
      const secrets = authFieldsOf(d)
        .filter((ref) => isCredential(ref.field))
        .map((ref) => ref.field.key)
        .filter((key) => new RegExp(`\\{\\{[^}]*\\b${key}\\b[^}]*\\}\\}`).test(label));
      return [
        ...(label.includes('{{') ? [] : [`authentication.connectionLabel "${label}" names no account`]),
        ...secrets.map((key) => `authentication.connectionLabel shows the credential ${key}`),
      ];
    },
  },
  {
    id: 'D004',
    title: 'every id input has a dropdown or a search',
    check: (d) =>
      idInputs(d)
        .filter((ref) => !ref.field.dynamic && !ref.field.search)
        .map((ref) => `${ref.where}: an id input without a dynamic dropdown or search`),
  },
  {
    id: 'D005',
    title: 'every dynamic dropdown points at an existing trigger and its fields',
    check: (d) =>
      inputFieldsOf(d)
        .filter((ref) => ref.field.dynamic)
        .flatMap((ref) => {
          const [key, value, label] = ref.field.dynamic!.split('.');
          const trigger = key ? d.triggers[key] : undefined;
          if (!trigger) return [`${ref.where}: dynamic "${ref.field.dynamic}" names no trigger`];
          const op: OperationRef = { kind: 'triggers', key: key!, action: trigger, where: `triggers.${key}` };
          return [value, label]
            .filter((k): k is string => !!k && !outputHas(op, k))
            .map((k) => `${ref.where}: dynamic "${ref.field.dynamic}": trigger ${key} has no field ${k}`);
        }),
  },
  {
    id: 'D006',
    title: 'every REST hook trigger has performList (and subscribe/unsubscribe) for samples',
    check: (d) =>
      operationsOf(d, ['triggers'])
        .filter((op) => op.action.operation.type === 'hook')
        .flatMap((op) =>
          (['perform', 'performList', 'performSubscribe', 'performUnsubscribe'] as const)
            .filter((name) => !isPerform(op.action.operation[name]))
            .map((name) => `${op.where}: a hook trigger without ${name}`),
        ),
  },
  {
    id: 'D007',
    title: 'only HTTPS addresses',
    check: (d) =>
      stringsOf(d)
        .filter(({ text }) => /\bhttp:\/\//i.test(text))
        .map(({ where, text }) => `${where}: "${text.slice(0, 80)}" uses http://`),
  },
  {
    id: 'D008',
    title: 'links in help text and descriptions are valid markdown',
    check: (d) =>
      proseOf(d).flatMap(({ where, text }) => markdownProblems(text).map((p) => `${where}: ${p}`)),
  },
  {
    id: 'D009',
    title: 'every search has a field to search by',
    check: (d) =>
      operationsOf(d, ['searches'])
        .filter((op) => !staticFields(op.action.operation.inputFields).some((f) => !f.computed))
        .map((op) => `${op.where}: a search without a search field`),
  },
  {
    id: 'D010',
    title: 'every sample carries the primary key (id, or the fields marked primary)',
    check: (d) =>
      operationsOf(d).flatMap((op) => {
        const sample = op.action.operation.sample ?? {};
        const primary = outputFieldsOf(op).filter((o) => o.primary);
        const keys = primary.length ? primary.map((o) => o.key) : ['id'];
        return keys
          .filter((k) => sample[k] === undefined || sample[k] === null || sample[k] === '')
          .map((k) => `${op.where}: the sample has no ${k}`);
      }),
  },
  {
    id: 'D011',
    title: 'every field has help text that says more than its label',
    check: (d) =>
      [...inputFieldsOf(d), ...authFieldsOf(d)]
        .filter((ref) => !ref.field.children)
        .flatMap((ref) => {
          const { label = ref.field.key, helpText } = ref.field;
          if (!helpText?.trim()) return [`${ref.where}: no help text`];
          const labelWords = new Set(wordsOf(label));
          const more = wordsOf(helpText).filter((w) => !labelWords.has(w));
          return more.length < 2 ? [`${ref.where}: help text "${helpText}" only repeats the label`] : [];
        }),
  },
  {
    id: 'D012',
    title: 'every operation has a sample, hidden ones too',
    check: (d) =>
      operationsOf(d)
        .filter((op) => Object.keys(op.action.operation.sample ?? {}).length === 0)
        .map((op) => `${op.where}: no sample`),
  },
  {
    id: 'D013',
    title: 'every search-powered field points at an existing search and its field',
    check: (d) =>
      inputFieldsOf(d)
        .filter((ref) => ref.field.search)
        .flatMap((ref) => {
          const [key, field] = ref.field.search!.split('.');
          const search = key ? d.searches[key] : undefined;
          if (!search) return [`${ref.where}: search "${ref.field.search}" names no search`];
          const op: OperationRef = { kind: 'searches', key: key!, action: search, where: `searches.${key}` };
          if (!field || !outputHas(op, field)) {
            return [
              `${ref.where}: search "${ref.field.search}": search ${key} has no field ${field ?? '(none)'}`,
            ];
          }
          return [];
        }),
  },
  {
    id: 'D014',
    title: 'every search-powered field has a dynamic dropdown too',
    check: (d) =>
      inputFieldsOf(d)
        .filter((ref) => ref.field.search && !ref.field.dynamic)
        .map((ref) => `${ref.where}: has search "${ref.field.search}" but no dynamic dropdown`),
  },
  {
    id: 'D015',
    title: 'every search-or-create pairs an existing search with an existing action',
    check: (d) =>
      Object.entries(d.searchOrCreates ?? {}).flatMap(([key, pair]) => {
        const problems: string[] = [];
        const search = d.searches[pair.search];
        const create = d.creates[pair.create];
        if (pair.key !== key || key !== pair.search) {
          problems.push(`searchOrCreates.${key}: its key must equal its search's key (${pair.search})`);
        }
        if (!search) problems.push(`searchOrCreates.${key}: names no search ${pair.search}`);
        if (!create) problems.push(`searchOrCreates.${key}: names no action ${pair.create}`);
        if (search?.display.hidden || create?.display.hidden) {
          problems.push(`searchOrCreates.${key}: pairs a hidden search or action`);
        }
        return problems;
      }),
  },
  {
    id: 'D018',
    title: 'labels are in Title Case',
    check: (d) =>
      labelsOf(d).flatMap(({ where, label }) => {
        const problem = titleCaseProblem(label);
        return problem ? [`${where}: ${problem}`] : [];
      }),
  },
  {
    id: 'D021',
    title: 'trigger descriptions read "Triggers when … ."',
    check: (d) =>
      operationsOf(d, ['triggers'])
        .filter((op) => {
          const text = op.action.display.description ?? '';
          return !text.startsWith('Triggers when ') || !text.endsWith('.');
        })
        .map((op) => `${op.where}: description "${op.action.display.description ?? ''}"`),
  },
  {
    id: 'D022',
    title: 'every action has static input fields',
    check: (d) =>
      operationsOf(d, ['creates'])
        .filter((op) => staticFields(op.action.operation.inputFields).length === 0)
        .map((op) => `${op.where}: no static input fields`),
  },
  {
    id: 'D023',
    title: 'dates in samples are ISO-8601, times with their zone',
    check: (d) =>
      operationsOf(d).flatMap((op) => {
        const datetimeKeys = new Set(
          outputFieldsOf(op)
            .filter((o) => o.type === 'datetime')
            .map((o) => o.key),
        );
        return flattenSample(op.action.operation.sample).flatMap(({ path, value }) => {
          if (typeof value !== 'string') return [];
          if (datetimeKeys.has(path) && !DATETIME_WITH_ZONE.test(value)) {
            return [`${op.where}: sample ${path} "${value}" is not a date and time with its zone`];
          }
          if (LOOKS_LIKE_DATE.test(value) && !DATE.test(value) && !DATETIME_WITH_ZONE.test(value)) {
            return [`${op.where}: sample ${path} "${value}" is not ISO-8601 with a zone`];
          }
          return [];
        });
      }),
  },
  {
    id: 'D024',
    title: 'samples carry every required output field, with the declared type',
    check: (d) =>
      operationsOf(d).flatMap((op) =>
        outputFieldsOf(op).flatMap((o) => {
          const values = sampleValuesOf(op, o.key);
          if (!values.length) return o.required ? [`${op.where}: the sample lacks required ${o.key}`] : [];
          return values
            .filter(({ value }) => value !== null && value !== undefined)
            .filter(({ value }) =>
              o.list
                ? !Array.isArray(value) || !value.every((v) => typeMatches(o.type, v))
                : Array.isArray(value) || !typeMatches(o.type, value),
            )
            .map(
              ({ value }) =>
                `${op.where}: sample ${o.key} ${JSON.stringify(value)} is not ${o.list ? 'a list of ' : ''}${o.type ?? 'string'}`,
            );
        }),
      ),
  },
  {
    id: 'APP-ID-LABEL',
    title: 'no input field is labelled "… ID" (a Zap builder picks a thing, not its id)',
    check: (d) =>
      inputFieldsOf(d)
        .filter((ref) => /\bID$/i.test(ref.field.label ?? ''))
        .map((ref) => `${ref.where}: labelled "${ref.field.label}"`),
  },
  {
    id: 'APP-FIND-LABEL',
    title: 'searches are labelled "Find …"',
    check: (d) =>
      operationsOf(d, ['searches'])
        .filter((op) => !(op.action.display.label ?? '').startsWith('Find '))
        .map((op) => `${op.where}: labelled "${op.action.display.label ?? ''}"`),
  },
  {
    id: 'APP-ENGLISH',
    title: 'labels and help text are English (other scripts only in `code` examples)',
    check: (d) =>
      [...labelsOf(d).map(({ where, label }) => ({ where, text: label })), ...proseOf(d)].flatMap(
        ({ where, text }) => {
          const foreign = foreignLetters(text);
          return foreign ? [`${where}: "${text.slice(0, 60)}" has non-English letters outside \`code\``] : [];
        },
      ),
  },
  {
    id: 'APP-ZONE',
    title: "times in samples are in the branches' zone (+03:00)",
    check: (d) =>
      operationsOf(d).flatMap((op) =>
        flattenSample(op.action.operation.sample)
          .filter(({ value }) => typeof value === 'string' && DATETIME_WITH_ZONE.test(value))
          .filter(({ value }) => !String(value).endsWith('+03:00'))
          .map(({ path, value }) => `${op.where}: sample ${path} "${String(value)}" is not in +03:00`),
      ),
  },
  {
    id: 'APP-OUTPUT-LABELS',
    title: 'every key of a sample has a labelled output field, so the mapping list reads like a form',
    check: (d) =>
      operationsOf(d).flatMap((op) => {
        const labelled = new Set(
          outputFieldsOf(op)
            .filter((o) => o.label?.trim())
            .map((o) => o.key),
        );
        const covered = (path: string) =>
          labelled.has(path) ||
          [...labelled].some((k) => k.startsWith(`${path}[]`) || k.startsWith(`${path}__`));
        return [...new Set(flattenSample(op.action.operation.sample).map((s) => s.path))]
          .filter((path) => !covered(path))
          .map((path) => `${op.where}: sample key ${path} has no labelled output field`);
      }),
  },
  {
    id: 'APP-MONEY',
    title: 'every amount in halalas has its "… (SAR)" sibling, in the outputs and in the sample',
    check: (d) =>
      operationsOf(d).flatMap((op) => {
        const outputs = new Map(outputFieldsOf(op).map((o) => [o.key, o]));
        const problems: string[] = [];
        for (const o of outputs.values()) {
          if (!o.key.endsWith('_halalas')) continue;
          const sar = outputs.get(o.key.replace(/_halalas$/, '_sar'));
          if (!sar) problems.push(`${op.where}: output ${o.key} has no _sar sibling`);
          else if (!/\(SAR\)$/.test(sar.label ?? '')) {
            problems.push(`${op.where}: output ${sar.key} is not labelled "… (SAR)"`);
          }
        }
        return [
          ...problems,
          ...moneyMismatches(op.action.operation.sample).map((p) => `${op.where}: sample ${p}`),
        ];
      }),
  },
  {
    // Zapier shows inputs in the order given; a builder should meet what the step cannot run without first. An
    // input that is "one of two" (Book Appointment's Patient or Patient Phone) is optional in Zapier's terms, and
    // goes with the optional ones. Children of a line-items field follow the same rule within their group.
    id: 'APP-REQUIRED-FIRST',
    title: 'required inputs come before optional ones (children of line items within their group)',
    check: (d) =>
      inputListsOf(d).flatMap(({ where, fields }) => {
        const shown = fields.filter((f) => !f.computed);
        const firstOptional = shown.findIndex((f) => !f.required);
        if (firstOptional < 0) return [];
        return shown
          .slice(firstOptional + 1)
          .filter((f) => f.required)
          .map((f) => `${where}: required ${f.key} comes after optional ${shown[firstOptional]!.key}`);
      }),
  },
  {
    id: 'APP-DATETIME',
    title: 'inputs that take a date and time are datetime fields',
    check: (d) =>
      inputFieldsOf(d)
        .filter((ref) => !ref.field.children && takesDateTime(ref.field) && ref.field.type !== 'datetime')
        .map(
          (ref) => `${ref.where}: takes a date and time but is ${ref.field.type ?? 'string'}, not datetime`,
        ),
  },
  {
    // Whole numbers (integer) where the spec says so; the till takes decimal quantities for weighed goods.
    id: 'APP-QUANTITY',
    title: 'quantities are number (or integer) fields',
    check: (d) =>
      inputFieldsOf(d)
        .filter((ref) => isQuantity(ref.field) && !['number', 'integer'].includes(ref.field.type ?? ''))
        .map((ref) => `${ref.where}: a quantity of type ${ref.field.type ?? 'string'}, not number`),
  },
  {
    id: 'APP-EXAMPLE',
    title: 'every phone, money and id input shows an example (a placeholder, or "e.g." in its help)',
    check: (d) =>
      inputFieldsOf(d)
        .filter((ref) => !ref.field.children)
        .flatMap((ref) => {
          const kind = exampleKind(ref.field);
          if (!kind) return [];
          const { placeholder, helpText = '', type } = ref.field;
          if (placeholder !== undefined && !placeholder.trim()) return [`${ref.where}: an empty placeholder`];
          if (placeholder && type === 'integer' && !/^\d+$/.test(placeholder)) {
            return [`${ref.where}: placeholder "${placeholder}" is not a whole number`];
          }
          return placeholder || EXAMPLE_IN_HELP.test(helpText)
            ? []
            : [
                `${ref.where}: ${kind === 'id' ? 'an' : 'a'} ${kind} input without a placeholder or an "e.g." example`,
              ];
        }),
  },
  {
    // A line-items field cannot carry help text itself (the schema forbids it), so each child explains itself.
    id: 'APP-LINE-HELP',
    title: 'every child field of a line-items input has help text',
    check: (d) =>
      inputFieldsOf(d)
        .filter((ref) => ref.parent && !ref.field.helpText?.trim())
        .map((ref) => `${ref.where}: a line-item field without help text`),
  },
  {
    // Zapier reads a time typed or mapped without an offset in the Zap's timezone (bundle.meta.timezone), which
    // need not be Riyadh's: a Zap set to London books three hours late unless the help says so.
    id: 'APP-TIME-HELP',
    title:
      "datetime inputs say how a time without offset is read (the Zap's timezone) and the branches' +03:00",
    check: (d) =>
      inputFieldsOf(d)
        .filter((ref) => ref.field.type === 'datetime')
        .flatMap((ref) => {
          const help = ref.field.helpText ?? '';
          return [
            ...(/Zap[’']s time ?zone/i.test(help)
              ? []
              : [`${ref.where}: help does not name the Zap's timezone`]),
            ...(/Riyadh/.test(help) && help.includes('+03:00')
              ? []
              : [`${ref.where}: help does not say the branches keep Riyadh time (+03:00)`]),
          ];
        }),
  },
  {
    id: 'APP-CONNECTION-LABEL',
    title: 'the connection label describes the accounts (never a bare word)',
    check: (d) => {
      const label = d.authentication?.connectionLabel;
      // A function label is judged by what it returns: test/auth.test.ts runs connectionLabelProblem over it.
      if (typeof label !== 'string' || isPerform(label)) return [];
      const problem = connectionLabelProblem(label);
      return problem ? [`authentication.connectionLabel: ${problem}`] : [];
    },
  },
  {
    id: 'APP-NO-PLACEHOLDER-LINK',
    title:
      'no example.com, test-domain or localhost link anywhere Zapier shows (help, descriptions, auth, samples)',
    check: (d) =>
      allStringsOf(d).flatMap(({ where, text }) =>
        placeholderLinks(text).map((url) => `${where}: the placeholder link ${url}`),
      ),
  },
];

/** Every rule's problems, by rule id (empty lists for rules that pass). */
export const runChecks = (definition: AppDefinition): Record<string, string[]> =>
  Object.fromEntries(RULES.map((rule) => [rule.id, rule.check(definition)]));
