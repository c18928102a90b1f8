/* Appointment changes (lib/hooks/changes.ts): what an appointment.updated delivery says changed, as plain fields. */
import { EVENTS } from '../../lib/hooks/events';
import { WITH_CHANGES, appointmentChanges, moved, statusBecame } from '../../lib/hooks/changes';
import { envelopeOf, forgetDeliveries, op, run, SECRET, subscribeData, TARGET_PATH } from '../support/hooks';
import { AUTH, delivery, useNock } from '../helpers';

useNock();
afterEach(() => jest.useRealTimers());
beforeEach(forgetDeliveries);

describe('appointmentChanges', () => {
  it('lists the changed appointment fields and their previous plain values', () => {
    const out = appointmentChanges({
      changes: { status: ['booked', 'confirmed'], starts_at: [null, '2026-11-30T09:00:00+03:00'] },
    });
    expect([...(out.changed_fields as string[])].sort()).toEqual(['starts_at', 'status']);
    expect(out).toEqual({
      changed_fields: out.changed_fields,
      previous_status: 'booked',
      previous_starts_at: null,
      previous_starts_at_text_en: null,
      previous_starts_at_text_ar: null,
    });
  });

  it('gives a changed start in words too, in the clinic’s time whatever offset it was written in', () => {
    for (const before of ['2026-11-24T10:30:00+03:00', '2026-11-24T07:30:00Z']) {
      expect(
        appointmentChanges({ changes: { starts_at: [before, '2026-11-25T16:00:00+03:00'] } }),
      ).toMatchObject({
        previous_starts_at: before,
        previous_starts_at_text_en: 'Tuesday 24 November 2026, 10:30 AM',
        previous_starts_at_text_ar: 'الثلاثاء 24 نوفمبر 2026، 10:30 ص',
      });
    }
    // No words when the start did not change.
    expect(appointmentChanges({ changes: { status: ['booked', 'confirmed'] } })).not.toHaveProperty(
      'previous_starts_at_text_en',
    );
  });

  it('passes on nothing outside the appointment’s fields, nor an old value that is not a plain value', () => {
    const out = appointmentChanges({
      changes: {
        diagnosis: ['', 'secret'],
        note: [{ diagnosis: 'secret' }, 'x'],
        id: ['a', 'b'],
        status: 'arrived',
      },
    });
    expect(out).toEqual({ changed_fields: ['note'] });
  });

  it('gives an empty list for data without changes', () => {
    expect(appointmentChanges({})).toEqual({ changed_fields: [] });
    expect(appointmentChanges({ changes: 'status' })).toEqual({ changed_fields: [] });
  });

  it('is what WITH_CHANGES adds to an item', () => {
    const data = { changes: { status: ['booked', 'confirmed'] } };
    expect(WITH_CHANGES.fromData!(data, {}, { transfer: false })).toEqual(appointmentChanges(data));
  });
});

describe('statusBecame', () => {
  const arrived = statusBecame('arrived');
  it('holds only when changes.status moved to the status from another', () => {
    expect(arrived({ changes: { status: ['confirmed', 'arrived'] } })).toBe(true);
    expect(arrived({ changes: { status: ['arrived', 'arrived'] } })).toBe(false);
    expect(arrived({ changes: { status: ['arrived', 'completed'] } })).toBe(false);
    expect(arrived({ status: 'arrived', changes: { starts_at: ['a', 'b'] } })).toBe(false);
    expect(arrived({ status: 'arrived' })).toBe(false);
    expect(arrived({ changes: Object.create({ status: ['confirmed', 'arrived'] }) })).toBe(false);
  });
});

