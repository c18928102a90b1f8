import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { failure, freeSlot, startWorld, type Json, type World } from './app-helpers';

/*
 * Where the app's requests go, against the sandbox over loopback: a server in front of it that redirects is
 * refused without following (nothing reaches the sandbox), and a subscribe Zapier retries after a lost answer
 * leaves one subscription.
 */

let w: World;
let redirector: Server;
let redirectorUrl: string;

beforeAll(async () => {
  w = await startWorld();
  const sandboxOrigin = new URL(w.sb.clinicBaseUrl).origin;
  // Sends every request on to the sandbox's same path, as a moved server would (307 keeps method and body).
  redirector = createServer((req, res) => {
    res.writeHead(307, { Location: `${sandboxOrigin}${req.url ?? '/'}` }).end('Moved');
  });
  await new Promise<void>((resolve) => redirector.listen(0, '127.0.0.1', resolve));
  redirectorUrl = `http://127.0.0.1:${(redirector.address() as AddressInfo).port}`;
});
afterAll(async () => {
  await new Promise((resolve) => redirector?.close(resolve));
  await w?.close();
});

describe('app: a base address that redirects', () => {
  const viaRedirector = () => ({ ...w.authData, clinic_base_url: `${redirectorUrl}/partner/v1` });

  it('Book Appointment fails naming the Clinic Base Address, and the booking never reaches the sandbox', async () => {
    const before = w.sb.requestCount({ path: '/partner/v1/appointments' });
    const err = await failure(
      w.run(
        'creates',
        'book_appointment',
        {
          patient_id: w.sb.refs.clinic.patient,
          branch_id: '1',
          appointment_type_id: '4',
          starts_at: freeSlot(),
          external_ref: 'E2E-REDIRECTED-1',
        },
        { authData: viaRedirector() },
      ),
    );
    expect(err.message).toMatch(/answered with a redirect \(HTTP 307\).*Check the Clinic Base Address/);
    expect(err.message).not.toContain(redirectorUrl);
    expect(w.sb.requestCount({ path: '/partner/v1/appointments' })).toBe(before);
    const held = (await w.clinic(`/appointments?patient_id=${w.sb.refs.clinic.patient}&per_page=100`)).body
      .data as Json[];
    expect(held.filter((a) => a.external_ref === 'E2E-REDIRECTED-1')).toEqual([]);
  });

  it('the connection test fails the same way, and the sandbox is never pinged through it', async () => {
    const before = w.sb.requestCount({ path: '/partner/v1/ping' });
    const err = await failure(w.testConnection(viaRedirector()));
    expect(err.message).toMatch(/^The clinic interface answered with a redirect \(HTTP 307\)/);
    expect(w.sb.requestCount({ path: '/partner/v1/ping' })).toBe(before);
  });
});

describe('app: a subscribe Zapier retries after a lost answer', () => {
  it('leaves one subscription for the hook and event, the one whose secret the Zap holds', async () => {
    const targetUrl = `${w.intake.url}/hooks/standard/77/lost-answer/`;
    const subscribe = () =>
      w.run<{ id: number; secret: string }>(
        'triggers',
        'appointment_created',
        {},
        { targetUrl },
        'performSubscribe',
      );
    const mine = async () =>
      ((await w.clinic('/webhooks?per_page=100')).body.data as Json[]).filter(
        (s) => s.target_url === targetUrl,
      );

    const lost = await subscribe();
    const kept = await subscribe();

    expect(kept.id).not.toBe(lost.id);
    expect(await mine()).toEqual([
      expect.objectContaining({ id: kept.id, event: 'appointment.created', status: 'active' }),
    ]);

    await w.run('triggers', 'appointment_created', {}, { subscribeData: kept }, 'performUnsubscribe');
    expect(await mine()).toEqual([]);
  });
});
