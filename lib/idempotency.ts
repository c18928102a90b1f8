import { createHash } from 'node:crypto';
import { unwrapOne } from './http';

/**
 * A booking reference derived from the Zap and the booking's identifying inputs, for bookings whose Zap gives
 * none: a replayed or retried step derives the same reference, and the clinic answers the existing appointment.
 * The time is compared as an instant, so "10:30+03:00" and "07:30Z" are the same booking.
 */
export const derivedBookingRef = (
  zapId: string | undefined,
  parts: Record<string, string | number | undefined>,
): string => {
  const canonical = JSON.stringify([
    zapId ?? 'no-zap',
    ...Object.keys(parts)
      .sort()
      .map((k) => [k, parts[k] ?? null]),
  ]);
  return `zap-${createHash('sha256').update(canonical).digest('hex').slice(0, 32)}`;
};

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
