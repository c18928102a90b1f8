import { halalasToSar, sarKeyOf } from '../money';
import type { Field, Fields } from './fields';

/*
 * The presenter: what a Zap sees of an object the app received (a delivery, a search or write answer). One walk over
 * the resource's field table, which applies each rule of CONTRACT §5 and §7 and of docs/security.md in one place:
 * the whitelist (`presenterOf`), each kind's type check with null for a misfit (`valueOf`), the `_sar` sibling of
 * every integer amount (`addSar`), unsafe keys dropped (`safeKeys`) and nesting cut (`keep`). It never throws: an
 * item that reached the app (a signed delivery, the answer to a write that happened) is always shown, with what does
 * not fit its type as null rather than lost. test/resources/present.test.ts holds it to zod schemas of the same
 * field table on every recorded delivery and on generated data.
 */

/**
 * How deep a received object may nest. The documented shapes go three levels down (a Z-report's sales total);
 * members the cashier adds beyond them are kept to this depth and cut below it, so no delivery can make the app
 * (or Zapier, serialising the item) recurse without end.
 */
export const MAX_DEPTH = 10;

/**
 * Members of received data that are never copied, at any depth. JSON.parse makes a `"__proto__"` member an own
 * key, and assigning it to a plain object replaces the object's prototype: its members would then be inherited
 * (a `branch_id` passing a Branch filter the item does not have). `constructor` and `prototype` would shadow what
 * code and Zapier expect of a plain object. No field of either interface is named so.
 */
export const UNSAFE_KEYS: ReadonlySet<string> = new Set(['__proto__', 'constructor', 'prototype']);

/** The keys of received data that may be copied. */
const safeKeys = (data: object): string[] => Object.keys(data).filter((k) => !UNSAFE_KEYS.has(k));

export const isObject = (v: unknown): v is Record<string, unknown> =>
  !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * The SAR sibling of an integer amount in halalas (CONTRACT §5). Set after every member of the object, so a stale
 * `_sar` that came in with it never wins over the amount.
 */
const addSar = (out: Record<string, unknown>, key: string, sar: string) => {
  const v = out[key];
  if (typeof v === 'number' && Number.isInteger(v)) out[sar] = halalasToSar(v);
};

/** `addSar` for every `*_halalas` among `keys` (members not in the field table). */
const addSars = (out: Record<string, unknown>, keys: readonly string[]) => {
  for (const k of keys) {
    const sar = sarKeyOf(k);
    if (sar !== undefined) addSar(out, k, sar);
  }
};

/**
 * A member kept as it came (a loose object's extra member, an `any` field) at nesting level `level` (the item's own
 * members are level 1): a copy with objects and arrays from level MAX_DEPTH down replaced by null, unsafe keys
 * dropped, and the SAR sibling of every integer `*_halalas` added.
 */
const keep = (value: unknown, level: number): unknown => {
  if (!value || typeof value !== 'object') return value;
  if (level >= MAX_DEPTH) return null;
  if (Array.isArray(value)) return value.map((v) => keep(v, level + 1));
  const out: Record<string, unknown> = {};
  const source = value as Record<string, unknown>;
  const keys = safeKeys(source);
  for (const k of keys) out[k] = keep(source[k], level + 1);
  addSars(out, keys);
  return out;
};

/** Presents a received object with a field table at nesting level `level` (the item itself is level 0). */
export type ObjectPresenter = (data: Record<string, unknown>, level: number) => Record<string, unknown>;

/** A field of the table with what the walk needs of it, worked out once per table rather than once per object. */
interface Member {
  key: string;
  field: Field;
  /** A key Object.prototype also has (`constructor`…): looked up as the object's own only. */
  own: boolean;
  /** Its `_sar` sibling's key, for a `*_halalas` key. */
  sar: string | undefined;
  /** The presenter of its children (`rows`, `object`). */
  nested: ObjectPresenter | undefined;
}

/**
 * Each kind's type rule, for a member present in the received object: its value if it fits, else null. Absent and
 * null stay so, except for a required field (an id), which is null then. `level` is the member's own nesting level.
 */
const valueOf = (member: Member, v: unknown, level: number): unknown => {
  const { field } = member;
  if (v === null || v === undefined) return field.required ? null : v;
  switch (field.kind) {
    case 'string':
      return typeof v === 'string' && !(field.required && v === '') ? v : null;
    case 'integer':
      // Safe integers only: a larger number is not exact, and an amount would get a wrong SAR sibling.
      return Number.isSafeInteger(v) ? v : null;
    case 'decimal':
      return typeof v === 'string' ? v : typeof v === 'number' && Number.isFinite(v) ? String(v) : null;
    case 'boolean':
      return typeof v === 'boolean' ? v : null;
    case 'strings':
      return Array.isArray(v) && v.every((s) => typeof s === 'string') ? [...(v as string[])] : null;
    case 'any':
      return keep(v, level);
    case 'rows': {
      if (!Array.isArray(v)) return null;
      // A row that is not an object is dropped: it has none of the row's fields to show.
      const rows: Array<Record<string, unknown>> = [];
      for (const row of v) if (isObject(row)) rows.push(member.nested!(row, level + 1));
      return rows;
    }
    case 'object':
      return isObject(v) ? member.nested!(v, level) : null;
  }
};

const hasOwn = Object.hasOwn;

/**
 * The presenter of an object with these fields: its listed members in the table's order (absent ones stay absent),
 * each through its kind's rule; where the object is `loose`, the members beyond the table after them, kept as they
 * came; then the SAR siblings, of the listed members and then of the others. The same table always gives the same
 * keys in the same order, so a Zap sees one shape of item.
 */
export const presenterOf = (fields: Fields, loose: boolean): ObjectPresenter => {
  const members: Member[] = Object.keys(fields).map((key) => {
    const field = fields[key]!;
    return {
      key,
      field,
      own: key in Object.prototype,
      sar: sarKeyOf(key),
      nested: field.children && presenterOf(field.children, !!field.looseChildren),
    };
  });
  // The members with a SAR sibling, once per table: most of a table's members have none.
  const amounts = members.filter((m) => m.sar !== undefined);
  return (data, level) => {
    const out: Record<string, unknown> = {};
    for (const member of members) {
      const { key } = member;
      const v = member.own ? (hasOwn(data, key) ? data[key] : undefined) : data[key];
      if (v !== undefined || hasOwn(data, key)) out[key] = valueOf(member, v, level + 1);
    }
    let extra: string[] | undefined;
    if (loose) {
      for (const k of safeKeys(data)) {
        if (hasOwn(fields, k)) continue;
        out[k] = keep(data[k], level + 1);
        (extra ??= []).push(k);
      }
    }
    for (const member of amounts) addSar(out, member.key, member.sar!);
    if (extra !== undefined) addSars(out, extra);
    return out;
  };
};
