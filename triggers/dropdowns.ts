import { dropdownTrigger } from '../lib/dropdowns';
import { DROPDOWN } from '../lib/keys';

const text = (v: unknown): string | undefined => (typeof v === 'string' && v.trim() ? v : undefined);

export const branchList = dropdownTrigger({
  key: DROPDOWN.branches,
  noun: 'Branch',
  api: 'cashier',
  path: '/branches',
  label: (b) => {
    const name = text(b.name) ?? text(b.name_en) ?? text(b.name_ar) ?? `Branch ${String(b.id)}`;
    const second = text(b.name_ar) && text(b.name_ar) !== name ? ` (${String(b.name_ar)})` : '';
    return `${name}${second}`;
  },
});
