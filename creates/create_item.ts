import { defineCreate } from 'zapier-platform-core';
import { unwrapOne } from '../lib/http';
import { declareInputs } from '../lib/inputs';
import { fingerprint } from '../lib/idempotency';
import { itemHolds, toVariantWrite, type ItemWrite } from '../lib/catalogue-items';
import { CREATE } from '../lib/keys';
import { performOn } from '../lib/operation';
import { path } from '../lib/path';
import { writeMemory } from '../lib/write-memory';
import { SETTINGS } from '../lib/config';
import { writeLock } from '../lib/locks';
import { languageOf, say } from '../lib/i18n';
import { saudiTime } from '../lib/time';
import { item } from '../lib/resources/cashier';
import { itemInputs, variantsInput } from './item_fields';
import { throttleOf } from '../lib/throttle';

const inputs = declareInputs(
  {
    ...itemInputs(true),
    variants: variantsInput(
      'One row per size or flavour; leave empty for a single default variant at the Default Price. SKUs and barcodes must be unique in the account.',
    ),
  },
  [
    {
      ok: (i) =>
        i.default_price_sar !== undefined || (i.variants ?? []).some((v) => v.price_sar !== undefined),
      message: {
        en: 'give a Default Price or a Price on at least one Variant',
        ar: 'أدخل السعر الافتراضي أو سعرًا لصنف فرعي واحد على الأقل',
      },
      at: 'default_price_sar',
    },
  ],
);

/*
 * The cashier has no idempotency key for items, so a step replayed after a lost answer (time-out, Zapier's
 * autoreplay) must find what its first run made instead of creating the item again (docs/assumptions.md):
 *
 * - With a SKU or barcode: SKUs and barcodes are unique per account (spec §2), so `GET /items?sku=…` (or
 *   `?barcode=…`) is asked before every create. An item holding it and everything else the step gives is the
 *   earlier run's: it is answered, marked duplicate. This needs nothing remembered, so it holds when z.cache is
 *   down, for replays by hand days later, and whatever Zap made the item.
 * - Without either: nothing in the item is unique. The step keeps a record in z.cache, keyed by a hash of the Zap
 *   id and the normalised inputs, written "pending" as the request is made and "done" with the id once answered.
 *   A run whose request ends without an answer it can read (a time-out, a cut connection) rewrites it
 *   "unanswered" before it fails. A replay that finds it done answers that item; one that finds it unanswered, or
 *   pending and older than any run lasts (the run died before it could say), looks for an item changed since that
 *   moment (`updated_since`) holding everything the step gives, and creates only when there is none. A cache that cannot be read or written never stops the write (fail open): such a replay can
 *   then create a second item, the one case no lookup can rule out without a unique key.
 *
 * Identical runs at the same moment (a Zap triggered twice) are serialised by Zapier's lock on the Arabic name,
 * the one input every run must give. Should two meet all the same (the lock lapsed, or Zapier ran them unlocked),
 * only the run whose nx claim wins may POST: the other waits briefly for that run's item and answers it, or fails
 * saying a replay is safe. A pending record younger than any run can last is such a run still waiting for its
 * answer, never a lost one to look past.
 */
const BUSY = {
  en: 'An identical Create Item run is making this item right now, so this run did not make it again. Replay this step in a minute: it then answers the item the other run made, or makes the item if that run failed, and never makes a second one.',
  ar: 'يُنشئ تشغيلٌ مطابق لخطوة Create Item هذا الصنف الآن، فلم يُنشئه هذا التشغيل مرة أخرى. أعد تشغيل هذه الخطوة بعد دقيقة: فتعيد الصنف الذي أنشأه التشغيل الآخر، أو تنشئه إن فشل ذلك التشغيل، ولا تنشئ صنفًا ثانيًا أبدًا.',
};

