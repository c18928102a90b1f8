/**
 * Invoices and insurance claims as the clinic issues, pays, voids and settles them (clinic spec §2 and §4), with the
 * events each change emits.
 */
import { ApiError, Checker, refuse, invalidTransition, byId } from './errors';
import { isoLocal } from './ids';
import type { Claim, Invoice } from './store/types';
import { addPayment, claimsRef, newInvoice, type LineInput } from './store/money';
import { body, op, S } from './validate';
import { claimView, emit, invoiceView } from './clinic-ops';
import type { Emitted } from './webhooks';
import type { OpContext, World } from './world';

const NATURES = ['medical', 'cosmetic', 'product', 'package', 'fee'] as const;
const TAX_CATEGORIES = ['standard', 'exempt', 'zero', 'state_borne'] as const;
const CLAIM_OUTCOMES = ['approved', 'partial', 'rejected', 'pending'] as const;

const emitInvoice = (world: World, event: string, inv: Invoice) =>
  emit(world, event, invoiceView(inv, 'event'), [inv.patient_id]);

const answer = (inv: Invoice, events: Emitted[]) => ({ data: invoiceView(inv, 'event'), events });

const BUYER_KINDS = ['citizen', 'resident', 'company', 'payer'] as const;

/** POST /sandbox/clinic/invoices: the clinic issues an invoice (event invoice.issued). */
const INVOICE_WRITE = body(
  {
    patient_id: S.str(),
    appointment_id: S.str(),
    branch_id: S.int(),
    kind: S.oneOf(['simplified', 'standard']),
    buyer_kind: S.oneOf(BUYER_KINDS),
    discount_halalas: S.int({ min: 0 }),
    lines: S.array(
      S.object(
        {
          nature: S.oneOf(NATURES),
          qty: S.int({ min: 1 }),
          unit_halalas: S.int({ min: 0 }),
          tax_category: S.oneOf(TAX_CATEGORIES),
          code: S.str(),
          description: S.str(),
          tooth: S.str(),
          surfaces: S.array(S.str()),
        },
        ['unit_halalas'],
      ),
    ),
  },
  ['patient_id'],
);

export const issueInvoice = op(INVOICE_WRITE, ({ world, lang }: OpContext, b) => {
  const clinic = world.store.clinic;
  const { appointment_id: appointmentId, branch_id: branchId, kind, discount_halalas: discount = 0 } = b;
  const c = new Checker(lang);
  const patient = clinic.patients.find((p) => p.id === b.patient_id);
  if (!patient) c.add('patient_id', 'unknown');
  const appointment = appointmentId ? clinic.appointments.find((a) => a.id === appointmentId) : undefined;
  if (appointmentId && !appointment) c.add('appointment_id', 'unknown');
  if (branchId !== undefined && !clinic.branches.some((x) => x.id === branchId))
    c.add('branch_id', 'unknown');
  c.done();
  if (!patient) throw new ApiError('validation_failed');
  const buyer = b.buyer_kind ?? (patient.nationality === 'SA' ? 'citizen' : 'resident');
  // Without lines, the appointment's evaluation.
  const type = clinic.appointmentTypes.find((t) => t.id === appointment?.appointment_type_id);
  const evaluation: NonNullable<typeof b.lines>[number] = {
    unit_halalas: 25_000,
    description: type?.name_en ?? 'Comprehensive oral evaluation',
  };
  const lines = (b.lines?.length ? b.lines : [evaluation]).map((l): LineInput => {
    const nature = l.nature ?? 'medical';
    return {
      nature,
      qty: l.qty ?? 1,
      unit_halalas: l.unit_halalas,
      tax_category:
        l.tax_category ?? (nature === 'medical' && buyer === 'citizen' ? 'state_borne' : 'standard'),
      code: l.code ?? 'D0150',
      description: l.description ?? 'Service',
      tooth: l.tooth ?? null,
      surfaces: l.surfaces ?? [],
    };
  });
  const now = world.clock.now();
  const inv = newInvoice(clinic, world.random, now, {
    patient_id: patient.id,
    branch_id: branchId ?? appointment?.branch_id ?? patient.branch_id,
    buyer_kind: buyer,
    lines,
    discount,
    kind,
  });
  clinic.invoices.push(inv);
  return answer(inv, [emitInvoice(world, 'invoice.issued', inv)]);
});

