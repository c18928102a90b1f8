import type { z } from 'zod';
import { bool, optional, positiveInt, sar, text } from './inputs';
import { lazy } from './zod';

/** A variant as a Zap builder gives it (create_item / update_item line items). */
export const VariantInput = lazy((z) =>
  z.object({
    variant_id: optional(positiveInt()),
    variant_name_ar: optional(text()),
    sku: optional(text()),
    barcode: optional(text()),
    price_sar: optional(sar()),
    is_default: optional(bool()),
  }),
);
export type VariantInput = z.infer<ReturnType<typeof VariantInput>>;

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

interface StoredVariant {
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
    const match = stored.find(
      (s) =>
        (v.variant_id !== undefined && s.id === v.variant_id) ||
        (v.sku !== undefined && s.sku === v.sku) ||
        (v.barcode !== undefined && s.barcode === v.barcode),
    );
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
  return [...kept, ...written];
};
