/** The clinic's objects as the interface shows them, what happens to them, and their recent list. */
import { ApiError, Checker, byId, requireAbility } from './errors';
import { isoLocal, omit, parseDateTime } from './ids';
import type { Appointment, AppointmentStatus, ClinicData, Invoice, Patient } from './store/types';
import { nextFileNo } from './store/money';
import { newAppointment, newPatient } from './store/records';
import type { RouteContext } from './routing';
import { body, op, S, type BodyOf } from './validate';
import { CLINIC_EVENTS, sampleFor } from './webhooks';
import type { OpContext, World } from './world';

const CANCEL_REASONS = ['patient_request', 'clinic', 'no_show', 'other'] as const;

/** Contact fields follow consent and are absent after erasure. */
export const patientView = (p: Patient) => {
  const contact = p.contact_consent && !p.erased_at;
  const hidden = (['phone', 'email'] as const).filter((k) => !contact || !p[k]);
  return omit(p, 'contact_consent', 'erased_at', ...hidden);
};

export const appointmentView = (a: Appointment) => omit(a, 'client_id', 'last_changes', 'last_changed_at');

/** Line fields that deliveries and samples carry (clinic spec §6), never the interface's answers. */
const EVENT_LINE_FIELDS = ['code', 'description', 'tooth', 'surfaces'] as const;

/** The invoice as the interface answers it: no paid_at, no line fields that only deliveries carry. */
export const invoiceView = (inv: Invoice) => ({
  ...omit(inv, 'paid_at'),
  lines: inv.lines.map((l) => omit(l, ...EVENT_LINE_FIELDS)),
});

/** The invoice as deliveries carry it: paid_at once paid. */
export const invoiceEvent = (inv: Invoice) =>
  structuredClone(inv.status === 'paid' ? inv : omit(inv, 'paid_at'));

export const emit = (world: World, event: string, data: Record<string, unknown>, subjects: string[]) =>
  world.webhooks.emit({ api: 'clinic', tenantId: world.store.clinic.tenantId, event, data, subjects });

const emitAppointment = (world: World, event: string, a: Appointment, extra = {}) =>
  emit(world, event, { ...appointmentView(a), ...extra }, [a.patient_id]);

/** The statuses of an appointment that holds its practitioner and room. */
const ACTIVE: readonly AppointmentStatus[] = ['booked', 'confirmed', 'arrived', 'in_progress', 'completed'];
export const APPOINTMENT_STATUSES = [...ACTIVE, 'cancelled', 'no_show'] as const;

/** A time and place to book: the branch, the times, and the practitioner or the appointment moved if any. */
type Slot = Pick<Appointment, 'branch_id' | 'starts_at' | 'ends_at'> & Partial<Appointment>;

/** Another appointment that holds its practitioner and room during the slot. */
const holds = (a: Appointment, slot: Slot) =>
  a.id !== slot.id &&
  ACTIVE.includes(a.status) &&
  Date.parse(a.starts_at) < Date.parse(slot.ends_at) &&
  Date.parse(a.ends_at) > Date.parse(slot.starts_at);

/** A free practitioner (the one named, else one of the field in the branch) and room of the branch. */
const findSlot = (clinic: ClinicData, want: Slot, field: string) => {
  const held = clinic.appointments.filter((a) => holds(a, want));
  const ofField = (specialty: string) => (specialty === 'dermatology') === (field === 'dermatology');
  const candidates = want.practitioner_id
    ? clinic.practitioners.filter((p) => p.id === want.practitioner_id)
    : clinic.practitioners.filter((p) => p.branch_id === want.branch_id && ofField(p.specialty));
  const practitioner = candidates.find((p) => !held.some((a) => a.practitioner_id === p.id));
  const room = clinic.rooms.find(
    (r) => r.branch_id === want.branch_id && !held.some((a) => a.room_id === r.id),
  );
  if (!practitioner || !room) throw new ApiError('slot_taken', { starts_at: want.starts_at });
  return { practitioner, room };
};

/** AppointmentWrite; the front desk's booking takes it too. */
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

const BOOKING_BODY = body(BOOKING, BOOKING_REQUIRED);

