import type { z as Zod } from 'zod';
import type { Bundle, ZObject } from 'zapier-platform-core';
import type { ChoicesPage } from './dropdowns';
import { hostOf, type HostWords } from './host';
import { joined, languageOf, say, type Bilingual } from './i18n';
import { INPUT_MESSAGES, type InputMessage } from './input-messages';
import { boundInstant, date, dateOrDatetime, datetime, upcoming } from './input-times';
import {
  bool,
  m,
  maxChars,
  oneOf,
  optional,
  phone,
  positiveInt,
  quantity,
  sar,
  segmentId,
  text,
  ulid,
} from './input-rules';
import { zod } from './zod';

/*
 * Inputs are declared once (as `f.*` declares outputs, lib/resources/define.ts): one declaration per key gives the
 * Zapier input field (label, help, placeholder, required, type, dropdown and search references, choices, line-item
 * children), the zod rule that checks and converts what a Zap builder typed (CONTRACT §5), and the request name the
 * value is sent under. `required`, labels and validation therefore cannot drift apart. Validation messages are
 * message keys (INPUT_MESSAGES, lib/i18n.ts), written in the connection's language when the error is made.
 */

/** A Zapier input field, as the definition shows it. */
export interface InputField {
  key: string;
  label: string;
  helpText?: string;
  placeholder?: string;
  dynamic?: string;
  search?: string;
  type?: 'string' | 'text' | 'integer' | 'number' | 'boolean' | 'datetime';
  /** Static choices, or a dropdown filled by a perform as it opens (lib/dropdowns.ts, choicesOf). */
  choices?: Record<string, string> | DynamicChoices;
  /** Inputs filled before this one; Zapier clears it when one of them changes. */
  dependsOn?: string[];
  meta?: Record<string, string>;
  default?: string;
  altersDynamicFields?: boolean;
  /** The key of one of the operation's `inputFieldGroups`, under which the editor shows the field. */
  group?: string;
  /** Several values may be given (a trigger filter: fire for any of them). */
  list?: boolean;
  required: boolean;
  children?: InputField[];
}

export interface DynamicChoices {
  perform: (z: ZObject, bundle: Bundle) => Promise<ChoicesPage>;
}

/** How an input shows in the editor, and the name its value is sent under. */
export interface Shown<R extends boolean> extends Omit<
  InputField,
  'key' | 'required' | 'choices' | 'children'
> {
  required?: R;
  choices?: DynamicChoices;
  /** The request's name for the value (`customer.name`: a member of an object); the key when not given. */
  to?: string;
}

/** One input: how it shows, whether it is required, and its rule (built with zod on first use). */
export interface Input<S extends Zod.ZodType = Zod.ZodType, R extends boolean = boolean> {
  shown: Omit<Shown<R>, 'choices'> & { choices?: InputField['choices'] };
  required: R;
  rule: () => S;
  children?: Record<string, Input>;
}

/** What the inputs are once checked: required ones given, optional ones possibly undefined. */
export type Parsed<D extends Record<string, Input>> = {
  [K in keyof D]: D[K] extends Input<infer S, infer R>
    ? R extends true
      ? Zod.output<S>
      : Zod.output<S> | undefined
    : never;
};

/**
 * A rule across inputs: when `ok` is false, the input `at` gets `message`, a key of INPUT_MESSAGES or the
 * operation's own words. `at` may name several inputs, when giving any one of them is the fix (the message names
 * them all). `than`: the other input a `later_than` names.
 */
export interface Check<P> {
  ok: (input: P) => unknown;
  message: InputMessage | Bilingual;
  at: string | readonly [string, ...string[]];
  than?: string;
}

/** At least one of the inputs `keys` must be given; the first of them gets `message`. */
export const anyOf = <P extends Record<string, unknown>>(
  keys: readonly [keyof P & string, ...Array<keyof P & string>],
  message: Bilingual,
): Check<P> => ({ ok: (i) => keys.some((k) => i[k]), message, at: keys[0] });

/** The input `to` must be later than the input `from` when both are given (dates, or dates and times). */
export const later = <P extends Record<string, unknown>>(
  from: keyof P & string,
  to: keyof P & string,
): Check<P> => ({
  ok: (i) => !i[from] || !i[to] || boundInstant(String(i[from])) < boundInstant(String(i[to])),
  message: 'later_than',
  at: to,
  than: from,
});

// Every input states its type (text unless the rule says otherwise): an AI agent filling the step through Zapier
// MCP reads the type, not the rule behind it.
const declare =
  <S extends Zod.ZodType>(
    rule: (shown: Shown<boolean>) => S,
    fixed: Pick<InputField, 'type'> = { type: 'string' },
  ) =>
  <const R extends boolean = false>(shown: Shown<R>): Input<S, R> => ({
    shown: { ...fixed, ...shown },
    required: (shown.required ?? false) as R,
    rule: () => rule(shown),
  });

