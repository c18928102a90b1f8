/**
 * A variant row as a Zap builder gives it, once checked (create_item / update_item line items, declared in
 * creates/item_fields.ts): the price already in halalas.
 */
export interface VariantInput {
  variant_id?: number;
  variant_name_ar?: string;
  sku?: string;
  barcode?: string;
  price_sar?: number;
  is_default?: boolean;
}

/** A variant as ItemWrite takes it (cashier spec §2). */
export interface VariantWrite {
  id?: number;
  name_ar?: string;
  sku?: string;
  barcode?: string;
  price_halalas?: number;
  is_default?: boolean;
}

export const toVariantWrite = (v: VariantInput, id?: number): VariantWrite => ({
  id: id ?? v.variant_id,
  name_ar: v.variant_name_ar,
  sku: v.sku,
  barcode: v.barcode,
  price_halalas: v.price_sar,
  is_default: v.is_default,
});

/**
 * Whether a given variant row names a stored one: by its id, SKU or barcode (unique per account); a row with none
 * of them by its Arabic name and price, so a replayed step that adds a variant without SKU or barcode finds the
 * one its first run added instead of adding it again (two variants of one item alike in name and price cannot be
 * told apart on a till either; docs/assumptions.md).
 */
const namesStored = (v: VariantInput, s: StoredVariant): boolean => {
  if (v.variant_id !== undefined) return s.id === v.variant_id;
  if (v.sku !== undefined || v.barcode !== undefined) {
    return (v.sku !== undefined && s.sku === v.sku) || (v.barcode !== undefined && s.barcode === v.barcode);
  }
  return (
    v.variant_name_ar !== undefined &&
    v.price_sar !== undefined &&
    s.name_ar === v.variant_name_ar &&
    s.price_halalas === v.price_sar
  );
};

export interface StoredVariant {
  id?: unknown;
  name_ar?: unknown;
  sku?: unknown;
  barcode?: unknown;
  price_halalas?: unknown;
  is_default?: unknown;
}

/** A stored variant sent back as it is, in ItemWrite's fields only (its plu is the server's own). */
const unchanged = (s: StoredVariant) => ({
  id: s.id,
  name_ar: s.name_ar,
  sku: s.sku,
  barcode: s.barcode,
  price_halalas: s.price_halalas,
  is_default: s.is_default,
});

/**
 * The variants array of an update. PUT replaces the stored array (rows without id are created, ids left out are
 * deleted), so each given variant keeps the id of the stored one it names (by variant, SKU or barcode), and in
 * `merge` mode the stored variants the user did not mention are sent back unchanged.
 */
export const mergeVariants = (
  stored: StoredVariant[],
  given: VariantInput[],
  mode: 'merge' | 'replace',
): Array<VariantWrite | ReturnType<typeof unchanged>> => {
  const used = new Set<unknown>();
  const written = given.map((v) => {
    const match = stored.find((s) => !used.has(s.id) && namesStored(v, s));
    if (!match) return toVariantWrite(v);
    used.add(match.id);
    // A stored row is sent whole, with the user's changes laid over it: whether the interface patches or replaces
    // a row with an id is not shown, and a replaced row must not lose what the user did not mention.
    const changes = Object.fromEntries(
      Object.entries(toVariantWrite(v, typeof match.id === 'number' ? match.id : undefined)).filter(
        ([, x]) => x !== undefined,
      ),
    );
    return { ...unchanged(match), ...changes };
  });
  const kept = mode === 'merge' ? stored.filter((s) => !used.has(s.id)).map(unchanged) : [];
  const rows = [...kept, ...written];
  // One default variant: a row the user makes the default takes it from the others.
  const newDefault = written.some((r) => r.is_default === true);
  return newDefault ? rows.map((r) => (written.includes(r) ? r : { ...r, is_default: false })) : rows;
};

/** An ItemWrite body as the app sends it (cashier spec §2). */
export interface ItemWrite {
  name_ar?: string;
  name_en?: string;
  category_id?: number;
  default_price_halalas?: number;
  variants?: VariantWrite[];
}

const definedEntries = <T extends object>(o: T) =>
  Object.entries(o).filter(([, v]) => v !== undefined) as Array<[string, unknown]>;

/** A stored variant holds every field a written row gives (its id included, when it has one). */
const holdsRow = (s: StoredVariant, w: VariantWrite): boolean =>
  definedEntries(w).every(([k, v]) => (s as Record<string, unknown>)[k] === v);

/**
 * Whether a stored item already holds everything a write gives: each field given, and when variants are given,
 * exactly as many stored variants, each given row held by a different one. Used to recognise what an earlier
 * run of the same step made (Create Item) and an update that would change nothing (Update Item).
 */
export const itemHolds = (stored: Record<string, unknown>, write: ItemWrite): boolean => {
  const variants = Array.isArray(stored.variants) ? (stored.variants as StoredVariant[]) : [];
  const { variants: rows, default_price_halalas: price, ...scalars } = write;
  if (!definedEntries(scalars).every(([k, v]) => stored[k] === v)) return false;
  if (rows) {
    if (rows.length !== variants.length) return false;
    const free = [...variants];
    for (const row of rows) {
      const i = free.findIndex((s) => holdsRow(s, row));
      if (i < 0) return false;
      free.splice(i, 1);
    }
    return price === undefined || stored.default_price_halalas === price;
  }
  // Without variants the interface makes one default variant at the default price (spec §4 rule 2).
  return price === undefined || stored.default_price_halalas === price;
};
