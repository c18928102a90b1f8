import { hostHelp } from '../lib/host';
import { defineCreate } from 'zapier-platform-core';
import { invalidFields, isDocumented, type OwnAnswers, type OwnWords } from '../lib/errors';
import { derivedBookingRef, writeResult } from '../lib/idempotency';
import { START_LEAD_MINUTES } from '../lib/input-times';
import { LIST } from '../lib/dropdown-lists';
import { choicesOf } from '../lib/dropdowns';
import { anyOf, declareInputs, input } from '../lib/inputs';
import { CREATE, SEARCH, searchRef } from '../lib/keys';
import { performOn } from '../lib/operation';
import { carryingPatient, withPatient } from '../lib/patients';
import { appointment } from '../lib/resources/clinic';
import { throttleOf } from '../lib/throttle';

const inputs = declareInputs(
  {
    branch_id: input.positiveInt({
      group: 'visit',
      label: 'Branch',
      helpText:
        'The clinic branch where the appointment takes place: choose one seen in recent appointments, or map a Branch ID from an earlier step.',
      placeholder: '1',
      ...choicesOf(LIST.clinicBranches),
      type: 'integer',
      required: true,
    }),
    appointment_type_id: input.positiveInt({
      group: 'visit',
      label: 'Appointment Type',
      helpText:
        'The kind of visit, as set up in the back office under Settings → Appointment Types. The list shows the types seen in recent appointments with the chosen Practitioner, or at the chosen Branch when no Practitioner is chosen.',
      placeholder: '4',
      ...choicesOf(LIST.appointmentTypes, { dependsOn: ['branch_id'], narrowedBy: ['practitioner_id'] }),
      type: 'integer',
      required: true,
    }),
    starts_at: input.upcoming({
      group: 'visit',
      label: 'Start Time',
      ...hostHelp(
        (w) =>
          `First set the ${w.flow}’s timezone to Asia/Riyadh (${w.timezoneSetting}): a time without an offset (${w.offsetlessExamples}) is read in it, and the clinic’s branches keep Riyadh time (+03:00, no daylight saving). Then map the time from an earlier step, or type it with its offset, e.g. 2026-11-24T10:30:00+03:00. It must be at least ${START_LEAD_MINUTES} minutes ahead: a time in the past is refused, and so is one closer than that${w.unreadableDateHelp}. The slot must be free. The result shows the booked time in words, so a wrong hour shows at a glance in ${w.history}.`,
      ),
      placeholder: '2026-11-24T10:30:00+03:00',
      required: true,
    }),
    patient_id: input.ulid({
      group: 'patient',
      label: 'Patient',
      helpText:
        'Choose the patient, or map one found by the Find Patient step. Leave blank to book by Patient Phone instead.',
      placeholder: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
      ...choicesOf(LIST.patients),
      search: searchRef(SEARCH.findPatient),
    }),
    patient_phone: input.phone({
      group: 'patient',
      label: 'Patient Phone',
      helpText:
        'Used when no Patient is chosen: the mobile in any Saudi form (0501234567, +966 50 123 4567). If the clinic does not know the number, a new patient file is opened.',
      placeholder: '0501234567',
    }),
    patient_name: input.text({
      group: 'patient',
      label: 'Patient Name',
      helpText:
        'Required when no Patient is chosen: the name for a new patient file, used when the clinic does not know the Patient Phone (without it the file would be named after the phone number), e.g. Reem Alharbi or `ريم الحربي`.',
    }),
    practitioner_id: input.ulid({
      group: 'visit',
      label: 'Practitioner',
      helpText:
        'The doctor or therapist: the list shows those seen in recent appointments at the chosen Branch. Leave blank to let the clinic assign one.',
      placeholder: '01J9X4T2R7N5P3M1K8H6G4F2D0',
      ...choicesOf(LIST.practitioners, { dependsOn: ['branch_id'] }),
    }),
    note: input.text({
      group: 'visit',
      label: 'Note',
      helpText:
        'A short note for the front desk, e.g. First visit, booked from the website form. Never put diagnoses or clinical details here.',
      type: 'text',
    }),
    external_ref: input.maxChars(100)({
      group: 'visit',
      label: 'Booking Reference',
      ...hostHelp(
        (w) =>
          `Your own unique reference for this booking, e.g. the form entry or lead number. The clinic never books the same reference twice. Leave blank and the app makes one from this ${w.flow} and every booking field (patient or phone, patient name, branch, type, practitioner, start time and note), so a replayed step cannot book twice while bookings that differ in any of them (e.g. a parent booking two children on one phone) stay separate. To book the very same booking again from this ${w.flow} (after a cancellation), give a new reference.`,
      ),
    }),
  },
  [
    anyOf(['patient_id', 'patient_phone'], {
      en: 'choose the Patient, or give the Patient Phone and Patient Name',
      ar: 'اختر المريض، أو أدخل جوال المريض واسمه',
    }),
    {
      // Only once a phone is given: without one the rule above already asks for both.
      ok: (i) => i.patient_id || !i.patient_phone || i.patient_name,
      message: {
        en: 'is required when no Patient is chosen (a phone the clinic does not know opens a new patient file under this name)',
        ar: 'مطلوب عند عدم اختيار المريض (الجوال الذي لا تعرفه العيادة يفتح ملف مريض جديدًا بهذا الاسم)',
      },
      at: 'patient_name',
    },
  ],
);

