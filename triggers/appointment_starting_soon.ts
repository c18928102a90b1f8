import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineTrigger } from 'zapier-platform-core';
import { SETTINGS } from '../lib/config';
import { APPOINTMENT_FILTERS, filterInputFields, passes } from '../lib/hooks/filters';
import { clientFor } from '../lib/http';
import { hostOf } from '../lib/host';
import { languageOf, say } from '../lib/i18n';
import { fieldOf, input } from '../lib/inputs';
import {
  hydratePatient,
  INCLUDE_PATIENT_FIELD,
  noPatient,
  PATIENT_OUTPUT_FIELDS,
  PATIENT_SAMPLE,
  wantsPatient,
} from '../lib/patients';
import { TRIGGER } from '../lib/keys';
import { appointment } from '../lib/resources/clinic';
import { saudiTime } from '../lib/time';

/** Statuses of an appointment that has not started yet and still will. */
const UPCOMING = new Set(['booked', 'confirmed', 'arrived']);

export const inputFields = [
  fieldOf(
    'minutes_before',
    input.positiveInt({
      label: 'Minutes Before Start',
      type: 'integer',
      required: true,
      default: '60',
      helpText: `How long before an appointment starts the Zap should fire, in minutes: ${SETTINGS.slowestPollMinutes} to 10080 (for example 60 for an hour, 1440 for a day). Zapier checks for appointments every 1 to ${SETTINGS.slowestPollMinutes} minutes depending on your plan, and each check picks up the appointments starting within this many minutes; so each appointment fires once, between this many minutes and this many minus your plan's interval before it starts (60 on a ${SETTINGS.slowestPollMinutes}-minute plan: 45 to 60 minutes before). Fewer than ${SETTINGS.slowestPollMinutes} minutes is refused: an appointment could start between two checks and get no reminder. A moved appointment fires again for its new time.`,
    }),
  ),
  ...filterInputFields(APPOINTMENT_FILTERS),
  INCLUDE_PATIENT_FIELD,
];

/**
 * Zapier fires a polling trigger once per distinct primary key: the appointment and its start time, so a
 * rescheduled appointment fires again for its new time (CONTRACT §8), and the same time never twice.
 */
export const PRIMARY = new Set(['id', 'starts_at']);

export const performStartingSoon = async (z: ZObject, bundle: Bundle) => {
  const minutes = Number(bundle.inputData.minutes_before ?? 60);
  // An appointment at S is found by a poll at t only when t <= S < t + minutes; with a poll every P minutes some
  // poll falls in (S - P, S], so every appointment is found if and only if minutes >= P, whatever the poll's phase.
  const least = SETTINGS.slowestPollMinutes;
  if (!Number.isInteger(minutes) || minutes < least || minutes > 10080) {
    const interval = hostOf(bundle).words.pollInterval(least);
    throw new z.errors.Error(
      say(languageOf(bundle), {
        en: `Minutes Before Start must be a whole number from ${least} to 10080 (one week). ${interval.en}, so with fewer minutes an appointment could start between two checks and its reminder never be sent.`,
        ar: `يجب أن تكون Minutes Before Start عددًا صحيحًا من ${least} إلى 10080 (أسبوع). ${interval.ar}، فبدقائق أقل قد يبدأ موعد بين فحصين ولا يُرسل تذكيره أبدًا.`,
      }),
      'invalid_input',
      400,
    );
  }
  const now = Date.now();
  const rows = await clientFor(z, bundle, 'clinic').all<unknown>(
    '/appointments',
    {
      from: saudiTime(new Date(now)),
      to: saudiTime(new Date(now + minutes * 60_000)),
      branch_id: bundle.inputData.branch_id as string | undefined,
      practitioner_id: bundle.inputData.practitioner_id as string | undefined,
    },
    SETTINGS.maxPollPages * SETTINGS.maxPerPage,
  );
  return rows
    .map((row) => appointment.present(row))
    .filter((a) => UPCOMING.has(String(a.status)) && passes(APPOINTMENT_FILTERS, bundle.inputData, a))
    .map((a) => ({
      ...a,
      minutes_until_start: a.starts_at
        ? Math.max(0, Math.round((Date.parse(a.starts_at) - now) / 60_000))
        : null,
      // A pointer Zapier resolves only for items new to the Zap: polls that see the appointment again cost no
      // patient request (PLATFORM-NOTES, dehydration). It reads the patient as an event's (lib/patients.ts).
      patient: !wantsPatient(bundle.inputData)
        ? noPatient('off')
        : a.patient_id
          ? z.dehydrate(hydratePatient, { patient_id: a.patient_id })
          : noPatient('not_found'),
    }))
    .sort((x, y) => String(y.starts_at).localeCompare(String(x.starts_at)));
};

export const appointmentStartingSoon = defineTrigger({
  key: TRIGGER.appointmentStartingSoon,
  noun: 'Appointment',
  display: {
    label: 'Appointment Starting Soon',
    description:
      'Triggers when an appointment is about to start, a chosen number of minutes beforehand: for reminders by SMS, WhatsApp or email.',
  },
  operation: {
    type: 'polling',
    inputFields,
    perform: performStartingSoon,
    sample: { ...appointment.sample, minutes_until_start: 45, patient: PATIENT_SAMPLE },
    outputFields: [
      ...appointment.outputFields.map((f) => (PRIMARY.has(f.key) ? { ...f, primary: true } : f)),
      { key: 'minutes_until_start', label: 'Minutes Until Start', type: 'integer' },
      ...PATIENT_OUTPUT_FIELDS,
    ],
  },
});
