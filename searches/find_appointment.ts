import { hostHelp } from '../lib/host';
import { defineSearch } from 'zapier-platform-core';
import { SETTINGS } from '../lib/config';
import { LIST } from '../lib/dropdown-lists';
import { choicesOf } from '../lib/dropdowns';
import { APPOINTMENT_STATUSES } from '../lib/hooks/filters';
import { isLastPage, type ApiClient, type Query } from '../lib/http';
import { anyOf, declareInputs, input, later } from '../lib/inputs';
import { SEARCH, searchRef } from '../lib/keys';
import { findOne, performOn } from '../lib/operation';
import { path } from '../lib/path';
import { carryingPatient, withPatients } from '../lib/patients';
import { appointment } from '../lib/resources/clinic';
import { throttleOf } from '../lib/throttle';

/** Start time, then id for appointments starting together: the order a day's appointment book reads in. */
const byStart = (a: Record<string, unknown>, b: Record<string, unknown>) =>
  Date.parse(String(a.starts_at)) - Date.parse(String(b.starts_at)) ||
  String(a.id).localeCompare(String(b.id));

const inputs = declareInputs(
  {
    appointment_id: input.ulid({
      label: 'Appointment',
      helpText:
        'Choose an upcoming appointment, or map one from an earlier step (e.g. the New Appointment trigger). Leave blank to find a patient’s appointments, or the appointments of a time range (Starts From), instead.',
      placeholder: '01JDA3F7Q9B2C4D6E8G0H1J3K5',
      ...choicesOf(LIST.upcomingAppointments),
    }),
    patient_id: input.ulid({
      label: 'Patient',
      helpText:
        'Used when no Appointment is chosen: the patient whose appointments to find. Choose the patient, map one from an earlier step, or find them with a Find Patient step. Leave blank to find every patient’s appointments in a time range (Starts From).',
      placeholder: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
      ...choicesOf(LIST.patients),
      search: searchRef(SEARCH.findPatient),
    }),
    // Appointment states the list filter takes (clinic spec §2), the same list the trigger filters offer.
    status: input.choice(APPOINTMENT_STATUSES, {
      label: 'Status',
      helpText: 'Only appointments in this state, as shown in the clinic’s appointment book, e.g. Confirmed.',
    }),
    from: input.dateOrDatetime({
      label: 'Starts From',
      ...hostHelp(
        (w) =>
          `Only appointments starting at or after this date or time, e.g. 2026-11-24 or 2026-11-24T08:00:00+03:00. Without an Appointment or a Patient, this finds every appointment of the range (with Starts Before: "today’s appointments at Olaya" is Starts From today, Starts Before tomorrow, Branch Olaya). ${w.offsetlessRead}; the clinic’s branches keep Riyadh time (+03:00).`,
      ),
    }),
    to: input.dateOrDatetime({
      label: 'Starts Before',
      ...hostHelp(
        (w) =>
          `Only appointments starting before this date or time, e.g. 2026-12-01 or 2026-11-24T18:00:00+03:00. ${w.offsetlessRead}; the clinic’s branches keep Riyadh time (+03:00).`,
      ),
    }),
    branch_id: input.positiveInt({
      label: 'Branch',
      helpText:
        'Only appointments at this clinic branch (its number is shown in the back office under Settings → Branches), e.g. 1.',
      placeholder: '1',
      ...choicesOf(LIST.clinicBranches),
      type: 'integer',
    }),
    practitioner_id: input.ulid({
      label: 'Practitioner',
      helpText:
        'Only appointments with this practitioner: choose one seen in recent appointments, or map a Practitioner ID from an earlier step.',
      placeholder: '01J9X4T2R7N5P3M1K8H6G4F2D0',
      ...choicesOf(LIST.practitioners),
    }),
  },
  [
    anyOf(['appointment_id', 'patient_id', 'from'], {
      en: 'choose the Appointment, the Patient whose appointments to find, or the time range to find appointments in (Starts From)',
      ar: 'اختر الموعد، أو المريض الذي تبحث عن مواعيده، أو المدة الزمنية التي تبحث عن مواعيدها (Starts From)',
    }),
    later('from', 'to'),
  ],
);

type Obj = Record<string, unknown>;

/**
 * Every appointment the list query matches, up to SETTINGS.findAppointmentPages pages: the earliest of a range can
 * be on any page (the spec does not show the list's order), so the first result is only the earliest when the
 * whole range was read. `total`: how many match, by the interface's `meta.total` when it gives one, else by count;
 * `complete`: whether every one was read. A page that repeats one already read (the list moved) adds it once.
 */
const readAll = async (client: ApiClient, query: Query) => {
  const byId = new Map<string, Obj>();
  let total: number | undefined;
  for (let page = 1; page <= SETTINGS.findAppointmentPages; page += 1) {
    const { data, meta } = await client.page<Obj>('/appointments', {
      ...query,
      page,
      per_page: SETTINGS.maxPerPage,
    });
    for (const a of data) if (a && typeof a === 'object') byId.set(String(a.id), a);
    if (Number.isInteger(meta.total)) total = meta.total as number;
    if (isLastPage(page, data, meta))
      return { found: [...byId.values()], total: total ?? byId.size, complete: true };
  }
  return { found: [...byId.values()], total: Math.max(total ?? 0, byId.size), complete: false };
};

const FOUND_FIELDS = [
  {
    key: 'found_total',
    label: 'Appointments Found (Total)',
    type: 'integer' as const,
  },
  {
    key: 'found_complete',
    label: 'All Appointments Read (Earliest First)',
    type: 'boolean' as const,
  },
];

const shown = carryingPatient(appointment);

export const performFindAppointment = performOn('clinic', inputs, async (z, bundle, input, client) => {
  const { appointment_id: id, ...query } = inputs.request(input);
  if (id !== undefined) {
    const one = await findOne(client, path`/appointments/${String(id)}`, appointment.present);
    return withPatients(
      z,
      bundle,
      one.map((a) => ({ ...a, found_total: 1, found_complete: true })),
    );
  }
  const { found, total, complete } = await readAll(client, query as Query);
  // Earliest first whatever order the list comes in; each distinct patient of the results read once.
  const earliest = found
    .map(appointment.present)
    .sort(byStart)
    .slice(0, SETTINGS.findAppointmentResults)
    .map((a) => ({ ...a, found_total: total, found_complete: complete }));
  return withPatients(z, bundle, earliest);
});

export const findAppointment = defineSearch({
  key: SEARCH.findAppointment,
  noun: 'Appointment',
  display: {
    label: 'Find Appointment',
    description: `Finds an appointment by id, a patient’s appointments, or every appointment of a time range (e.g. today’s at one branch), filtered by status, branch and practitioner. Use it before cancelling or messaging, or to list a day’s bookings. Returns the earliest ${SETTINGS.findAppointmentResults} appointments, earliest first, each with its start time in words and its patient; Appointments Found (Total) says how many match, and All Appointments Read is false when the range holds more than the app reads (${SETTINGS.findAppointmentPages * SETTINGS.maxPerPage}): narrow it to be sure the first is the earliest.`,
  },
  operation: {
    throttle: throttleOf(performFindAppointment),
    inputFields: inputs.fields,
    perform: performFindAppointment,
    sample: { ...shown.sample, found_total: 1, found_complete: true },
    outputFields: [...shown.outputFields, ...FOUND_FIELDS],
  },
});
