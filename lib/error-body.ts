import type { HttpResponse } from 'zapier-platform-core';
import { plainText, shortened } from './plain-text';

/*
 * What the app reads of an interface's error answer: the envelope's members, the invalid fields of its details and
 * the Retry-After header. All of it is text a server (or whatever sits in front of it) chose, so every check here
 * is linear in its input and bounded in length: no crafted body or header can make a step spend seconds on it.
 */

/** The error envelope both interfaces answer with: `{error, message, details}`. */
export interface ErrorEnvelope {
  error?: string;
  message?: string;
  details?: Record<string, unknown>;
}

/** Error codes and field problem codes are identifiers; anything else is not one. */
export const CODE = /^[a-z][a-z0-9_]{0,59}$/;

/** Longest server message shown: enough for a sentence or two, never a page. */
export const SERVER_MESSAGE_MAX = 300;

/**
 * How much of a server message is read at all: its first characters are enough to fill SERVER_MESSAGE_MAX once
 * runs of spaces and control characters are folded, and a megabyte of message is never scanned.
 */
const MESSAGE_READ_MAX = 16 * SERVER_MESSAGE_MAX;

/** The server's message on one line, without control characters, at most SERVER_MESSAGE_MAX characters. */
const boundedMessage = (text: string): string | undefined => {
  const flat = plainText(text.slice(0, MESSAGE_READ_MAX));
  return flat ? shortened(flat, SERVER_MESSAGE_MAX) : undefined;
};

const safeJson = (text: string | undefined): unknown => {
  if (!text) return undefined;
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};

/** The envelope's members of the types the specs give; anything else in an error body is never shown. */
export const parseEnvelope = (response: HttpResponse): ErrorEnvelope => {
  const body: unknown = safeJson(response.content);
  if (!body || typeof body !== 'object' || Array.isArray(body)) return {};
  const { error, message, details } = body as Record<string, unknown>;
  return {
    error: typeof error === 'string' && CODE.test(error) ? error : undefined,
    message: typeof message === 'string' ? boundedMessage(message) : undefined,
    details:
      details && typeof details === 'object' && !Array.isArray(details)
        ? (details as Record<string, unknown>)
        : undefined,
  };
};

/** Bounds of the delay handed to Zapier for a 429 (seconds), and the delay when Retry-After says nothing usable. */
export const RETRY_AFTER = { min: 1, max: 600, fallback: 60 } as const;

/** Longer than any delta-seconds or HTTP date a server means (an HTTP date is 29 characters). */
const RETRY_AFTER_READ_MAX = 100;

/**
 * `Retry-After` as the delay Zapier waits: delta-seconds (digits only) or an HTTP date, clamped to 1–600 s; missing,
 * unreadable (negative, fractional, garbage) or longer than any real value means 60 s.
 */
export const retryAfterSeconds = (value: string | null | undefined, now = Date.now()): number => {
  const text = value?.trim() ?? '';
  let seconds: number | undefined;
  if (text.length > RETRY_AFTER_READ_MAX) seconds = undefined;
  else if (/^\d+$/.test(text)) seconds = Number(text);
  else if (/[a-z]/i.test(text)) {
    const at = Date.parse(text);
    if (!Number.isNaN(at)) seconds = Math.ceil((at - now) / 1000);
  }
  if (seconds === undefined || !Number.isFinite(seconds)) return RETRY_AFTER.fallback;
  return Math.min(RETRY_AFTER.max, Math.max(RETRY_AFTER.min, seconds));
};

/** Longest field key read: deeper than any request the app sends, far below what a crafted body can hold. */
export const FIELD_KEY_MAX = 200;

const isLetter = (c: number) => (c >= 65 && c <= 90) || (c >= 97 && c <= 122);
const isDigit = (c: number) => c >= 48 && c <= 57;
const isWordChar = (c: number) => isLetter(c) || isDigit(c) || c === 95;

/**
 * Whether `text` is a field key as the interfaces name request fields: a name (a letter, then up to 59 letters,
 * digits or underscores) followed by any of `.name`, `.index` and `[index]` (an index is 1–4 digits), e.g.
 * `starts_at`, `lines.0.qty`, `lines[0].qty`. Read left to right, one character at a time: each character has one
 * reading, so no key costs more than its length.
 */
export const isFieldKey = (text: string): boolean => {
  if (text.length > FIELD_KEY_MAX) return false;
  /** The end of a run of `accept` characters from `at`, if it is `min`–`max` long; else -1. */
  const run = (at: number, min: number, max: number, accept: (c: number) => boolean): number => {
    let end = at;
    while (end < text.length && end - at < max && accept(text.charCodeAt(end))) end += 1;
    return end - at >= min ? end : -1;
  };
  const name = (at: number) => (isLetter(text.charCodeAt(at)) ? run(at + 1, 0, 59, isWordChar) : -1);
  let at = name(0);
  while (at > 0 && at < text.length) {
    const c = text.charCodeAt(at);
    if (c === 91) {
      // [index]
      const end = run(at + 1, 1, 4, isDigit);
      at = end > 0 && text.charCodeAt(end) === 93 ? end + 1 : -1;
    } else if (c === 46) {
      // .index or .name
      at = isDigit(text.charCodeAt(at + 1)) ? run(at + 1, 1, 4, isDigit) : name(at + 1);
    } else {
      at = -1;
    }
  }
  return at === text.length;
};

