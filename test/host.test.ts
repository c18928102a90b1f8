/* lib/host.ts: the engine a call runs in, as an adapter names it, Zapier otherwise. */
import { hostOf, N8N, ZAPIER } from '../lib/host';

describe('hostOf', () => {
  it('is Zapier when nothing names a host, as on Zapier itself', () => {
    expect(hostOf(undefined)).toBe(ZAPIER);
    expect(hostOf({})).toBe(ZAPIER);
    expect(hostOf({ meta: { isLoadingSample: false } as never })).toBe(ZAPIER);
  });

  it('is n8n when the seam names it', () => {
    expect(hostOf({ meta: { host: 'n8n' } as never })).toBe(N8N);
  });

  it('counts a name it does not know as Zapier, whose rules lose no event', () => {
    for (const host of ['N8N', 'make', 'toString', '__proto__', 1, { name: 'n8n' }]) {
      expect(hostOf({ meta: { host } as never })).toBe(ZAPIER);
    }
  });

  it('says who runs a failed trigger again: n8n (the interface redelivers), never Zapier', () => {
    expect(ZAPIER.replaysFailedTriggers).toBe(false);
    expect(N8N.replaysFailedTriggers).toBe(true);
  });
});
