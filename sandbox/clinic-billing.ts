/**
 * Invoices and insurance claims as the clinic issues, pays, voids and settles them (clinic spec §2 and §4), with the
 * events each change emits.
 */
import { ApiError, Checker, type Lang } from './errors';
import { isoLocal, dateLocal } from './ids';
import type { Claim, Invoice } from './store/types';
import { computeInvoice, nextInvoiceNumber, type LineInput } from './store/money';
import { BodyReader } from './body-reader';
import { isObject } from './validate';
import { claimView, emit, invoiceView } from './clinic-ops';
import type { World } from './world';

const NATURES = ['medical', 'cosmetic', 'product', 'package', 'fee'] as const;
const TAX_CATEGORIES = ['standard', 'exempt', 'zero', 'state_borne'] as const;
const CLAIM_OUTCOMES = ['approved', 'partial', 'rejected', 'pending'] as const;

/* Invoices. */

export const findInvoice = (world: World, id: string): Invoice => {
  const inv = world.store.clinic.invoices.find((x) => x.id === id);
  if (!inv) throw new ApiError('not_found');
  return inv;
};

const emitInvoice = (world: World, event: string, inv: Invoice) =>
  emit(world, event, invoiceView(inv, 'event'), [inv.patient_id]);

/** POST /sandbox/clinic/invoices: the clinic issues an invoice (event invoice.issued). */
export const issueInvoice = (world: World, lang: Lang, body: unknown) => {
  const clinic = world.store.clinic;
  const r = new BodyReader(body, lang);
  const patientId = r.string('patient_id', { required: true });
  const appointmentId = r.string('appointment_id');
  const branchId = r.int('branch_id');
  const kind = r.oneOf('kind', ['simplified', 'standard'] as const);
  const buyerKind = r.oneOf('buyer_kind', ['citizen', 'resident', 'company', 'payer'] as const);
  const discount = r.int('discount_halalas', { min: 0 }) ?? 0;
  const rawLines = r.array('lines');
  const patient = patientId ? clinic.patients.find((p) => p.id === patientId) : undefined;
  if (patientId && !patient) r.c.add('patient_id', 'unknown');
  const appointment = appointmentId ? clinic.appointments.find((a) => a.id === appointmentId) : undefined;
  if (appointmentId && !appointment) r.c.add('appointment_id', 'unknown');
  if (branchId !== undefined && !clinic.branches.some((b) => b.id === branchId))
    r.c.add('branch_id', 'unknown');
  const buyer = buyerKind ?? (patient?.nationality === 'SA' ? 'citizen' : 'resident');
  const lines: LineInput[] = [];
  (rawLines ?? []).forEach((raw, i) => {
    const line = readLine(raw, `lines[${i}]`, lang, r.c, buyer);
    if (line) lines.push(line);
  });
  r.done();
  if (!patient) throw new ApiError('validation_failed');
  if (!lines.length) {
    const type = clinic.appointmentTypes.find((t) => t.id === appointment?.appointment_type_id);
    lines.push({
      nature: 'medical',
      qty: 1,
      unit_halalas: 25_000,
      tax_category: buyer === 'citizen' ? 'state_borne' : 'standard',
      code: 'D0150',
      description: type?.name_en ?? 'Comprehensive oral evaluation',
      tooth: null,
      surfaces: [],
    });
  }
  const now = world.clock.now();
  const branch = branchId ?? appointment?.branch_id ?? patient.branch_id;
  const totals = computeInvoice(lines, discount);
  const inv: Invoice = {
    id: world.random.ulid(now),
    number: nextInvoiceNumber(clinic, branch, now),
    kind: kind ?? 'simplified',
    status: 'issued',
    patient_id: patient.id,
    branch_id: branch,
    buyer_kind: buyer,
    currency: 'SAR',
    issued_at: isoLocal(now),
    ...totals,
    paid_halalas: 0,
    due_halalas: totals.total_halalas,
    payments: [],
    paid_at: null,
  };
  clinic.invoices.push(inv);
  return { invoice: inv, events: [emitInvoice(world, 'invoice.issued', inv)] };
};

const readLine = (
  raw: unknown,
  field: string,
  lang: Lang,
  c: Checker,
  buyer: Invoice['buyer_kind'],
): LineInput | undefined => {
  if (!isObject(raw)) {
    c.add(field, 'object');
    return undefined;
  }
  const r = new BodyReader(raw, lang);
  const nature = r.oneOf('nature', NATURES) ?? 'medical';
  const qty = r.int('qty', { min: 1 }) ?? 1;
  const unit = r.int('unit_halalas', { required: true, min: 0 });
  const tax = r.oneOf('tax_category', TAX_CATEGORIES);
  const code = r.string('code') ?? 'D0150';
  const description = r.string('description') ?? 'Service';
  const tooth = r.string('tooth') ?? null;
  const surfaces = r.array('surfaces') ?? [];
  if (surfaces.some((s) => typeof s !== 'string')) r.c.add('surfaces', 'array');
  for (const e of r.c.errors) c.errors.push({ ...e, field: `${field}.${e.field}` });
  if (r.c.errors.length || unit === undefined) return undefined;
  const defaultTax = nature === 'medical' && buyer === 'citizen' ? 'state_borne' : 'standard';
  return {
    nature,
    qty,
    unit_halalas: unit,
    tax_category: tax ?? defaultTax,
    code,
    description,
    tooth,
    surfaces: surfaces as string[],
  };
};

