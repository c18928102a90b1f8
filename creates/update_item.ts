import { defineCreate } from 'zapier-platform-core';
import { unwrapOne } from '../lib/http';
import { choicesOf } from '../lib/dropdowns';
import { LIST } from '../lib/dropdown-lists';
import { declareInputs, input, type Parsed } from '../lib/inputs';
import type { ApiClient } from '../lib/http';
import { itemHolds, mergeVariants, type ItemWrite, type VariantWrite } from '../lib/catalogue-items';
import { CREATE, SEARCH, searchRef } from '../lib/keys';
import { holdLock, writeLock } from '../lib/locks';
import { performOn } from '../lib/operation';
import { path } from '../lib/path';
import { item } from '../lib/resources/cashier';
import { existingVariantsInput, itemInputs } from './item_fields';
import { throttleOf } from '../lib/throttle';
import { hostOf, type HostWords } from '../lib/host';

const inputs = declareInputs(
  {
    item_id: input.positiveInt({
      label: 'Item',
      helpText: 'Choose the item, or map one found by the Find Item step (by SKU or barcode).',
      placeholder: '311',
      ...choicesOf(LIST.items),
      search: searchRef(SEARCH.findItem),
      required: true,
    }),
    ...itemInputs(false),
    variants: existingVariantsInput(
      'Only rows you give are changed or added; leave empty to keep the variants as they are.',
    ),
    variants_mode: input.choice(
      { merge: 'Keep them', replace: 'Remove them' },
      {
        label: 'Other Variants',
        helpText:
          'What happens to stored variants you did not list in Variants, e.g. Keep them (the safe default), or Remove them so the item has exactly the variants listed.',
        default: 'merge',
      },
    ),
  },
  [
    {
      ok: (i) =>
        [i.name_ar, i.name_en, i.category_id, i.default_price_sar].some((v) => v !== undefined) ||
        (i.variants ?? []).some((v) => Object.values(v).some((x) => x !== undefined)),
      message: { en: 'give at least one field to change', ar: 'أدخل حقلًا واحدًا على الأقل لتغييره' },
      // The fix is in the change fields, not the Item: the message names them.
      at: ['name_ar', 'name_en', 'category_id', 'default_price_sar', 'variants'],
    },
  ],
);

/** The step fails, changing nothing, when another run holds the item past the wait; Zapier replays action steps. */
const busy = (id: number, words: HostWords) => ({
  en: `Another Update Item run is changing item ${id} right now, so this run changed nothing; replayed, this step reads the item as that run left it and makes this change. ${words.autoReplay.en} ${words.replayRun.en}`,
  ar: `يعدّل تشغيلٌ آخر لخطوة Update Item الصنف ${id} الآن، فلم يغيّر هذا التشغيل شيئًا؛ وعند إعادة تشغيل هذه الخطوة تقرأ الصنف كما تركه ذلك التشغيل وتجري هذا التغيير. ${words.autoReplay.ar} ${words.replayRun.ar}`,
});

/*
 * The item is read first, always, and right before the write: the variants are merged into what is stored (PUT
 * replaces arrays), and an update the item already holds (a replay whose first run went through, answer lost or
 * not) is not sent again. A replayed row without id is matched to the variant the first run made (by SKU, barcode,
 * or Arabic name and price: lib/catalogue-items.ts), so it is never added twice. Two locks keep two runs from
 * reading the same variants and each writing back its own, which would delete the other's new variant: Zapier's,
 * on the item id as typed, and the app's own in z.cache, on the item id as the interface knows it (lib/locks.ts).
 * Neither can hold off an edit made elsewhere between the read and the write (docs/assumptions.md).
 */
const update = async (input: Parsed<typeof inputs.declared>, client: ApiClient) => {
  const given = (input.variants ?? []).filter((v) => Object.values(v).some((x) => x !== undefined));
  const stored = unwrapOne(await client.get(path`/items/${input.item_id}`));
  const { item_id: _id, variants: _rows, variants_mode: _mode, ...scalars } = inputs.request(input);
  const body = scalars as ItemWrite;
  // Arrays replace what is stored (spec §4 rule 1): send one only when the user gave rows, keeping stored ids so
  // none is deleted by accident.
  if (given.length) {
    const variants = Array.isArray(stored.variants) ? stored.variants : [];
    body.variants = mergeVariants(variants, given, input.variants_mode ?? 'merge') as VariantWrite[];
  }
  const adds = body.variants?.some((v) => v.id === undefined) ?? false;
  if (!adds && itemHolds(stored, body)) return { ...item.present(stored), duplicate: true };
  const { body: answer } = await client.put(path`/items/${input.item_id}`, body);
  return { ...item.present(unwrapOne(answer)), duplicate: false };
};

// The lock is keyed by the id as parsed, as the interface knows it: 311, " 311" and "0311" are one item.
export const performUpdateItem = performOn('cashier', inputs, (z, bundle, input, client) =>
  holdLock(
    z,
    bundle,
    { action: CREATE.updateItem, id: input.item_id, busy: busy(input.item_id, hostOf(bundle).words) },
    () => update(input, client),
  ),
);

export const updateItem = defineCreate({
  key: CREATE.updateItem,
  noun: 'Item',
  display: {
    label: 'Update Item',
    description:
      'Updates a catalogue item’s names, category, price or variants; variants you do not mention are kept unless you ask to remove them. Use it to keep prices and variants in step with another system. Returns the item as stored after the change.',
  },
  operation: {
    throttle: throttleOf(performUpdateItem),
    inputFields: inputs.fields,
    perform: performUpdateItem,
    lock: writeLock(CREATE.updateItem, 'item_id'),
    sample: { ...item.sample, duplicate: false },
    outputFields: [
      {
        key: 'duplicate',
        label: 'Already Up to Date (Replayed Step, Nothing Changed)',
        type: 'boolean',
      },
      ...item.outputFields,
    ],
  },
});
