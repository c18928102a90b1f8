/**
 * The clinic's objects as the interface shows them, and what happens to them: booking and cancelling (partner
 * endpoints) and what in life happens at the front desk or in the back office (sandbox-only endpoints).
 */
import { ApiError, Checker, invalidTransition, byId } from './errors';
import { isoLocal, omit, parseDateTime } from './ids';
import type {
  Appointment,
  AppointmentStatus,
  AppointmentType,
  Claim,
  ClinicData,
  Invoice,
  Patient,
} from './store/types';
import { nextFileNo } from './store/money';
import { newAppointment, newPatient } from './store/records';
import { body, op, S, type BodyOf } from './validate';
import type { Emitted } from './webhooks';
import type { OpContext, World } from './world';

export const CANCEL_REASONS = ['patient_request', 'clinic', 'no_show', 'other'] as const;
export const INVOICE_STATUSES = ['issued', 'partially_paid', 'paid', 'void'] as const;

/* Views: exactly the spec's fields (clinic spec §2). */

/** Contact fields follow consent and are absent after erasure. */
export const patientView = (p: Patient) => {
  const contact = p.contact_consent && !p.erased_at;
  const hidden = (['phone', 'email'] as const).filter((k) => !contact || !p[k]);
  return omit(p, 'contact_consent', 'erased_at', ...hidden);
};

/** The stored appointment without what the sandbox keeps beside it (its client, its last changes). */
export const appointmentView = (a: Appointment) => omit(a, 'client_id', 'last_changes', 'last_changed_at');

/** The line fields only deliveries, the recent list and samples carry (clinic spec §6), never the interface's answers. */
const EVENT_LINE_FIELDS = ['code', 'description', 'tooth', 'surfaces'] as const;

/** `api`: the invoice as the interface answers it. `event`: as deliveries carry it, with paid_at once paid. */
export const invoiceView = (inv: Invoice, mode: 'api' | 'event') => {
  const copy = structuredClone(inv);
  const { paid_at: _paidAt, ...billing } = copy;
  if (mode === 'event') return inv.status === 'paid' ? copy : billing;
  return { ...billing, lines: billing.lines.map((l) => omit(l, ...EVENT_LINE_FIELDS)) };
};

export const claimView = (c: Claim) => ({ ...c });

export const emit = (world: World, event: string, data: Record<string, unknown>, subjects: string[]) =>
  world.webhooks.emit({ api: 'clinic', tenantId: world.store.clinic.tenantId, event, data, subjects });

const emitAppointment = (
  world: World,
  event: string,
  a: Appointment,
  changes?: Appointment['last_changes'],
) => emit(world, event, { ...appointmentView(a), ...(changes ? { changes } : {}) }, [a.patient_id]);

const ACTIVE: readonly AppointmentStatus[] = ['booked', 'confirmed', 'arrived', 'in_progress', 'completed'];

const overlaps = (a: Appointment, start: number, end: number) =>
  ACTIVE.includes(a.status) && Date.parse(a.starts_at) < end && Date.parse(a.ends_at) > start;

const findSlot = (
  clinic: ClinicData,
  branchId: number,
  start: number,
  end: number,
  practitionerId: string | undefined,
  field: AppointmentType['field'],
  except?: string,
) => {
  const others = clinic.appointments.filter((a) => a.id !== except && overlaps(a, start, end));
  const ofField = (specialty: string) => (specialty === 'dermatology') === (field === 'dermatology');
  const candidates = practitionerId
    ? clinic.practitioners.filter((p) => p.id === practitionerId)
    : clinic.practitioners.filter((p) => p.branch_id === branchId && ofField(p.specialty));
  const practitioner = candidates.find((p) => !others.some((a) => a.practitioner_id === p.id));
  const room = clinic.rooms.find((r) => r.branch_id === branchId && !others.some((a) => a.room_id === r.id));
  return practitioner && room ? { practitioner, room } : undefined;
};

/**
 * POST /appointments (and the front desk's booking): a free slot only; the patient by id or by phone (a new
 * file for an unknown phone); external_ref is the idempotency key per API client.
 */
