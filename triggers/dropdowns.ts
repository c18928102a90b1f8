import { distinctOptions, dropdownTrigger } from '../lib/dropdowns';
import { DROPDOWN } from '../lib/keys';
import { halalasToSar } from '../lib/money';
import { saudiTime } from '../lib/time';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v.trim() : undefined);

/** "Riyadh - Olaya (الرياض - العليا)": the main name, and the Arabic one beside it when it differs. */
const bilingualName = (o: Record<string, unknown>, fallback: string): string => {
  const main = text(o.name_en) ?? text(o.name) ?? text(o.name_ar) ?? fallback;
  const ar = text(o.name_ar);
  return ar && ar !== main ? `${main} (${ar})` : main;
};

/** Appointments of the last 60 days: the clinic interface lists no branches, practitioners or types. */
const recentAppointments = () => ({ from: saudiTime(new Date(Date.now() - 60 * 24 * 3600 * 1000)) });

/** Invoices issued in the last 60 days (the list's order is not shown; old invoices are rarely picked). */
const recentInvoices = () => ({
  issued_from: saudiTime(new Date(Date.now() - 60 * 24 * 3600 * 1000)).slice(0, 10),
});

const seen = (count: number) => `seen in ${count} recent appointment${count === 1 ? '' : 's'}`;

export const dropdownTriggers = [
  dropdownTrigger({
    key: DROPDOWN.branches,
    noun: 'Branch',
    plural: 'Branches',
    api: 'cashier',
    path: '/branches',
    label: (b) => bilingualName(b, `Branch ${String(b.id)}`),
  }),
  dropdownTrigger({
    key: DROPDOWN.categories,
    noun: 'Category',
    plural: 'Categories',
    api: 'cashier',
    path: '/categories',
    label: (c) => bilingualName(c, `Category ${String(c.id)}`),
  }),
  dropdownTrigger({
    key: DROPDOWN.items,
    noun: 'Item',
    api: 'cashier',
    path: '/items',
    label: (i) => bilingualName(i, `Item ${String(i.id)}`),
  }),
  dropdownTrigger({
    key: DROPDOWN.variants,
    noun: 'Variant',
    api: 'cashier',
    path: '/items',
    // One option per variant: "Arabic Coffee (قهوة عربية) – كبير · SKU COF-AR-L · 12.00 SAR".
    options: (items) =>
      items.flatMap((i) =>
        (Array.isArray(i.variants) ? (i.variants as Array<Record<string, unknown>>) : []).map((v) => {
          const parts = [
            `${bilingualName(i, `Item ${String(i.id)}`)}${text(v.name_ar) ? ` – ${String(v.name_ar)}` : ''}`,
            text(v.sku) ? `SKU ${String(v.sku)}` : undefined,
            typeof v.price_halalas === 'number' ? `${halalasToSar(v.price_halalas)} SAR` : undefined,
          ];
          return { id: String(v.id), label: parts.filter(Boolean).join(' · ') };
        }),
      ),
  }),
  dropdownTrigger({
    key: DROPDOWN.patients,
    noun: 'Patient',
    api: 'clinic',
    path: '/patients',
    label: (p) =>
      [bilingualName(p, 'Patient'), text(p.file_no) ? `File ${String(p.file_no)}` : undefined]
        .filter(Boolean)
        .join(' · '),
  }),
  dropdownTrigger({
    key: DROPDOWN.upcomingAppointments,
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
  }),
  dropdownTrigger({
    key: DROPDOWN.clinicBranches,
    noun: 'Clinic Branch',
    plural: 'Clinic Branches',
    api: 'clinic',
    path: '/appointments',
    query: recentAppointments,
    paged: false,
    options: distinctOptions('branch_id', (v, n) => `Branch ${v} (${seen(n)})`),
  }),
  dropdownTrigger({
    key: DROPDOWN.practitioners,
    noun: 'Practitioner',
    api: 'clinic',
    path: '/appointments',
    query: recentAppointments,
    paged: false,
    options: distinctOptions('practitioner_id', (v, n) => `Practitioner ${v} (${seen(n)})`),
  }),
  dropdownTrigger({
    key: DROPDOWN.appointmentTypes,
    noun: 'Appointment Type',
    api: 'clinic',
    path: '/appointments',
    query: recentAppointments,
    paged: false,
    options: distinctOptions('appointment_type_id', (v, n) => `Appointment type ${v} (${seen(n)})`),
  }),
  dropdownTrigger({
    key: DROPDOWN.invoices,
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
  }),
  dropdownTrigger({ key: DROPDOWN.orders, noun: 'Order', api: 'cashier' }),
  dropdownTrigger({ key: DROPDOWN.receipts, noun: 'Receipt', api: 'cashier' }),
  dropdownTrigger({ key: DROPDOWN.tillSessions, noun: 'Till Session', api: 'cashier' }),
];