/** A message names this many invalid fields at most: a form has fewer, a crafted body may list thousands. */
export const FIELDS_SHOWN_MAX = 20;

/**
 * The invalid fields of `validation_failed` details, whose shape the specs do not show: `{errors: [{field, code}]}`,
 * `{fields: …}` or `{field: problem}`. Only field keys and problem codes are read (identifiers, own members); the
 * words shown are the app's own, so no other text of the body reaches the message.
 */
export const invalidFields = (details: unknown): Array<{ field: string; problem?: string }> => {
  if (!details || typeof details !== 'object') return [];
  const own = (o: object, k: string): unknown =>
    Object.hasOwn(o, k) ? (o as Record<string, unknown>)[k] : undefined;
  const codeOf = (v: unknown): string | undefined => {
    const c = v && typeof v === 'object' && !Array.isArray(v) ? own(v, 'code') : v;
    return typeof c === 'string' && CODE.test(c) ? c : undefined;
  };
  const list = own(details, 'errors') ?? own(details, 'fields');
  const rows: Array<{ field: unknown; problem?: string }> = Array.isArray(list)
    ? list.map((e: unknown) =>
        e && typeof e === 'object'
          ? { field: own(e, 'field'), problem: codeOf(own(e, 'code')) }
          : { field: e },
      )
    : Object.keys(list && typeof list === 'object' ? list : details).map((field) => ({
        field,
        problem: codeOf(own(list && typeof list === 'object' ? list : details, field)),
      }));
  const seen = new Set<string>();
  const out: Array<{ field: string; problem?: string }> = [];
  for (const { field, problem } of rows) {
    if (typeof field !== 'string' || !isFieldKey(field) || seen.has(field)) continue;
    seen.add(field);
    out.push({ field, problem });
    if (out.length === FIELDS_SHOWN_MAX) break;
  }
  return out;
};

/** Shortest run of a token's characters that counts as a part of it: a token's last four are still its own. */
export const TOKEN_PART_MIN = 4;

/**
 * Whether a run of a token's characters could only be the token's, not a word the message would hold anyway: it has
 * a digit or a sign, or a capital after a small letter. A readable token ("sbx_clinic_token") is made partly of
 * words the interfaces also say ("token", "clinic"); those alone are not taken for it.
 */
const tokenLike = (run: string): boolean => /[^A-Za-z]/.test(run) || /[a-z][A-Z]/.test(run);

/**
 * Whether `text` holds the whole of one of `secrets` or a part of it (TOKEN_PART_MIN characters in a row that only
 * the token would hold); with `anyCase`, in any case (an identifier such as a code is read in lower case).
 */
export const holdsSecret = (text: string, secrets: readonly string[], anyCase = false): boolean => {
  const fold = (t: string) => (anyCase ? t.toLowerCase() : t);
  const seen = fold(text);
  return secrets.some((given) => {
    if (seen.includes(fold(given))) return true;
    for (let at = 0; at + TOKEN_PART_MIN <= given.length; at++) {
      const run = given.slice(at, at + TOKEN_PART_MIN);
      if (tokenLike(run) && seen.includes(fold(run))) return true;
    }
    return false;
  });
};

/** Shown in place of a word of a server's message that held a token, whole or in part. */
export const HIDDEN = '[hidden]';

/**
 * The envelope with nothing of the connection's tokens in what the app may show of it: each word of the message
 * that holds a token (whole or in part) is replaced, and a code, an ability or an invalid field that holds one is
 * dropped. The invalid fields come back as `{errors: [{field, code}]}`, the one shape `invalidFields` reads.
 */
export const withoutSecrets = (envelope: ErrorEnvelope, secrets: readonly string[]): ErrorEnvelope => {
  const live = secrets.filter(Boolean);
  if (!live.length) return envelope;
  // Identifiers in any case (a code is lower case); the message's words as they were sent.
  const leaks = (text: unknown) => typeof text === 'string' && holdsSecret(text, live, true);
  const { error, message, details } = envelope;
  const ability =
    details && Object.hasOwn(details, 'required_ability') ? details.required_ability : undefined;
  return {
    error: leaks(error) ? undefined : error,
    message: message
      ?.split(' ')
      .map((word) => (holdsSecret(word, live) ? HIDDEN : word))
      .join(' '),
    details: details && {
      ...(ability !== undefined && !leaks(ability) ? { required_ability: ability } : {}),
      errors: invalidFields(details)
        .filter(({ field }) => !leaks(field))
        .map(({ field, problem }) => ({ field, code: leaks(problem) ? undefined : problem })),
    },
  };
};
