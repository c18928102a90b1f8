import { defineCreate } from 'zapier-platform-core';
import { unwrapOne } from '../lib/http';
import { choicesOf } from '../lib/dropdowns';
import { LIST } from '../lib/dropdown-lists';
import { declareInputs, input } from '../lib/inputs';
import { CREATE, SEARCH, searchRef } from '../lib/keys';
import { performOn } from '../lib/operation';
import { path } from '../lib/path';
import { carryingPatient, withPatient } from '../lib/patients';
import { appointment } from '../lib/resources/clinic';
import { throttleOf } from '../lib/throttle';

const inputs = declareInputs({
  appointment_id: input.ulid({
    label: 'Appointment',
    helpText:
      'Choose an upcoming appointment, or map one from a trigger or the Find Appointment step. Appointments in progress or completed cannot be cancelled.',
    placeholder: '01JDA3F7Q9B2C4D6E8G0H1J3K5',
    ...choicesOf(LIST.upcomingAppointments),
    search: searchRef(SEARCH.findAppointment),
    required: true,
  }),
  reason: input.choice(
    {
      patient_request: 'Patient asked to cancel',
      clinic: 'Clinic cancelled',
      no_show: 'Patient did not show up',
      other: 'Other',
    },
    {
      label: 'Reason',
      helpText:
        'Why the appointment is cancelled, e.g. Patient asked to cancel; shown in the clinic’s reports.',
      default: 'patient_request',
    },
  ),
});

export const performCancelAppointment = performOn('clinic', inputs, async (z, bundle, input, client) => {
  const { appointment_id, ...body } = inputs.request(input);
  // Cancelling twice is harmless: the clinic answers the cancelled appointment again (spec §3).
  const { body: answer } = await client.post(
    path`/appointments/${input.appointment_id}/cancel`,
    input.reason ? body : {},
  );
  return withPatient(z, bundle, appointment.present(unwrapOne(answer)));
});

export const cancelAppointment = defineCreate({
  key: CREATE.cancelAppointment,
  noun: 'Appointment',
  display: {
    label: 'Cancel Appointment',
    description:
      'Cancels an appointment with a reason (patient request, clinic, no-show, other). Use it when a patient cancels through another app. Returns the cancelled appointment and its patient; an appointment already cancelled stays as it is, and a completed or in-progress one is refused.',
  },
  operation: {
    throttle: throttleOf(performCancelAppointment),
    inputFields: inputs.fields,
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