const shapeOf = (inputs: Record<string, Input>) =>
  Object.fromEntries(
    Object.entries(inputs).map(([key, i]) => [key, i.required ? i.rule() : optional(i.rule())]),
  );

const checked = <P>(schema: Zod.ZodType, checks: ReadonlyArray<Check<P>>): Zod.ZodType =>
  checks.reduce<Zod.ZodType>(
    (s, c) =>
      s.refine((v) => Boolean(c.ok(v as P)), {
        message: typeof c.message === 'string' ? m(c.message) : 'custom',
        params: {
          words: typeof c.message === 'string' ? undefined : c.message,
          than: c.than,
          also: typeof c.at === 'string' ? undefined : c.at.slice(1),
        },
        path: [typeof c.at === 'string' ? c.at : c.at[0]],
      }),
    schema,
  );

/** Input builders, one per rule (CONTRACT §5). Each takes how the input shows and where its value goes. */
export const input = {
  /** Text, trimmed; blank counts as not given. */
  text: declare(text),
  /** Text of at most `n` characters. */
  maxChars: (n: number) => declare(() => maxChars(n)),
  /** A clinic id (ULID), upper-cased. */
  ulid: declare(ulid),
  /** A cashier id that goes into a request path as one segment. */
  segmentId: declare(segmentId),
  /** A whole number of 1 or more (ids of the cashier, branches, types). */
  positiveInt: declare(positiveInt),
  /** A quantity: a number more than 0, decimals allowed. */
  quantity: declare(quantity, { type: 'number' }),
  bool: declare(bool, { type: 'boolean' }),
  /** Riyals as decimal text, sent as integer halalas. */
  sar: declare(sar),
  /** A Saudi (or +-prefixed foreign) phone, sent in E.164. */
  phone: declare(phone),
  /** A date and time with its offset. */
  datetime: declare(datetime, { type: 'datetime' }),
  /** A date and time with its offset, a few minutes ahead at least (lib/input-times.ts): a start to book. */
  upcoming: declare(upcoming, { type: 'datetime' }),
  /** A date, or a date and time with its offset (range filters). */
  dateOrDatetime: declare(dateOrDatetime, { type: 'datetime' }),
  date: declare(date),
  /** One of the choices' keys, the choices shown as a dropdown. */
  choice: <T extends string, const R extends boolean = false>(
    choices: Readonly<Record<T, string>>,
    shown: Shown<R>,
  ) => ({
    ...declare(() => oneOf(Object.keys(choices) as [T, ...T[]]))(shown),
    shown: { type: 'string' as const, ...shown, choices: { ...choices } },
  }),
  /**
   * Line items: one row per element, each with the children's inputs and rules across them. A required list needs
   * at least one row.
   */
  lines: <C extends Record<string, Input>, const R extends boolean = false>(
    shown: Shown<R>,
    children: C,
    checks: ReadonlyArray<Check<Parsed<C>>> = [],
  ): Input<Zod.ZodType<Array<Parsed<C>>>, R> => ({
    shown,
    required: (shown.required ?? false) as R,
    children,
    rule: () => {
      const row = checked(zod().object(shapeOf(children)), checks);
      return (
        shown.required
          ? zod()
              .array(row, { error: m('at_least_one_line') })
              .min(1, m('at_least_one_line'))
          : zod().array(row)
      ) as Zod.ZodType<Array<Parsed<C>>>;
    },
  }),
};

const fieldsOf = (inputs: Record<string, Input>): InputField[] =>
  Object.entries(inputs).map(([key, { shown, required, children }]) => {
    const { to: _to, ...field } = shown;
    return { key, ...field, required, ...(children ? { children: fieldsOf(children) } : {}) };
  });

/** Field labels, children's included, so messages say "Start Time", not "starts_at". */
const labelsOf = (fields: readonly InputField[]): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const f of fields) {
    out[f.key] = f.label;
    for (const c of f.children ?? []) out[c.key] = c.label;
  }
  return out;
};

/** The values under the names the request gives them (`to`), line items row by row. */
const toRequest = (
  inputs: Record<string, Input>,
  values: Record<string, unknown>,
): Record<string, unknown> => {
  const out: Record<string, unknown> = {};
  for (const [key, { shown, children }] of Object.entries(inputs)) {
    const value = values[key];
    const sent =
      children && Array.isArray(value)
        ? value.map((row) => toRequest(children, row as Record<string, unknown>))
        : value;
    const [name, member] = (shown.to ?? key).split('.') as [string, string | undefined];
    if (member === undefined) out[name] = sent;
    else if (sent !== undefined) out[name] = { ...(out[name] as object | undefined), [member]: sent };
  }
  return out;
};

