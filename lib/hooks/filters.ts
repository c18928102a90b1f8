import { LIST } from '../dropdown-lists';
import { choicesOf, type ListDef } from '../dropdowns';
import { fieldOf, input, type InputField } from '../inputs';

/**
 * Optional trigger filters: an input field and the object field it must equal. Applied in perform and
 * performList alike, so real samples are ones the Zap would fire on; when no recent object passes, the app's own
 * sample is shown instead, so the Zap editor still has fields to map.
 */
export interface Filter {
  key: string;
  label: string;
  helpText: string;
  /** The object's field the chosen value is compared with. */
  field: string;
  type: 'integer' | 'string';
  /** An example value, shown in the empty field (ids from the samples). */
  placeholder?: string;
  /**
   * The list its dropdown offers (lib/dropdown-lists.ts), read by a `choices.perform` that reads no other input:
   * every filter is optional, and `dependsOn` would keep a filter disabled until the one it names is filled.
   */
  dropdown?: ListDef;
  /** Fixed values to choose from; several may be chosen, and the object must equal one of them. */
  choices?: Record<string, string>;
  /** The field must be among the item's `changed_fields` too (it "became" the value, not merely holds it). */
  changed?: boolean;
  /** The query parameter of the event's list that takes one chosen value, so Transfer asks only for those. */
  query?: string;
}

export const CLINIC_BRANCH: Filter = {
  query: 'branch_id',
  key: 'branch_id',
  label: 'Branch',
  field: 'branch_id',
  type: 'integer',
  placeholder: '1',
  dropdown: LIST.clinicBranches,
  helpText:
    'Only fire for this clinic branch (its number is shown in the back office under Settings → Branches). Leave blank for every branch.',
};

export const PRACTITIONER: Filter = {
  query: 'practitioner_id',
  key: 'practitioner_id',
  label: 'Practitioner',
  field: 'practitioner_id',
  type: 'string',
  placeholder: '01J9X4T2R7N5P3M1K8H6G4F2D0',
  dropdown: LIST.practitioners,
  helpText:
    'Only fire for this practitioner: choose one seen in recent appointments, or map a Practitioner ID from an earlier step. Leave blank for every practitioner.',
};

export const APPOINTMENT_TYPE: Filter = {
  key: 'appointment_type_id',
  label: 'Appointment Type',
  field: 'appointment_type_id',
  type: 'integer',
  placeholder: '4',
  dropdown: LIST.appointmentTypes,
  helpText:
    'Only fire for this appointment type (its number is shown in the back office under Settings → Appointment Types). Leave blank for every type.',
};

export const CASHIER_BRANCH: Filter = {
  query: 'branch_id',
  key: 'branch_id',
  label: 'Branch',
  field: 'branch_id',
  type: 'integer',
  placeholder: '2',
  dropdown: LIST.branches,
  helpText:
    'Only fire for this branch, as listed in the cashier back office under Branches. Leave blank for every branch.',
};

export const APPOINTMENT_FILTERS = [CLINIC_BRANCH, PRACTITIONER, APPOINTMENT_TYPE];

/** Appointment states (clinic spec §2). */
export const APPOINTMENT_STATUSES = {
  booked: 'Booked',
  confirmed: 'Confirmed',
  arrived: 'Arrived',
  in_progress: 'In Progress',
  completed: 'Completed',
  cancelled: 'Cancelled',
  no_show: 'No-Show',
} as const;

export const NEW_STATUS: Filter = {
  query: 'status',
  key: 'new_status',
  label: 'New Status',
  field: 'status',
  type: 'string',
  choices: APPOINTMENT_STATUSES,
  changed: true,
  helpText:
    'Only fire when the appointment’s status changed to one of these (for example Confirmed or Arrived); an update that leaves the status as it was does not fire. Leave blank for every update.',
};

/**
 * Order states: the cashier spec shows received, accepted and cancelled; "other order states: not shown", so the
 * ones its till panel is known to use are offered too (docs/assumptions.md).
 */
