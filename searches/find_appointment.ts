import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineInputFields, defineSearch } from 'zapier-platform-core';
import { APPOINTMENT_STATUSES } from '../lib/hooks/filters';
import { clientFor } from '../lib/http';
import { dateOrDatetime, labelsOf, msg, oneOf, optional, parseInput, positiveInt, ulid } from '../lib/inputs';
import { DROPDOWN, SEARCH, dynamicRef, searchRef } from '../lib/keys';
import { path } from '../lib/paths';
import { carryingPatient, withPatients } from '../lib/patients';
import { appointment } from '../lib/resources/clinic';
import { lazy } from '../lib/zod';

/** Appointment states the list filter takes (clinic spec §2), the same list the trigger filters offer. */
const STATUSES = APPOINTMENT_STATUSES;
type Status = keyof typeof STATUSES;

const inputFields = defineInputFields([
  {
    key: 'appointment_id',
    label: 'Appointment',
    helpText:
      'Choose an upcoming appointment, or map one from an earlier step (e.g. the New Appointment trigger). Leave blank to find a patient’s appointments instead.',
    placeholder: '01JDA3F7Q9B2C4D6E8G0H1J3K5',
    dynamic: dynamicRef(DROPDOWN.upcomingAppointments),
    required: false,
  },
  {
    key: 'patient_id',
    label: 'Patient',
    helpText:
      'Used when no Appointment is chosen: choose the patient, map one from an earlier step, or find them with a Find Patient step.',
    placeholder: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
    dynamic: dynamicRef(DROPDOWN.patients),
    search: searchRef(SEARCH.findPatient),
    required: false,
  },
  {
    key: 'status',
    label: 'Status',
    helpText: 'Only the patient’s appointments in this state, as shown in the clinic’s appointment book.',
    choices: STATUSES,
    required: false,
  },
  {
    key: 'from',
    label: 'Starts From',
    helpText:
      'Only the patient’s appointments starting at or after this date or time, e.g. 2026-11-24 or 2026-11-24T08:00:00+03:00. A date or time without an offset is read in the Zap’s timezone; the clinic’s branches keep Riyadh time (+03:00).',
    type: 'datetime',
    required: false,
  },
  {
    key: 'to',
    label: 'Starts Before',
    helpText:
      'Only the patient’s appointments starting before this date or time, e.g. 2026-12-01 or 2026-11-24T18:00:00+03:00. A date or time without an offset is read in the Zap’s timezone; the clinic’s branches keep Riyadh time (+03:00).',
    type: 'datetime',
    required: false,
  },
  {
    key: 'branch_id',
    label: 'Branch',
    helpText:
      'Only the patient’s appointments at this clinic branch (its number is shown in the back office under Settings → Branches).',
    placeholder: '1',
    dynamic: dynamicRef(DROPDOWN.clinicBranches),
    type: 'integer',
    required: false,
  },
  {
    key: 'practitioner_id',
    label: 'Practitioner',
    helpText:
      'Only the patient’s appointments with this practitioner: choose one seen in recent appointments, or map a Practitioner ID from an earlier step.',
    placeholder: '01J9X4T2R7N5P3M1K8H6G4F2D0',
    dynamic: dynamicRef(DROPDOWN.practitioners),
    required: false,
  },
]);

const Input = lazy((z) =>
  z
    .object({
      appointment_id: optional(ulid()),
      patient_id: optional(ulid()),
      status: optional(oneOf(Object.keys(STATUSES) as [Status, ...Status[]])),
      from: optional(dateOrDatetime()),
      to: optional(dateOrDatetime()),
      branch_id: optional(positiveInt()),
      practitioner_id: optional(ulid()),
    })
    .refine((i) => i.appointment_id || i.patient_id, {
      message: msg(
        'choose the Appointment, or the Patient whose appointments to find',
        'اختر الموعد، أو المريض الذي تبحث عن مواعيده',
      ),
      path: ['appointment_id'],
    })
    .refine((i) => !i.from || !i.to || Date.parse(i.from) < Date.parse(i.to), {
      message: msg('must be later than Starts From', 'يجب أن يكون بعد Starts From'),
      path: ['to'],
    }),
);

export const performFindAppointment = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const client = clientFor(z_, bundle, 'clinic');
  if (input.appointment_id) {
    const found = await client.find(path`/appointments/${input.appointment_id}`);
    return withPatients(z_, bundle, found ? [appointment.present(found)] : []);
  }
  const { data } = await client.page('/appointments', {
    patient_id: input.patient_id,
    status: input.status,
    from: input.from,
    to: input.to,
    branch_id: input.branch_id,
    practitioner_id: input.practitioner_id,
    per_page: 25,
  });
  // The patient's appointments share one patient: one GET /patients/{id} for the page.
  return withPatients(
    z_,
    bundle,
    data.map((a) => appointment.present(a)),
  );
};

export const findAppointment = defineSearch({
  key: SEARCH.findAppointment,
  noun: 'Appointment',
  display: {
    label: 'Find Appointment',
    description:
      'Finds an appointment, or a patient’s appointments filtered by status, dates, branch and practitioner.',
  },
  operation: {
    inputFields,
    perform: performFindAppointment,
    ...carryingPatient(appointment),
  },
});