const valueAt = (input: unknown, path: readonly PropertyKey[]): unknown =>
  path.reduce<unknown>(
    (v, k) => (v && typeof v === 'object' ? (v as Record<PropertyKey, unknown>)[k] : undefined),
    input,
  );

const isBlank = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.trim() === '');

const isBilingual = (v: unknown): v is Bilingual =>
  !!v &&
  typeof v === 'object' &&
  typeof (v as Bilingual).en === 'string' &&
  typeof (v as Bilingual).ar === 'string';

/** The words of an issue: its own (a money or phone error), its message key's, or zod's own text. */
const wordsOf = (
  issue: Zod.core.$ZodIssue,
  input: unknown,
  labels: Record<string, string>,
  host: HostWords,
): Bilingual => {
  if (issue.code === 'invalid_type' && isBlank(valueAt(input, issue.path))) return INPUT_MESSAGES.required;
  const params: Record<string, unknown> = (issue.code === 'custom' && issue.params) || {};
  if (isBilingual(params.words)) return params.words;
  const key = issue.message;
  if (!Object.hasOwn(INPUT_MESSAGES, key)) return { en: key, ar: key };
  const words = INPUT_MESSAGES[key as InputMessage];
  const than = typeof params.than === 'string' ? (labels[params.than] ?? params.than) : undefined;
  return typeof words === 'function' ? words({ ...(issue as object), than, words: host }) : words;
};

/** Labels as a list of alternatives: "A, B or C", "A، B أو C". */
const listed = (labels: readonly string[]): Bilingual => {
  const head = labels.slice(0, -1);
  const last = labels[labels.length - 1]!;
  return head.length
    ? { en: `${head.join(', ')} or ${last}`, ar: `${head.join('، ')} أو ${last}` }
    : { en: last, ar: last };
};

const describeIssue = (
  issue: Zod.core.$ZodIssue,
  labels: Record<string, string>,
  input: unknown,
  host: HostWords,
): Bilingual => {
  const [head, index, leaf] = issue.path;
  const label = labels[String(head)] ?? String(head ?? 'Input');
  const also = issue.code === 'custom' && Array.isArray(issue.params?.also) ? issue.params.also : [];
  const where =
    typeof index === 'number' && leaf !== undefined
      ? listed([`${label} #${index + 1}, ${labels[String(leaf)] ?? String(leaf)}`])
      : listed([label, ...also.map((k: unknown) => labels[String(k)] ?? String(k))]);
  const { en, ar } = wordsOf(issue, input, labels, host);
  return { en: `${where.en}: ${en.replace(/\.$/, '')}`, ar: `${where.ar}: ${ar.replace(/\.$/, '')}` };
};

/**
 * The Zapier field of one declared input, where its value is read by its own code rather than checked by
 * `declareInputs` (a trigger's filter, matched against each item; Include Patient Details): one style of declaring a
 * field for every operation.
 */
export const fieldOf = (key: string, declared: Input): InputField => fieldsOf({ [key]: declared })[0]!;

/** An operation's inputs, declared once: the fields Zapier shows, their check, and the request they make. */
export interface Inputs<D extends Record<string, Input>> {
  /** The declarations, by key. */
  declared: D;
  /** The Zapier input fields, in the order declared. */
  fields: InputField[];
  /**
   * Checks `bundle.inputData`. Throws one z.errors.Error naming every bad field by its label, in the connection's
   * language; nothing is sent.
   */
  parse(z: ZObject, bundle: Pick<Bundle, 'inputData' | 'authData'>): Parsed<D>;
  /** The checked values under the request's names (body or query), every declared input included. */
  request(values: Parsed<D>): Record<string, unknown>;
}

export const declareInputs = <D extends Record<string, Input>>(
  inputs: D,
  checks: ReadonlyArray<Check<Parsed<D>>> = [],
): Inputs<D> => {
  const fields = fieldsOf(inputs);
  const labels = labelsOf(fields);
  let schema: Zod.ZodType | undefined;
  return {
    declared: inputs,
    fields,
    parse(z, bundle) {
      const given: unknown = bundle.inputData;
      schema ??= checked(zod().object(shapeOf(inputs)), checks);
      const result = schema.safeParse(given ?? {});
      if (result.success) return result.data as Parsed<D>;
      const problems = joined(
        result.error.issues.map((i) => describeIssue(i, labels, given, hostOf(bundle).words)),
        { en: '; ', ar: '؛ ' },
      );
      throw new z.errors.Error(
        say(languageOf(bundle), {
          en: `Please fix: ${problems.en}.`,
          ar: `يرجى تصحيح ما يلي: ${problems.ar}.`,
        }),
        'invalid_input',
        400,
      );
    },
    request: (values) => toRequest(inputs, values as Record<string, unknown>),
  };
};