export const bookAppointment = (ctx: OpContext, clientId: number | null, source: string) => {
  const { world, lang } = ctx;
  const clinic = world.store.clinic;
  const b = ctx.body as BodyOf<typeof BOOKING_BODY>;
  const c = new Checker(lang);
  const branch = clinic.branches.find((x) => x.id === b.branch_id);
  if (!branch) c.add('branch_id', 'unknown');
  const type = clinic.appointmentTypes.find((t) => t.id === b.appointment_type_id);
  if (!type) c.add('appointment_type_id', 'unknown');
  const practitioner = clinic.practitioners.find((p) => p.id === b.practitioner_id);
  if (b.practitioner_id && practitioner?.branch_id !== b.branch_id) c.add('practitioner_id', 'unknown');
  let patient = clinic.patients.find((p) => p.id === b.patient_id && !p.erased_at);
  if (b.patient_id && !patient) c.add('patient_id', 'unknown');
  if (!b.patient_id && !b.patient_phone) c.add('patient_id', 'patient_needed');
  c.done();
  if (!branch || !type) throw new ApiError('validation_failed');
  const repeat = clinic.appointments.find(
    (a) => clientId !== null && a.client_id === clientId && a.external_ref === b.external_ref,
  );
  if (repeat) return { data: appointmentView(repeat), duplicate: true };

  const startMs = parseDateTime(b.starts_at) as number;
  const times = { starts_at: isoLocal(startMs), ends_at: isoLocal(startMs + type.duration_min * 60_000) };
  const want = { branch_id: branch.id, practitioner_id: b.practitioner_id, ...times };
  const slot = findSlot(clinic, want, type.field);
  const now = world.clock.now();
  const at = isoLocal(now);
  patient ??= clinic.patients.find((p) => p.phone === b.patient_phone && !p.erased_at);
  if (!patient) {
    const phone = b.patient_phone as string;
    // One name, in the language its letters are written in: the other stays empty, never a copy of it.
    const name = (b.patient_name as string | undefined) ?? phone;
    const arabic = /\p{Script=Arabic}/u.test(name);
    patient = newPatient({
      id: world.random.ulid(now),
      file_no: nextFileNo(clinic, branch.id),
      name_ar: arabic ? name : '',
      name_en: arabic ? '' : name,
      phone,
      contact_consent: true,
      branch_id: branch.id,
      created_at: at,
      updated_at: at,
    });
    clinic.patients.push(patient);
  }
  const appointment = newAppointment({
    id: world.random.ulid(now),
    patient_id: patient.id,
    branch_id: branch.id,
    practitioner_id: slot.practitioner.id,
    appointment_type_id: type.id,
    room_id: slot.room.id,
    ...times,
    source,
    external_ref: b.external_ref,
    note: b.note,
    created_at: at,
    updated_at: at,
    client_id: clientId,
  });
  clinic.appointments.push(appointment);
  const events = [emitAppointment(world, 'appointment.created', appointment)];
  return { data: appointmentView(appointment), events };
};

/** POST /appointments: booked by the calling API client. */
export const booking = op(BOOKING_BODY, (ctx: RouteContext) => bookAppointment(ctx, ctx.client.id, 'api'));

/** POST /appointments/{id}/cancel (clinic spec §3). */
const CANCELLING = body({ reason: S.oneOf(CANCEL_REASONS) }, [], true);

export const cancelAppointment = op(CANCELLING, ({ world, params }: OpContext, b) => {
  const a = byId(world.store.clinic.appointments, params.id);
  const events = a.status === 'cancelled' ? [] : [cancel(world, a, b?.reason ?? 'other')];
  return { data: appointmentView(a), events };
});

/** Cancels (appointment.cancelled); a completed or in-progress one only when forced (sandbox-only). */
const cancel = (world: World, a: Appointment, reason: string, force = false) => {
  if (!force && (a.status === 'completed' || a.status === 'in_progress')) {
    throw new ApiError('appointment_locked', { status: a.status });
  }
  const at = isoLocal(world.clock.now());
  Object.assign(a, { status: 'cancelled', cancel_reason: reason, cancelled_at: at, updated_at: at });
  return emitAppointment(world, 'appointment.cancelled', a);
};

/** PATCH /sandbox/clinic/appointments/{id}: the front desk sets a status, reschedules or adds a note. */
const APPOINTMENT_CHANGE = body({
  status: S.oneOf(APPOINTMENT_STATUSES),
  starts_at: S.dateTime,
  note: S.nullable(S.str(2000)),
  cancel_reason: S.oneOf(CANCEL_REASONS),
  force: S.bool,
});

