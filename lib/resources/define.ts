import { withSar } from '../money';
import { type Fields, outputFieldsOf, type OutputField, type FieldValues } from './fields';
import { isObject, presenterOf } from './present';

/*
 * A resource: its field table (`./fields.ts`), its output fields and sample as Zapier shows them, and what a Zap sees
 * of an object received from the interfaces (`./present.ts`).
 */

export { f, outputFieldsOf, type Field, type Fields, type OutputField, type FieldValues } from './fields';

export type Presented<F extends Fields> = FieldValues<F> & Record<string, unknown>;

export interface Resource<F extends Fields, Extra extends object = object> {
  noun: string;
  fields: F;
  /** Whether members beyond the listed fields are kept. */
  loose: boolean;
  /** What the item gains beyond its fields (e.g. a stock level's composite id). */
  decorate?(parsed: FieldValues<F>): Extra;
  outputFields: OutputField[];
  /** What a Zap sees: the whitelisted object with its `_sar` siblings (and `id` where the object has none). */
  present(data: unknown): Presented<F> & Extra;
  /** The same for data written in this codebase (samples), which needs no type checks. */
  presentAuthored(data: Record<string, unknown>): Presented<F> & Extra;
  sample: Presented<F> & Extra;
}

export const defineResource = <F extends Fields, Extra extends object = object>(def: {
  noun: string;
  fields: F;
  sample: unknown;
  /** Fields that stay beyond the listed ones (cashier records whose full field lists are not shown). */
  loose?: boolean;
  /** Adds what the object lacks, e.g. the composite `id` of a stock level. */
  decorate?: (parsed: FieldValues<F>) => Extra;
  /** Output fields of what `decorate` adds. */
  decoratedFields?: OutputField[];
}): Resource<F, Extra> => {
  const presentObject = presenterOf(def.fields, !!def.loose);
  /** Never throws, whatever the data holds (see ./present.ts); a body that is not an object gives an empty item. */
  const present = (data: unknown): Presented<F> & Extra => {
    const out = presentObject(isObject(data) ? data : {}, 0);
    if (!def.decorate) return out as Presented<F> & Extra;
    // The decoration wins: a stock level's id is always `<branch_id>:<variant_id>` (CONTRACT §2).
    return Object.assign(out, withSar(def.decorate(out as FieldValues<F>))) as Presented<F> & Extra;
  };
  /**
   * Authored data (samples): the top-level whitelist applied, decorations and SAR siblings added. Tests hold every
   * sample to its field table, so both paths agree.
   */
  const presentAuthored = (data: Record<string, unknown>): Presented<F> & Extra => {
    let kept = data;
    if (!def.loose) {
      kept = {};
      for (const k of Object.keys(data)) if (k in def.fields) kept[k] = data[k];
    }
    // withSar makes the copy that is shown (every resource's sample is made at every load).
    return withSar(
      def.decorate ? { ...kept, ...def.decorate(kept as FieldValues<F>) } : kept,
    ) as Presented<F> & Extra;
  };
  return {
    noun: def.noun,
    fields: def.fields,
    loose: !!def.loose,
    ...(def.decorate ? { decorate: def.decorate } : {}),
    outputFields: [...(def.decoratedFields ?? []), ...outputFieldsOf(def.fields)],
    present,
    presentAuthored,
    sample: presentAuthored(def.sample as Record<string, unknown>),
  };
};
