import { LIST } from '../lib/dropdown-lists';
import { choicesOf } from '../lib/dropdowns';
import { APPOINTMENT_STATUSES } from '../lib/hooks/filters';
import { anyOf, declareInputs, input, later } from '../lib/inputs';
import { SEARCH, searchRef } from '../lib/keys';
import { searchByIdOrList } from '../lib/operation';
import { path } from '../lib/path';
import { carryingPatient, withPatients } from '../lib/patients';
import { appointment } from '../lib/resources/clinic';

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
      helpText:
        'Only appointments starting at or after this date or time, e.g. 2026-11-24 or 2026-11-24T08:00:00+03:00. Without an Appointment or a Patient, this finds every appointment of the range (with Starts Before: "today’s appointments at Olaya" is Starts From today, Starts Before tomorrow, Branch Olaya). A date or time without an offset is read in the Zap’s timezone; the clinic’s branches keep Riyadh time (+03:00).',
    }),
    to: input.dateOrDatetime({
      label: 'Starts Before',
      helpText:
        'Only appointments starting before this date or time, e.g. 2026-12-01 or 2026-11-24T18:00:00+03:00. A date or time without an offset is read in the Zap’s timezone; the clinic’s branches keep Riyadh time (+03:00).',
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

export const findAppointment = searchByIdOrList({
  key: SEARCH.findAppointment,
  noun: 'Appointment',
  display: {
    label: 'Find Appointment',
    description:
      'Finds an appointment by id, a patient’s appointments, or every appointment of a time range (e.g. today’s at one branch), filtered by status, branch and practitioner. Use it before cancelling or messaging, or to list a day’s bookings. Returns the appointments in start order, each with its start time in words and its patient.',
  },
  api: 'clinic',
  inputs,
  id: 'appointment_id',
  path: (id) => path`/appointments/${id}`,
  list: { path: '/appointments', perPage: 25 },
  present: appointment.present,
  shown: carryingPatient(appointment),
  // In start order whatever order the list comes in (the spec does not show it); each distinct patient of the page
  // read once (a patient's appointments share one: one GET /patients/{id}).
  then: (z, bundle, found) => withPatients(z, bundle, [...found].sort(byStart)),
});
