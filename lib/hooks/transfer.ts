/**
 * Zapier Transfer: performList in bulk read pages through a trigger's past objects, each made into the item a live
 * delivery of it would make. Page-number lists are paged by key (paging.ts); the receipts by their own cursor. Where
 * the next call starts is kept with `z.cursor`.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { SETTINGS } from '../config';
import { clientFor, type Query } from '../http';
import { saudiTime } from '../time';
import { languageOf, say } from '../i18n';
import { declareInputs, input, later } from '../inputs';
import { APIS } from '../partner-apis';
import { filterQuery, passes } from './filters';
import { extendPage, isObject, itemOf } from './item';
import {
  ListOrderError,
  ListTooLongError,
  MEMO_CHARS,
  MemoryFullError,
  MOVED_REMEMBERED,
  readOn,
  type Key,
  type Place,
} from './paging';
import type { HookBundle, HookEvent, Item, TransferSource } from './types';

/** The two inputs of a trigger whose Transfer can be limited to dates (only Transfer reads them), and their check. */
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
const rangeQuery = (z: ZObject, bundle: Bundle, source: TransferSource): Query => {
  if (!source.range) return {};
  const range = rangeInputs(source.range.by).parse(z, bundle);
  return { [source.range.from]: range.transfer_from, [source.range.to]: range.transfer_to };
};

/**
 * Where the next call of a transfer starts, kept with `z.cursor` between calls: a place in a paged list, a
 * `since_id` of the receipts cursor (null: the start), or done.
 */
type Paged = Place & { began?: number; recheck?: number };
type Position = Paged | { since: string | null } | { done: true };

/**
 * A paged list's place also keeps when the transfer began (Zapier's clock, ms) and, once the list has ended, which
 * of its recheck lists is being read (TransferSource.recheck).
 */
const startOf = (source: TransferSource): Position =>
  source.paging === 'since_id' ? { since: null } : { at: 0, after: null, began: Date.now() };

const isKey = (v: unknown): v is Key =>
  Array.isArray(v) && v.length > 0 && v.every((k) => typeof k === 'string' || Number.isFinite(k));

