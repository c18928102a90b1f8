/*
 * The n8n action node (n8n-nodes-clinic-cashier): Book Appointment and Find Patient with the Zapier app's inputs,
 * checks, errors and idempotency, and the credential test (the app's ping).
 */
import { ClinicCashier } from '../../n8n-nodes-clinic-cashier/src/nodes/ClinicCashier/ClinicCashier.node';
import { testConnection } from '../../n8n-nodes-clinic-cashier/src/connection';
import { bookAppointment } from '../../creates/book_appointment';
import { data, replay, reply } from '../fixtures';
import { clockAtRecording } from '../support/recorder';
import { appTester, AUTH, clinicApi, clinicPath, recordedPatientRead, useNock } from '../helpers';
import { BOOKING_INPUT, credentials, hookContext } from './context';

useNock();
beforeEach(() => clockAtRecording());
afterEach(() => jest.useRealTimers());

const node = new ClinicCashier();
const PATIENT = BOOKING_INPUT.patient_id;
const booking = {
  resource: 'appointment',
  operation: 'book',
  ...BOOKING_INPUT,
  // n8n gives every parameter the node shows: the ones left empty come as '' and must read as not given.
  patient_phone: '',
  patient_name: '',
};

const execute = (params: Record<string, unknown>) =>
  node.execute.call(hookContext(params).context as never) as Promise<
    Array<Array<{ json: Record<string, unknown> }>>
  >;

/** What the Zapier app's Book Appointment answers for the same inputs, in a Zap whose id is the workflow's. */
const zapBooks = (params: Record<string, unknown>) => {
  const { resource: _r, operation: _o, ...inputData } = params;
  return appTester(
    bookAppointment.operation.perform as never,
    {
      authData: AUTH,
      inputData: Object.fromEntries(Object.entries(inputData).filter(([, v]) => v !== '')),
      meta: { zap: { id: 'wf-1' } },
    } as never,
  );
};

describe('Book Appointment', () => {
  it('posts the booking the Zap posts, and answers the appointment with its patient as the Zap does', async () => {
    clinicApi().post(clinicPath('/appointments')).times(2).reply(replay('book-appointment'));
    const patient = recordedPatientRead('book-appointment', 2);
    const [[out]] = (await execute(booking)) as [[{ json: Record<string, unknown> }]];
    expect(out.json).toEqual(await zapBooks(booking));
    expect(out.json).toMatchObject({
      id: data('book-appointment').id,
      duplicate: false,
      starts_at_time: '12:30',
      patient: patient.contact,
    });
  });

  it('derives the booking reference the Zap would, the workflow standing for the Zap', async () => {
    const refs: unknown[] = [];
    clinicApi()
      .post(clinicPath('/appointments'), (body: Record<string, unknown>) => refs.push(body.external_ref) > 0)
      .times(2)
      .reply(...reply('book-appointment'));
    recordedPatientRead('book-appointment', 2);
    const blank = { ...booking, external_ref: '' };
    await execute(blank);
    await zapBooks(blank);
    expect(refs[0]).toMatch(/^zap-[0-9a-f]{32}$/);
    expect(refs[1]).toBe(refs[0]);
  });

  it('refuses bad input before any request, naming the field by its label', async () => {
    await expect(execute({ ...booking, patient_id: '', starts_at: 'not a time' })).rejects.toThrow(
      /Start Time/,
    );
  });

  it('says a taken slot in the app’s words, with the clinic’s own', async () => {
    clinicApi()
      .post(clinicPath('/appointments'))
      .reply(...reply('book-appointment-slot-taken'));
    await expect(execute({ ...booking, external_ref: 'web-1' })).rejects.toThrow(
      /^That time is already taken/,
    );
  });

  it('refuses a redirect and sends nothing to where it points', async () => {
    clinicApi().post(clinicPath('/appointments')).reply(302, '', { location: 'http://elsewhere.example/' });
    await expect(execute({ ...booking, external_ref: 'web-2' })).rejects.toThrow(/answered with a redirect/);
  });
});

describe('Find Patient', () => {
  it('finds by file number through the list, one item per patient', async () => {
    clinicApi()
      .get(clinicPath('/patients'))
      .query({ file_no: 'RYD-004512', per_page: '10' })
      .reply(200, { data: [data('find-patient-by-id')], meta: {} });
    const [items] = await execute({
      resource: 'patient',
      operation: 'find',
      file_no: 'RYD-004512',
      patient_id: '',
      phone: '',
    });
    expect(items).toHaveLength(1);
    expect(items![0]!.json).toMatchObject({ id: data('find-patient-by-id').id });
  });

  it('gives no items when the patient is not found', async () => {
    clinicApi()
      .get(clinicPath(`/patients/${PATIENT}`))
      .reply(404, { error: 'not_found', message: 'No patient.' });
    await expect(execute({ resource: 'patient', operation: 'find', patient_id: PATIENT })).resolves.toEqual([
      [],
    ]);
  });

  it('asks for one of its inputs when none is given', async () => {
    await expect(execute({ resource: 'patient', operation: 'find' })).rejects.toThrow(/File Number/);
  });
});

describe('the credential test', () => {
  // A clinic-only connection: the test pings every interface that has a token.
  const clinicOnly = { clinic_api_token: credentials.clinic_api_token, language: 'en' };

  it('pings the clinic with the token, as the Zapier connection test does', async () => {
    const ping = clinicApi()
      .get(clinicPath('/ping'))
      .reply(200, { data: { clinic: { name: 'Smile' } } });
    await expect(testConnection({ data: clinicOnly })).resolves.toEqual({
      status: 'OK',
      message: 'Connection tested successfully',
    });
    ping.done();
  });

  it('reports the app’s message for a revoked token', async () => {
    clinicApi().get(clinicPath('/ping')).reply(401, { error: 'token_invalid', message: 'Invalid token.' });
    await expect(testConnection({ data: clinicOnly })).resolves.toMatchObject({
      status: 'Error',
      message: expect.stringMatching(/^The Clinic API Token is not valid or was revoked/),
    });
  });
});