export const BOOKING = {
  branch_id: S.int(),
  appointment_type_id: S.int(),
  starts_at: S.dateTime,
  practitioner_id: S.str(),
  patient_id: S.str(),
  patient_phone: S.phone,
  patient_name: S.str(200),
  external_ref: S.str(100),
  note: S.str(2000),
};
export const BOOKING_REQUIRED = ['branch_id', 'appointment_type_id', 'starts_at'] as const;

export type Booking = BodyOf<ReturnType<typeof body<typeof BOOKING, (typeof BOOKING_REQUIRED)[number]>>>;

export const bookAppointment = (
  { world, lang, body }: OpContext,
  clientId: number | null,
  source: string,
) => {
  const clinic = world.store.clinic;
  const b = body as Booking;
  const { practitioner_id: practitionerId, patient_id: patientId, patient_phone: phone } = b;
  const c = new Checker(lang);
  const branch = clinic.branches.find((x) => x.id === b.branch_id);
  if (!branch) c.add('branch_id', 'unknown');
  const type = clinic.appointmentTypes.find((t) => t.id === b.appointment_type_id);
  if (!type) c.add('appointment_type_id', 'unknown');
  const practitioner = practitionerId ? clinic.practitioners.find((p) => p.id === practitionerId) : undefined;
  if (practitionerId && (!practitioner || (branch && practitioner.branch_id !== branch.id))) {
    c.add('practitioner_id', 'unknown');
  }
  let patient = patientId ? clinic.patients.find((p) => p.id === patientId && !p.erased_at) : undefined;
  if (patientId && !patient) c.add('patient_id', 'unknown');
  if (!patientId && !phone) c.add('patient_id', 'patient_needed');
  c.done();
  const startMs = parseDateTime(b.starts_at) as number;
  const { patient_name: patientName, external_ref: externalRef, note } = b;
  if (!branch || !type) throw new ApiError('validation_failed');

  if (externalRef !== undefined && clientId !== null) {
    const existing = clinic.appointments.find(
      (a) => a.client_id === clientId && a.external_ref === externalRef,
    );
    if (existing) return { data: appointmentView(existing), duplicate: true };
  }

  const endMs = startMs + type.duration_min * 60_000;
  const slot = findSlot(clinic, branch.id, startMs, endMs, practitioner?.id, type.field);
  if (!slot) throw new ApiError('slot_taken', { starts_at: isoLocal(startMs) });

  const now = world.clock.now();
  const at = isoLocal(now);
  if (!patient && phone) {
    patient = clinic.patients.find((p) => p.phone === phone && !p.erased_at);
    if (!patient) {
      const name = patientName ?? phone;
      patient = newPatient({
        id: world.random.ulid(now),
        file_no: nextFileNo(clinic, branch.id),
        name_ar: name,
        name_en: name,
        phone,
        contact_consent: true,
        branch_id: branch.id,
        created_at: at,
        updated_at: at,
      });
      clinic.patients.push(patient);
    }
  }
  if (!patient) throw new ApiError('validation_failed');

  const appointment = newAppointment({
    id: world.random.ulid(now),
    patient_id: patient.id,
    branch_id: branch.id,
    practitioner_id: slot.practitioner.id,
    appointment_type_id: type.id,
    room_id: slot.room.id,
    status: 'booked',
    starts_at: isoLocal(startMs),
    ends_at: isoLocal(endMs),
    source,
    external_ref: externalRef,
    note,
    created_at: at,
    updated_at: at,
    client_id: clientId,
  });
  clinic.appointments.push(appointment);
  return {
    data: appointmentView(appointment),
    events: [emitAppointment(world, 'appointment.created', appointment)],
  };
};

/** POST /appointments/{id}/cancel (clinic spec §3). */
const CANCELLING = body({ reason: S.oneOf(CANCEL_REASONS) }, [], true);

export const cancelAppointment = op(CANCELLING, ({ world, params }: OpContext, b) => {
  const a = byId(world.store.clinic.appointments, params.id);
  const reason = b?.reason;
  const events = a.status === 'cancelled' ? [] : [cancel(world, a, reason ?? 'other')];
  return { data: appointmentView(a), events };
});

