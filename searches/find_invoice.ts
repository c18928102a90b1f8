import type { Bundle, ZObject } from 'zapier-platform-core';
import { defineInputFields, defineSearch } from 'zapier-platform-core';
import { clientFor } from '../lib/http';
import { date, labelsOf, msg, oneOf, optional, parseInput, ulid } from '../lib/inputs';
import { DROPDOWN, SEARCH, dynamicRef, searchRef } from '../lib/keys';
import { path } from '../lib/paths';
import { carryingPatient, withPatients } from '../lib/patients';
import { invoice } from '../lib/resources/clinic';
import { lazy } from '../lib/zod';

/** Invoice states the list filter takes (clinic spec §2). */
const STATUSES = {
  issued: 'Issued',
  partially_paid: 'Partially Paid',
  paid: 'Paid',
  void: 'Void',
} as const;
type Status = keyof typeof STATUSES;

const inputFields = defineInputFields([
  {
    key: 'invoice_id',
    label: 'Invoice',
    helpText:
      'Choose one of the invoices issued in the last 60 days, or map the Invoice ID from an earlier step (e.g. the New Invoice or Invoice Paid trigger). Leave blank to find a patient’s invoices instead.',
    placeholder: '01JDA5N2P8R4S6T8V0W2X4Y6Z8',
    dynamic: dynamicRef(DROPDOWN.invoices),
    required: false,
  },
  {
    key: 'patient_id',
    label: 'Patient',
    helpText:
      'Used when no Invoice is given: choose the patient, map one from an earlier step, or find them with a Find Patient step.',
    placeholder: '01JD8ZK6M4Q2W7R9T3V5X8Y1AB',
    dynamic: dynamicRef(DROPDOWN.patients),
    search: searchRef(SEARCH.findPatient),
    required: false,
  },
  {
    key: 'status',
    label: 'Status',
    helpText: 'Only the patient’s invoices in this state, as shown on the invoice in the back office.',
    choices: STATUSES,
    required: false,
  },
  {
    key: 'issued_from',
    label: 'Issued From',
    helpText: 'Only the patient’s invoices issued on or after this date (the invoice date), e.g. 2026-11-01.',
    required: false,
  },
  {
    key: 'issued_to',
    label: 'Issued Before',
    helpText: 'Only the patient’s invoices issued before this date (the invoice date), e.g. 2026-12-01.',
    required: false,
  },
]);

const Input = lazy((z) =>
  z
    .object({
      invoice_id: optional(ulid()),
      patient_id: optional(ulid()),
      status: optional(oneOf(Object.keys(STATUSES) as [Status, ...Status[]])),
      issued_from: optional(date()),
      issued_to: optional(date()),
    })
    .refine((i) => i.invoice_id || i.patient_id, {
      message: msg(
        'give the Invoice, or the Patient whose invoices to find',
        'حدّد الفاتورة، أو المريض الذي تبحث عن فواتيره',
      ),
      path: ['invoice_id'],
    })
    .refine((i) => !i.issued_from || !i.issued_to || i.issued_from < i.issued_to, {
      message: msg('must be later than Issued From', 'يجب أن يكون بعد Issued From'),
      path: ['issued_to'],
    }),
);

export const performFindInvoice = async (z_: ZObject, bundle: Bundle) => {
  const input = parseInput(z_, Input, bundle, labelsOf(inputFields));
  const client = clientFor(z_, bundle, 'clinic');
  if (input.invoice_id) {
    const found = await client.find(path`/invoices/${input.invoice_id}`);
    return withPatients(z_, bundle, found ? [invoice.present(found)] : []);
  }
  const { data } = await client.page('/invoices', {
    patient_id: input.patient_id,
    status: input.status,
    issued_from: input.issued_from,
    issued_to: input.issued_to,
    per_page: 25,
  });
  return withPatients(
    z_,
    bundle,
    data.map((i) => invoice.present(i)),
  );
};

export const findInvoice = defineSearch({
  key: SEARCH.findInvoice,
  noun: 'Invoice',
  display: {
    label: 'Find Invoice',
    description: 'Finds an invoice by its id, or a patient’s invoices, optionally by status and issue dates.',
  },
  operation: {
    inputFields,
    perform: performFindInvoice,
    ...carryingPatient(invoice),
  },
});
