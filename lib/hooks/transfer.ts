/**
 * Zapier Transfer: performList in bulk read pages through a trigger's past objects, each presented as a live
 * delivery of it would be. Page-number lists are paged by key (paging.ts); the receipts by their own cursor.
 */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { SETTINGS } from '../config';
import { clientFor } from '../http';
import { languageOf, say } from '../i18n';
import { APIS } from '../interfaces';
import type { HookEvent } from './events';
import type { HookBundle } from './factory';
import { filterQuery, passes } from './filters';
import { positionOf, rangeQuery, savePosition, type HistorySource } from './history';
import { isObject, itemOf } from './item';
import { ListOrderError, readOn } from './paging';

/** A listed object as the item a live delivery of it makes, with what the list cannot tell left empty. */
const historyItem = (def: HookEvent, source: HistorySource, data: Record<string, unknown>) => {
  const at = source.at.map((k) => data[k]).find((v): v is string => typeof v === 'string');
  const item: Record<string, unknown> = itemOf(def, data, '', at);
  item.event_id = `${def.event}:${String(item.id)}`;
  for (const [k, v] of Object.entries(source.blank ?? {})) if (!Object.hasOwn(item, k)) item[k] = v;
  return item;
};

/** What the row's extensions add to a page of Transfer, dropping the items one of them refuses. */
const extendPage = async (
  def: HookEvent,
  z: ZObject,
  bundle: HookBundle,
  items: Array<Record<string, unknown>>,
  listed: boolean,
) => {
  let out: Array<Record<string, unknown> | undefined> = items;
  for (const x of def.extensions ?? []) {
    const present = out.filter((i): i is Record<string, unknown> => !!i);
    out = x.applyPage
      ? await x.applyPage(z, bundle as Bundle, present)
      : await Promise.all(
          present.map((i) =>
            x.apply(z, bundle as Bundle, i, { occurredAt: i.occurred_at as string, listed }),
          ),
        );
  }
  return out.filter((i): i is Record<string, unknown> => !!i);
};

/** The message of a list that does not come in its declared order, or changed faster than a call could follow. */
const listTrouble = (z: ZObject, bundle: HookBundle, def: HookEvent, what: 'order' | 'shifted') => {
  const n = APIS[def.api].name;
  return new z.errors.Error(
    say(
      languageOf(bundle),
      what === 'order'
        ? {
            en: `The ${n.en} interface did not list these objects in the order the app pages by, so the transfer stopped rather than move some twice or not at all. Contact the vendor's support.`,
            ar: `لم ترتب واجهة ${n.ar} هذه العناصر بالترتيب الذي يتصفح به التطبيق، فتوقف النقل كي لا ينقل بعضها مرتين أو لا ينقلها. تواصل مع دعم المزوّد.`,
          }
        : {
            en: `The list changed so much while the transfer ran that finding where it stopped took more than ${SETTINGS.transferReadsPerCall} requests. The place is kept: ask for the next page again.`,
            ar: `تغيّرت القائمة كثيرًا أثناء النقل فاحتاج إيجاد موضع توقفه أكثر من ${SETTINGS.transferReadsPerCall} طلبات. الموضع محفوظ: اطلب الصفحة التالية مرة أخرى.`,
          },
    ),
    what === 'order' ? 'transfer_list_order' : 'transfer_list_shifted',
    what === 'order' ? 502 : 409,
  );
};

/**
 * One page of Zapier Transfer: the next objects of the row's list, oldest first, as live items, then `[]` at the
 * end. One list request a call as a rule (more while filters the list cannot apply leave a page empty, which would
 * end the transfer, or while the list changed under the place); where the next call starts is kept with `z.cursor`.
 */
export const readHistory = async (def: HookEvent, source: HistorySource, z: ZObject, bundle: HookBundle) => {
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
  while (reads < SETTINGS.transferReadsPerCall) {
    if ('done' in position) return [];
    let objects: unknown[];
    if ('at' in position) {
      if (source.paging === 'since_id') throw listTrouble(z, bundle, def, 'order');
      const run = await readOn(
        (page, size) => client.page(source.path, { ...query, page, per_page: size }),
        position,
        source.paging,
        perPage,
        SETTINGS.transferReadsPerCall - reads,
      ).catch((e: unknown) => {
        throw e instanceof ListOrderError ? listTrouble(z, bundle, def, 'order') : e;
      });
      reads += run.reads;
      objects = run.objects;
      position = run.next;
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
      .map((o) => historyItem(def, source, o))
      .filter((i) => passes(def.filters, input, i, { history: true }));
    const kept = await extendPage(def, z, bundle, items, Object.keys(narrowed).length > 0);
    if (kept.length) {
      await savePosition(z, position);
      return kept;
    }
  }
  if ('done' in position) return [];
  // Saved, so a call Zapier makes again goes on from here.
  await savePosition(z, position);
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