/** Cancels (appointment.cancelled); a completed or in-progress appointment only when forced (sandbox-only). */
const cancel = (world: World, a: Appointment, reason: string, force = false) => {
  if (!force && (a.status === 'completed' || a.status === 'in_progress')) {
    throw new ApiError('appointment_locked', { status: a.status });
  }
  const at = isoLocal(world.clock.now());
  Object.assign(a, { status: 'cancelled', cancel_reason: reason, cancelled_at: at, updated_at: at });
  return emitAppointment(world, 'appointment.cancelled', a);
};

/** Front-desk moves (sandbox-only). Cancelling goes through cancelAppointment's rules. */
export const APPOINTMENT_MOVES: Record<AppointmentStatus, readonly AppointmentStatus[]> = {
  booked: ['confirmed', 'arrived', 'no_show', 'cancelled'],
  confirmed: ['booked', 'arrived', 'no_show', 'cancelled'],
  arrived: ['in_progress', 'no_show', 'cancelled'],
  in_progress: ['completed'],
  completed: [],
  cancelled: [],
  no_show: [],
};
export const APPOINTMENT_STATUSES = Object.keys(APPOINTMENT_MOVES) as AppointmentStatus[];

/**
 * PATCH /sandbox/clinic/appointments/{id}: status, reschedule (starts_at), practitioner, room or note, as the
 * front desk would; emits appointment.updated with `changes` (or appointment.cancelled).
 */
const APPOINTMENT_CHANGE = body({
  status: S.oneOf(APPOINTMENT_STATUSES),
  starts_at: S.dateTime,
  practitioner_id: S.str(),
  room_id: S.int(),
  note: S.nullable(S.str(2000)),
  cancel_reason: S.oneOf(CANCEL_REASONS),
  force: S.bool,
});

export const changeAppointment = op(APPOINTMENT_CHANGE, ({ world, lang, params }: OpContext, b) => {
  const clinic = world.store.clinic;
  const a = byId(world.store.clinic.appointments, params.id);
  const answer = (events: Emitted[]) => ({ data: appointmentView(a), events });
  const {
    status,
    practitioner_id: practitionerId,
    room_id: roomId,
    cancel_reason: reason,
    force = false,
  } = b;
  const startMs = b.starts_at === undefined ? undefined : parseDateTime(b.starts_at);
  const note = b.note === '' ? undefined : b.note;
  const c = new Checker(lang);
  if (practitionerId && !clinic.practitioners.some((p) => p.id === practitionerId)) {
    c.add('practitioner_id', 'unknown');
  }
  if (roomId !== undefined && !clinic.rooms.some((x) => x.id === roomId)) c.add('room_id', 'unknown');
  if ([status, startMs, practitionerId, roomId, note].every((v) => v === undefined)) {
    c.add('body', 'no_changes');
  }
  c.done();

  if (status && status !== a.status && !force && !APPOINTMENT_MOVES[a.status].includes(status)) {
    throw invalidTransition(a.status, status);
  }
  if (status === 'cancelled' && a.status !== 'cancelled') {
    return answer([cancel(world, a, reason ?? 'clinic', force)]);
  }

  const next: Partial<Appointment> = {};
  if (status !== undefined) next.status = status;
  if (startMs !== undefined) {
    const type = clinic.appointmentTypes.find((t) => t.id === a.appointment_type_id);
    const endMs = startMs + (type?.duration_min ?? 30) * 60_000;
    if (!force) {
      const field = type?.field ?? 'dental';
      const slot = findSlot(
        clinic,
        a.branch_id,
        startMs,
        endMs,
        practitionerId ?? a.practitioner_id,
        field,
        a.id,
      );
      if (!slot) throw new ApiError('slot_taken', { starts_at: isoLocal(startMs) });
    }
    next.starts_at = isoLocal(startMs);
    next.ends_at = isoLocal(endMs);
  }
  if (practitionerId !== undefined) next.practitioner_id = practitionerId;
  if (roomId !== undefined) next.room_id = roomId;
  if (note !== undefined) next.note = note;

  const changes: Record<string, [unknown, unknown]> = {};
  for (const [field, value] of Object.entries(next)) {
    const old = a[field as keyof Appointment];
    if (old !== value) changes[field] = [old, value];
  }
  if (!Object.keys(changes).length) return answer([]);
  const at = isoLocal(world.clock.now());
  Object.assign(a, next, { updated_at: at, last_changes: changes, last_changed_at: at });
  return answer([emitAppointment(world, 'appointment.updated', a, changes)]);
});

