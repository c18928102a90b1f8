import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineCreate, defineInputFields } from 'zapier-platform-core';
import { clientFor } from '../lib/http';
import { labelsOf, oneOf, optional, parseInput, ulid } from '../lib/inputs';
import { CREATE, DROPDOWN, SEARCH, dynamicRef, searchRef } from '../lib/keys';
import { path } from '../lib/paths';
import { carryingPatient, withPatient } from '../lib/patients';
import { appointment } from '../lib/resources/clinic';
import { unwrapOne } from '../lib/http';
import { lazy } from '../lib/zod';

const REASONS = ['patient_request', 'clinic', 'no_show', 'other'] as const;

const inputFields = defineInputFields([
  {
    key: 'appointment_id',
    label: 'Appointment',
    helpText:
      'Choose an upcoming appointment, or map one from a trigger or the Find Appointment step. Appointments in progress or completed cannot be cancelled.',
    placeholder: '01JDA3F7Q9B2C4D6E8G0H1J3K5',
    dynamic: dynamicRef(DROPDOWN.upcomingAppointments),
    search: searchRef(SEARCH.findAppointment),
    required: true,
  },
  {
    key: 'reason',
    label: 'Reason',
    helpText: 'Why the appointment is cancelled; shown in the clinic’s reports.',
    choices: {
      patient_request: 'Patient asked to cancel',
      clinic: 'Clinic cancelled',
      no_show: 'Patient did not show up',
      other: 'Other',
    },
    default: 'patient_request',
    required: false,
  },
]);

const Input = lazy((z) => z.object({ appointment_id: ulid(), reason: optional(oneOf(REASONS)) }));

export const performCancelAppointment = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  // Cancelling twice is harmless: the clinic answers the cancelled appointment again (spec §3).
  const { body } = await clientFor(z_, bundle, 'clinic').post(
    path`/appointments/${input.appointment_id}/cancel`,
    input.reason ? { reason: input.reason } : {},
  );
  return withPatient(z_, bundle, appointment.present(unwrapOne(body)));
};

export const cancelAppointment = defineCreate({
  key: CREATE.cancelAppointment,
  noun: 'Appointment',
  display: {
    label: 'Cancel Appointment',
    description: 'Cancels an appointment with a reason; an appointment already cancelled stays as it is.',
  },
  operation: {
    inputFields,
    perform: performCancelAppointment,
    sample: {
      ...carryingPatient(appointment).sample,
      status: 'cancelled',
      cancel_reason: 'patient_request',
      cancelled_at: '2026-11-22T09:15:00+03:00',
    },
    outputFields: carryingPatient(appointment).outputFields,
  },
});
