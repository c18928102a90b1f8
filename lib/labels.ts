import type { Bilingual } from './i18n';

/**
 * Labels for the request fields the interfaces may name in `validation_failed` details, so an error reads
 * "Start Time: …" rather than "starts_at: …". Fields not listed fall back to their key in Title Case. The inputs
 * declare their labels in English only, and one request field may be two inputs' (a line's Variant, Update Item's
 * Existing Variant), so the words are kept here; where an input sends a field under its own key, the English is
 * that input's label (test/labels.test.ts).
 */
export const LABELS: Record<string, Bilingual> = {
  branch_id: { en: 'Branch', ar: 'الفرع' },
  appointment_type_id: { en: 'Appointment Type', ar: 'نوع الموعد' },
  starts_at: { en: 'Start Time', ar: 'وقت البدء' },
  practitioner_id: { en: 'Practitioner', ar: 'الممارس' },
  patient_id: { en: 'Patient', ar: 'المريض' },
  patient_phone: { en: 'Patient Phone', ar: 'جوال المريض' },
  patient_name: { en: 'Patient Name', ar: 'اسم المريض' },
  external_ref: { en: 'Booking Reference', ar: 'مرجع الحجز' },
  note: { en: 'Note', ar: 'ملاحظة' },
  reason: { en: 'Reason', ar: 'سبب الإلغاء' },
  target_url: { en: 'Webhook Address', ar: 'عنوان الويب هوك' },
  event: { en: 'Event', ar: 'الحدث' },
  external_id: { en: 'Order Reference', ar: 'مرجع الطلب' },
  order_type: { en: 'Order Type', ar: 'نوع الطلب' },
  prepaid: { en: 'Prepaid', ar: 'مدفوع مسبقًا' },
  customer: { en: 'Customer', ar: 'العميل' },
  lines: { en: 'Order Lines', ar: 'بنود الطلب' },
  name_ar: { en: 'Name (Arabic)', ar: 'الاسم بالعربية' },
  name_en: { en: 'Name (English)', ar: 'الاسم بالإنجليزية' },
  category_id: { en: 'Category', ar: 'الفئة' },
  default_price_halalas: { en: 'Default Price', ar: 'السعر الافتراضي' },
  variants: { en: 'Variants', ar: 'الأصناف الفرعية' },
  // Fields of order lines, variants and the order's customer (e.g. `lines[0].unit_price_halalas`).
  variant_id: { en: 'Variant', ar: 'الصنف الفرعي' },
  plu: { en: 'PLU', ar: 'رمز PLU' },
  name: { en: 'Name', ar: 'الاسم' },
  qty: { en: 'Quantity', ar: 'الكمية' },
  unit_price_halalas: { en: 'Unit Price', ar: 'سعر الوحدة' },
  price_halalas: { en: 'Price', ar: 'السعر' },
  is_default: { en: 'Default Variant', ar: 'الصنف الفرعي الافتراضي' },
  phone: { en: 'Phone', ar: 'الجوال' },
  sku: { en: 'SKU', ar: 'رمز الصنف' },
  barcode: { en: 'Barcode', ar: 'الباركود' },
  since_id: { en: 'Since Receipt', ar: 'منذ الإيصال' },
  kind: { en: 'Kind', ar: 'النوع' },
};

const titleCase = (key: string): string =>
  key
    .replace(/\[\d+\]|\.\d+(?=\.|$)/g, '')
    .split(/[._\s]+/)
    .filter(Boolean)
    .map((w) => w[0]!.toUpperCase() + w.slice(1))
    .join(' ');

/** The label of a request field, in both languages. Nested keys such as `lines.0.qty` keep their position. */
const known = (key: string | undefined): Bilingual | undefined =>
  key !== undefined && Object.hasOwn(LABELS, key) ? LABELS[key] : undefined;

export const labelOf = (field: string): Bilingual => {
  const own = known(field);
  if (own) return own;
  const position = /(?:\[|\.)(\d+)(?:\]|\.)/.exec(field)?.[1];
  const leaf = field.split(/[.[\]]+/).filter((p) => p && !/^\d+$/.test(p));
  const head = leaf.length > 1 ? known(leaf[0]) : undefined;
  const tail = known(leaf[leaf.length - 1]);
  const en = [
    head?.en ?? (leaf.length > 1 ? titleCase(leaf[0]!) : ''),
    position ? `#${Number(position) + 1}` : '',
    tail?.en ?? titleCase(leaf[leaf.length - 1] ?? field),
  ]
    .filter(Boolean)
    .join(' ');
  const ar = [
    head?.ar ?? (leaf.length > 1 ? leaf[0] : ''),
    position ? `#${Number(position) + 1}` : '',
    tail?.ar ?? leaf[leaf.length - 1] ?? field,
  ]
    .filter(Boolean)
    .join(' ');
  return { en, ar };
};