/**
 * POST /sandbox/clinic/patients/{id}/erase: the patient's contact data goes, bodies of deliveries about them are
 * removed (payload_redacted), and patient.erased is emitted.
 */
export const erasePatient = ({ world, params }: OpContext) => {
  const p = byId(world.store.clinic.patients, params.id);
  if (p.erased_at) return { data: patientView(p), events: [] };
  const at = isoLocal(world.clock.now());
  p.phone = null;
  p.email = null;
  p.contact_consent = false;
  p.erased_at = at;
  p.updated_at = at;
  world.webhooks.redactSubject(p.id);
  return { data: patientView(p), events: [emit(world, 'patient.erased', { id: p.id, erased_at: at }, [])] };
};

/* The recent list (GET /webhooks/events/{event}/recent): recent objects of each event, newest first. */

interface Recent {
  objectId: string;
  at: string;
  data: Record<string, unknown>;
}

const recentSources: Record<string, (clinic: ClinicData) => Recent[]> = {
  // Each item is wrapped in the event's delivery envelope (clinic spec §4, webhooks rule 3), so it carries what that
  // delivery carried: the appointment as it was booked, not as a later cancellation or visit left it. Times and
  // places moved since are not kept apart, so those show as they are now.
  'appointment.created': (c) =>
    c.appointments.map((a) => ({
      objectId: a.id,
      at: a.created_at,
      data: {
        ...appointmentView(a),
        status: 'booked',
        cancel_reason: null,
        cancelled_at: null,
        updated_at: a.created_at,
      },
    })),
  'appointment.updated': (c) =>
    c.appointments
      .filter((a) => a.last_changes && a.last_changed_at)
      .map((a) => ({
        objectId: a.id,
        at: a.last_changed_at ?? a.updated_at,
        data: { ...appointmentView(a), changes: a.last_changes },
      })),
  'appointment.cancelled': (c) =>
    c.appointments
      .filter((a) => a.status === 'cancelled')
      .map((a) => ({ objectId: a.id, at: a.cancelled_at ?? a.updated_at, data: appointmentView(a) })),
  'invoice.issued': (c) =>
    c.invoices.map((i) => ({ objectId: i.id, at: i.issued_at, data: invoiceView(i, 'event') })),
  'invoice.paid': (c) =>
    c.invoices
      .filter((i) => i.status === 'paid')
      .map((i) => ({ objectId: i.id, at: i.paid_at ?? i.issued_at, data: invoiceView(i, 'event') })),
  'claim.updated': (c) => c.claims.map((x) => ({ objectId: x.id, at: x.updated_at, data: claimView(x) })),
  'patient.erased': (c) =>
    c.patients
      .filter((p) => p.erased_at)
      .map((p) => ({ objectId: p.id, at: p.erased_at ?? '', data: { id: p.id, erased_at: p.erased_at } })),
};

export const recentEvents = (world: World, event: string, limit: number) => {
  const source = recentSources[event];
  const clinic = world.store.clinic;
  if (!source) return [];
  return source(clinic)
    .filter((r) => Date.parse(r.at) <= world.clock.now())
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || (a.objectId < b.objectId ? 1 : -1))
    .slice(0, limit)
    .map((r) => ({
      id: `${event}:${r.objectId}`,
      event,
      tenant_id: clinic.tenantId,
      occurred_at: r.at,
      api_version: 'v1',
      data: r.data,
    }));
};
