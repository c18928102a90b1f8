import type { ListDef, Option } from './dropdowns';
import { distinctOptions } from './dropdowns';
import { halalasToSar } from './money';
import { path } from './path';
import { saudiTime } from './time';

/*
 * The lists behind the app's dropdowns, declared once: the hidden dropdown triggers (triggers/dropdowns.ts) and the
 * `choices: { perform }` dropdowns (choicesOf) read the same declarations, so a label reads the same either way.
 */

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** "Riyadh - Olaya (الرياض - العليا)": the main name, and the Arabic one beside it when it differs. */
const bilingualName = (o: Record<string, unknown>, fallback: string): string => {
  const main = text(o.name_en) ?? text(o.name) ?? text(o.name_ar) ?? fallback;
  const ar = text(o.name_ar);
  return ar && ar !== main ? `${main} (${ar})` : main;
};

const DAY = 24 * 3600 * 1000;

/** Appointments of the last 60 days: the clinic interface lists no branches, practitioners or types. */
const recentAppointments = () => ({ from: saudiTime(new Date(Date.now() - 60 * DAY)) });

/** Invoices issued in the last 60 days (the list's order is not shown; old invoices are rarely picked). */
const recentInvoices = () => ({ issued_from: saudiTime(new Date(Date.now() - 60 * DAY)).slice(0, 10) });

/*
 * The spec gives clinic branches, practitioners and appointment types no names: the label says how many of the
 * appointments read it was seen in, so the busiest comes first and a one-off stands out.
 */
const seen = (noun: string) => (value: string, count: number) =>
  `${noun} ${value} · ${count} recent appointment${count === 1 ? '' : 's'}`;

/** One option per variant: "Arabic Coffee (قهوة عربية) – كبير · SKU COF-AR-L · 12.00 SAR". */
const variantOptions = (items: Array<Record<string, unknown>>): Option[] =>
  items.flatMap((i) =>
    (Array.isArray(i.variants) ? (i.variants as Array<Record<string, unknown>>) : []).map((v) => {
      const parts = [
        `${bilingualName(i, `Item ${String(i.id)}`)}${text(v.name_ar) ? ` – ${String(v.name_ar)}` : ''}`,
        text(v.sku) ? `SKU ${String(v.sku)}` : undefined,
        typeof v.price_halalas === 'number' ? `${halalasToSar(v.price_halalas)} SAR` : undefined,
      ];
      return { id: String(v.id), label: parts.filter(Boolean).join(' · ') };
    }),
  );

/** Appointments list derived from recent appointments, narrowed to the given branch and practitioner. */
const fromAppointments = (noun: string, plural: string, field: string): ListDef => ({
  noun,
  plural,
  api: 'clinic',
  path: '/appointments',
  query: (given) => ({
    ...recentAppointments(),
    branch_id: given.branch_id,
    practitioner_id: given.practitioner_id,
  }),
  paged: false,
  options: distinctOptions(field, seen(noun)),
});

export const LIST = {
  branches: {
    noun: 'Branch',
    plural: 'Branches',
    api: 'cashier',
    path: '/branches',
    label: (b) => bilingualName(b, `Branch ${String(b.id)}`),
  },
  categories: {
    noun: 'Category',
    plural: 'Categories',
    api: 'cashier',
    path: '/categories',
    label: (c) => bilingualName(c, `Category ${String(c.id)}`),
  },
  items: {
    noun: 'Item',
    api: 'cashier',
    path: '/items',
    label: (i) => bilingualName(i, `Item ${String(i.id)}`),
  },
  variants: { noun: 'Variant', api: 'cashier', path: '/items', options: variantOptions },
  /** The variants of the given item only, from the item itself. */
  variantsOfItem: {
    noun: 'Variant',
    api: 'cashier',
    path: (given) => path`/items/${String(given.item_id)}`,
    one: true,
    options: variantOptions,
  },
  patients: {
    noun: 'Patient',
    api: 'clinic',
    path: '/patients',
    label: (p) =>
      [bilingualName(p, 'Patient'), text(p.file_no) ? `File ${String(p.file_no)}` : undefined]
        .filter(Boolean)
        .join(' · '),
  },
  upcomingAppointments: {
    noun: 'Upcoming Appointment',
    api: 'clinic',
    path: '/appointments',
    query: () => ({ from: saudiTime(new Date()) }),
    label: (a) =>
      [
        text(a.starts_at)?.replace('T', ' ').slice(0, 16),
        `Branch ${String(a.branch_id ?? '?')}`,
        text(a.status),
        text(a.external_ref) ? `Ref ${String(a.external_ref)}` : undefined,
      ]
        .filter(Boolean)
        .join(' · '),
  },
  clinicBranches: fromAppointments('Clinic Branch', 'Clinic Branches', 'branch_id'),
  practitioners: fromAppointments('Practitioner', 'Practitioners', 'practitioner_id'),
  appointmentTypes: fromAppointments('Appointment Type', 'Appointment Types', 'appointment_type_id'),
  invoices: {
    noun: 'Invoice',
    api: 'clinic',
    path: '/invoices',
    query: recentInvoices,
    // "INV-RYD-2026-018342 · 460.00 SAR · issued 2026-11-21"
    label: (i) =>
      [
        text(i.number) ?? `Invoice ${String(i.id)}`,
        typeof i.total_halalas === 'number' ? `${halalasToSar(i.total_halalas)} SAR` : undefined,
        [text(i.status)?.replace(/_/g, ' '), text(i.issued_at)?.slice(0, 10)].filter(Boolean).join(' '),
      ]
        .filter(Boolean)
        .join(' · '),
  },
  // The cashier interface lists none of these: their dropdowns offer nothing.
  orders: { noun: 'Order', api: 'cashier' },
  receipts: { noun: 'Receipt', api: 'cashier' },
  tillSessions: { noun: 'Till Session', api: 'cashier' },
} satisfies Record<string, ListDef>;
