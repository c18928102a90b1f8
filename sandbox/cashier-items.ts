/**
 * Items and their variants as the cashier creates and updates them (cashier spec §4 rules 1 and 2): variant rows,
 * unique PLU/SKU/barcode, one default variant, combo slots, modifier groups, and the stock rows of new variants.
 */
import { ApiError, Checker, type Lang } from './errors';
import { isoLocal } from './ids';
import type { CashierData, ComboSlot, Item, Variant } from './store/types';
import { BodyReader } from './body-reader';
import { isObject } from './validate';
import { findVariant } from './cashier-views';
import type { World } from './world';

/* Items (cashier spec §4 rules 1 and 2). */

const readVariantRows = (
  cashier: CashierData,
  rows: unknown[],
  lang: Lang,
  c: Checker,
  item: Item | undefined,
): Array<Partial<Variant> & { id?: number }> => {
  const out: Array<Partial<Variant> & { id?: number }> = [];
  rows.forEach((row, i) => {
    const field = `variants[${i}]`;
    if (!isObject(row)) {
      c.add(field, 'object');
      return;
    }
    const r = new BodyReader(row, lang);
    const id = r.int('id');
    const stored = id === undefined ? undefined : item?.variants.find((v) => v.id === id);
    if (id !== undefined && !stored) {
      r.c.add('id', item && findVariant(cashier, id) ? 'not_this_item' : 'unknown');
    }
    const v: Partial<Variant> & { id?: number } = { id };
    const name = r.string('name_ar', { max: 200 });
    if (name !== undefined) v.name_ar = name;
    if (r.has('sku')) v.sku = r.obj.sku === null ? null : (r.string('sku', { max: 64 }) ?? null);
    if (r.has('barcode'))
      v.barcode = r.obj.barcode === null ? null : (r.string('barcode', { max: 64 }) ?? null);
    const price = r.int('price_halalas', { required: !stored, min: 0 });
    if (price !== undefined) v.price_halalas = price;
    const isDefault = r.bool('is_default');
    if (isDefault !== undefined) v.is_default = isDefault;
    for (const e of r.c.errors) c.errors.push({ ...e, field: `${field}.${e.field}` });
    out.push(v);
  });
  return out;
};

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
  rows: unknown[],
  stored: ComboSlot[],
  c: Checker,
): ComboSlot[] => {
  const out: ComboSlot[] = [];
  rows.forEach((row, i) => {
    if (!isObject(row)) {
      c.add(`combo_slots[${i}]`, 'object');
      return;
    }
    if (row.id !== undefined) {
      if (!stored.some((s) => s.id === row.id)) c.add(`combo_slots[${i}].id`, 'unknown');
      out.push({ ...row, id: Number(row.id) });
    } else {
      cashier.counters.comboSlot += 1;
      out.push({ ...row, id: cashier.counters.comboSlot });
    }
  });
  return out;
};

const readModifierGroups = (raw: unknown[], c: Checker): number[] => {
  if (raw.some((x) => typeof x !== 'number' || !Number.isInteger(x))) c.add('modifier_group_ids', 'integer');
  return raw.filter((x): x is number => typeof x === 'number');
};

