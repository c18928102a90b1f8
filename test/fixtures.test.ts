import nock from 'nock';
import { testAuth } from '../authentication';
import { EVENTS } from '../lib/hooks/events';
import {
  data,
  deliveredAsSent,
  deliveredEvents,
  delivered,
  recorded,
  scenarios,
  UNIT_BASE_URLS,
  type Definition,
} from './fixtures';
import { appTester, AUTH, useNock } from './helpers';

/*
 * The recorded fixtures (npm run record) themselves: nock definitions on the unit suites' base addresses, with
 * nothing of the sandbox left in them, and replayable as they are.
 */

const ORIGINS = Object.values(UNIT_BASE_URLS).map((u) => new URL(u).origin);
const BASE_PATHS = Object.values(UNIT_BASE_URLS).map((u) => new URL(u).pathname);

describe('recorded fixtures', () => {
  useNock();

  it('exist, one file per scenario', () => {
    expect(scenarios().length).toBeGreaterThan(50);
  });

  it.each(scenarios())('%s: partner requests on the unit base addresses, no volatile headers', (name) => {
    const defs: Definition[] = recorded(name);
    expect(defs.length).toBeGreaterThan(0);
    for (const d of defs) {
      expect(ORIGINS).toContain(d.scope);
      // Only the sandbox's stand-in for the clinic's unshown re-send endpoint keeps its own path (and says so).
      if (!BASE_PATHS.some((p) => d.path.startsWith(`${p}/`))) expect(d.note).toMatch(/stand|sandbox/);
      expect(JSON.stringify(d)).not.toMatch(/127\.0\.0\.1|localhost|sbx_/);
      for (const header of Object.keys(d.rawHeaders ?? {}))
        expect(header).not.toMatch(/^(date|x-ratelimit-|content-length|connection|keep-alive)/i);
    }
    // nock takes the file as it is.
    expect(nock.define(defs).length).toBe(defs.length);
    nock.cleanAll();
  });

  it('a whole scenario replays offline through the app (nock.define)', async () => {
    nock.define(recorded('ping'));
    const found = (await appTester(testAuth, { authData: AUTH })) as Record<string, { account?: string }>;
    expect(found.clinic?.account).toBe(data('ping', { api: 'clinic' }).clinic.name);
    expect(found.cashier?.account).toBe(data('ping', { api: 'cashier' }).account.name);
  });

  it('hold one genuine delivery per event, and a test delivery (ping)', () => {
    expect(deliveredEvents()).toEqual([...new Set([...EVENTS.map((e) => e.event), 'ping'])].sort());
    for (const event of deliveredEvents()) {
      const envelope = delivered(event);
      expect(envelope).toMatchObject({ event, api_version: 'v1' });
      expect(envelope.id).toMatch(/^evt_/);
      expect(Object.keys(envelope).sort()).toEqual(
        ['api_version', 'data', 'event', 'id', 'occurred_at', 'tenant_id'].sort(),
      );
      // What it was recorded from: the delivery's own headers name its event, id and the delivery recorded.
      const { recorded_from: from, headers } = deliveredAsSent(event);
      expect(from.event).toBe(event);
      expect(headers).toMatchObject({
        'x-partner-event': event,
        'x-partner-event-id': envelope.id,
        'x-partner-delivery': String(from.delivery_id),
      });
      expect(headers['x-partner-signature']).toMatch(/^sha256=[0-9a-f]{64}$/);
      expect(from.subscription.secret).toMatch(/^whsec_/);
    }
  });
});
