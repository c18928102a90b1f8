/*
 * The nodes speak n8n's words: no description, hint or option of a node or of the credentials mentions a Zap or
 * Zapier, whatever the app's help says; a help that speaks of the host's things is written once, as a function of
 * the host's words (lib/host.ts), and reads Zapier's in the Zapier app and n8n's (src/host.ts) in the nodes.
 */
import { ClinicCashier } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashier/ClinicCashier.node';
import { ClinicCashierTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierTrigger/ClinicCashierTrigger.node';
import { ClinicCashierStartingSoonTrigger } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashierStartingSoonTrigger/ClinicCashierStartingSoonTrigger.node';
import { ClinicCashierApi } from '../../n8n-nodes-clinic-cashier/src/credentials/ClinicCashierApi.credentials';
import { N8N } from '../../n8n-nodes-clinic-cashier/src/host';
import { HOST_HELP, ZAPIER, type HostHelp, type HostWords } from '../../lib/host';
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

  it('render each help written in the host’s words: Zapier’s in the app, n8n’s in the nodes', () => {
    const worded: Array<{ helpText: string; [HOST_HELP]: HostHelp }> = [];
    const visit = (o: unknown) => {
      if (Array.isArray(o)) o.forEach(visit);
      else if (o && typeof o === 'object') {
        if (HOST_HELP in o) worded.push(o as (typeof worded)[number]);
        Object.values(o).forEach(visit);
      }
    };
    visit(App);
    // Book Appointment's two, Find Appointment's two, Consent Channel, Include Patient Details, the two tokens.
    expect(worded.length).toBeGreaterThanOrEqual(8);
    for (const field of worded) {
      expect(field.helpText).toBe(field[HOST_HELP](ZAPIER.words));
      const inN8n = field[HOST_HELP](N8N.words);
      expect(inN8n).not.toMatch(/\bzap(s|’s|'s)?\b|zapier/i);
      expect(shown.some(([, text]) => text.startsWith(inN8n.replace(/\*\*|`/g, '').replace(/\.$/, '')))).toBe(
        true,
      );
    }
  });

  it('have n8n words that never speak of a Zap, in English or Arabic', () => {
    const said = (w: HostWords) =>
      Object.values(w).flatMap((v: unknown) => stringsOf(typeof v === 'function' ? v(15) : v, 'word'));
    expect(said(N8N.words).filter(([, text]) => /zap|زاب/i.test(text))).toEqual([]);
    // Every word of Zapier's has n8n's own: no key left to fall back on.
    expect(Object.keys(N8N.words).sort()).toEqual(Object.keys(ZAPIER.words).sort());
  });

  it('tell where n8n reads a time without an offset, and what the derived reference is made from', () => {
    expect(descriptionOf('starts_at')).toMatch(
      /^First set the workflow’s timezone to Asia\/Riyadh \(Workflow settings → Timezone, or n8n’s GENERIC_TIMEZONE\): a time without an offset \(such as 2026-11-24 10:30\) is read in it/,
    );
    expect(descriptionOf('starts_at')).toMatch(/so is one closer than that\. The slot must be free\./);
    expect(descriptionOf('external_ref')).toMatch(/makes one from this workflow and every booking field/);
  });
});
