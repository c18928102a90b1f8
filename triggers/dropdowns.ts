import { LIST } from '../lib/dropdown-lists';
import { dropdownTrigger } from '../lib/dropdowns';
import { DROPDOWN } from '../lib/keys';

/*
 * The hidden dropdown triggers. Published Zaps may hold them (CONTRACT C001), so each stays, hidden and working,
 * even where the step's field now lists its choices by `choices: { perform }` instead. They list without a cascade.
 */
export const dropdownTriggers = (Object.keys(DROPDOWN) as Array<keyof typeof DROPDOWN>).map((name) =>
  dropdownTrigger({ key: DROPDOWN[name], ...LIST[name] }),
);
