import { errors as coreErrors } from 'zapier-platform-core';
import { AppMessageError, languageOf, say } from './i18n';

/*
 * What an error may carry out of the app (CONTRACT §7). zapier-platform-core "contextifies" every error that lacks
 * `doNotContextify`: it appends the whole bundle (inputData, subscribeData with a hook's signing secret, the raw
 * delivery body) and the first 100 characters of each response to the message, and the Lambda handler adds the
 * console logs. Zap history shows that message to anyone on the account. So every function of the app is sealed
 * here, once: an error leaves it either as one of the app's own messages with enrichment off, or as a generic
 * message that says nothing of the data.
 */

/** Core's error classes whose messages the app writes (z.errors.HaltedError(message) and the like). */
const OWN_MESSAGE_CLASSES = new Set(['HaltedError', 'ExpiredAuthError', 'RefreshAuthError']);
/** Core's error classes that already skip enrichment and carry only the app's message (and a delay or code). */
const SEALED_CLASSES = new Set(['AppError', 'ThrottledError']);

const unexpected = (kind: string) => ({
  en: `The app met an unexpected problem (${kind}) and stopped without finishing this step. Try again; if it happens again, contact the app's support.`,
  ar: `واجه التطبيق مشكلة غير متوقعة (${kind}) فتوقف قبل إتمام هذه الخطوة. حاول مجددًا؛ وإن تكررت فتواصل مع دعم التطبيق.`,
});

/** A name safe to show: a class name, never a message (JS engine messages may quote the data, e.g. JSON.parse). */
const kindOf = (error: unknown): string => {
  const name = error instanceof Error ? error.name : typeof error;
  return /^[A-Za-z][A-Za-z0-9]{0,40}$/.test(name) ? name : 'Error';
};

/**
 * The error as it may leave the app. Its own messages keep their words with enrichment switched off; anything
 * else (a TypeError, a SyntaxError quoting a body, core's ResponseError with the whole answer) becomes a generic
 * message naming only the kind of problem.
 */
export const sealError = (error: unknown, bundle?: unknown): Error => {
  if (error instanceof Error) {
    const flagged = error as Error & { doNotContextify?: boolean };
    if (error instanceof AppMessageError) return error;
    if (SEALED_CLASSES.has(error.name) && flagged.doNotContextify) return error;
    if (OWN_MESSAGE_CLASSES.has(error.name)) {
      flagged.doNotContextify = true;
      return error;
    }
  }
  const kind = kindOf(error);
  const lang = languageOf((bundle ?? {}) as Parameters<typeof languageOf>[0]);
  return new coreErrors.Error(say(lang, unexpected(kind)), 'unexpected_error', 500);
};

/** Any function of the definition (z, bundle, …); `never` parameters accept every signature. */
type Fn = (z: never, bundle: never, ...rest: never[]) => unknown;
type Callable = (this: unknown, ...args: unknown[]) => unknown;

const SEALED = Symbol.for('clinic-pos-zapier.sealed');

/** Whether a function of the definition goes through `seal` (a test walks the app with it). */
export const isSealed = (fn: unknown): boolean =>
  typeof fn === 'function' && (fn as unknown as Record<symbol, unknown>)[SEALED] === true;

/** One function of the app, with every error it throws sealed. */
export const seal = <F extends Fn>(fn: F): F => {
  if (isSealed(fn)) return fn;
  const sealed = async function (this: unknown, z: unknown, bundle: unknown, ...rest: unknown[]) {
    try {
      return await (fn as unknown as Callable).call(this, z, bundle, ...rest);
    } catch (error) {
      throw sealError(error, bundle);
    }
  };
  Object.defineProperty(sealed, SEALED, { value: true });
  return sealed as unknown as F;
};

const isObject = (v: unknown): v is Record<string, unknown> => !!v && typeof v === 'object';

/**
 * A field with its functions sealed: a dynamic field (a function), a dropdown's `choices.perform`, and those of its
 * line-item children. Core runs a `choices.perform` by its path like any other function, so an error it lets
 * through would be enriched with the bundle as well.
 */
const sealField = (field: unknown): unknown => {
  if (typeof field === 'function') return seal(field as Fn);
  if (!isObject(field)) return field;
  const out: Record<string, unknown> = { ...field };
  if (isObject(field.choices) && typeof field.choices.perform === 'function') {
    out.choices = { ...field.choices, perform: seal(field.choices.perform as Fn) };
  }
  if (Array.isArray(field.children)) out.children = field.children.map(sealField);
  return out;
};

/** Function members of an operation, and the functions of its input or output fields. */
const sealMembers = (operation: Record<string, unknown>): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(operation).map(([key, value]) => {
      if (typeof value === 'function') return [key, seal(value as Fn)];
      if (Array.isArray(value) && (key === 'inputFields' || key === 'outputFields')) {
        return [key, value.map(sealField)];
      }
      return [key, value];
    }),
  );

const sealGroup = (group: unknown) =>
  isObject(group)
    ? Object.fromEntries(
        Object.entries(group).map(([key, def]) => [
          key,
          isObject(def) && isObject(def.operation) ? { ...def, operation: sealMembers(def.operation) } : def,
        ]),
      )
    : group;

/**
 * The app with every function sealed: the connection's test and label, every trigger, action and search function
 * (perform, performList, performSubscribe, performUnsubscribe, dynamic fields, dropdowns' `choices.perform`, their
 * line-item children's too) and every hydrator. The afterResponse middleware is not: it runs inside a sealed
 * function's request, and what it throws leaves through that function. Applied once,
 * to the assembled definition, so an operation added later is sealed without anyone remembering to.
 */
export const sealApp = <A extends object>(definition: A): A => {
  const app = definition as Record<string, unknown>;
  const out: Record<string, unknown> = { ...app };
  if (isObject(app.authentication)) out.authentication = sealMembers(app.authentication);
  for (const group of ['triggers', 'creates', 'searches'] as const) out[group] = sealGroup(app[group]);
  if (isObject(app.hydrators)) {
    out.hydrators = Object.fromEntries(
      Object.entries(app.hydrators).map(([k, fn]) => [k, typeof fn === 'function' ? seal(fn as Fn) : fn]),
    );
  }
  return out as A;
};
