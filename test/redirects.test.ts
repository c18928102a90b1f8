import nock from 'nock';
import App from '../index';
import { testAuth } from '../authentication';
import {
  appTester,
  AUTH,
  CLINIC,
  CLINIC_TOKEN,
  clinicApi,
  clinicPath,
  START_AHEAD,
  strays,
  useNock,
} from './helpers';

/*
 * A 3xx from the configured server is never followed (lib/http.ts, `redirect: 'manual'`): no request reaches the
 * address it names, over https or plain http, on another host or a sub-domain, and the step fails once with the
 * app's own words (lib/errors.ts). Every answer here is hand-built: the sandbox never redirects.
 */

useNock();

type Fn = (z: unknown, bundle: unknown) => unknown;
type Ops = Record<string, { operation: Record<string, unknown> }>;
const fn = (kind: 'creates' | 'searches' | 'triggers', key: string, name = 'perform') =>
  (App[kind] as unknown as Ops)[key]!.operation[name] as Fn;
const run = (f: Fn, bundle: object) => appTester(f as never, bundle as never);
const failure = (p: Promise<unknown>) =>
  p.then(
    () => new Error('expected a failure'),
    (e: Error) => e,
  );

const PATIENT = '01EY5943V0CH77X783RTRD9GRE';
const clinicHost = new URL(CLINIC).hostname;
/** What a redirect answer carries that must not reach the message: its body and its Location. */
const BODY = '<html>Moved: session=8c1d secret-internal-host</html>';

/** A scope on an address the redirect names, which must never be asked (with or without the token). */
const elsewhere = (origin: string) =>
  nock(origin)
    .get(/.*/)
    .reply(200, { data: { leaked: true } })
    .post(/.*/)
    .reply(201, { data: { leaked: true } });

const expectRefused = (err: Error, status: number, location: string) => {
  expect(err.message).toBe(
    `The clinic interface answered with a redirect (HTTP ${status}) to another address. The app does not follow redirects, so nothing was sent there. Check the Clinic Base Address in the connection: it is the https:// address the vendor gave you, ending with /partner/v1, or blank for the default.`,
  );
  expect(err.message).not.toContain(location);
  expect(err.message).not.toMatch(/session|secret-internal/);
};

describe('redirects from the configured server are refused, never followed', () => {
  it.each([
    ['302 to plain http on the same host', 302, `http://${clinicHost}`],
    ['301 to another host', 301, 'https://other-vendor.example.net'],
    ['302 to a sub-domain (node-fetch would keep the token)', 302, `https://files.${clinicHost}`],
    ['303 to a private address', 303, 'https://10.0.0.7'],
  ])('a search answered %s', async (_case, status, origin) => {
    const location = `${origin}/partner/v1/patients/${PATIENT}`;
    const server = clinicApi()
      .get(clinicPath(`/patients/${PATIENT}`))
      .reply(status, BODY, { Location: location, 'Content-Type': 'text/html' });
    const target = elsewhere(origin);
    const stop = strays();

    const err = await failure(
      run(fn('searches', 'find_patient'), { authData: AUTH, inputData: { patient_id: PATIENT } }),
    );

    expectRefused(err, status, location);
    expect(server.isDone()).toBe(true);
    expect(target.isDone()).toBe(false);
    expect(target.pendingMocks()).toHaveLength(2);
    expect(stop()).toEqual([]);
    nock.cleanAll();
  });

  it.each([307, 308])(
    'Book Appointment answered %d: the booking is sent once, to the configured server only',
    async (status) => {
      const location = 'https://other-vendor.example.net/partner/v1/appointments';
      let sent = 0;
      const server = clinicApi()
        .post(clinicPath('/appointments'))
        .reply(() => {
          sent += 1;
          return [status, '', { Location: location }];
        });
      const target = elsewhere('https://other-vendor.example.net');
      const stop = strays();

      const err = await failure(
        run(fn('creates', 'book_appointment'), {
          authData: AUTH,
          inputData: {
            patient_phone: '0501234567',
            patient_name: 'Sara',
            branch_id: '1',
            appointment_type_id: '4',
            starts_at: START_AHEAD,
            external_ref: 'web-5501',
          },
          meta: { zap: { id: '98765' } },
        }),
      );

      expectRefused(err, status, location);
      expect(server.isDone()).toBe(true);
      expect(sent).toBe(1);
      expect(target.isDone()).toBe(false);
      expect(stop()).toEqual([]);
      nock.cleanAll();
    },
  );

  it('the connection test answered 301: refused the same way, naming the field to check', async () => {
    const location = 'https://login.other-vendor.example.net/';
    const server = nock(new URL(CLINIC).origin, { reqheaders: { authorization: `Bearer ${CLINIC_TOKEN}` } })
      .get(clinicPath('/ping'))
      .reply(301, BODY, { Location: location });
    const target = elsewhere('https://login.other-vendor.example.net');

    const err = await failure(
      appTester(testAuth, { authData: { clinic_api_token: CLINIC_TOKEN, language: 'en' } }),
    );

    expectRefused(err, 301, location);
    expect(server.isDone()).toBe(true);
    expect(target.isDone()).toBe(false);
    nock.cleanAll();
  });

  it('says it in English, then Arabic, on an Arabic connection', async () => {
    clinicApi('ar')
      .get(clinicPath('/ping'))
      .reply(302, '', { Location: `http://${clinicHost}/partner/v1/ping` });

    const err = await failure(
      appTester(testAuth, { authData: { clinic_api_token: CLINIC_TOKEN, language: 'ar' } }),
    );

    expect(err.message).toMatch(
      /^The clinic interface answered with a redirect \(HTTP 302\).* — ردّت واجهة العيادة بإعادة توجيه \(HTTP 302\)/,
    );
  });

  it('a redirect on a request whose 404 the operation handles (unsubscribe) is still the one redirect error', async () => {
    const location = `http://${clinicHost}/partner/v1/webhooks/41`;
    clinicApi().delete(clinicPath('/webhooks/41')).reply(302, BODY, { Location: location });
    const target = nock(`http://${clinicHost}`).delete(/.*/).reply(204);

    const err = await failure(
      run(fn('triggers', 'appointment_created', 'performUnsubscribe'), {
        authData: AUTH,
        subscribeData: { id: 41 },
        inputData: {},
      }),
    );

    expectRefused(err, 302, location);
    expect(target.isDone()).toBe(false);
    nock.cleanAll();
  });
});