/** POST /sandbox/clinic/invoices/{id}/payments: a payment at the till; paid in full emits invoice.paid. */
const PAYMENT_WRITE = body(
  { amount_halalas: S.int({ min: 1 }), method: S.str(), scheme: S.str(), last4: S.str() },
  [],
  true,
);

export const payInvoice = op(PAYMENT_WRITE, ({ world, lang, params }: OpContext, b) => {
  const inv = byId(world.store.clinic.invoices, params.id);
  const { amount_halalas: amount, method = 'card', scheme, last4 } = b ?? {};
  if (amount !== undefined && amount > inv.due_halalas) {
    throw refuse(lang, 'amount_halalas', 'range', { min: 1, max: inv.due_halalas });
  }
  if (inv.status === 'void' || inv.status === 'paid') {
    throw invalidTransition(inv.status, 'paid');
  }
  const card = method === 'card';
  const payment = {
    method,
    scheme: scheme ?? (card ? 'mada' : null),
    last4: last4 ?? (card ? String(1000 + world.random.int(9000)) : null),
    amount_halalas: amount ?? inv.due_halalas,
  };
  addPayment(inv, payment, world.clock.now());
  return answer(inv, inv.due_halalas === 0 ? [emitInvoice(world, 'invoice.paid', inv)] : []);
});

const emitClaim = (world: World, claim: Claim) => ({
  data: claimView(claim),
  events: [emit(world, 'claim.updated', claimView(claim), [claim.patient_id])],
});

/** POST /sandbox/clinic/claims: a claim is sent to the payer for an invoice (event claim.updated). */
const CLAIM_WRITE = body({ invoice_id: S.str(), payer_id: S.int(), status: S.str(50) }, ['invoice_id']);

export const createClaim = op(CLAIM_WRITE, ({ world, lang }: OpContext, b) => {
  const clinic = world.store.clinic;
  const { payer_id: payerId, status = 'submitted' } = b;
  const c = new Checker(lang);
  const inv = clinic.invoices.find((i) => i.id === b.invoice_id);
  if (!inv) c.add('invoice_id', 'unknown');
  const patient = inv ? clinic.patients.find((p) => p.id === inv.patient_id) : undefined;
  const payer = payerId ?? patient?.payer_id ?? undefined;
  if (payerId !== undefined && !clinic.payers.some((p) => p.id === payerId)) c.add('payer_id', 'unknown');
  else if (inv && payer === undefined) c.add('payer_id', 'required');
  c.done();
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
    claims_exchange_ref: claimsRef(world.random, now),
    updated_at: isoLocal(now),
  };
  clinic.claims.push(claim);
  return emitClaim(world, claim);
});

/** PATCH /sandbox/clinic/claims/{id}: the payer answers (event claim.updated with previous_status). */
const CLAIM_CHANGE = body({
  status: S.str(50),
  outcome: S.oneOf(CLAIM_OUTCOMES),
  approved_halalas: S.int(),
  patient_share_halalas: S.int({ min: 0 }),
});

export const updateClaim = op(CLAIM_CHANGE, ({ world, lang, params }: OpContext, b) => {
  const claim = byId(world.store.clinic.claims, params.id);
  const { status, outcome, approved_halalas: approved, patient_share_halalas: share } = b;
  const c = new Checker(lang);
  if (approved !== undefined && (approved < 0 || approved > claim.claimed_halalas)) {
    c.add('approved_halalas', 'range', { min: 0, max: claim.claimed_halalas });
  }
  if ([status, outcome, approved, share].every((v) => v === undefined)) c.add('body', 'no_changes');
  c.done();
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
  return emitClaim(world, claim);
});
