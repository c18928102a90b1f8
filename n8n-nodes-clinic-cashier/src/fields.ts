/**
 * Zapier input fields as n8n node properties, so a node shows the inputs the Zapier app declares (lib/inputs.ts,
 * lib/hooks/filters.ts), with their labels and help, and nothing is declared twice.
 */
import type { NodeProperty } from './n8n-types';

export interface ZapierField {
  key: string;
  label?: string;
  helpText?: string;
  type?: string;
  required?: boolean;
  default?: unknown;
  placeholder?: string;
  list?: boolean;
  choices?: unknown;
}

type Show = Record<string, string[]>;

/** Fixed choices as n8n options; dynamic ones (`choices.perform`) are typed in, as a mapped value would be. */
const optionsOf = (choices: unknown): Array<{ name: string; value: string }> | undefined => {
  if (Array.isArray(choices)) {
    return choices.map((c: { value: string; label?: string }) => ({
      name: c.label ?? c.value,
      value: c.value,
    }));
  }
  if (choices && typeof choices === 'object' && !('perform' in choices)) {
    return Object.entries(choices as Record<string, string>).map(([value, name]) => ({ name, value }));
  }
  return undefined;
};

// Markdown of Zapier's help text reads as plain text in n8n's hints, without the backticks and stars.
const plain = (text: string | undefined) => (text ?? '').replace(/\*\*|`/g, '');

export const propertyOf = (field: ZapierField, show?: Show): NodeProperty => {
  const options = optionsOf(field.choices);
  const base = {
    displayName: field.label ?? field.key,
    name: field.key,
    description: plain(field.helpText),
    required: field.required === true,
    ...(field.placeholder ? { placeholder: field.placeholder } : {}),
    ...(show ? { displayOptions: { show } } : {}),
  };
  if (options) {
    return field.list
      ? { ...base, type: 'multiOptions', options, default: [] }
      : { ...base, type: 'options', options: [{ name: '(Any)', value: '' }, ...options], default: '' };
  }
  if (field.type === 'boolean') {
    return { ...base, type: 'boolean', default: String(field.default ?? 'false') === 'true' };
  }
  if (field.type === 'integer' || field.type === 'number') {
    // A string, not n8n's number: an empty field must stay "not given" (n8n's number field defaults to 0).
    return { ...base, type: 'string', default: '' };
  }
  return {
    ...base,
    type: 'string',
    default: '',
    ...(field.type === 'text' ? { typeOptions: { rows: 3 } } : {}),
    ...(field.type === 'password' ? { typeOptions: { password: true } } : {}),
  };
};
