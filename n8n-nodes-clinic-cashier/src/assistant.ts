/**
 * What an AI assistant is given of a patient when it calls the action node as a tool: what a receptionist needs to
 * greet the person and book or find their visits (the file, the names, the phone the person gave), never the birth
 * date, nationality, national id, insurer or email the clinic keeps. The answer of a tool reaches the assistant's
 * model provider, outside the clinic's server; a workflow step after the node still gets the whole patient.
 */
type Item = Record<string, unknown>;

/** The patient's fields a tool answers. */
export const PATIENT_FOR_ASSISTANT: readonly string[] = [
  'id',
  'file_no',
  'name_ar',
  'name_en',
  'phone',
  'status',
];

const pick = (patient: Item): Item =>
  Object.fromEntries(Object.entries(patient).filter(([k]) => PATIENT_FOR_ASSISTANT.includes(k)));

const isObject = (v: unknown): v is Item => !!v && typeof v === 'object' && !Array.isArray(v);

/**
 * An operation's answer as a tool gives it: a patient (Find Patient) narrowed to its fields above, and the patient
 * an appointment carries likewise; anything else as it is.
 */
export const forAssistant = (resource: string, items: unknown[]): unknown[] =>
  items.map((item) => {
    if (!isObject(item)) return item;
    if (resource === 'patient') return pick(item);
    return isObject(item.patient) ? { ...item, patient: pick(item.patient) } : item;
  });
