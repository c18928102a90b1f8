import { DROPDOWN, dynamicRef } from '../keys';

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
  dynamic?: string;
}

export const CLINIC_BRANCH: Filter = {
  key: 'branch_id',
  label: 'Branch',
  field: 'branch_id',
  type: 'integer',
  dynamic: dynamicRef(DROPDOWN.clinicBranches),
  helpText:
    'Only fire for this clinic branch (its number is shown in the back office under Settings → Branches). Leave blank for every branch.',
};

export const PRACTITIONER: Filter = {
  key: 'practitioner_id',
  label: 'Practitioner',
  field: 'practitioner_id',
  type: 'string',
  dynamic: dynamicRef(DROPDOWN.practitioners),
  helpText:
    'Only fire for this practitioner: choose one seen in recent appointments, or map a Practitioner ID from an earlier step. Leave blank for every practitioner.',
};

export const APPOINTMENT_TYPE: Filter = {
  key: 'appointment_type_id',
  label: 'Appointment Type',
  field: 'appointment_type_id',
  type: 'integer',
  dynamic: dynamicRef(DROPDOWN.appointmentTypes),
  helpText:
    'Only fire for this appointment type (its number is shown in the back office under Settings → Appointment Types). Leave blank for every type.',
};

export const CASHIER_BRANCH: Filter = {
  key: 'branch_id',
  label: 'Branch',
  field: 'branch_id',
  type: 'integer',
  dynamic: dynamicRef(DROPDOWN.branches),
  helpText:
    'Only fire for this branch, as listed in the cashier back office under Branches. Leave blank for every branch.',
};

export const APPOINTMENT_FILTERS = [CLINIC_BRANCH, PRACTITIONER, APPOINTMENT_TYPE];

/** Whether an object passes the filters the Zap builder set (blank filters pass everything). */
export const passes = (
  filters: readonly Filter[],
  input: Record<string, unknown>,
  item: Record<string, unknown>,
): boolean =>
  filters.every((flt) => {
    const wanted = input[flt.key];
    if (wanted === undefined || wanted === null || String(wanted).trim() === '') return true;
    return String(item[flt.field] ?? '') === String(wanted).trim();
  });

export const filterInputFields = (filters: readonly Filter[]) =>
  filters.map((flt) => ({
    key: flt.key,
    label: flt.label,
    helpText: flt.helpText,
    type: flt.type,
    required: false,
    altersDynamicFields: false,
    ...(flt.dynamic ? { dynamic: flt.dynamic } : {}),
  }));
