/* lib/host.ts: the engine a call runs in, as an adapter supplies it, Zapier otherwise. */
import { capital, defineHost, helpIn, hostHelp, hostOf, ZAPIER } from '../lib/host';
import { N8N } from '../n8n-nodes-clinic-cashier/src/host';
import { seam } from '../n8n-nodes-clinic-cashier/src/seam';
import { explain } from '../lib/errors';

describe('hostOf', () => {
  it('is Zapier when nothing names a host, as on Zapier itself', () => {
    expect(hostOf(undefined)).toBe(ZAPIER);
    expect(hostOf({})).toBe(ZAPIER);
    expect(hostOf({ meta: { isLoadingSample: false } as never })).toBe(ZAPIER);
  });

  it('is n8n when the seam hands it over', () => {
    expect(hostOf(seam({ authData: {} }).bundle)).toBe(N8N);
  });

  it('counts anything no adapter defined as Zapier, whose rules lose no event', () => {
    const copy = { ...N8N };
    for (const host of ['n8n', 'N8N', 'make', 'toString', '__proto__', 1, { name: 'n8n' }, copy]) {
      expect(hostOf({ meta: { host } as never })).toBe(ZAPIER);
    }
  });

  it('says who runs a failed trigger again: n8n (the interface redelivers), never Zapier', () => {
    expect(ZAPIER.replaysFailedTriggers).toBe(false);
    expect(N8N.replaysFailedTriggers).toBe(true);
  });

  it('is a host once defined, and frozen', () => {
    const other = defineHost({ ...N8N, name: 'n8n' });
    expect(hostOf({ meta: { host: other } as never })).toBe(other);
    expect(Object.isFrozen(other)).toBe(true);
    expect(Object.isFrozen(other.words)).toBe(true);
  });
});

describe('help in the host’s words', () => {
  const help = hostHelp((w) => `Set ${capital(w.flow)} settings in your ${w.flows}.`);

  it('gives the Zapier definition Zapier’s words', () => {
    expect(help.helpText).toBe('Set Zap settings in your Zaps.');
    expect(helpIn(ZAPIER, help)).toBe('Set Zap settings in your Zaps.');
  });

  it('renders the same help in another host’s words, and a plain help as it is', () => {
    expect(helpIn(N8N, help)).toBe('Set Workflow settings in your workflows.');
    expect(helpIn(N8N, { helpText: 'Plain.' })).toBe('Plain.');
  });

  it('stays out of the definition’s JSON', () => {
    expect(JSON.parse(JSON.stringify({ key: 'k', ...help }))).toEqual({ key: 'k', helpText: help.helpText });
  });
});

describe('a message in the host’s words', () => {
  it('says what is true in the host of the call: who retries after a rate limit', () => {
    expect(explain('rate_limited', 'clinic', 429, undefined).text).toEqual({
      en: "The clinic interface's rate limit (120 requests a minute) was reached; Zapier will retry shortly.",
      ar: 'بلغت واجهة العيادة حد الطلبات (120 طلبًا في الدقيقة)؛ سيعيد Zapier المحاولة قريبًا.',
    });
    expect(explain('rate_limited', 'clinic', 429, undefined, N8N.words).text.en).toBe(
      "The clinic interface's rate limit (120 requests a minute) was reached; try again shortly (the node’s Retry On Fail setting retries by itself).",
    );
  });
});
