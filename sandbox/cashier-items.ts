/** Items and their variants as the cashier creates and updates them (cashier spec §4 rules 1 and 2). */
import { Checker, idParam, byId, refuse, type Lang } from './errors';
import { isoLocal } from './ids';
import type { CashierData, Item, Variant } from './store/types';
import { newStockLevel } from './store/records';
import { body, op, S, type BodyOf } from './validate';
import * as view from './cashier-views';
import { matchVariant } from './store/money';
import type { OpContext, World } from './world';

const VARIANT = S.object({
  id: S.int(),
  name_ar: S.str(200),
  sku: S.nullable(S.str(64)),
  barcode: S.nullable(S.str(64)),
  price_halalas: S.int({ min: 0 }),
  is_default: S.bool,
});

const ITEM = {
  name_ar: S.str(200),
  name_en: S.str(200),
  category_id: S.int(),
  default_price_halalas: S.int({ min: 0 }),
  variants: S.array(VARIANT),
  modifier_group_ids: S.array(S.int()),
  combo_slots: S.array({ type: 'object' }),
};

/** ItemWrite for POST /items and PUT /items/{id} (where name_en: null clears it and name_ar cannot be null). */
const ITEM_CREATE = body(ITEM, ['name_ar', 'category_id']);
const ITEM_UPDATE = body({ ...ITEM, name_ar: S.nullable(S.str(200)), name_en: S.nullable(S.str(200)) });
type ItemWrite = BodyOf<typeof ITEM_UPDATE>;
type VariantRow = NonNullable<ItemWrite['variants']>[number];

/** The variants `rows` make of the item's: a new one is named as the item unless it says; an empty sku is none. */
const readVariants = (cashier: CashierData, item: Item, rows: VariantRow[], name: string, c: Checker) => {
  if (!rows.length) c.add('variants', 'required');
  let nextId = cashier.counters.variant;
  const variants: Variant[] = rows.map((row, i) => {
    const stored = item.variants.find((v) => v.id === row.id);
    if (row.id !== undefined && !stored)
      c.add(`variants[${i}].id`, matchVariant(cashier, { variantId: row.id }) ? 'not_this_item' : 'unknown');
    if (row.price_halalas === undefined && !stored) c.add(`variants[${i}].price_halalas`, 'required');
    const given: Partial<Variant> = Object.fromEntries(
      Object.entries(row).filter(([k]) => k in VARIANT.properties),
    );
    for (const key of ['sku', 'barcode'] as const) if (key in row) given[key] = row[key] || null;
    if (stored) return { ...stored, ...given, id: stored.id };
    nextId += 1;
    const fresh = { name_ar: name, sku: null, barcode: null, price_halalas: 0, is_default: false };
    return { ...fresh, ...given, id: nextId };
  });
  const others = cashier.items.filter((i) => i.id !== item.id).flatMap((i) => i.variants);
  variants.forEach((v, i) => {
    for (const key of ['sku', 'barcode'] as const) {
      const taken = [...others, ...variants.slice(0, i)].some((o) => o[key] === v[key]);
      if (v[key] !== null && taken) c.add(`variants[${i}].${key}`, 'taken');
    }
  });
  const defaults = variants.filter((v) => v.is_default);
  if (defaults.length > 1) c.add('variants', 'one_default');
  if (!defaults.length && variants[0]) variants[0].is_default = true;
  return variants;
};

/** POST /items and PUT /items/{id}: an empty name is no change; deleted variants take their stock rows along. */
const writeItem = (world: World, lang: Lang, item: Item, b: ItemWrite) => {
  const cashier = world.store.cashier;
  const c = new Checker(lang);
  if (b.name_ar === null) c.add('name_ar', 'required');
  if (b.category_id !== undefined && !cashier.categories.some((x) => x.id === b.category_id))
    c.add('category_id', 'unknown');
  const variants = b.variants && readVariants(cashier, item, b.variants, b.name_ar || item.name_ar, c);
  c.done();

  if (b.name_ar) item.name_ar = b.name_ar;
  if (b.name_en !== undefined && b.name_en !== '') item.name_en = b.name_en;
  if (b.category_id !== undefined) item.category_id = b.category_id;
  if (b.default_price_halalas !== undefined) item.default_price_halalas = b.default_price_halalas;
  if (variants) {
    const gone = item.variants.filter((v) => !variants.some((n) => n.id === v.id)).map((v) => v.id);
    const created = variants.filter((v) => !item.variants.some((s) => s.id === v.id));
    const at = isoLocal(world.clock.now());
    cashier.stock = cashier.stock.filter((s) => !gone.includes(s.variant_id));
    for (const { id } of cashier.branches) {
      for (const v of created)
        cashier.stock.push(newStockLevel({ branch_id: id, variant_id: v.id, updated_at: at }));
    }
    cashier.counters.variant = Math.max(cashier.counters.variant, ...created.map((v) => v.id));
    item.variants = variants;
  }
  if (b.modifier_group_ids) item.modifier_group_ids = b.modifier_group_ids;
  if (b.combo_slots)
    item.combo_slots = b.combo_slots.map((s) => ({ ...s, id: Number(s.id ?? ++cashier.counters.comboSlot) }));
  item.updated_at = isoLocal(world.clock.now());
  return item;
};

/** POST /items: without variants, one default variant at default_price_halalas (then required). */
export const createItem = op(ITEM_CREATE, ({ world, lang }: OpContext, b) => {
  const cashier = world.store.cashier;
  const price = b.default_price_halalas;
  if (!b.variants?.length && price === undefined) throw refuse(lang, 'default_price_halalas', 'required');
  const at = isoLocal(world.clock.now());
  const item: Item = {
    id: cashier.counters.item + 1,
    name_ar: b.name_ar,
    name_en: null,
    category_id: b.category_id,
    default_price_halalas: 0,
    variants: [],
    modifier_group_ids: [],
    combo_slots: [],
    created_at: at,
    updated_at: at,
  };
  const variants = b.variants ?? [{ price_halalas: price, is_default: true }];
  writeItem(world, lang, item, { ...b, variants });
  item.default_price_halalas = price ?? item.variants.find((v) => v.is_default)?.price_halalas ?? 0;
  cashier.counters.item = item.id;
  cashier.items.push(item);
  return { data: view.item(item) };
});

export const updateItem = op(ITEM_UPDATE, ({ world, lang, params }: OpContext, b) => ({
  data: view.item(writeItem(world, lang, byId(world.store.cashier.items, idParam(params.id)), b)),
}));