describe('moved', () => {
  const rescheduled = moved('starts_at');
  it('holds when the start names another instant, not when one instant is spelled twice', () => {
    expect(
      rescheduled({ changes: { starts_at: ['2026-11-24T10:30:00+03:00', '2026-11-25T10:30:00+03:00'] } }),
    ).toBe(true);
    expect(
      rescheduled({ changes: { starts_at: ['2026-11-24T10:30:00+03:00', '2026-11-24T07:30:00Z'] } }),
    ).toBe(false);
    expect(
      rescheduled({ changes: { starts_at: ['2026-11-24T10:30:00+03:00', '2026-11-24T10:30+0300'] } }),
    ).toBe(false);
    expect(
      rescheduled({ changes: { starts_at: ['2026-11-24T10:30:00.000+03:00', '2026-11-24T10:30:00+03:00'] } }),
    ).toBe(false);
    // A first start (from nothing) and text that is no date-time are compared as they are.
    expect(rescheduled({ changes: { starts_at: [null, '2026-11-24T10:30:00+03:00'] } })).toBe(true);
    expect(rescheduled({ changes: { starts_at: ['x', 'x'] } })).toBe(false);
    expect(rescheduled({ changes: { status: ['booked', 'confirmed'] } })).toBe(false);
  });
});

describe('appointment_updated changes', () => {
  const def = EVENTS.find((e) => e.key === 'appointment_updated')!;
  it('lists the changed fields and their previous values, and nothing outside the whitelist', async () => {
    const envelope = envelopeOf(def);
    const recorded = envelope.data.changes as Record<string, [unknown, unknown]>;
    expect(Object.keys(recorded)).toEqual(expect.arrayContaining(['status', 'starts_at']));
    // hand-built addition to the recorded delivery: a clinical field and its change, which must not leak.
    envelope.data = {
      ...envelope.data,
      changes: { ...recorded, diagnosis: ['', 'secret'], note: [{ diagnosis: 'secret' }, 'Follow-up'] },
      diagnosis: 'secret',
    };
    const [item] = await run<Array<Record<string, unknown>>>(op(def.key).perform, {
      authData: AUTH,
      inputData: { include_patient: false },
      subscribeData: subscribeData(def),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
    });
    expect([...(item!.changed_fields as string[])].sort()).toEqual([...Object.keys(recorded), 'note'].sort());
    expect(item).not.toHaveProperty('previous_note'); // an old value that is not a plain value is not passed on
    expect(item!.previous_status).toBe(recorded.status![0]);
    expect(item!.previous_starts_at).toBe(recorded.starts_at![0]);
    expect(item!.status).toBe(recorded.status![1]);
    expect(JSON.stringify(item)).not.toMatch(/diagnosis|secret/);
    expect(item).not.toHaveProperty('changes');
  });
});

describe('appointment_rescheduled', () => {
  const def = EVENTS.find((e) => e.key === 'appointment_rescheduled')!;
  const perform = (starts: [unknown, unknown]) => {
    const envelope = envelopeOf(def);
    // hand-built change of the recorded delivery: the start pair the case names.
    envelope.data = { ...envelope.data, starts_at: starts[1], changes: { starts_at: starts } };
    return run<Array<Record<string, unknown>>>(op(def.key).perform, {
      authData: AUTH,
      inputData: { include_patient: false },
      subscribeData: subscribeData(def),
      ...delivery({ secret: SECRET, path: TARGET_PATH, envelope }),
    });
  };

  it('does not fire when changes.starts_at holds one instant in two spellings', async () => {
    await expect(perform(['2026-11-24T10:30:00+03:00', '2026-11-24T07:30:00Z'])).resolves.toEqual([]);
  });

  it('fires with the previous start in words, in the clinic’s time, beside the new start’s', async () => {
    const [item] = await perform(['2026-11-24T07:30:00Z', '2026-11-25T16:00:00+03:00']);
    expect(item).toMatchObject({
      previous_starts_at: '2026-11-24T07:30:00Z',
      previous_starts_at_text_en: 'Tuesday 24 November 2026, 10:30 AM',
      previous_starts_at_text_ar: 'الثلاثاء 24 نوفمبر 2026، 10:30 ص',
      starts_at_text_en: 'Wednesday 25 November 2026, 4:00 PM',
    });
  });
});
