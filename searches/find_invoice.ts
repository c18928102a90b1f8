import { LIST } from '../lib/dropdown-lists';
import { choicesOf } from '../lib/dropdowns';
import { anyOf, declareInputs, input, later } from '../lib/inputs';
import { SEARCH, searchRef } from '../lib/keys';
import { searchByIdOrList } from '../lib/operation';
import { path } from '../lib/path';
import { carryingPatient, withPatients } from '../lib/patients';
import { invoice } from '../lib/resources/clinic';

const inputs = declareInputs(
  {
    invoice_id: input.ulid({
      label: 'Invoice',
      helpText:
        'Choose one of the invoices issued in the last 60 days, or map the Invoice ID from an earlier step (e.g. the New Invoice or Invoice Paid trigger). Leave blank to find a patient’s invoices instead.',
      placeholder: '01JDA5N2P8R4S6T8V0W2X4Y6Z8',
      ...choicesOf(LIST.invoices),
    }),
    patient_id: input.ulid({
      label: 'Patient',
      helpText:
        'Used when no Invoice is given: choose the patient, map one from an earlier step, or find them with a Find Patient step.',
      placeholder: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
      ...choicesOf(LIST.patients),
      search: searchRef(SEARCH.findPatient),
    }),
    // Invoice states the list filter takes (clinic spec §2).
    status: input.choice(
      { issued: 'Issued', partially_paid: 'Partially Paid', paid: 'Paid', void: 'Void' },
      {
        label: 'Status',
        helpText:
          'Only the patient’s invoices in this state, as shown on the invoice in the back office, e.g. Paid.',
      },
    ),
    issued_from: input.date({
      label: 'Issued From',
      helpText:
        'Only the patient’s invoices issued on or after this date (the invoice date), e.g. 2026-11-01.',
    }),
    issued_to: input.date({
      label: 'Issued Before',
      helpText: 'Only the patient’s invoices issued before this date (the invoice date), e.g. 2026-12-01.',
    }),
  },
  [
    anyOf(['invoice_id', 'patient_id'], {
      en: 'give the Invoice, or the Patient whose invoices to find',
      ar: 'حدّد الفاتورة، أو المريض الذي تبحث عن فواتيره',
    }),
    later('issued_from', 'issued_to'),
  ],
);

export const findInvoice = searchByIdOrList({
  key: SEARCH.findInvoice,
  noun: 'Invoice',
  display: {
    label: 'Find Invoice',
    description:
      'Finds an invoice by its id, or a patient’s invoices, optionally by status and issue dates. Use it to look up what a patient owes or paid before a follow-up. Returns the invoices with their lines, payments and amounts in SAR, each with its patient.',
  },
  api: 'clinic',
  inputs,
  id: 'invoice_id',
  path: (id) => path`/invoices/${id}`,
  list: { path: '/invoices', perPage: 25 },
  present: invoice.present,
  shown: carryingPatient(invoice),
  then: (z, bundle, found) => withPatients(z, bundle, found),
});
