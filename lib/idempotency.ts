import { createHash } from 'node:crypto';
import { unwrapOne } from './http';

/**
 * A stable hash of a Zap and a write's inputs: the same Zap (`bundle.meta.zap.id`) with the same inputs gives the
 * same hash, any other input gives another. Keys are sorted and blanks are null, so the order fields are given
 * in never matters. Without a Zap id (editor tests) only identical inputs meet.
 */
export const fingerprint = (zapId: string | undefined, parts: Record<string, unknown>): string => {
  const canonical = JSON.stringify([zapId ?? 'no-zap', sortedDeep(parts)]);
  return createHash('sha256').update(canonical).digest('hex');
};

const sortedDeep = (v: unknown): unknown => {
  if (Array.isArray(v)) return v.map(sortedDeep);
  if (v && typeof v === 'object') {
    return Object.keys(v)
      .sort()
      .map((k) => [k, sortedDeep((v as Record<string, unknown>)[k]) ?? null]);
  }
  return v ?? null;
};

/**
 * A booking reference derived from the Zap and every field of the booking, for bookings whose Zap gives none: a
 * replayed or retried step derives the same reference, and the clinic answers the existing appointment; bookings
 * that differ in any field get different references. The caller passes the time as an instant, so
 * "10:30+03:00" and "07:30Z" are the same booking.
 */
export const derivedBookingRef = (
  zapId: string | undefined,
  parts: Record<string, string | number | undefined>,
): string => `zap-${fingerprint(zapId, parts).slice(0, 32)}`;

/**
 * The object of a write answer and whether it was an idempotent repeat: the interfaces answer 200 with
 * `duplicate: true` (beside or inside `data`) for a key they have seen, 201 for a new object.
 */
export const writeResult = (
  status: number,
  body: unknown,
): { object: Record<string, unknown>; duplicate: boolean } => {
  const object = unwrapOne(body);
  const duplicate = object.duplicate === true || (status === 200 && object.duplicate !== false);
  const { duplicate: _ignored, ...rest } = object;
  return { object: rest, duplicate };
};
