/** Output field as Zapier's schema takes it: what a resource's table (lib/resources/fields.ts) lists for Zapier. */
export interface OutputField {
  key: string;
  label: string;
  type?: 'string' | 'integer' | 'number' | 'boolean' | 'datetime';
  list?: boolean;
  primary?: boolean;
}
