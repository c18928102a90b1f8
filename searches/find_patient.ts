import { LIST } from '../lib/dropdown-lists';
import { choicesOf } from '../lib/dropdowns';
import { anyOf, declareInputs, input } from '../lib/inputs';
import { SEARCH } from '../lib/keys';
import { searchByIdOrList } from '../lib/operation';
import { path } from '../lib/path';
import { patient } from '../lib/resources/clinic';

const inputs = declareInputs(
  {
    patient_id: input.ulid({
      label: 'Patient',
      helpText:
        'Choose the patient, or map the patient from an earlier step. Leave blank to find by file number or phone.',
      placeholder: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
      ...choicesOf(LIST.patients),
    }),
    file_no: input.text({
      label: 'File Number',
      helpText: 'The patient’s file number as printed on the patient card, e.g. RYD-004512.',
    }),
    phone: input.phone({
      label: 'Phone',
      helpText: 'The patient’s mobile in any Saudi form: 0501234567, 501234567 or +966 50 123 4567.',
      placeholder: '0501234567',
    }),
  },
  [
    anyOf(['patient_id', 'file_no', 'phone'], {
      en: 'give the Patient, a File Number or a Phone',
      ar: 'حدّد المريض أو رقم الملف أو الجوال',
    }),
  ],
);

export const findPatient = searchByIdOrList({
  key: SEARCH.findPatient,
  noun: 'Patient',
  display: {
    label: 'Find Patient',
    description:
      'Finds a patient by the patient chosen, a file number or a phone number. Use it before booking, to reuse an existing patient file. Returns the patient’s names, file number and, where the patient consented, phone and email.',
  },
  api: 'clinic',
  inputs,
  id: 'patient_id',
  path: (id) => path`/patients/${id}`,
  list: { path: '/patients', perPage: 10 },
  present: patient.present,
  shown: patient,
});
