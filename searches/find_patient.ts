import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineInputFields, defineSearch } from 'zapier-platform-core';
import { clientFor } from '../lib/http';
import { labelsOf, msg, optional, parseInput, phone, text, ulid } from '../lib/inputs';
import { DROPDOWN, SEARCH, dynamicRef } from '../lib/keys';
import { path } from '../lib/paths';
import { patient } from '../lib/resources/clinic';
import { lazy } from '../lib/zod';

const inputFields = defineInputFields([
  {
    key: 'patient_id',
    label: 'Patient',
    helpText:
      'Choose the patient, or map the patient from an earlier step. Leave blank to find by file number or phone.',
    placeholder: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
    dynamic: dynamicRef(DROPDOWN.patients),
    required: false,
  },
  {
    key: 'file_no',
    label: 'File Number',
    helpText: 'The patient’s file number as printed on the patient card, e.g. RYD-004512.',
    required: false,
  },
  {
    key: 'phone',
    label: 'Phone',
    helpText: 'The patient’s mobile in any Saudi form: 0501234567, 501234567 or +966 50 123 4567.',
    placeholder: '0501234567',
    required: false,
  },
]);

const Input = lazy((z) =>
  z
    .object({ patient_id: optional(ulid()), file_no: optional(text()), phone: optional(phone()) })
    .refine((i) => i.patient_id || i.file_no || i.phone, {
      message: msg('give the Patient, a File Number or a Phone', 'حدّد المريض أو رقم الملف أو الجوال'),
      path: ['patient_id'],
    }),
);

export const performFindPatient = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const client = clientFor(z_, bundle, 'clinic');
  if (input.patient_id) {
    const found = await client.find(path`/patients/${input.patient_id}`);
    return found ? [patient.present(found)] : [];
  }
  const { data } = await client.page('/patients', {
    file_no: input.file_no,
    phone: input.phone,
    per_page: 10,
  });
  return data.map((p) => patient.present(p));
};

export const findPatient = defineSearch({
  key: SEARCH.findPatient,
  noun: 'Patient',
  display: {
    label: 'Find Patient',
    description: 'Finds a patient by file number, phone or the patient chosen.',
  },
  operation: {
    inputFields,
    perform: performFindPatient,
    sample: patient.sample,
    outputFields: patient.outputFields,
  },
});
