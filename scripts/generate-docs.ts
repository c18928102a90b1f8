/*
 * Writes docs/clinic.md and docs/cashier.md from the app definition: `npm run docs`. Every trigger, action and
 * search (hidden dropdown lists too) with its inputs, outputs and example, as the Zap editor shows them. The
 * prose around them is here; the rest comes from the definition, so rerun it after changing a label, help text
 * or sample (test/docs.test.ts fails when an operation or input is missing from the pages).
 */
import { writeFileSync } from 'node:fs';
import { helpIfAsked } from './help';
import path from 'node:path';
import { SETTINGS } from '../lib/config';
import { EVENTS } from '../lib/hooks/events';
import type { Api } from '../lib/partner-apis';
import { LIST } from '../lib/dropdown-lists';
import { CHOICES_READ, DROPDOWN, TRIGGER } from '../lib/keys';
import { STEPS } from '../steps';
import {
  hasChoicesPerform,
  inputFieldsOf,
  loadDefinition,
  operationsOf,
  staticFields,
  type ActionDef,
  type AppDefinition,
  type FieldDef,
  type Kind,
} from './checks/definition';

helpIfAsked(`npm run docs: writes docs/clinic.md and docs/cashier.md from the app's definition (every trigger,
action and search with its inputs, outputs and example). Run it after changing a label, help text or sample;
test/docs.test.ts fails while the pages lag behind.`);

/**
 * Which interface each operation speaks to: the page it is documented on. Each says it once where it is declared:
 * a trigger row (lib/hooks/events.ts), a dropdown's list (lib/dropdown-lists.ts), an action or search (steps.ts).
 */
const INTERFACE: Record<string, Api> = {
  ...Object.fromEntries(EVENTS.map((e) => [e.key, e.api])),
  [TRIGGER.appointmentStartingSoon]: 'clinic',
  ...Object.fromEntries(
    (Object.keys(DROPDOWN) as Array<keyof typeof DROPDOWN>).map((name) => [DROPDOWN[name], LIST[name].api]),
  ),
  ...Object.fromEntries(STEPS.map((step) => [step.key, step.api])),
};

export const interfaceOf = (key: string): Api => {
  const api = INTERFACE[key];
  if (!api) throw new Error(`scripts/generate-docs.ts: say which interface ${key} belongs to (INTERFACE)`);
  return api;
};

export const DOC_PATHS: Record<Api, string> = {
  clinic: path.resolve(__dirname, '..', 'docs', 'clinic.md'),
  cashier: path.resolve(__dirname, '..', 'docs', 'cashier.md'),
};

/** Bullets that hold on both pages, then each page's own. */
const COMMON = [
  "**Times** are ISO-8601 with the branch's offset, `+03:00` (Saudi Arabia keeps no daylight saving). When you type a time into a field, give its offset too, e.g. `2026-11-24T10:30:00+03:00`; a date alone is `2026-11-24`.",
  '**Amounts** come twice: in riyals as text with two decimals (e.g. _Total (SAR)_ `"460.00"`), and in halalas as a whole number (_Total (Halalas)_ `46000`). Map the SAR one into other apps; the halalas one is for arithmetic. Amounts you type are riyals, like `12.50` (VAT included where the field says so).',
  '**Phones** you type may be in any Saudi form (`0501234567`, `+966 50 123 4567`); they are sent as `+966501234567`.',
  '**Searches** that find nothing are not errors: the step reports that nothing was found, and you decide in the Zap editor whether the Zap goes on.',
  '**Errors** say what went wrong and what to do, in English; a connection in Arabic reads the English, then `—` and the Arabic.',
];

const OWN: Record<Api, string[]> = {
  clinic: [
    '**Ids** of clinic objects are 26 letters and digits, e.g. `01JDA3F7Q9B2C4D6E8G0H1J3K5`; branches and appointment types are numbers.',
    `**The patient** of an appointment, invoice or claim (name, phone, email, file number) comes with _Patient Details Status_ (\`patient__status\`): \`found\`; \`not_found\` (the clinic knows no such patient); \`no_access\` (the API client lacks \`patients:read\`); \`off\` (Include Patient Details is off); \`unavailable\` (the clinic did not answer, even after the app tried again for up to ${SETTINGS.triggerReadBudgetMs / 1000} seconds). The other patient fields are empty unless it is \`found\`. A trigger always fires, since Zapier never runs a trigger again: filter on this field before messaging the patient ([recipes](recipes.md)). An action, a search or a Transfer page whose patient read fails for now fails instead, and Zapier runs it again (a replayed booking books nothing twice), so they give the patient whenever they succeed.`,
    '**Privacy**: patient data is limited to what the clinic shares with partners. Invoice lines never carry procedure codes, descriptions, teeth or surfaces, and no step returns clinical notes.',
  ],
  cashier: [
    '**Quantities** are decimal text (`"2"`, `"0.75"` for weighed goods).',
    '**Orders, receipts and till sessions** cannot be listed by the cashier interface, so their dropdowns are empty: map their ids from an earlier step (a trigger, Create Order, or a receipt’s Till Session ID).',
  ],
};