const isPlace = (p: Record<string, unknown>): boolean =>
  Number.isInteger(p.at) &&
  (p.at as number) >= 0 &&
  (p.after === null || isKey(p.after)) &&
  (p.size === undefined || (Number.isInteger(p.size) && (p.size as number) >= 1)) &&
  (p.fixed === undefined || (Number.isInteger(p.fixed) && (p.fixed as number) >= 1)) &&
  (p.moved === undefined || (typeof p.moved === 'string' && p.moved.length % MEMO_CHARS === 0)) &&
  (p.began === undefined || Number.isFinite(p.began)) &&
  (p.recheck === undefined || (Number.isInteger(p.recheck) && (p.recheck as number) >= 0));

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
const positionOf = async (z: ZObject, bundle: Bundle, source: TransferSource): Promise<Position> => {
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

const savePosition = (z: ZObject, position: Position) => z.cursor.set(JSON.stringify(position));

/** A listed object as the item a live delivery of it makes; its own time as `occurred_at`. */
const transferItem = (def: HookEvent, source: TransferSource, data: Item) =>
  itemOf(
    def,
    data,
    { occurredAt: source.at.map((k) => data[k]).find((v): v is string => typeof v === 'string') },
    { transfer: true },
  );

type Trouble = 'order' | 'shifted' | 'long' | 'memory' | 'recheck';

const TROUBLE_CODES: Record<Trouble, [string, number]> = {
  order: ['transfer_list_order', 502],
  shifted: ['transfer_list_shifted', 409],
  long: ['transfer_list_too_long', 400],
  memory: ['transfer_too_many_movable', 400],
  recheck: ['transfer_recheck_continues', 409],
};

/**
 * The message of a list that does not come in its declared order, changed faster than a call could follow, is too
 * long to read whole (its order not shown), or moved more objects that can still move than the place remembers.
 */
const listTrouble = (z: ZObject, bundle: HookBundle, def: HookEvent, what: Trouble) => {
  const n = APIS[def.api].name;
  const words = {
    order: {
      en: `The ${n.en} interface did not list these objects in the order the app pages by, so the transfer stopped rather than move some twice or not at all. Contact the vendor's support.`,
      ar: `لم ترتب واجهة ${n.ar} هذه العناصر بالترتيب الذي يتصفح به التطبيق، فتوقف النقل كي لا ينقل بعضها مرتين أو لا ينقلها. تواصل مع دعم المزوّد.`,
    },
    shifted: {
      en: `The list changed so much while the transfer ran that finding where it stopped took more than ${SETTINGS.transferReadsPerCall} requests. The place is kept: ask for the next page again.`,
      ar: `تغيّرت القائمة كثيرًا أثناء النقل فاحتاج إيجاد موضع توقفه أكثر من ${SETTINGS.transferReadsPerCall} طلبات. الموضع محفوظ: اطلب الصفحة التالية مرة أخرى.`,
    },
    long: {
      en: `The ${n.en} interface does not say in which order it lists these objects, so each transfer step reads the list whole and sorts it; it holds more than ${SETTINGS.transferWholeListPages} pages. Choose a Branch to narrow it, then start the transfer again.`,
      ar: `لا تذكر واجهة ${n.ar} ترتيب هذه العناصر، فتقرأ كل خطوة من النقل القائمة كاملة وترتبها؛ وهي أطول من ${SETTINGS.transferWholeListPages} صفحة. اختر فرعًا لتضييقها، ثم ابدأ النقل من جديد.`,
    },
    memory: {
      en: `This transfer moved more than ${MOVED_REMEMBERED.toLocaleString('en')} appointments that can still be rescheduled, more than it can remember to never move one twice. Limit it with Transfer From and Transfer Before (for example a year at a time) and start again.`,
      ar: `نقل هذا النقل أكثر من ${MOVED_REMEMBERED} موعد يمكن أن يُعاد جدولتها، وهذا أكثر مما يستطيع تذكره كي لا ينقل موعدًا مرتين. حدّده بتاريخَي Transfer From وTransfer Before (سنة في كل مرة مثلًا) ثم ابدأ من جديد.`,
    },
    recheck: {
      en: `Every object was moved; the transfer is now checking the upcoming appointments for any rescheduled while it ran, and ${SETTINGS.transferRecheckReadsPerCall} requests were not enough. The place is kept: ask for the next page again.`,
      ar: `نُقلت كل العناصر؛ ويفحص النقل الآن المواعيد القادمة بحثًا عن أي موعد أعيدت جدولته أثناءه، ولم تكفِ ${SETTINGS.transferRecheckReadsPerCall} طلبًا. الموضع محفوظ: اطلب الصفحة التالية مرة أخرى.`,
    },
  }[what];
  const [code, status] = TROUBLE_CODES[what];
  return new z.errors.Error(say(languageOf(bundle), words), code, status);
};

const DAY_MS = 86_400_000;

/**
 * The queries of the lists read again after the list's end (TransferSource.recheck): one a status the list may hold,
 * from the day before the transfer began (Riyadh), since a clinic reschedules to today or later.
 */
const recheckQueries = (source: TransferSource, query: Query, began: number): Query[] => {
  const { recheck, range } = source;
  if (!recheck) return [];
  const asked = query.status === undefined ? undefined : String(query.status);
  const statuses = asked === undefined ? recheck.statuses : recheck.statuses.filter((s) => s === asked);
  const day = saudiTime(new Date(began - DAY_MS)).slice(0, 10);
  const given = range && typeof query[range.from] === 'string' ? (query[range.from] as string) : '';
  const from = range ? { [range.from]: given > day ? given : day } : {};
  return statuses.map((status) => ({ ...query, ...from, status }));
};

/** On a recheck list, only what changed since the transfer began, and was made before it (a new one has its event). */
const rechecked = (source: TransferSource, began: number) => (o: Record<string, unknown>) => {
  const { changed, created } = source.recheck!;
  const skew = SETTINGS.transferClockSkewSeconds * 1000;
  return Date.parse(String(o[changed])) >= began - skew && Date.parse(String(o[created])) < began - skew;
};

/**
 * One page of Zapier Transfer: the next objects of the row's list, oldest first, as live items, then `[]` at the
 * end. One list request a call as a rule (more while filters the list cannot apply leave a page empty, which would
 * end the transfer, or while the list changed under the place; a list read whole, its order not shown, takes its
 * pages); after the list's end, the row's recheck lists look for objects that moved behind the place meanwhile.
 * Where the next call starts is kept with `z.cursor`.
 */
export const readTransferPage = async (
  def: HookEvent,
  source: TransferSource,
  z: ZObject,
  bundle: HookBundle,
) => {
  const input = bundle.inputData ?? {};
  const narrowed = Object.assign({}, ...(def.extensions ?? []).map((x) => x.listQuery?.(input) ?? {}));
  const query = {
    ...rangeQuery(z, bundle as Bundle, source),
    ...filterQuery(def.filters, input),
    ...narrowed,
    ...source.query,
  };
  const perPage = Math.min(
    SETTINGS.transferPageSize,
    ...(def.extensions ?? []).map((x) => x.transferPageSize?.(input) ?? SETTINGS.transferPageSize),
  );
  const client = clientFor(z, bundle, def.api);
  let position = await positionOf(z, bundle as Bundle, source);
  let reads = 0;
  let scanned = 0;
  const rechecking = () => 'at' in position && position.recheck !== undefined;
  const budget = () => (rechecking() ? SETTINGS.transferRecheckReadsPerCall : SETTINGS.transferReadsPerCall);
  while (reads < budget()) {
    if ('done' in position) return [];
    let objects: unknown[];
    if ('at' in position) {
      if (source.paging === 'since_id') throw listTrouble(z, bundle, def, 'order');
      const { began = Date.now(), recheck } = position;
      const rechecks = recheckQueries(source, query, began);
      const listQuery = recheck === undefined ? query : rechecks[recheck]!;
      const run = await readOn(
        (page, size) => client.page(source.path, { ...listQuery, page, per_page: size }),
        position,
        source.paging,
        perPage,
        source.paging.unordered ? SETTINGS.transferWholeListPages : budget() - reads,
      ).catch((e: unknown) => {
        if (e instanceof ListOrderError) throw listTrouble(z, bundle, def, 'order');
        if (e instanceof ListTooLongError) throw listTrouble(z, bundle, def, 'long');
        if (e instanceof MemoryFullError) throw listTrouble(z, bundle, def, 'memory');
        throw e;
      });
      reads += run.reads;
      objects = recheck === undefined ? run.objects : run.objects.filter(rechecked(source, began));
      const next = (recheck ?? -1) + 1;
      position =
        'done' in run.next && next < rechecks.length
          ? { at: 0, after: null, began, recheck: next, ...(run.next.moved ? { moved: run.next.moved } : {}) }
          : {
              ...run.next,
              ...('done' in run.next ? {} : { began, ...(recheck === undefined ? {} : { recheck }) }),
            };
    } else {
      const { data, meta } = await client.page(source.path, {
        ...query,
        since_id: position.since,
        per_page: perPage,
      });
      reads += 1;
      const next = typeof meta.next_since_id === 'string' ? meta.next_since_id : position.since;
      objects = data;
      position = meta.has_more === true && next !== position.since ? { since: next } : { done: true };
    }
    scanned += objects.length;
    const items = objects
      .filter(isObject)
      .filter((o) => !source.keeps || source.keeps(o))
      .map((o) => transferItem(def, source, o))
      .filter((i) => passes(def.filters, input, i, { transfer: true }));
    const kept = await extendPage(def, z, bundle, items, Object.keys(narrowed).length > 0);
    if (kept.length) {
      await savePosition(z, position);
      return kept;
    }
  }
  if ('done' in position) return [];
  // Saved, so a call Zapier makes again goes on from here.
  await savePosition(z, position);
  if (rechecking()) throw listTrouble(z, bundle, def, 'recheck');
  if (!scanned) throw listTrouble(z, bundle, def, 'shifted');
  throw new z.errors.Error(
    say(languageOf(bundle), {
      en: `None of the next ${scanned} objects passed this Zap's filters, so the transfer stopped here. ${source.range ? 'Limit it with Transfer From and Transfer Before, or clear a filter,' : 'Clear a filter'} and start again.`,
      ar: `لم يجتز أيٌّ من العناصر الـ${scanned} التالية مرشحات هذا الزاب، فتوقف النقل هنا. ${source.range ? 'حدّده بتاريخَي Transfer From وTransfer Before أو أزل مرشحًا،' : 'أزل مرشحًا'} ثم ابدأ من جديد.`,
    }),
    'transfer_filtered_out',
    400,
  );
};