/** POST /items: without variants, one default variant at default_price_halalas. */
export const createItem = (world: World, lang: Lang, body: unknown): Item => {
  const cashier = world.store.cashier;
  const r = new BodyReader(body, lang);
  const nameAr = r.string('name_ar', { required: true, max: 200 });
  const nameEn = r.string('name_en', { max: 200 });
  const categoryId = r.int('category_id', { required: true });
  const price = r.int('default_price_halalas', { min: 0 });
  const rawVariants = r.array('variants');
  const modifiers = r.array('modifier_group_ids') ?? [];
  const combos = r.array('combo_slots') ?? [];
  if (categoryId !== undefined && !cashier.categories.some((x) => x.id === categoryId)) {
    r.c.add('category_id', 'unknown');
  }
  const rows = readVariantRows(cashier, rawVariants ?? [], lang, r.c, undefined);
  if (!rows.length && price === undefined && !r.c.has('default_price_halalas')) {
    r.c.add('default_price_halalas', 'required');
  }
  const now = world.clock.now();
  const at = isoLocal(now);
  const variants: Variant[] = (rows.length ? rows : [{ price_halalas: price ?? 0, is_default: true }]).map(
    (v) => {
      cashier.counters.variant += 1;
      return {
        id: cashier.counters.variant,
        name_ar: v.name_ar ?? nameAr ?? '',
        sku: v.sku ?? null,
        barcode: v.barcode ?? null,
        price_halalas: v.price_halalas ?? price ?? 0,
        is_default: v.is_default ?? false,
      };
    },
  );
  checkUnique(cashier, variants, null, r.c);
  settleDefault(variants, r.c);
  const modifierIds = readModifierGroups(modifiers, r.c);
  const slots = readComboSlots(cashier, combos, [], r.c);
  r.done();
  cashier.counters.item += 1;
  const item: Item = {
    id: cashier.counters.item,
    name_ar: nameAr ?? '',
    name_en: nameEn ?? null,
    category_id: categoryId ?? 0,
    default_price_halalas: price ?? variants.find((v) => v.is_default)?.price_halalas ?? 0,
    variants,
    modifier_group_ids: modifierIds,
    combo_slots: slots,
    created_at: at,
    updated_at: at,
  };
  cashier.items.push(item);
  addStockRows(world, variants);
  return item;
};

const addStockRows = (world: World, variants: Variant[]) => {
  const cashier = world.store.cashier;
  const at = isoLocal(world.clock.now());
  for (const b of cashier.branches) {
    for (const v of variants) {
      cashier.stock.push({
        branch_id: b.id,
        variant_id: v.id,
        qty: 0,
        reorder_point: 5,
        par_level: 20,
        updated_at: at,
      });
    }
  }
};

/**
 * PUT /items/{id}: scalars present are set; arrays present (variants, modifier_group_ids, combo_slots) replace
 * what is stored (rows without id are created, stored ids missing from the array are deleted); arrays absent
 * are untouched.
 */
export const updateItem = (world: World, lang: Lang, id: number, body: unknown): Item => {
  const cashier = world.store.cashier;
  const item = cashier.items.find((i) => i.id === id);
  if (!item) throw new ApiError('not_found');
  const r = new BodyReader(body, lang);
  const nameAr = r.string('name_ar', { max: 200 });
  if (r.has('name_ar') && r.obj.name_ar === null) r.c.add('name_ar', 'required');
  const nameEn = r.has('name_en') && r.obj.name_en === null ? null : r.string('name_en', { max: 200 });
  const categoryId = r.int('category_id');
  const price = r.int('default_price_halalas', { min: 0 });
  const rawVariants = r.array('variants');
  const modifiers = r.array('modifier_group_ids');
  const combos = r.array('combo_slots');
  if (categoryId !== undefined && !cashier.categories.some((x) => x.id === categoryId)) {
    r.c.add('category_id', 'unknown');
  }
  let variants: Variant[] | undefined;
  if (rawVariants) {
    if (!rawVariants.length) r.c.add('variants', 'required');
    const rows = readVariantRows(cashier, rawVariants, lang, r.c, item);
    let nextId = cashier.counters.variant;
    variants = rows.map((row) => {
      const stored = row.id === undefined ? undefined : item.variants.find((v) => v.id === row.id);
      if (stored) return { ...stored, ...row, id: stored.id };
      nextId += 1;
      return {
        id: nextId,
        name_ar: row.name_ar ?? nameAr ?? item.name_ar,
        sku: row.sku ?? null,
        barcode: row.barcode ?? null,
        price_halalas: row.price_halalas ?? 0,
        is_default: row.is_default ?? false,
      };
    });
    checkUnique(cashier, variants, item.id, r.c);
    settleDefault(variants, r.c);
    if (!r.c.errors.length) cashier.counters.variant = nextId;
  }
  const modifierIds = modifiers ? readModifierGroups(modifiers, r.c) : undefined;
  const slots = combos ? readComboSlots(cashier, combos, item.combo_slots, r.c) : undefined;
  r.done();

  if (nameAr !== undefined) item.name_ar = nameAr;
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
  if (modifierIds) item.modifier_group_ids = modifierIds;
  if (slots) item.combo_slots = slots;
  item.updated_at = isoLocal(world.clock.now());
  return item;
};
