import { defineCreate } from 'zapier-platform-core';
import { derivedBookingRef, writeResult } from '../lib/idempotency';
import { anyOf, declareInputs, input } from '../lib/inputs';
import { CREATE, DROPDOWN, SEARCH, dynamicRef, searchRef } from '../lib/keys';
import { performOn } from '../lib/operation';
import { carryingPatient, withPatient } from '../lib/patients';
import { appointment } from '../lib/resources/clinic';

const inputs = declareInputs(
  {
    branch_id: input.positiveInt({
      label: 'Branch',
      helpText: 'The clinic branch where the appointment takes place.',
      placeholder: '1',
      dynamic: dynamicRef(DROPDOWN.clinicBranches),
      type: 'integer',
      required: true,
    }),
    appointment_type_id: input.positiveInt({
      label: 'Appointment Type',
      helpText: 'The kind of visit, as set up in the back office under Settings → Appointment Types.',
      placeholder: '4',
      dynamic: dynamicRef(DROPDOWN.appointmentTypes),
      type: 'integer',
      required: true,
    }),
    starts_at: input.datetime({
      label: 'Start Time',
      helpText:
        'When the appointment starts, e.g. 2026-11-24T10:30:00+03:00, or a time mapped from an earlier step. A time without an offset (such as 2026-11-24 10:30 or "tomorrow 10:30am") is read in the Zap’s timezone, set in the Zap’s settings: the clinic’s branches keep Riyadh time (+03:00, no daylight saving), so give the offset or set the Zap’s timezone to Riyadh. The slot must be free.',
      placeholder: '2026-11-24T10:30:00+03:00',
      required: true,
    }),
    patient_id: input.ulid({
      label: 'Patient',
      helpText:
        'Choose the patient, or map one found by the Find Patient step. Leave blank to book by Patient Phone instead.',
      placeholder: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
      dynamic: dynamicRef(DROPDOWN.patients),
      search: searchRef(SEARCH.findPatient),
    }),
    patient_phone: input.phone({
      label: 'Patient Phone',
      helpText:
        'Used when no Patient is chosen: the mobile in any Saudi form (0501234567, +966 50 123 4567). If the clinic does not know the number, a new patient file is opened.',
      placeholder: '0501234567',
    }),
    patient_name: input.text({
      label: 'Patient Name',
      helpText: 'The name for a new patient file (used only when the phone is not known to the clinic).',
    }),
    practitioner_id: input.ulid({
      label: 'Practitioner',
      helpText: 'The doctor or therapist. Leave blank to let the clinic assign one.',
      placeholder: '01J9X4T2R7N5P3M1K8H6G4F2D0',
      dynamic: dynamicRef(DROPDOWN.practitioners),
    }),
    note: input.text({
      label: 'Note',
      helpText: 'A short note for the front desk. Never put diagnoses or clinical details here.',
      type: 'text',
    }),
    external_ref: input.maxChars(100)({
      label: 'Booking Reference',
      helpText:
        'Your own unique reference for this booking, e.g. the form entry or lead number. The clinic never books the same reference twice. Leave blank and the app makes one from this Zap and every booking field (patient or phone, patient name, branch, type, practitioner, start time and note), so a replayed step cannot book twice while bookings that differ in any of them (e.g. a parent booking two children on one phone) stay separate. To book the very same booking again from this Zap (after a cancellation), give a new reference.',
    }),
  },
  [
    anyOf(['patient_id', 'patient_phone'], {
      en: 'choose the Patient or give the Patient Phone',
      ar: 'اختر المريض أو أدخل جوال المريض',
    }),
  ],
);

export const performBookAppointment = performOn('clinic', inputs, async (z, bundle, input, client) => {
  const { patient_id, patient_phone, patient_name, external_ref: given, ...rest } = inputs.request(input);
  // The patient is named by id or, failing that, by phone (clinic spec §4).
  const booking = { ...rest, ...(patient_id ? { patient_id } : { patient_phone, patient_name }) };
  // The derived reference covers every field the booking sends (the time as an instant): a parent booking two
  // children on one phone at one time (two names) makes two bookings; only the very same inputs meet again.
  const external_ref =
    given ??
    derivedBookingRef(bundle.meta?.zap?.id, {
      ...(booking as Record<string, string | number | undefined>),
      starts_at: Date.parse(input.starts_at),
    });
  const { status, body: answer } = await client.post('/appointments', { ...booking, external_ref });
  const { object, duplicate } = writeResult(status, answer);
  // The patient's name and phone for a confirmation message in the next step (read after the booking is made:
  // a failed read leaves them empty, never the booking undone or repeated).
  return withPatient(z, bundle, { ...appointment.present(object), duplicate });
});

export const bookAppointment = defineCreate({
  key: CREATE.bookAppointment,
  noun: 'Appointment',
  display: {
    label: 'Book Appointment',
    description:
      'Books an appointment in a free slot for an existing patient, or for a phone number (opening a new patient file when needed).',
  },
  operation: {
    inputFields: inputs.fields,
    perform: performBookAppointment,
    sample: { ...carryingPatient(appointment).sample, duplicate: false },
    outputFields: [
      { key: 'duplicate', label: 'Already Booked Before (Same Booking Reference)', type: 'boolean' },
      ...carryingPatient(appointment).outputFields,
    ],
  },
});