export const performCreateItem = performOn('cashier', inputs, async (z, bundle, input, client) => {
  const { variants: _rows, ...scalars } = inputs.request(input);
  const variants = (input.variants ?? []).filter((v) => Object.values(v).some((x) => x !== undefined));
  // Rows become ItemWrite variants as Update Item writes them (lib/catalogue-items.ts); a new item's rows name no stored id.
  const body: ItemWrite = {
    ...(scalars as ItemWrite),
    ...(variants.length ? { variants: variants.map((v) => toVariantWrite(v)) } : {}),
  };
  const result = (found: Record<string, unknown>, duplicate: boolean) => ({
    ...item.present(found),
    duplicate,
  });
  const create = async () => unwrapOne((await client.post('/items', body)).body);

  const unique = body.variants?.find((v) => v.sku !== undefined || v.barcode !== undefined);
  if (unique) {
    const query = unique.sku !== undefined ? { sku: unique.sku } : { barcode: unique.barcode };
    const { data } = await client.page<Record<string, unknown>>('/items', { ...query, per_page: 10 });
    const earlier = data.find((i) => itemHolds(i, body));
    return earlier ? result(earlier, true) : result(await create(), false);
  }

  const memory = writeMemory(z);
  const key = `create_item:${fingerprint(bundle.meta?.zap?.id, body as Record<string, unknown>)}`;
  const recalled = await memory.recall(key);
  const record = recalled === 'unavailable' ? undefined : recalled;
  // An identical run claimed the create first: its item is this step's answer; a second POST, a second item.
  const madeByOther = async () => {
    const done = await memory.awaitDone(key, record);
    const made = done && (await client.find(path`/items/${done.id}`));
    if (made) return result(made, true);
    throw new z.errors.Error(say(languageOf(bundle), BUSY), 'item_create_in_progress', 409);
  };
  if (record?.state === 'done') {
    // Deleted since: the catalogue lacks the item the step is for, so it is made again.
    const earlier = await client.find(path`/items/${record.id}`);
    if (earlier) return result(earlier, true);
  }
  // A pending record is a run that may still be waiting for its answer, unless it is older than any run lasts; an
  // unanswered one is a run that has ended: what it made (if anything) is looked for at once.
  if (record?.state === 'pending' || record?.state === 'unanswered') {
    const young = Date.now() - Date.parse(record.at) < SETTINGS.writeInFlightSeconds * 1000;
    if (record.state === 'pending' && young) return madeByOther();
    const since = new Date(Date.parse(record.at) - SETTINGS.writeLookBackSeconds * 1000);
    const recent = await client.all<Record<string, unknown>>(
      '/items',
      { updated_since: saudiTime(since) },
      SETTINGS.writeLookBackMaxItems,
    );
    const earlier = recent.find((i) => itemHolds(i, body));
    if (earlier) {
      if (typeof earlier.id === 'number') {
        await memory.remember(key, { state: 'done', at: record.at, id: earlier.id });
      }
      return result(earlier, true);
    }
  }
  // A cache that could not be read is not asked to claim either: the write goes ahead (fail open).
  if (recalled !== 'unavailable' && (await memory.claim(key, record)) === 'lost') return madeByOther();
  const at = new Date().toISOString();
  await memory.remember(key, { state: 'pending', at });
  let created: Record<string, unknown>;
  try {
    created = await create();
  } catch (error) {
    // This run is over without an answer it could read: a replay must look for the item, not wait for this run.
    await memory.remember(key, { state: 'unanswered', at });
    throw error;
  }
  if (typeof created.id === 'number' || typeof created.id === 'string') {
    await memory.remember(key, { state: 'done', at, id: created.id });
  }
  return result(created, false);
});

export const createItem = defineCreate({
  key: CREATE.createItem,
  noun: 'Item',
  display: {
    label: 'Create Item',
    description:
      'Creates a catalogue item with its variants (sizes, SKUs, barcodes, prices) for the tills. Use it to add products from a supplier sheet or another shop system; pair it with Find Item (Find or Create Item) to add only what is missing. Returns the item with its variants and their PLU codes.',
  },
  operation: {
    throttle: throttleOf(performCreateItem),
    inputFields: inputs.fields,
    perform: performCreateItem,
    lock: writeLock(CREATE.createItem, 'name_ar'),
    sample: { ...item.sample, duplicate: false },
    outputFields: [
      { key: 'duplicate', label: 'Already Created Before (Replayed Step Found Its Item)', type: 'boolean' },
      ...item.outputFields,
    ],
  },
});