const TAKEN: OwnWords = {
  kind: 'error',
  text: {
    en: 'That time is already taken: pick another time, or use Find Appointment to see the patient’s appointments.',
    ar: 'هذا الوقت محجوز: اختر وقتًا آخر، أو استخدم Find Appointment لرؤية مواعيد المريض.',
  },
};

/**
 * A taken slot, told in a receptionist's words. The spec says booking answers 409 and 422 and does not name the code
 * of a taken slot: a 409 whose code the spec does not document (a documented one, such as appointment_locked or
 * client_revoked, keeps its meaning), a 422 whose undocumented code names the slot, or a validation_failed whose
 * only invalid field is the start time, as taken. Every other answer reads as its code says (lib/errors.ts).
 */
const BOOKING_ANSWERS: OwnAnswers = {
  409: ({ error }) => (isDocumented(error) ? undefined : TAKEN),
  422: ({ error, details }) =>
    (!isDocumented(error) && /slot|taken|not_free|unavailable|conflict/.test(error ?? '')) ||
    (error === 'validation_failed' && startTakenIn(details))
      ? TAKEN
      : undefined,
};

/** Whether validation_failed details name only the start time, as taken or not free. */
const startTakenIn = (details: unknown): boolean => {
  const fields = invalidFields(details);
  return (
    fields.length === 1 &&
    fields[0]!.field === 'starts_at' &&
    /slot|taken|not_free|unavailable|conflict|busy/.test(fields[0]!.problem ?? '')
  );
};

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
  const { status, body: answer } = await client.post(
    '/appointments',
    { ...booking, external_ref },
    BOOKING_ANSWERS,
  );
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
      'Books an appointment in a free slot, for an existing patient or for a phone number and name (a new patient file is opened when the phone is unknown). Use it when a web form, a chat or another app asks for a visit. Returns the appointment, its start time in words and the patient; a replay with the same booking reference returns the same appointment (duplicate true) instead of booking twice.',
  },
  operation: {
    throttle: throttleOf(performBookAppointment),
    inputFieldGroups: [
      { key: 'visit', label: 'Visit', emphasize: true },
      { key: 'patient', label: 'Patient' },
    ],
    inputFields: inputs.fields,
    perform: performBookAppointment,
    sample: { ...carryingPatient(appointment).sample, duplicate: false },
    outputFields: [
      { key: 'duplicate', label: 'Already Booked Before (Same Booking Reference)', type: 'boolean' },
      ...carryingPatient(appointment).outputFields,
    ],
  },
});
