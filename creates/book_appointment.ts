import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineCreate, defineInputFields } from 'zapier-platform-core';
import { clientFor } from '../lib/http';
import { derivedBookingRef, writeResult } from '../lib/idempotency';
import {
  datetime,
  labelsOf,
  maxChars,
  msg,
  optional,
  parseInput,
  phone,
  positiveInt,
  text,
  ulid,
} from '../lib/inputs';
import { CREATE, DROPDOWN, SEARCH, dynamicRef, searchRef } from '../lib/keys';
import { carryingPatient, withPatient } from '../lib/patients';
import { appointment } from '../lib/resources/clinic';
import { lazy } from '../lib/zod';

const inputFields = defineInputFields([
  {
    key: 'branch_id',
    label: 'Branch',
    helpText: 'The clinic branch where the appointment takes place.',
    placeholder: '1',
    dynamic: dynamicRef(DROPDOWN.clinicBranches),
    type: 'integer',
    required: true,
  },
  {
    key: 'appointment_type_id',
    label: 'Appointment Type',
    helpText: 'The kind of visit, as set up in the back office under Settings → Appointment Types.',
    placeholder: '4',
    dynamic: dynamicRef(DROPDOWN.appointmentTypes),
    type: 'integer',
    required: true,
  },
  {
    key: 'starts_at',
    label: 'Start Time',
    helpText:
      'When the appointment starts, e.g. 2026-11-24T10:30:00+03:00, or a time mapped from an earlier step. A time without an offset (such as 2026-11-24 10:30 or "tomorrow 10:30am") is read in the Zap’s timezone, set in the Zap’s settings: the clinic’s branches keep Riyadh time (+03:00, no daylight saving), so give the offset or set the Zap’s timezone to Riyadh. The slot must be free.',
    placeholder: '2026-11-24T10:30:00+03:00',
    type: 'datetime',
    required: true,
  },
  {
    key: 'patient_id',
    label: 'Patient',
    helpText:
      'Choose the patient, or map one found by the Find Patient step. Leave blank to book by Patient Phone instead.',
    placeholder: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
    dynamic: dynamicRef(DROPDOWN.patients),
    search: searchRef(SEARCH.findPatient),
    required: false,
  },
  {
    key: 'patient_phone',
    label: 'Patient Phone',
    helpText:
      'Used when no Patient is chosen: the mobile in any Saudi form (0501234567, +966 50 123 4567). If the clinic does not know the number, a new patient file is opened.',
    placeholder: '0501234567',
    required: false,
  },
  {
    key: 'patient_name',
    label: 'Patient Name',
    helpText: 'The name for a new patient file (used only when the phone is not known to the clinic).',
    required: false,
  },
  {
    key: 'practitioner_id',
    label: 'Practitioner',
    helpText: 'The doctor or therapist. Leave blank to let the clinic assign one.',
    placeholder: '01J9X4T2R7N5P3M1K8H6G4F2D0',
    dynamic: dynamicRef(DROPDOWN.practitioners),
    required: false,
  },
  {
    key: 'note',
    label: 'Note',
    helpText: 'A short note for the front desk. Never put diagnoses or clinical details here.',
    type: 'text',
    required: false,
  },
  {
    key: 'external_ref',
    label: 'Booking Reference',
    helpText:
      'Your own unique reference for this booking, e.g. the form entry or lead number. The clinic never books the same reference twice. Leave blank and the app makes one from this Zap and every booking field (patient or phone, patient name, branch, type, practitioner, start time and note), so a replayed step cannot book twice while bookings that differ in any of them (e.g. a parent booking two children on one phone) stay separate. To book the very same booking again from this Zap (after a cancellation), give a new reference.',
    required: false,
  },
]);

const Input = lazy((z) =>
  z
    .object({
      patient_id: optional(ulid()),
      patient_phone: optional(phone()),
      patient_name: optional(text()),
      branch_id: positiveInt(),
      appointment_type_id: positiveInt(),
      starts_at: datetime(),
      practitioner_id: optional(ulid()),
      note: optional(text()),
      external_ref: optional(maxChars(100)),
    })
    .refine((i) => i.patient_id || i.patient_phone, {
      message: msg('choose the Patient or give the Patient Phone', 'اختر المريض أو أدخل جوال المريض'),
      path: ['patient_id'],
    }),
);

export const performBookAppointment = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const booking = {
    branch_id: input.branch_id,
    appointment_type_id: input.appointment_type_id,
    starts_at: input.starts_at,
    practitioner_id: input.practitioner_id,
    // The patient is named by id or, failing that, by phone (clinic spec §4).
    ...(input.patient_id
      ? { patient_id: input.patient_id }
      : { patient_phone: input.patient_phone, patient_name: input.patient_name }),
    note: input.note,
  };
  // The derived reference covers every field the booking sends (the time as an instant): a parent booking two
  // children on one phone at one time (two names) makes two bookings; only the very same inputs meet again.
  const external_ref =
    input.external_ref ??
    derivedBookingRef(bundle.meta?.zap?.id, { ...booking, starts_at: Date.parse(input.starts_at) });
  const body = { ...booking, external_ref };
  const { status, body: answer } = await clientFor(z_, bundle, 'clinic').post('/appointments', body);
  const { object, duplicate } = writeResult(status, answer);
  // The patient's name and phone for a confirmation message in the next step (read after the booking is made:
  // a failed read leaves them empty, never the booking undone or repeated).
  return withPatient(z_, bundle, { ...appointment.present(object), duplicate });
};

export const bookAppointment = defineCreate({
  key: CREATE.bookAppointment,
  noun: 'Appointment',
  display: {
    label: 'Book Appointment',
    description:
      'Books an appointment in a free slot for an existing patient, or for a phone number (opening a new patient file when needed).',
  },
  operation: {
    inputFields,
    perform: performBookAppointment,
    sample: { ...carryingPatient(appointment).sample, duplicate: false },
    outputFields: [
      { key: 'duplicate', label: 'Already Booked Before (Same Booking Reference)', type: 'boolean' },
      ...carryingPatient(appointment).outputFields,
    ],
  },
});
