/*
 * Request paths with ids in them. An id is data, never path syntax: each interpolated value becomes exactly one
 * encoded segment, and a value that would be empty or a dot segment ("." or "..", also once decoded, e.g.
 * "%2e%2e") is refused, because the URL parser resolves those and the request would go to another endpoint
 * (`/orders/../cancel` is `/cancel`). Inputs are checked by label before this (lib/inputs.ts, segmentId, ulid,
 * positiveInt); this is the last guard, so no caller can forget it.
 */

export class UnsafePathError extends Error {}

const decoded = (s: string): string => {
  try {
    return decodeURIComponent(s);
  } catch {
    return s;
  }
};

/** A value that cannot be one path segment: empty, a dot segment, or one once percent-decoded. */
export const isUnsafeSegment = (s: string): boolean =>
  [s, decoded(s)].some((v) => v.trim() === '' || /^\.+$/.test(v.trim()));

const segment = (value: unknown): string => {
  if (typeof value === 'number' ? !Number.isSafeInteger(value) : typeof value !== 'string') {
    throw new UnsafePathError(`A path id must be a whole number or text, not ${typeof value}.`);
  }
  const s = String(value);
  if (isUnsafeSegment(s)) throw new UnsafePathError('A path id may not be empty, "." or "..".');
  return encodeURIComponent(s);
};

/** A request path whose interpolated values are each one encoded segment: path`/orders/${id}/cancel`. */
export const path = (strings: TemplateStringsArray, ...values: Array<string | number>): string =>
  strings.reduce((out, part, i) => out + part + (i < values.length ? segment(values[i]) : ''), '');
