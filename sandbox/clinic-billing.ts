/** Invoices and insurance claims as the back office issues, pays and settles them (sandbox-only). */
import { refuse, invalidTransition, byId } from './errors';
import { isoLocal } from './ids';
import { addPayment, newClaim, newInvoice, type LineInput } from './store/money';
import { body, op, S } from './validate';
import { emit, invoiceEvent } from './clinic-ops';
import type { OpContext, World } from './world';

/** The invoice or claim as deliveries carry it, and the event its change emits (if any). */
const answer = (world: World, data: Record<string, unknown> & { patient_id: string }, event?: string) => ({
  data,
  events: event ? [emit(world, event, data, [data.patient_id])] : [],
});

/** POST /sandbox/clinic/invoices: the clinic issues an invoice (invoice.issued). */
const LINE = S.object(
  {
    nature: S.oneOf(['medical', 'cosmetic', 'product', 'package', 'fee']),
    qty: S.int({ min: 1 }),
    unit_halalas: S.int({ min: 0 }),
    tax_category: S.oneOf(['standard', 'exempt', 'zero', 'state_borne']),
    code: S.str(),
    description: S.str(),
    tooth: S.str(),
    surfaces: S.array(S.str()),
  },
  ['unit_halalas'],
);

const INVOICE_WRITE = body({ patient_id: S.str(), branch_id: S.int(), lines: S.array(LINE) }, [
  'patient_id',
  'lines',
]);

export const issueInvoice = op(INVOICE_WRITE, ({ world, lang }: OpContext, b) => {
  const clinic = world.store.clinic;
  const patient = clinic.patients.find((p) => p.id === b.patient_id);
  if (!patient) throw refuse(lang, 'patient_id', 'unknown');
  const branchId = b.branch_id ?? patient.branch_id;
  if (!clinic.branches.some((x) => x.id === branchId)) throw refuse(lang, 'branch_id', 'unknown');
  const buyer = patient.nationality === 'SA' ? 'citizen' : 'resident';
  const lines = b.lines.map((l): LineInput => {
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
  const inv = newInvoice(clinic, world.random, world.clock.now(), {
    patient_id: patient.id,
    branch_id: branchId,
    buyer_kind: buyer,
    lines,
    discount: 0,
  });
  clinic.invoices.push(inv);
  return answer(world, invoiceEvent(inv), 'invoice.issued');
});

/** POST /sandbox/clinic/invoices/{id}/payments: a payment at the till; paid in full emits invoice.paid. */
const PAYMENT_WRITE = body(
  { amount_halalas: S.int({ min: 1 }), method: S.str(), scheme: S.str(), last4: S.str() },
  [],
  true,
);

export const payInvoice = op(PAYMENT_WRITE, ({ world, lang, params }: OpContext, b) => {
  const inv = byId(world.store.clinic.invoices, params.id);
  const { amount_halalas: amount = inv.due_halalas, method = 'card', scheme, last4 } = b ?? {};
  if (amount > inv.due_halalas)
    throw refuse(lang, 'amount_halalas', 'range', { min: 1, max: inv.due_halalas });
  if (inv.status === 'void' || inv.status === 'paid') throw invalidTransition(inv.status, 'paid');
  const card = method === 'card';
  const payment = {
    method,
    scheme: scheme ?? (card ? 'mada' : null),
    last4: last4 ?? (card ? String(1000 + world.random.int(9000)) : null),
    amount_halalas: amount,
  };
  addPayment(inv, payment, world.clock.now());
  return answer(world, invoiceEvent(inv), inv.due_halalas === 0 ? 'invoice.paid' : undefined);
});

/** POST /sandbox/clinic/claims: a claim is sent to the payer (the patient's unless named) for an invoice. */
const CLAIM_WRITE = body({ invoice_id: S.str(), payer_id: S.int(), status: S.str(50) }, ['invoice_id']);

export const createClaim = op(CLAIM_WRITE, ({ world, lang }: OpContext, b) => {
  const clinic = world.store.clinic;
  const inv = clinic.invoices.find((i) => i.id === b.invoice_id);
  if (!inv) throw refuse(lang, 'invoice_id', 'unknown');
  const payer = b.payer_id ?? clinic.patients.find((p) => p.id === inv.patient_id)?.payer_id;
  if (payer == null) throw refuse(lang, 'payer_id', 'required');
  if (!clinic.payers.some((p) => p.id === payer)) throw refuse(lang, 'payer_id', 'unknown');
  const claim = { ...newClaim(world.random, inv, payer, world.clock.now()), status: b.status ?? 'submitted' };
  clinic.claims.push(claim);
  return answer(world, { ...claim }, 'claim.updated');
});

/** PATCH /sandbox/clinic/claims/{id}: the payer answers; the patient's share is what it does not approve. */
const CLAIM_CHANGE = body({
  status: S.str(50),
  outcome: S.oneOf(['approved', 'partial', 'rejected', 'pending']),
  approved_halalas: S.int({ min: 0 }),
});

export const updateClaim = op(CLAIM_CHANGE, ({ world, params }: OpContext, b) => {
  const claim = byId(world.store.clinic.claims, params.id);
  const { status = claim.status, outcome = claim.outcome, approved_halalas: approved } = b;
  Object.assign(claim, { previous_status: claim.status, status, outcome });
  if (approved !== undefined) {
    claim.approved_halalas = approved;
    claim.patient_share_halalas = claim.claimed_halalas - approved;
  }
  claim.updated_at = isoLocal(world.clock.now());
  return answer(world, { ...claim }, 'claim.updated');
});