export const ORDER_STATUSES = {
  accepted: 'Accepted',
  rejected: 'Rejected',
  completed: 'Completed',
  cancelled: 'Cancelled',
  received: 'Received',
} as const;

export const TO_STATUS: Filter = {
  key: 'to_status',
  label: 'New Status',
  field: 'to',
  type: 'string',
  choices: ORDER_STATUSES,
  helpText:
    'Only fire when the order moved to one of these statuses, for example Accepted to tell the customer the order is being prepared. Leave blank for every change.',
};

export const CLAIM_OUTCOME: Filter = {
  key: 'outcome',
  label: 'Outcome',
  field: 'outcome',
  type: 'string',
  choices: { approved: 'Approved', partial: 'Partially Approved', rejected: 'Rejected', pending: 'Pending' },
  helpText:
    'Only fire for claims with one of these outcomes, for example Rejected to follow up with the insurer. Leave blank for every update.',
};

/** The values a Zap builder chose: a list field arrives as an array, a mapped value as comma-separated text. */
const chosen = (wanted: unknown): string[] =>
  (Array.isArray(wanted) ? wanted : String(wanted).split(','))
    .map((v) => String(v ?? '').trim())
    .filter(Boolean);

/**
 * Whether an object passes the filters the Zap builder set (blank filters pass everything). A `transfer` object (a
 * list's, for Transfer) has no record of its changes: a filter on what changed holds when the field has the value.
 */
export const passes = (
  filters: readonly Filter[],
  input: Record<string, unknown>,
  item: Record<string, unknown>,
  options: { transfer?: boolean } = {},
): boolean =>
  filters.every((flt) => {
    const wanted = input[flt.key];
    if (wanted === undefined || wanted === null || chosen(wanted).length === 0) return true;
    if (flt.changed && !options.transfer) {
      const changed = item.changed_fields;
      if (!Array.isArray(changed) || !changed.includes(flt.field)) return false;
    }
    return chosen(wanted).includes(String(item[flt.field] ?? ''));
  });

/** The list query that applies the filters the interface can: one chosen value of a filter with a parameter. */
export const filterQuery = (
  filters: readonly Filter[],
  input: Record<string, unknown>,
): Record<string, string> => {
  const out: Record<string, string> = {};
  for (const flt of filters) {
    const values = input[flt.key] === undefined || input[flt.key] === null ? [] : chosen(input[flt.key]);
    const [only] = values;
    if (!flt.query || values.length !== 1 || only === undefined) continue;
    // A value the list would refuse (a branch that is not a number) is left to `passes`, which keeps nothing.
    if (flt.type === 'integer' && !/^\d+$/.test(only)) continue;
    out[flt.query] = only;
  }
  return out;
};

/** The filters' fields, declared as every input is (lib/inputs.ts); `passes` and `filterQuery` read their values. */
export const filterInputFields = (filters: readonly Filter[]) =>
  filters.map((flt) => {
    const shown = {
      label: flt.label,
      helpText: flt.helpText,
      altersDynamicFields: false,
      ...(flt.placeholder ? { placeholder: flt.placeholder } : {}),
      ...(flt.dropdown ? choicesOf(flt.dropdown) : {}),
    };
    if (flt.choices) return fieldOf(flt.key, input.choice(flt.choices, { ...shown, list: true }));
    return fieldOf(
      flt.key,
      flt.type === 'integer' ? input.positiveInt({ ...shown, type: 'integer' }) : input.text(shown),
    );
  });

/**
 * The inputs a row's trigger asks for its deliveries: its filters, then what its extensions ask (Include Patient
 * Details). The Zapier trigger (triggers/hooks.ts) and the n8n trigger node both show these.
 */
export const deliveryInputFields = (row: {
  filters: readonly Filter[];
  extensions?: ReadonlyArray<{ inputFields?: readonly InputField[] }>;
}): InputField[] => [
  ...filterInputFields(row.filters),
  ...(row.extensions ?? []).flatMap((x) => x.inputFields ?? []),
];
