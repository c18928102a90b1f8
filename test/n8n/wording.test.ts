/*
 * The nodes speak n8n's words: no description, hint or option of a node or of the credentials mentions a Zap or
 * Zapier, whatever the app's help says; each phrase the wording table turns is one the app's help really uses.
 */
import { ClinicCashier } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashier/ClinicCashier.node';
import { ClinicCashierTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node';
import { ClinicCashierStartingSoonTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierStartingSoonTrigger/ClinicCashierStartingSoonTrigger.node';
import { ClinicCashierApi } from '../../n8n-nodes-clinic-cashier/src/credentials/ClinicCashierApi.credentials';
import { N8N_WORDING } from '../../n8n-nodes-clinic-cashier/src/wording';
import { App } from '../helpers';

/** Every string under `o`, with where it is. */
const stringsOf = (o: unknown, where: string): Array<[string, string]> => {
  if (typeof o === 'string') return [[where, o]];
  if (Array.isArray(o)) return o.flatMap((x, i) => stringsOf(x, `${where}[${i}]`));
  if (o && typeof o === 'object') return Object.entries(o).flatMap(([k, v]) => stringsOf(v, `${where}.${k}`));
  return [];
};

const shown = [
  ...stringsOf(new ClinicCashier().description, 'action'),
  ...stringsOf(new ClinicCashierTrigger().description, 'trigger'),
  ...stringsOf(new ClinicCashierStartingSoonTrigger().description, 'poll'),
  ...stringsOf({ ...new ClinicCashierApi() }, 'credentials'),
];

const descriptionOf = (name: string) =>
  new ClinicCashier().description.properties.find(
    (p) => p.name === name && p.displayOptions?.show?.operation?.[0] === 'book',
  )!.description!;

describe('the n8n nodes’ words', () => {
  it('never mention a Zap or Zapier', () => {
    expect(shown.length).toBeGreaterThan(100);
    expect(shown.filter(([, text]) => /\bzap(s|’s|'s)?\b|zapier/i.test(text))).toEqual([]);
  });

  it('turn only phrases the app’s help uses, each into n8n’s', () => {
    const appText = stringsOf(App, 'app')
      .map(([, text]) => text)
      .join('\n');
    for (const [zapier, n8n] of N8N_WORDING) {
      expect({ zapier, used: appText.includes(zapier) }).toEqual({ zapier, used: true });
      expect(n8n).not.toMatch(/zap/i);
    }
  });

  it('tell where n8n reads a time without an offset, and what the derived reference is made from', () => {
    expect(descriptionOf('starts_at')).toMatch(
      /^First set the workflow’s timezone to Asia\/Riyadh \(Workflow settings → Timezone, or n8n’s GENERIC_TIMEZONE\): a time without an offset \(such as 2026-11-24 10:30\) is read in it/,
    );
    expect(descriptionOf('starts_at')).toMatch(/so is one closer than that\. The slot must be free\./);
    expect(descriptionOf('external_ref')).toMatch(/makes one from this workflow and every booking field/);
  });
});
