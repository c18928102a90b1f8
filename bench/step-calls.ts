/**
 * The calls each action and search is measured with (bench/calls.ts): one row a step of the registry (steps.ts),
 * or more where its calls depend on its inputs. test/steps.test.ts fails while a step has no row here.
 */
import type { Sandbox } from '../sandbox';

type Refs = Sandbox['refs'];

export interface StepCall {
  /** What the row measures, when the step's name alone does not say it. */
  label?: string;
  /** The most calls the step may make at the sandbox. */
  goal: number;
  bundle: (r: Refs) => object;
}

/** A booking twenty days ahead, at a time the sandbox's clinic takes. */
const booking = (r: Refs) => {
  const start = new Date(Date.now() + 20 * 86400e3);
  start.setUTCHours(12, 40, 0, 0);
  return {
    inputData: {
      patient_id: r.clinic.patient,
      branch_id: r.clinic.branchRiyadh,
      appointment_type_id: r.clinic.appointmentType,
      starts_at: start.toISOString(),
    },
    meta: { zap: { id: 'bench' } },
  };
};

export const STEP_CALLS: Record<string, StepCall[]> = {
  book_appointment: [{ label: 'the booking, then its patient', goal: 2, bundle: booking }],
  cancel_appointment: [
    {
      label: 'the cancel, then its patient',
      goal: 2,
      bundle: (r) => ({ inputData: { appointment_id: r.clinic.appointmentBooked, reason: 'clinic' } }),
    },
  ],
  create_order: [
    {
      goal: 1,
      bundle: (r) => ({
        inputData: {
          external_id: 'BENCH-CALLS-1',
          branch_id: r.cashier.branchRiyadh,
          lines: [{ sku: r.cashier.variantSku, qty: 1 }],
        },
      }),
    },
  ],
  cancel_order: [{ goal: 1, bundle: (r) => ({ inputData: { order_id: r.cashier.orderReceived } }) }],
  create_item: [
    {
      goal: 1,
      bundle: (r) => ({
        inputData: { name_ar: 'شاي', category_id: r.cashier.category, default_price_sar: '5' },
      }),
    },
  ],
  update_item: [
    {
      label: 'names only',
      goal: 1,
      bundle: (r) => ({ inputData: { item_id: r.cashier.item, name_en: 'Arabic Coffee' } }),
    },
    {
      label: 'with variants',
      goal: 2,
      bundle: (r) => ({
        inputData: { item_id: r.cashier.item, variants: [{ sku: r.cashier.variantSku, price_sar: '12' }] },
      }),
    },
  ],
  find_patient: [{ goal: 1, bundle: (r) => ({ inputData: { patient_id: r.clinic.patient } }) }],
  find_appointment: [
    {
      label: 'the search, then its 1 patient',
      goal: 2,
      bundle: (r) => ({ inputData: { patient_id: r.clinic.patient } }),
    },
  ],
  find_invoice: [
    {
      label: 'the read, then its patient',
      goal: 2,
      bundle: (r) => ({ inputData: { invoice_id: r.clinic.invoiceIssued } }),
    },
  ],
  find_item: [{ goal: 1, bundle: (r) => ({ inputData: { sku: r.cashier.variantSku } }) }],
  find_order: [{ goal: 1, bundle: (r) => ({ inputData: { order_id: r.cashier.orderReceived } }) }],
  find_receipt: [{ goal: 1, bundle: (r) => ({ inputData: { receipt_id: r.cashier.receipt } }) }],
  find_stock_level: [{ goal: 1, bundle: (r) => ({ inputData: { branch_id: r.cashier.branchRiyadh } }) }],
  find_z_report: [{ goal: 1, bundle: (r) => ({ inputData: { session_id: r.cashier.closedSession } }) }],
};
