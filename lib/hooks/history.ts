import type { Bundle, ZObject } from 'zapier-platform-core';
import type { Query } from '../http';
import { languageOf, say } from '../i18n';
import { declareInputs, input, later } from '../inputs';
import type { Key, Order, Place } from './paging';

/**
 * Where a trigger's past objects come from, for Zapier Transfer (performList with `bundle.meta.isBulkRead`): a list
 * of the interface, read oldest first, one page a call, each object presented as a live delivery's.
 */
export interface HistorySource {
  path: string;
  /** Fixed query: the status a status trigger implies, the kind of receipt, low levels only. */
  query?: Query;
  /**
   * `since_id`: the receipts cursor, oldest first in the order receipts reached the server (cashier spec §4 rule 4).
   * Otherwise `?page=1,2…` of a list the interface sorts by the order given, oldest first (appointments by start,
   * invoices by issue time, each then by id; customers by id; stock levels by branch and variant: the sandbox's
   * order, which the specs do not show), paged by that key (lib/hooks/paging.ts).
   */
  paging: 'since_id' | Order;
  /** The object's time an item gives as `occurred_at`: the first of these fields the object has. */
  at: readonly string[];
  /**
   * Keys a live item has that a listed object cannot tell, with their empty values, so an item of the past has the
   * keys of a live one (Invoice Paid's `paid_at`, a status trigger's `previous_status`).
   */
  blank?: Record<string, unknown>;
  /** Objects of the list the trigger does not fire for (New Receipt: the list also holds credit notes). */
  keeps?: (data: Record<string, unknown>) => boolean;
  /**
   * The list's date-range parameters that Transfer From and Transfer Before fill (dates, from inclusive), and the
   * date of an object they compare, in words for their help text.
   */
  range?: { from: string; to: string; by: string };
}

/** The two inputs of a trigger whose history can be limited to dates (only Transfer reads them), and their check. */
const rangeInputs = (by: string) =>
  declareInputs(
    {
      transfer_from: input.date({
        label: 'Transfer From',
        altersDynamicFields: false,
        helpText: `Only used when you move past data with Zapier Transfer: the first ${by} to move (e.g. 2025-01-01). Leave blank to start from the oldest. Live events are not affected.`,
      }),
      transfer_to: input.date({
        label: 'Transfer Before',
        altersDynamicFields: false,
        helpText: `Only used with Zapier Transfer: move what has a ${by} before this day (e.g. 2026-01-01 for everything up to the end of 2025). Leave blank to move everything. Live events are not affected.`,
      }),
    },
    [later('transfer_from', 'transfer_to')],
  );

export const transferRangeFields = (by: string) => rangeInputs(by).fields;

/** The list query of the dates the Zap builder gave, checked before any request. */
export const rangeQuery = (z: ZObject, bundle: Bundle, source: HistorySource): Query => {
  if (!source.range) return {};
  const range = rangeInputs(source.range.by).parse(z, bundle);
  return { [source.range.from]: range.transfer_from, [source.range.to]: range.transfer_to };
};

/**
 * Where the next call of a transfer starts, kept with `z.cursor` between calls: a place in a paged list, a
 * `since_id` of the receipts cursor (null: the start), or done.
 */
export type Position = Place | { since: string | null } | { done: true };

export const startOf = (source: HistorySource): Position =>
  source.paging === 'since_id' ? { since: null } : { at: 0, after: null };

const isKey = (v: unknown): v is Key =>
  Array.isArray(v) && v.length > 0 && v.every((k) => typeof k === 'string' || Number.isFinite(k));

const isPlace = (p: Record<string, unknown>): boolean =>
  Number.isInteger(p.at) &&
  (p.at as number) >= 0 &&
  (p.after === null || isKey(p.after)) &&
  (p.size === undefined || (Number.isInteger(p.size) && (p.size as number) >= 1)) &&
  (p.moved === undefined || (Array.isArray(p.moved) && p.moved.every((id) => typeof id === 'string')));

const isPosition = (v: unknown): v is Position => {
  if (!v || typeof v !== 'object') return false;
  const p = v as Record<string, unknown>;
  return isPlace(p) || p.since === null || typeof p.since === 'string' || p.done === true;
};

/**
 * Where this call starts. Page 0 always starts from the beginning, whatever an earlier transfer left; a later page
 * continues where the last call stopped. Zapier keeps the cursor an hour: without it the place is lost, and the
 * transfer says so rather than start again (every object twice) or stop early (some never).
 */
export const positionOf = async (z: ZObject, bundle: Bundle, source: HistorySource): Promise<Position> => {
  const page = Number(bundle.meta?.page ?? 0);
  if (!page) return startOf(source);
  const saved = await z.cursor.get();
  let position: unknown;
  try {
    position = typeof saved === 'string' ? JSON.parse(saved) : undefined;
  } catch {
    position = undefined;
  }
  if (isPosition(position)) return position;
  throw new z.errors.Error(
    say(languageOf(bundle), {
      en: `Zapier no longer holds where this transfer stopped (page ${page}); it keeps the place for an hour. Start the transfer again.`,
      ar: `لم يعد Zapier يحتفظ بموضع توقف هذا النقل (الصفحة ${page})؛ فهو يحتفظ به ساعة. ابدأ النقل من جديد.`,
    }),
    'transfer_place_lost',
    400,
  );
};

export const savePosition = (z: ZObject, position: Position) => z.cursor.set(JSON.stringify(position));
