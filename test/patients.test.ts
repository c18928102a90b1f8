import type { ZObject } from 'zapier-platform-core';
import { NO_PATIENT, wantsPatient, withPatients } from '../lib/patients';
import { data, replay, reply } from './fixtures';
import { appTester, AUTH, clinicApi, clinicPath, contactOf, useNock } from './helpers';

useNock();

/** withPatients run inside core, as an operation would run it. */
const run = (items: Array<Record<string, unknown>>) =>
  appTester(
    (async (z: ZObject, bundle: { authData: Record<string, string> }) =>
      withPatients(z, bundle, items)) as never,
    { authData: AUTH } as never,
  ) as Promise<Array<Record<string, unknown>>>;

const NOURA = data('find-patient-by-id');
const OTHER = '01J3ACFXN83NABTX949F2SRE0A';

describe('withPatients', () => {
  it('reads each distinct patient once, in item order, and leaves items without one empty', async () => {
    const noura = clinicApi()
      .get(clinicPath(`/patients/${String(NOURA.id)}`))
      .once()
      .reply(replay('find-patient-by-id'));
    const other = clinicApi()
      .get(clinicPath(`/patients/${OTHER}`))
      .once()
      .reply(...reply('find-patient-not-found')); // the 404 of another id: the answer only
    const items = [
      { id: 'a', patient_id: NOURA.id },
      { id: 'b', patient_id: OTHER },
      { id: 'c', patient_id: NOURA.id },
      { id: 'd', patient_id: null },
      { id: 'e', patient_id: '../../admin' },
    ];
    const result = await run(items);
    expect(noura.isDone() && other.isDone()).toBe(true);
    expect(result.map((i) => [i.id, i.patient])).toEqual([
      ['a', contactOf(NOURA)],
      ['b', NO_PATIENT],
      ['c', contactOf(NOURA)],
      ['d', NO_PATIENT],
      ['e', NO_PATIENT],
    ]);
  });

  it('makes no request for an empty list', async () => {
    await expect(run([])).resolves.toEqual([]);
  });
});

describe('wantsPatient', () => {
  it.each([
    [undefined, true],
    [{}, true],
    [{ include_patient: true }, true],
    [{ include_patient: 'yes' }, true],
    [{ include_patient: '' }, true],
    [{ include_patient: false }, false],
    [{ include_patient: 'false' }, false],
    [{ include_patient: ' No ' }, false],
    [{ include_patient: '0' }, false],
  ])('%j → %s', (input, wanted) => {
    expect(wantsPatient(input as Record<string, unknown> | undefined)).toBe(wanted);
  });
});