/** POST /sandbox/clinic/invoices/{id}/payments: a payment at the till; paid in full emits invoice.paid. */
export const payInvoice = (world: World, lang: Lang, id: string, body: unknown) => {
  const inv = findInvoice(world, id);
  const r = new BodyReader(body, lang, { optional: true });
  const amount = r.int('amount_halalas', { min: 1 });
  const method = r.string('method') ?? 'card';
  const scheme = r.string('scheme');
  const last4 = r.string('last4');
  if (amount !== undefined && amount > inv.due_halalas) {
    r.c.add('amount_halalas', 'range', { min: 1, max: inv.due_halalas });
  }
  r.done();
  if (inv.status === 'void' || inv.status === 'paid') {
    throw new ApiError(
      'invalid_transition',
      { from: inv.status, to: 'paid' },
      { from: inv.status, to: 'paid' },
    );
  }
  const paid = amount ?? inv.due_halalas;
  const card = method === 'card';
  inv.payments.push({
    method,
    scheme: scheme ?? (card ? 'mada' : null),
    last4: last4 ?? (card ? String(1000 + world.random.int(9000)) : null),
    amount_halalas: paid,
  });
  inv.paid_halalas += paid;
  inv.due_halalas = inv.total_halalas - inv.paid_halalas;
  const events = [];
  if (inv.due_halalas === 0) {
    inv.status = 'paid';
    inv.paid_at = isoLocal(world.clock.now());
    events.push(emitInvoice(world, 'invoice.paid', inv));
  } else {
    inv.status = 'partially_paid';
  }
  return { invoice: inv, events };
};

/** POST /sandbox/clinic/invoices/{id}/void (no event: the spec shows none). */
export const voidInvoice = (world: World, id: string) => {
  const inv = findInvoice(world, id);
  if (inv.status === 'paid' || inv.status === 'void') {
    throw new ApiError(
      'invalid_transition',
      { from: inv.status, to: 'void' },
      { from: inv.status, to: 'void' },
    );
  }
  inv.status = 'void';
  return { invoice: inv, events: [] };
};

/* Claims. */

const emitClaim = (world: World, claim: Claim) =>
  emit(world, 'claim.updated', claimView(claim), [claim.patient_id]);

/** POST /sandbox/clinic/claims: a claim is sent to the payer for an invoice (event claim.updated). */
export const createClaim = (world: World, lang: Lang, body: unknown) => {
  const clinic = world.store.clinic;
  const r = new BodyReader(body, lang);
  const invoiceId = r.string('invoice_id', { required: true });
  const payerId = r.int('payer_id');
  const status = r.string('status', { max: 50 }) ?? 'submitted';
  const inv = invoiceId ? clinic.invoices.find((i) => i.id === invoiceId) : undefined;
  if (invoiceId && !inv) r.c.add('invoice_id', 'unknown');
  const patient = inv ? clinic.patients.find((p) => p.id === inv.patient_id) : undefined;
  const payer = payerId ?? patient?.payer_id ?? undefined;
  if (payerId !== undefined && !clinic.payers.some((p) => p.id === payerId)) r.c.add('payer_id', 'unknown');
  else if (inv && payer === undefined) r.c.add('payer_id', 'required');
  r.done();
  if (!inv || payer === undefined) throw new ApiError('validation_failed');
  const now = world.clock.now();
  const claim: Claim = {
    id: world.random.ulid(now),
    invoice_id: inv.id,
    patient_id: inv.patient_id,
    payer_id: payer,
    status,
    previous_status: null,
    outcome: 'pending',
    claimed_halalas: inv.total_halalas,
    approved_halalas: 0,
    patient_share_halalas: 0,
    claims_exchange_ref: `CX-${dateLocal(now).slice(0, 7)}-${String(world.random.int(10_000_000)).padStart(7, '0')}`,
    updated_at: isoLocal(now),
  };
  clinic.claims.push(claim);
  return { claim, events: [emitClaim(world, claim)] };
};

/** PATCH /sandbox/clinic/claims/{id}: the payer answers (event claim.updated with previous_status). */
export const updateClaim = (world: World, lang: Lang, id: string, body: unknown) => {
  const claim = world.store.clinic.claims.find((c) => c.id === id);
  if (!claim) throw new ApiError('not_found');
  const r = new BodyReader(body, lang);
  const status = r.string('status', { max: 50 });
  const outcome = r.oneOf('outcome', CLAIM_OUTCOMES);
  const approved = r.int('approved_halalas', { min: 0, max: claim.claimed_halalas });
  const share = r.int('patient_share_halalas', { min: 0 });
  if ([status, outcome, approved, share].every((v) => v === undefined)) r.c.add('body', 'no_changes');
  r.done();
  claim.previous_status = claim.status;
  if (status !== undefined) claim.status = status;
  if (outcome !== undefined) claim.outcome = outcome;
  if (approved !== undefined) {
    claim.approved_halalas = approved;
    claim.patient_share_halalas = share ?? claim.claimed_halalas - approved;
  } else if (share !== undefined) {
    claim.patient_share_halalas = share;
  }
  claim.updated_at = isoLocal(world.clock.now());
  return { claim, events: [emitClaim(world, claim)] };
};