const INTRO: Record<Api, string> = {
  clinic: `# Clinic: triggers, actions and searches

What the clinic interface offers in the Zap editor: each trigger, action and search with the fields it asks for,
what it gives to later steps, and an example of its output. The hidden dropdown lists at the end show what the
dropdowns of the other steps offer. For the point-of-sale side see [cashier.md](cashier.md).

## Connecting

These steps need the **Clinic API Token** in the connection. The clinic's account owner creates an API client in
the clinic back office under **Developers → API clients**, gives it the abilities the Zaps need
(\`patients:read\`, \`appointments:read\`, \`appointments:write\`, \`invoices:read\`, and \`webhooks\` for instant
triggers) and copies its token, which is shown only once. The Clinic Base Address stays blank unless the vendor
gave you another address (a test account, say).`,
  cashier: `# Cashier: triggers, actions and searches

What the cashier (point-of-sale) interface offers in the Zap editor: each trigger, action and search with the
fields it asks for, what it gives to later steps, and an example of its output. The hidden dropdown lists at the
end show what the dropdowns of the other steps offer. For appointments, invoices and claims see [clinic.md](clinic.md).

## Connecting

These steps need the **Cashier API Token** in the connection. The account owner creates an API client in the
cashier back office under **Developers → API clients**, gives it the abilities the Zaps need (\`pos:read\` for
catalogue, sales and stock, \`pos:write\` for items, \`pos:orders\` for orders, \`pos:webhooks\` for instant
triggers) and copies its token, which is shown only once. The Cashier Base Address stays blank unless the vendor
gave you another address (a test account, say).`,
};

const introOf = (api: Api) =>
  [
    INTRO[api],
    'Things that hold for every step:',
    [...COMMON, ...OWN[api]].map((b) => `- ${b}`).join('\n'),
  ].join('\n\n');

const SECTIONS: Array<{ title: string; kind: Kind; pick: (a: ActionDef) => boolean }> = [
  {
    title: 'Instant triggers',
    kind: 'triggers',
    pick: (a) => !a.display.hidden && a.operation.type === 'hook',
  },
  {
    title: 'Scheduled triggers',
    kind: 'triggers',
    pick: (a) => !a.display.hidden && a.operation.type !== 'hook',
  },
  { title: 'Actions', kind: 'creates', pick: (a) => !a.display.hidden },
  { title: 'Searches', kind: 'searches', pick: (a) => !a.display.hidden },
];

/** A table cell: one line, pipes escaped. */
const cell = (text: string) => text.replace(/\s*\n\s*/g, ' ').replace(/\|/g, '\\|');

const choicesOf = (field: FieldDef): string | undefined => {
  const choices = field.choices;
  if (!choices || typeof choices !== 'object' || hasChoicesPerform(field)) return undefined;
  const entries = Array.isArray(choices)
    ? choices.map((c: unknown) =>
        typeof c === 'string'
          ? [c, c]
          : [String((c as { value: unknown }).value), String((c as { label: unknown }).label)],
      )
    : Object.entries(choices as Record<string, string>);
  return entries.map(([value, label]) => `${label} (\`${value}\`)`).join(', ');
};

const dropdownLabel = (definition: AppDefinition, ref: string) => {
  const trigger = definition.triggers[ref.split('.')[0] ?? ''];
  return trigger?.display.label?.replace(/^List /, '').toLowerCase() ?? ref;
};

const TYPE_NOTES: Record<string, string> = {
  integer: 'A whole number.',
  number: 'A number.',
  boolean: 'Yes or no.',
  datetime: 'A date and time.',
};

/** Whether a dropdown's hidden trigger offers options (the cashier's orders, receipts, sessions offer none). */
const offersOptions = (definition: AppDefinition, ref: string) =>
  !/offers nothing/.test(definition.triggers[ref.split('.')[0] ?? '']?.display.description ?? '');

