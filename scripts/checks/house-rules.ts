import {
  flattenSample,
  hasChoicesPerform,
  hasDynamicDropdown,
  inputFieldsOf,
  isPerform,
  operationsOf,
  staticFields,
  type AppDefinition,
  type FieldDef,
} from './definition';
import {
  DATETIME_WITH_ZONE,
  labelsOf,
  outputFieldsOf,
  proseOf,
  allStringsOf,
  placeholderLinks,
  withoutCode,
  type Rule,
} from './reading';
import { CHOICES_READ } from '../../lib/keys';

/*
 * The house's own rules (APP-*): what this app promises its Zap builders beyond Zapier's checks (English text,
 * Riyadh's +03:00, SAR beside halalas, the editor's order and examples, no placeholder links). They run in
 * `npm test` with Zapier's (zapier-rules.ts).
 */

/** Letters of a script other than Latin, outside `code` spans. */
const foreignLetters = (text: string): string =>
  [...withoutCode(text)].filter((ch) => /\p{L}/u.test(ch) && !/\p{Script=Latin}/u.test(ch)).join('');

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

export const HOUSE_RULES: readonly Rule[] = [
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
  {
    // A search step is the way to fill the field from another app; the dropdown is the way to pick from this one.
    id: 'APP-SEARCH-DROPDOWN',
    title: 'every search-powered field has a dynamic dropdown too',
    check: (d) =>
      inputFieldsOf(d)
        .filter((ref) => ref.field.search && !hasDynamicDropdown(ref.field))
        .map((ref) => `${ref.where}: has search "${ref.field.search}" but no dynamic dropdown`),
  },
  {
    // A dropdown whose choices follow another input must say so in `dependsOn`, or Zapier keeps a choice made for
    // the old parent (a practitioner of another branch) when the parent changes. The definition keeps no trace of
    // what a perform reads, so choicesOf (lib/dropdowns.ts) declares it in the field's meta, where this rule reads it.
    id: 'APP-CHOICES-DEPENDS',
    title:
      'a choices.perform dropdown that reads other inputs has dependsOn, naming earlier inputs of its operation that it reads',
    check: (d) =>
      operationsOf(d).flatMap((op) => {
        const top = staticFields(op.action.operation.inputFields);
        const lists = [
          { fields: top, at: (f: FieldDef) => `${op.where}.inputFields.${f.key}`, before: [] as string[] },
          ...top
            .filter((f) => f.children)
            .map((parent) => ({
              fields: staticFields(parent.children),
              at: (f: FieldDef) => `${op.where}.inputFields.${parent.key}[]${f.key}`,
              // A child may follow an input above its line items, or a sibling before it.
              before: top.slice(0, top.indexOf(parent)).map((f) => f.key),
            })),
        ];
        return lists.flatMap(({ fields, at, before }) =>
          fields.flatMap((field, i) => {
            if (!hasChoicesPerform(field)) return [];
            const earlier = new Set([...before, ...fields.slice(0, i).map((f) => f.key)]);
            const known = new Set([...earlier, ...top.map((f) => f.key), ...fields.map((f) => f.key)]);
            const read = String(field.meta?.[CHOICES_READ] ?? '')
              .split(' ')
              .filter(Boolean);
            const dependsOn = field.dependsOn ?? [];
            return [
              ...(read.length && !dependsOn.length
                ? [`${at(field)}: its choices read ${read.join(', ')} but it has no dependsOn`]
                : []),
              ...dependsOn
                .filter((k) => !earlier.has(k))
                .map((k) => `${at(field)}: dependsOn ${k} is no earlier input of the operation`),
              ...dependsOn
                .filter((k) => !read.includes(k))
                .map((k) => `${at(field)}: dependsOn ${k}, which its choices do not read`),
              ...read
                .filter((k) => k === field.key || !known.has(k))
                .map((k) => `${at(field)}: its choices read ${k}, no other input of the operation`),
            ];
          }),
        );
      }),
  },
  {
    // What validate leaves of D015: the schema says a pair's key is its search's own, but validate checks only that
    // the key names some search; and a pair of a hidden step would offer in the editor what the app hides.
    id: 'APP-FIND-OR-CREATE',
    title:
      'every search-or-create is keyed by its own search, and pairs a visible search with a visible action',
    check: (d) =>
      Object.entries(d.searchOrCreates ?? {}).flatMap(([key, pair]) => {
        const problems: string[] = [];
        if (pair.key !== key || key !== pair.search) {
          problems.push(`searchOrCreates.${key}: its key must equal its search's key (${pair.search})`);
        }
        if (d.searches[pair.search]?.display.hidden || d.creates[pair.create]?.display.hidden) {
          problems.push(`searchOrCreates.${key}: pairs a hidden search or action`);
        }
        return problems;
      }),
  },
  {
    // The interfaces allow 120 requests a minute per API client; a step costs one to three. Steps of one interface
    // share one throttle only when their configurations are identical and the scope leaves `action` out.
    id: 'APP-THROTTLE',
    title:
      'every action and search declares a throttle of at most 60 steps a minute, keyed by its interface, shared on the connection',
    check: (d) =>
      operationsOf(d, ['creates', 'searches']).flatMap(({ where, action }) => {
        const t = (action.operation as { throttle?: Record<string, unknown> }).throttle;
        if (!t) return [`${where}: no throttle`];
        const problems: string[] = [];
        if (t.window !== 60 || typeof t.limit !== 'number' || t.limit > 60) {
          problems.push(`${where}: the throttle must allow at most 60 steps in a 60 s window`);
        }
        if (t.key !== 'clinic' && t.key !== 'cashier')
          problems.push(`${where}: the throttle's key must name its interface`);
        const scope = Array.isArray(t.scope) ? t.scope : [];
        if (!scope.includes('auth') || scope.includes('action')) {
          problems.push(`${where}: the throttle's scope must be the connection (auth), not the action`);
        }
        return problems;
      }),
  },
];
