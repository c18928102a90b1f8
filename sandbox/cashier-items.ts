/**
 * Items and their variants as the cashier creates and updates them (cashier spec §4 rules 1 and 2): variant rows,
 * unique PLU/SKU/barcode, one default variant, combo slots, modifier groups, and the stock rows of new variants.
 */
import { Checker, idParam, byId, refuse, type Lang } from './errors';
import { isoLocal } from './ids';
import type { CashierData, ComboSlot, Item, Variant } from './store/types';
import { newStockLevel } from './store/records';
import { body, op, S, type BodyOf } from './validate';
import { itemView } from './cashier-views';
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
const ITEM_UPDATE = body({
  ...ITEM,
  name_ar: S.nullable(S.str(200)),
  name_en: S.nullable(S.str(200)),
});

type VariantRow = Partial<Variant> & { id?: number };

/** Variant rows as the schema passed them; an empty sku or barcode is none. */
const readVariantRows = (cashier: CashierData, rows: VariantRow[], c: Checker, item: Item) =>
  rows.map((row, i) => {
    const stored = row.id === undefined ? undefined : item.variants.find((v) => v.id === row.id);
    if (row.id !== undefined && !stored) {
      const elsewhere = matchVariant(cashier, { variantId: row.id });
      c.add(`variants[${i}].id`, elsewhere ? 'not_this_item' : 'unknown');
    }
    if (row.price_halalas === undefined && !stored) c.add(`variants[${i}].price_halalas`, 'required');
    const v = Object.fromEntries(Object.entries(row).filter(([k]) => k in VARIANT.properties)) as VariantRow;
    for (const key of ['sku', 'barcode'] as const) if (key in row) v[key] = row[key] || null;
    return v;
  });

const checkUnique = (cashier: CashierData, variants: Variant[], itemId: number | null, c: Checker) => {
  const others = cashier.items.filter((i) => i.id !== itemId).flatMap((i) => i.variants);
  const seen = { sku: new Set<string>(), barcode: new Set<string>() };
  variants.forEach((v, i) => {
    for (const key of ['sku', 'barcode'] as const) {
      const value = v[key];
      if (value === null) continue;
      if (seen[key].has(value) || others.some((o) => o[key] === value))
        c.add(`variants[${i}].${key}`, 'taken');
      seen[key].add(value);
    }
  });
};

const settleDefault = (variants: Variant[], c: Checker) => {
  const defaults = variants.filter((v) => v.is_default);
  if (defaults.length > 1) c.add('variants', 'one_default');
  const first = variants[0];
  if (!defaults.length && first) first.is_default = true;
};

const readComboSlots = (
  cashier: CashierData,
  rows: Array<Record<string, unknown>>,
  stored: ComboSlot[],
  c: Checker,
): ComboSlot[] =>
  rows.map((row, i) => {
    if (row.id === undefined) {
      cashier.counters.comboSlot += 1;
      return { ...row, id: cashier.counters.comboSlot };
    }
    if (!stored.some((s) => s.id === row.id)) c.add(`combo_slots[${i}].id`, 'unknown');
    return { ...row, id: Number(row.id) };
  });

const addStockRows = (world: World, variants: Variant[]) => {
  const cashier = world.store.cashier;
  const at = isoLocal(world.clock.now());
  for (const b of cashier.branches) {
    for (const v of variants)
      cashier.stock.push(newStockLevel({ branch_id: b.id, variant_id: v.id, updated_at: at }));
  }
};

type ItemWrite = BodyOf<typeof ITEM_UPDATE>;

/**
 * POST /items and PUT /items/{id}: scalars present are set; arrays present (variants, modifier_group_ids,
 * combo_slots) replace what is stored (rows without id are created, stored ids missing from the array are
 * deleted with their stock rows); arrays absent are untouched. An empty name is no change; name_ar cannot be
 * cleared, name_en can (null).
 */
const writeItem = (world: World, lang: Lang, item: Item, b: ItemWrite) => {
  const cashier = world.store.cashier;
  const { category_id: categoryId, default_price_halalas: price } = b;
  const c = new Checker(lang);
  const nameAr = b.name_ar === '' ? undefined : b.name_ar;
  if (nameAr === null) c.add('name_ar', 'required');
  const nameEn = b.name_en === '' ? undefined : b.name_en;
  if (categoryId !== undefined && !cashier.categories.some((x) => x.id === categoryId)) {
    c.add('category_id', 'unknown');
  }
  let variants: Variant[] | undefined;
  if (b.variants) {
    if (!b.variants.length) c.add('variants', 'required');
    const rows = readVariantRows(cashier, b.variants, c, item);
    let nextId = cashier.counters.variant;
    variants = rows.map((row) => {
      const stored = row.id === undefined ? undefined : item.variants.find((v) => v.id === row.id);
      if (stored) return { ...stored, ...row, id: stored.id };
      nextId += 1;
      // A new row's price is required (readVariantRows); the item's name stands in for a name it leaves out.
      return {
        name_ar: nameAr ?? item.name_ar,
        sku: null,
        barcode: null,
        price_halalas: 0,
        is_default: false,
        ...row,
        id: nextId,
      };
    });
    checkUnique(cashier, variants, item.id, c);
    settleDefault(variants, c);
    if (!c.errors.length) cashier.counters.variant = nextId;
  }
  const slots = b.combo_slots && readComboSlots(cashier, b.combo_slots, item.combo_slots, c);
  c.done();

  if (nameAr) item.name_ar = nameAr;
  if (nameEn !== undefined) item.name_en = nameEn;
  if (categoryId !== undefined) item.category_id = categoryId;
  if (price !== undefined) item.default_price_halalas = price;
  if (variants) {
    const kept = new Set(variants.map((v) => v.id));
    const created = variants.filter((v) => !item.variants.some((s) => s.id === v.id));
    cashier.stock = cashier.stock.filter(
      (s) => kept.has(s.variant_id) || !item.variants.some((v) => v.id === s.variant_id),
    );
    item.variants = variants;
    addStockRows(world, created);
  }
  if (b.modifier_group_ids) item.modifier_group_ids = b.modifier_group_ids;
  if (slots) item.combo_slots = slots;
  item.updated_at = isoLocal(world.clock.now());
  return { data: itemView(item) };
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
  return { data: itemView(item) };
});

/** PUT /items/{id}. */
export const updateItem = op(ITEM_UPDATE, ({ world, lang, params }: OpContext, b) =>
  writeItem(world, lang, byId(world.store.cashier.items, idParam(params.id)), b),
);
