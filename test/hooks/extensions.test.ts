/* The extensions of lib/hooks/extensions.ts: the patient on clinic items, the keys Transfer cannot tell, input checks. */
import type { Bundle, ZObject } from 'zapier-platform-core';
import { SETTINGS } from '../../lib/config';
import { WITH_PATIENT, checkInputs, unknownInTransfer } from '../../lib/hooks/extensions';
import type { HookExtension } from '../../lib/hooks/types';
import { PATIENT_SAMPLE, noPatient } from '../../lib/patients';

/** A z that fails any request: the cases below must ask nothing. */
const z = {
  request: () => {
    throw new Error('no request expected');
  },
} as unknown as ZObject;
const bundleOf = (inputData: Record<string, unknown>) => ({ authData: {}, inputData }) as unknown as Bundle;

describe('WITH_PATIENT', () => {
  it('with Include Patient Details off, gives the empty patient to the same item, asking nothing', async () => {
    const item = { id: 'a', patient_id: '01J9X4T2R7N5P3M1K8H6G4F2D0' };
    const out = await WITH_PATIENT.apply!(z, bundleOf({ include_patient: 'no' }), item, { listed: false });
    expect(out).toBe(item);
    expect(out!.patient).toEqual(noPatient('off'));
  });

  it('with it on, still asks nothing for an item without a patient id (an empty patient, not_found)', async () => {
    const out = await WITH_PATIENT.apply!(z, bundleOf({}), { id: 'a', patient_id: null }, { listed: false });
    expect(out!.patient).toEqual(noPatient('not_found'));
  });

  it('a Transfer page without the patient asks nothing, and its page size is the patient-read one only when on', async () => {
    const page = await WITH_PATIENT.applyPage!(z, bundleOf({ include_patient: false }), [
      { id: 1 },
      { id: 2 },
    ]);
    expect(page).toEqual([
      { id: 1, patient: noPatient('off') },
      { id: 2, patient: noPatient('off') },
    ]);
    expect(WITH_PATIENT.transferPageSize!({})).toBe(SETTINGS.transferPageSizeWithPatient);
    expect(WITH_PATIENT.transferPageSize!({ include_patient: false })).toBeUndefined();
  });

  it('declares its input, output fields and sample', () => {
    expect(WITH_PATIENT.inputFields!.map((f) => f.key)).toEqual(['include_patient']);
    expect(WITH_PATIENT.outputFields!.every((f) => f.key.startsWith('patient__'))).toBe(true);
    expect(WITH_PATIENT.sample).toEqual({ patient: PATIENT_SAMPLE });
  });
});

describe('unknownInTransfer', () => {
  const blanks = unknownInTransfer({ paid_at: null, previous_status: null });
  it('adds its keys, empty, to a Transfer item only', () => {
    expect(blanks.fromData!({}, { id: 1 }, { transfer: false })).toEqual({});
    expect(blanks.fromData!({}, { id: 1 }, { transfer: true })).toEqual({
      paid_at: null,
      previous_status: null,
    });
  });

  it('leaves a key the item already has', () => {
    expect(blanks.fromData!({}, { paid_at: '2026-11-21T11:24:10+03:00' }, { transfer: true })).toEqual({
      previous_status: null,
    });
  });
});

describe('checkInputs', () => {
  it('runs every extension’s check in order, and a refusal stops the rest', () => {
    const seen: string[] = [];
    const checking = (name: string, refuse = false): HookExtension => ({
      check: () => {
        seen.push(name);
        if (refuse) throw new Error(`${name} refused`);
      },
    });
    checkInputs([checking('a'), {}, checking('b')], z, bundleOf({}));
    expect(seen).toEqual(['a', 'b']);
    expect(() => checkInputs([checking('c', true), checking('d')], z, bundleOf({}))).toThrow('c refused');
    expect(seen).toEqual(['a', 'b', 'c']);
    expect(() => checkInputs(undefined, z, bundleOf({}))).not.toThrow();
  });
});