export const changeAppointment = op(APPOINTMENT_CHANGE, ({ world, params }: OpContext, b) => {
  const clinic = world.store.clinic;
  const a = byId(clinic.appointments, params.id);
  const { status, force = false } = b;
  const answer = (events: unknown[]) => ({ data: appointmentView(a), events });
  if (status === 'cancelled' && a.status !== 'cancelled') {
    return answer([cancel(world, a, b.cancel_reason ?? 'clinic', force)]);
  }

  const next: Partial<Appointment> = status ? { status } : {};
  if (b.starts_at !== undefined) {
    const startMs = parseDateTime(b.starts_at) as number;
    const type = byId(clinic.appointmentTypes, a.appointment_type_id);
    next.starts_at = isoLocal(startMs);
    next.ends_at = isoLocal(startMs + type.duration_min * 60_000);
    if (!force) findSlot(clinic, { ...a, ...next }, type.field);
  }
  if (b.note !== undefined && b.note !== '') next.note = b.note;
  const changes = Object.fromEntries(
    Object.entries(next)
      .filter(([field, value]) => value !== a[field as keyof Appointment])
      .map(([field, value]) => [field, [a[field as keyof Appointment], value]]),
  );
  if (!Object.keys(changes).length) return answer([]);
  const at = isoLocal(world.clock.now());
  Object.assign(a, next, { updated_at: at, last_changes: changes, last_changed_at: at });
  return answer([emitAppointment(world, 'appointment.updated', a, { changes })]);
});

/** POST /sandbox/clinic/patients/{id}/erase: the deliveries about the patient lose their bodies too. */
export const erasePatient = ({ world, params }: OpContext) => {
  const p = byId(world.store.clinic.patients, params.id);
  if (p.erased_at) return { data: patientView(p), events: [] };
  const at = isoLocal(world.clock.now());
  Object.assign(p, { phone: null, email: null, contact_consent: false, erased_at: at, updated_at: at });
  world.webhooks.redactSubject(p.id);
  return { data: patientView(p), events: [emit(world, 'patient.erased', { id: p.id, erased_at: at }, [])] };
};

/* The recent list: per event, each row as [id, when it happened (null: not), what its delivery carried]. */
type Recent = [id: string, at: string | null, data: object];

const recentSources: Record<string, (clinic: ClinicData) => Recent[]> = {
  // As booked, not as a later cancellation or visit left it (times and places moved since show as now).
  'appointment.created': (c) =>
    c.appointments.map((a) => {
      const booked = { status: 'booked', cancel_reason: null, cancelled_at: null, updated_at: a.created_at };
      return [a.id, a.created_at, { ...appointmentView(a), ...booked }];
    }),
  'appointment.updated': (c) =>
    c.appointments.map((a) => [a.id, a.last_changed_at, { ...appointmentView(a), changes: a.last_changes }]),
  'appointment.cancelled': (c) =>
    c.appointments.map((a) => [a.id, a.status === 'cancelled' ? a.cancelled_at : null, appointmentView(a)]),
  'invoice.issued': (c) => c.invoices.map((i) => [i.id, i.issued_at, invoiceEvent(i)]),
  'invoice.paid': (c) =>
    c.invoices.map((i) => [i.id, i.status === 'paid' ? i.paid_at : null, invoiceEvent(i)]),
  'claim.updated': (c) => c.claims.map((x) => [x.id, x.updated_at, x]),
  'patient.erased': (c) => c.patients.map((p) => [p.id, p.erased_at, { id: p.id, erased_at: p.erased_at }]),
};

/** The newest first, each in the envelope its delivery had (clinic spec §4, webhooks rule 3). */
export const recentEvents = ({ world, client, params, query }: RouteContext) => {
  const event = params.event ?? '';
  const info = CLINIC_EVENTS[event];
  if (!info) throw new ApiError('event_unknown', { event });
  requireAbility(client, info.ability);
  const clinic = world.store.clinic;
  const data = (recentSources[event]?.(clinic) ?? [])
    .flatMap(([id, at, carried]) => (at && Date.parse(at) <= world.clock.now() ? [{ id, at, carried }] : []))
    .sort((a, b) => Date.parse(b.at) - Date.parse(a.at) || (a.id < b.id ? 1 : -1))
    .slice(0, query.limit)
    .map((r) => ({
      id: `${event}:${r.id}`,
      event,
      tenant_id: clinic.tenantId,
      occurred_at: r.at,
      api_version: 'v1',
      data: r.carried,
    }));
  return { data, meta: { event, count: data.length, sample: sampleFor('clinic', event, clinic.tenantId) } };
};
