import {
  authFieldsOf,
  flattenSample,
  hasChoicesPerform,
  hasDynamicDropdown,
  inputFieldsOf,
  isPerform,
  operationsOf,
  staticFields,
  type AppDefinition,
  type FieldRef,
  type OperationRef,
} from './definition';
import {
  DATE,
  DATETIME_WITH_ZONE,
  isCredential,
  labelsOf,
  linksOf,
  MARKDOWN_LINK,
  outputFieldsOf,
  outputHas,
  proseOf,
  stringsOf,
  withoutCode,
  type Rule,
} from './reading';

/*
 * Zapier's integration checks that the definition alone decides, each under its code in Zapier's "Integration check
 * reference" (docs.zapier.com/platform/publish/integration-checks-reference#D002 and so on). Zapier runs them on its
 * servers (`zapier-platform validate` online, and again before publishing); these run offline in `npm test`, so the
 * app passes them by construction. A check that `zapier-platform validate --without-style` already makes offline is
 * left to it, with a note where it would be.
 */

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

const STOP_WORDS = new Set('a an the this that of for to in on at by is it its your their'.split(' '));
const wordsOf = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .split(' ')
    .filter((w) => w && !STOP_WORDS.has(w));

const isRecord = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

const LOOKS_LIKE_DATE = /^\d{4}-\d{2}-\d{2}(?:$|[T ])/;

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

/**
 * Inputs that name an object of the app by its id. `external_*` ids are the Zap builder's own references (a web
 * shop's order number), not something the app could offer to pick.
 */
const idInputs = (definition: AppDefinition): FieldRef[] =>
  inputFieldsOf(definition).filter(
    (ref) => /(^|_)id$/.test(ref.field.key) && !ref.field.key.startsWith('external_') && !ref.field.children,
  );

/** Where a Zap builder is told a credential is found: a web link, or a back-office path in bold (`**A → B**`). */
const saysWhereFound = (help: string): boolean =>
  linksOf(help).some((url) => url.startsWith('https://')) || /\*\*[^*\n]+ → [^*\n]+\*\*/.test(help);

export const ZAPIER_RULES: readonly Rule[] = [
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
        .filter((ref) => !hasDynamicDropdown(ref.field) && !ref.field.search)
        .map((ref) => `${ref.where}: an id input without a dynamic dropdown or search`),
  },
  {
    // A `choices: { perform }` dropdown is the other kind Zapier takes: its perform must be a function (or a
    // request), not a trigger's key written where the function goes.
    id: 'D005',
    title:
      'every dynamic dropdown points at an existing trigger and its fields, or lists its choices by a perform',
    check: (d) => [
      ...inputFieldsOf(d)
        .filter((ref) => isRecord(ref.field.choices) && 'perform' in ref.field.choices)
        .filter((ref) => !hasChoicesPerform(ref.field))
        .map((ref) => `${ref.where}: choices.perform is not a function or request`),
      ...inputFieldsOf(d)
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
    ],
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
    // Zapier asks it of visible steps; hidden dropdown triggers too, so D005 can see the fields a dropdown names.
    // Not left to validate: its sample constraint runs on a step validated alone, never within the whole app, so
    // `validate --without-style` passes an app whose steps have no sample.
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
    // A search step fills the field with one value from the search's result, so Zapier refuses a search-powered
    // field that takes several (a list, a dict, line items) or a type the search cannot give.
    id: 'D014',
    title: 'every search-powered field takes one string, number or integer (not a list, dict or line items)',
    check: (d) =>
      inputFieldsOf(d)
        .filter((ref) => ref.field.search)
        .flatMap((ref) => {
          const { type = 'string', list, dict, children } = ref.field;
          return [
            ...(['string', 'number', 'integer'].includes(type)
              ? []
              : [`${ref.where}: a search-powered field of type ${type}`]),
            ...(list || dict || children
              ? [`${ref.where}: a search-powered field that takes a list, a dict or line items`]
              : []),
          ];
        }),
  },
  // D015 (a find-or-create pairs a search and an action that exist) is not here: `zapier-platform validate` refuses
  // such a pair (the schema's searchOrCreateKeys), and npm test runs it; APP-FIND-OR-CREATE checks what it leaves.
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
];