/**
 * A `choices: { perform }` dropdown, which no hidden trigger names: what its choices follow (the inputs it reads,
 * choicesOf's declaration) and which of them clear it when they change (`dependsOn`).
 */
const performDropdownNote = (fields: readonly FieldDef[], field: FieldDef): string => {
  const labelOf = (key: string) => fields.find((f) => f.key === key)?.label ?? key;
  const read = String(field.meta?.[CHOICES_READ] ?? '')
    .split(' ')
    .filter(Boolean);
  const follows = read.length ? `, its choices following ${listed(read.map(labelOf))}` : '';
  const clears = field.dependsOn?.length
    ? ` Changing ${listed(field.dependsOn.map(labelOf), 'or')} clears it.`
    : '';
  return `Dropdown, filled as it opens${follows}.${clears}`;
};

const listed = (words: readonly string[], and = 'and') =>
  words.length > 1 ? `${words.slice(0, -1).join(', ')} ${and} ${words[words.length - 1]}` : (words[0] ?? '');

const notesOf = (definition: AppDefinition, field: FieldDef, fields: readonly FieldDef[] = []): string => {
  const notes: string[] = [];
  const choices = choicesOf(field);
  if (field.dynamic && offersOptions(definition, field.dynamic)) {
    notes.push(`Dropdown of ${dropdownLabel(definition, field.dynamic)}.`);
  } else if (hasChoicesPerform(field)) {
    notes.push(performDropdownNote(fields, field));
  } else if (!choices && TYPE_NOTES[field.type ?? '']) {
    notes.push(TYPE_NOTES[field.type ?? '']!);
  }
  const search = field.search ? definition.searches[field.search.split('.')[0] ?? ''] : undefined;
  const searchLabel = search?.display.label ?? field.search;
  if (searchLabel && !field.helpText?.includes(searchLabel)) notes.push(`Or add a ${searchLabel} step.`);
  if (choices) notes.push(`Choices: ${choices}.`);
  if (field.default !== undefined) notes.push(`Default: \`${field.default}\`.`);
  return notes.join(' ');
};

const inputsTable = (definition: AppDefinition, action: ActionDef): string => {
  const rows = staticFields(action.operation.inputFields).flatMap((field) => [
    { label: field.label ?? field.key, key: field.key, field },
    ...staticFields(field.children).map((child) => ({
      label: `${field.label ?? field.key} › ${child.label ?? child.key}`,
      key: `${field.key}[]${child.key}`,
      field: child,
    })),
  ]);
  if (!rows.length) return '_No fields to fill in._';
  const all = rows.map((r) => r.field);
  const lines = rows.map(({ label, key, field }) => {
    const help = field.children
      ? 'Line items: add one row per entry, with the fields below.'
      : [field.helpText ?? '', notesOf(definition, field, all)].filter(Boolean).join(' ');
    return `| ${cell(label)} | \`${key}\` | ${field.required ? 'yes' : 'no'} | ${cell(help)} |`;
  });
  return ['| Field | Key | Required | Help |', '|---|---|---|---|', ...lines].join('\n');
};

const outputsTable = (action: ActionDef): string => {
  const outputs = staticFields(action.operation.outputFields);
  return [
    '| Field | Key |',
    '|---|---|',
    ...outputs.map((o) => `| ${cell(o.label ?? o.key)} | \`${o.key}\` |`),
  ].join('\n');
};

const example = (action: ActionDef) =>
  ['```json', JSON.stringify(action.operation.sample, null, 2), '```'].join('\n');

const kindLine = (kind: Kind, action: ActionDef): string => {
  if (kind === 'creates') return 'action';
  if (kind === 'searches') return 'search';
  return action.operation.type === 'hook'
    ? 'instant trigger'
    : 'scheduled trigger (checked every few minutes)';
};

const operationDoc = (definition: AppDefinition, kind: Kind, action: ActionDef): string =>
  [
    `### ${action.display.label}`,
    `\`${action.key}\` · ${kindLine(kind, action)}`,
    action.display.description ?? '',
    `**Fields**`,
    inputsTable(definition, action),
    `**Outputs** (as offered to later steps)`,
    outputsTable(action),
    `**Example**`,
    example(action),
  ].join('\n\n');

