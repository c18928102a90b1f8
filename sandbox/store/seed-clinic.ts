/** The clinic group's seed (sandbox/README.md, Seed data). */
import { isoLocal, type Random } from '../ids';
import SEED from '../data/seed.json';
import { addPayment, newClaim, newInvoice, nextFileNo } from './money';
import { newAppointment, newPatient } from './records';
import { DAY, idsAt, MIN, times, treatment } from './seed';
import {
  newClinicData,
  type Appointment,
  type Claim,
  type AppointmentStatus,
  type ClinicData,
  type Invoice,
} from './types';

/** Ids of seeded objects tests and the README point at ('' where a sandbox without business data has none). */
const clinicRefs = (data: ClinicData) => {
  const at = SEED.clinic.refsAt;
  return {
    ...SEED.clinic.refs,
    ...idsAt(data.practitioners, at.practitioners, ''),
    ...idsAt(data.patients, at.patients, ''),
    ...idsAt(data.appointments, at.appointments, ''),
    ...idsAt(data.invoices, at.invoices, ''),
    ...idsAt(data.claims, at.claims, ''),
  };
};

export const seedClinic = (now: number, random: Random, full: boolean) => {
  const fixed = Date.parse('2024-03-01T09:00:00+03:00');
  const practitioners = SEED.clinic.practitioners.map((p) => ({ id: random.ulid(fixed), ...p }));
  const data = newClinicData(SEED.clinic.refs.tenantId, practitioners);
  if (!full) return { data, refs: clinicRefs(data) };

  for (const [i, { created: at, ...person }] of SEED.clinic.patients.entries()) {
    const created = Date.parse(`${at}+03:00`);
    const updated = Math.min(now - DAY * (3 + i), created + 400 * DAY);
    data.patients.push(
      newPatient({
        id: random.ulid(created),
        file_no: nextFileNo(data, person.branch_id),
        ...(person as Partial<ClinicData['patients'][number]>),
        created_at: isoLocal(created),
        updated_at: isoLocal(Math.max(created, updated)),
      }),
    );
  }
  const erased = data.patients[12]!;
  erased.erased_at = erased.updated_at = isoLocal(now - 20 * DAY);
  erased.contact_consent = false;

  const t = times(now);
  const previous = SEED.clinic.statusBefore as Partial<Record<string, AppointmentStatus>>;
  for (const [i, row] of SEED.clinic.appointments.entries()) {
    const start = row.in_min !== undefined ? t.rel(row.in_min) : t.day(row.day!, row.at!);
    const practitioner = data.practitioners[row.practitioner]!;
    const status = row.status as AppointmentStatus;
    const end = start + (data.appointmentTypes.find((x) => x.id === row.type)?.duration_min ?? 30) * MIN;
    const created = Math.min(start - (2 + (i % 5)) * DAY, now - 2 * 60 * MIN);
    const cancelledAt = status === 'cancelled' ? Math.min(start - DAY, now - 30 * MIN) : null;
    // The last appointment.updated: a move to another day (the patient asked), else the status before this one.
    const movedFrom = row.moved_from && t.day(row.moved_from.day, row.moved_from.at);
    const before = previous[status];
    const changes = movedFrom
      ? {
          starts_at: [isoLocal(movedFrom), isoLocal(start)],
          ends_at: [isoLocal(movedFrom + end - start), isoLocal(end)],
        }
      : before
        ? { status: [before, status] }
        : null;
    const changedAt = movedFrom
      ? Math.min(created + 60 * MIN, now - 30 * MIN)
      : status === 'completed'
        ? Math.min(end, now)
        : before
          ? Math.min(Math.max(start - 10 * MIN, created + MIN), now)
          : null;
    data.appointments.push(
      newAppointment({
        id: random.ulid(created),
        patient_id: data.patients[row.patient]!.id,
        // The front desk books in the branch of the practitioner.
        branch_id: practitioner.branch_id,
        practitioner_id: practitioner.id,
        appointment_type_id: row.type,
        room_id: SEED.clinic.practitionerRooms[row.practitioner],
        status,
        starts_at: isoLocal(start),
        ends_at: isoLocal(end),
        source: row.source,
        external_ref: row.external_ref ?? null,
        note: row.note,
        cancel_reason: row.cancel_reason ?? null,
        cancelled_at: cancelledAt === null ? null : isoLocal(cancelledAt),
        created_at: isoLocal(created),
        updated_at: isoLocal(cancelledAt ?? changedAt ?? created),
        last_changes: changes as Appointment['last_changes'],
        last_changed_at: changes && changedAt !== null ? isoLocal(changedAt) : null,
      }),
    );
  }

  for (const bill of SEED.clinic.invoices) {
    const a = data.appointments[bill.appointment]!;
    const issued = Math.min(Date.parse(a.ends_at) + 15 * MIN, now - 5 * MIN);
    const inv = newInvoice(data, random, issued, {
      patient_id: a.patient_id,
      branch_id: a.branch_id,
      buyer_kind: bill.buyer as Invoice['buyer_kind'],
      lines: bill.lines.map(treatment),
      discount: bill.discount ?? 0,
    });
    for (const [method, scheme, amount] of bill.payments as Array<[string, string | null, number | 'due']>) {
      const last4 = method === 'card' ? String(1000 + random.int(9000)) : null;
      const paid = amount === 'due' ? inv.due_halalas : amount;
      addPayment(inv, { method, scheme, last4, amount_halalas: paid }, issued + 4 * MIN);
    }
    if (bill.void) inv.status = 'void';
    data.invoices.push(inv);
  }

  for (const c of SEED.clinic.claims) {
    const inv = data.invoices[c.invoice]!;
    const updated = Math.min(Date.parse(inv.issued_at) + 2 * DAY, now - 60 * MIN);
    const approved = Math.round(inv.total_halalas * c.share);
    data.claims.push({
      ...newClaim(random, inv, c.payer, updated),
      status: c.status,
      previous_status: c.previous_status,
      outcome: c.outcome as Claim['outcome'],
      approved_halalas: approved,
      patient_share_halalas: inv.total_halalas - approved,
    });
  }
  return { data, refs: clinicRefs(data) };
};
