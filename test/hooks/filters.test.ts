/* Trigger filters (lib/hooks/filters.ts): what a Zap builder's choices let through, and what the lists are asked. */
import { EVENTS } from '../../lib/hooks/events';
import type { HookEvent } from '../../lib/hooks/types';
import {
  APPOINTMENT_FILTERS,
  CLINIC_BRANCH,
  NEW_STATUS,
  TO_STATUS,
  filterInputFields,
  filterQuery,
  passes,
} from '../../lib/hooks/filters';
import { data, replay, type Json } from '../fixtures';
import { envelopeOf, forgetDeliveries, op, run, SECRET, subscribeData, TARGET_PATH } from '../support/hooks';
import { AUTH, clinicApi, clinicPath, delivery, useNock } from '../helpers';

useNock();
afterEach(() => jest.useRealTimers());
beforeEach(forgetDeliveries);

describe('passes', () => {
  const appointment = { branch_id: 2, practitioner_id: 'P1', status: 'arrived', changed_fields: ['status'] };

  it('lets everything through when the filters are blank', () => {
    for (const input of [
      {},
      { branch_id: null },
      { branch_id: '' },
      { branch_id: [] },
      { branch_id: ' , ' },
    ]) {
      expect(passes(APPOINTMENT_FILTERS, input, appointment)).toBe(true);
    }
  });

  it('compares the chosen values with the object’s field, as a list or as mapped comma-separated text', () => {
    expect(passes([CLINIC_BRANCH], { branch_id: '2' }, appointment)).toBe(true);
    expect(passes([CLINIC_BRANCH], { branch_id: 2 }, appointment)).toBe(true);
    expect(passes([CLINIC_BRANCH], { branch_id: '1' }, appointment)).toBe(false);
    expect(passes([CLINIC_BRANCH], { branch_id: ['1', '2'] }, appointment)).toBe(true);
    expect(passes([CLINIC_BRANCH], { branch_id: '1, 2' }, appointment)).toBe(true);
    expect(passes([CLINIC_BRANCH], { branch_id: '1,3' }, appointment)).toBe(false);
    expect(passes([CLINIC_BRANCH], { branch_id: '2' }, { branch_id: null })).toBe(false);
  });

  it('needs every filter set to pass', () => {
    expect(passes(APPOINTMENT_FILTERS, { branch_id: '2', practitioner_id: 'P1' }, appointment)).toBe(true);
    expect(passes(APPOINTMENT_FILTERS, { branch_id: '2', practitioner_id: 'P2' }, appointment)).toBe(false);
  });

  it('a filter on what changed needs the field among changed_fields, except for a Transfer object', () => {
    const stayed = { ...appointment, changed_fields: ['starts_at'] };
    expect(passes([NEW_STATUS], { new_status: ['arrived'] }, appointment)).toBe(true);
    expect(passes([NEW_STATUS], { new_status: ['arrived'] }, stayed)).toBe(false);
    expect(passes([NEW_STATUS], { new_status: ['arrived'] }, { status: 'arrived' })).toBe(false);
    // A listed object has no record of its changes: it holds the status now.
    expect(passes([NEW_STATUS], { new_status: ['arrived'] }, { status: 'arrived' }, { transfer: true })).toBe(
      true,
    );
    expect(passes([NEW_STATUS], { new_status: ['arrived'] }, { status: 'booked' }, { transfer: true })).toBe(
      false,
    );
  });
});

describe('filterQuery', () => {
  it('asks the list for a single chosen value of a filter that has a parameter', () => {
    expect(filterQuery(APPOINTMENT_FILTERS, { branch_id: '2', practitioner_id: 'P1' })).toEqual({
      branch_id: '2',
      practitioner_id: 'P1',
    });
    expect(filterQuery([NEW_STATUS], { new_status: ['arrived'] })).toEqual({ status: 'arrived' });
  });

  it('leaves to passes what the list cannot take: several values, no parameter, a branch that is not a number', () => {
    expect(filterQuery([CLINIC_BRANCH], { branch_id: ['1', '2'] })).toEqual({});
    expect(filterQuery([TO_STATUS], { to_status: 'accepted' })).toEqual({});
    expect(filterQuery([CLINIC_BRANCH], { branch_id: 'main' })).toEqual({});
    expect(filterQuery([CLINIC_BRANCH], { branch_id: null })).toEqual({});
  });
});

describe('filterInputFields', () => {
  it('offers each filter as an optional input: a dropdown filled as it opens, or a list of fixed choices', () => {
    const [branch, status] = filterInputFields([CLINIC_BRANCH, NEW_STATUS]);
    expect(branch).toMatchObject({
      key: 'branch_id',
      required: false,
      choices: { perform: expect.any(Function) },
    });
    expect(branch).not.toHaveProperty('dynamic');
    expect(branch).not.toHaveProperty('list');
    expect(status).toMatchObject({ key: 'new_status', list: true, choices: NEW_STATUS.choices });
  });
});

describe('trigger filters', () => {
  const created = EVENTS.find((e) => e.key === 'appointment_created')!;
  /** The event's recorded delivery, as a new delivery each time (the dedupe would drop a repeat). */
  const deliver = (def: HookEvent, inputData: object) => {
    forgetDeliveries();
    return run<unknown[]>(op(def.key).perform, {
      authData: AUTH,
      inputData: { include_patient: false, ...inputData },
      subscribeData: subscribeData(def),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope: envelopeOf(def) }),
    });
  };

  it('fires only for the chosen branch, practitioner and appointment type', async () => {
    const data = envelopeOf(created).data;
    const branch = Number(data.branch_id);
    const type = Number(data.appointment_type_id);
    expect(await deliver(created, { branch_id: String(branch) })).toHaveLength(1);
    expect(await deliver(created, { branch_id: String(branch + 1) })).toHaveLength(0);
    expect(await deliver(created, { practitioner_id: data.practitioner_id })).toHaveLength(1);
    expect(data.practitioner_id).not.toBe('01J9X4T2R7N5P3M1K8H6G4F2D1');
    expect(await deliver(created, { practitioner_id: '01J9X4T2R7N5P3M1K8H6G4F2D1' })).toHaveLength(0);
    expect(await deliver(created, { appointment_type_id: type })).toHaveLength(1);
    expect(await deliver(created, { appointment_type_id: type + 1, branch_id: '' })).toHaveLength(0);
  });

  it('filters the cashier receipts by branch', async () => {
    const receipt = EVENTS.find((e) => e.key === 'receipt_issued')!;
    const branch = Number(envelopeOf(receipt).data.branch_id);
    expect(await deliver(receipt, { branch_id: branch })).toHaveLength(1);
    expect(await deliver(receipt, { branch_id: branch + 1 })).toHaveLength(0);
  });

  it('applies the filters to the samples too', async () => {
    const pick = { path: '/webhooks/events/appointment.created/recent', query: { limit: '3' } };
    const recent: Json[] = data('recent-events', pick);
    // The recorded list holds appointments of both clinic branches.
    expect(new Set(recent.map((e) => e.data.branch_id)).size).toBeGreaterThan(1);
    clinicApi()
      .get(clinicPath('/webhooks/events/appointment.created/recent'))
      .query({ limit: 3 })
      .reply(replay('recent-events', pick));
    const items = await run<Array<{ id: string }>>(op('appointment_created').performList, {
      authData: AUTH,
      inputData: { branch_id: '2', include_patient: false },
    });
    expect(items.map((i) => i.id)).toEqual(
      recent.filter((e) => e.data.branch_id === 2).map((e) => e.data.id),
    );
  });
});