const searchOrCreateDocs = (definition: AppDefinition, api: Api): string[] =>
  Object.values(definition.searchOrCreates ?? {})
    .filter((pair) => interfaceOf(pair.search) === api)
    .map((pair) =>
      [
        `### ${pair.display.label}`,
        `\`${pair.key}\` · search, or action when nothing is found`,
        pair.display.description ?? '',
        `In a search step, tick *Create ${definition.creates[pair.create]?.noun ?? ''} if it doesn't exist yet?*: the ` +
          `step runs [${definition.searches[pair.search]?.display.label ?? pair.search}](#${slug(definition.searches[pair.search]?.display.label ?? '')}) ` +
          `and, when it finds nothing, [${definition.creates[pair.create]?.display.label ?? pair.create}](#${slug(definition.creates[pair.create]?.display.label ?? '')}) ` +
          `with the fields given for it (\`${pair.search}\` then \`${pair.create}\`).`,
      ].join('\n\n'),
    );

const slug = (title: string) =>
  title
    .toLowerCase()
    .replace(/[^\p{L}\p{N}\s-]/gu, '')
    .trim()
    .replace(/\s+/g, '-');

const dropdownsDoc = (definition: AppDefinition, api: Api): string => {
  const hidden = operationsOf(definition, ['triggers']).filter(
    (op) => op.action.display.hidden && interfaceOf(op.key) === api,
  );
  const usedBy = (key: string) =>
    inputFieldsOf(definition)
      .filter((ref) => ref.field.dynamic?.split('.')[0] === key)
      .map((ref) => {
        const [kind, opKey] = ref.where.split('.');
        const op = definition[kind as Kind][opKey ?? ''];
        return `${op?.display.label ?? opKey} › ${ref.field.label ?? ref.field.key}`;
      });
  const rows = hidden.map(
    (op) =>
      `| ${cell(op.action.display.label ?? op.key)} | \`${op.key}\` | ${cell(op.action.display.description ?? '')} | ${cell([...new Set(usedBy(op.key))].join('; '))} |`,
  );
  return [
    '## Dropdown lists (hidden triggers)',
    'Hidden triggers; they cannot be chosen as a Zap’s trigger, and stay published as every key of the app does. ' +
      'A list fills the dropdowns named under “Used by”; the other list dropdowns above are filled as they open, ' +
      'from the same lists, with the same options. Each option is an ' +
      'id (the value sent) and a label (what the dropdown shows), e.g. ' +
      `\`${JSON.stringify(hidden[0]?.action.operation.sample ?? {})}\`. Lists that can be long offer “Load more”.`,
    ['| List | Key | What it offers | Used by |', '|---|---|---|---|', ...rows].join('\n'),
  ].join('\n\n');
};

export const renderInterfaceDoc = (definition: AppDefinition, api: Api): string => {
  const sections = SECTIONS.map(({ title, kind, pick }) => {
    const ops = operationsOf(definition, [kind]).filter(
      (op) => pick(op.action) && interfaceOf(op.key) === api,
    );
    const docs = ops.map((op) => operationDoc(definition, kind, op.action));
    if (kind === 'searches') docs.push(...searchOrCreateDocs(definition, api));
    return docs.length ? [`## ${title}`, ...docs].join('\n\n') : '';
  }).filter(Boolean);
  const contents = SECTIONS.flatMap(({ kind, pick }) =>
    operationsOf(definition, [kind])
      .filter((op) => pick(op.action) && interfaceOf(op.key) === api)
      .map((op) => `[${op.action.display.label}](#${slug(op.action.display.label ?? '')})`),
  );
  return [
    '<!-- Generated by `npm run docs` (scripts/generate-docs.ts) from the app definition. Do not edit by hand. -->',
    introOf(api),
    `**In this page:** ${contents.join(' · ')} · [Dropdown lists](#dropdown-lists-hidden-triggers)`,
    ...sections,
    dropdownsDoc(definition, api),
  ].join('\n\n');
};

const main = async () => {
  // Loaded here, not at the top: prettier's entry cannot load inside jest, which imports this module's tables.
  const { format, resolveConfig } = await import('prettier');
  // The sources, as the tests load them (tsx resolves index.ts).
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const app = require(path.resolve(__dirname, '..', 'index.ts')) as object;
  const definition = loadDefinition(app);
  for (const api of ['clinic', 'cashier'] as const) {
    const file = DOC_PATHS[api];
    const options = (await resolveConfig(file)) ?? {};
    writeFileSync(file, await format(renderInterfaceDoc(definition, api), { ...options, filepath: file }));
    console.log(`Wrote ${path.relative(process.cwd(), file)}.`);
  }
};

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(error);
    process.exit(1);
  });
}
