// Giving back what PayPal took for a subscription we cancel because its checkout cannot become a
// plan (another plan became active meanwhile, or it is not the plan ordered): docs/plans.md, "What
// if recording fails". The refund is queued first (`plan.paypal-refund`, one job per
// subscription), so a crash or PayPal being down loses nothing, then tried at once; the job tries
// again until PayPal answers (cancelling the subscription first if it is still billed), and
// refunds a first payment PayPal captures only after the cancel.
// Nothing twice: one job per subscription, a payment PayPal lists as refunded is skipped, each
// refund's PayPal-Request-Id is made of the payment's id (PayPal answers a repeat with the latest
// status of the same refund), and PayPal refuses a second refund of a capture
// (CAPTURE_FULLY_REFUNDED).
// Nothing lost: a refund PayPal answers FAILED or CANCELLED (Payments v2's refund statuses besides
// COMPLETED and PENDING) is not given back, and neither is one the job gives up on; each is
// recorded `failed` in public.paypal_refunds (the owner's Plan page says so) and alerts the
// operator (plan.refund-alert).
import { serviceClient } from './clients.ts';
import { rpc } from './jobs.ts';
import { DAY_MS, PENDING_MS } from './payment-waits.ts';
import { paypalClient } from './paypal-env.ts';
import { PayPalError, type PayPalTransaction } from './paypal.ts';

export const PAYPAL_REFUND_JOB = 'plan.paypal-refund';

/**
 * Queues the refund of the owner's subscription's payments: its public.paypal_refunds row and its
 * job, first run two minutes later (after the refund tried at once has had its chance), tried
 * again with the queue's backoff (capped at an hour) for about 90 hours while PayPal fails. A
 * second call adds nothing.
 */
export const queuePaypalRefund = (subscriptionId: string, userId: string, reason: string) =>
  rpc(serviceClient(), 'queue_paypal_refund', {
    p_subscription_id: subscriptionId,
    p_user_id: userId,
    p_reason: reason,
  });

/**
 * Records how the refund ended: `failed` shows on the owner's Plan page and alerts the operator
 * (finish_paypal_refund queues plan.refund-alert). `reason`: a refund with no row of its own (a
 * deleted account's stop) gets one, with no owner.
 */
export const finishPaypalRefund = (
  subscriptionId: string,
  status: 'refunded' | 'none' | 'failed',
  error?: string,
  reason?: string,
) =>
  rpc(serviceClient(), 'finish_paypal_refund', {
    p_subscription_id: subscriptionId,
    p_status: status,
    p_error: error ?? null,
    p_reason: reason ?? null,
  });

/**
 * Whether the subscription's payments may be refunded: never a plan's (a recorded checkout, or a
 * plan row on it, such as a legacy one), and not while its checkout is still being settled.
 */
export async function refundable(subscriptionId: string): Promise<'yes' | 'plan' | 'settling'> {
  const db = serviceClient();
  const charge = await rpc<{ status: string } | null>(db, 'plan_charge_by_ref', {
    p_method: 'paypal',
    p_ref: subscriptionId,
  });
  if (charge?.status === 'recorded') return 'plan';
  if (charge?.status === 'pending') return 'settling';
  const { data, error } = await db
    .from('payments')
    .select('id')
    .eq('method', 'paypal')
    .eq('provider_payment_id', subscriptionId)
    .limit(1);
  if (error) throw new Error(`payments: ${error.message}`);
  return data.length ? 'plan' : 'yes';
}

/**
 * What refundPaypalPayments found: every payment PayPal took refunded now or already (`refunded`),
 * one not captured yet or its refund still PENDING (`pending`), none listed (`none`), the one
 * payment asked for not listed (yet: `unlisted`), or a refund PayPal answered FAILED or CANCELLED
 * (`failed`: the money did not go back).
 */
export type RefundState =
  { state: 'refunded' | 'pending' | 'none' | 'unlisted' } | { state: 'failed'; error: string };

/**
 * One payment as the subscription reported it (billing_info.last_payment): its time and amount
 * (dollars). PayPal's transaction list gives no link to it, and lists the payment at a time of its
 * own: seconds apart from last_payment.time, or days before it for an e-check (listed when made,
 * the last payment when cleared).
 */
export interface ReportedPayment {
  paidAt: string;
  billed: number;
}

/**
 * How far before and after its last_payment.time a payment may be listed: back as long as a
 * payment is waited for while pending (14 days: PENDING_MS), on for a day. A subscription's
 * payments are a billing cycle apart, so the nearest of the amount within it is the one.
 */
const LISTED_BEFORE_MS = PENDING_MS;
const LISTED_AFTER_MS = DAY_MS;

/**
 * The listed payment that is `p`: of its amount, listed within LISTED_BEFORE_MS before and
 * LISTED_AFTER_MS after its time, the nearest to it; undefined when PayPal lists none.
 */
export function paymentOf(list: PayPalTransaction[], p: ReportedPayment) {
  const at = Date.parse(p.paidAt);
  const gap = (t: PayPalTransaction) => Math.abs(Date.parse(t.time) - at);
  return list
    .filter(
      (t) =>
        Number(t.amount_with_breakdown.gross_amount.value) === Number(p.billed) &&
        Date.parse(t.time) >= at - LISTED_BEFORE_MS &&
        Date.parse(t.time) <= at + LISTED_AFTER_MS,
    )
    .sort((a, b) => gap(a) - gap(b))[0];
}

/** The subscription's listed payment that is `p` (paymentOf), read from PayPal. */
export async function findPayment(
  subscriptionId: string,
  p: ReportedPayment,
): Promise<PayPalTransaction | undefined> {
  const at = Date.parse(p.paidAt);
  const list = await paypalClient().listTransactions(
    subscriptionId,
    new Date(at - LISTED_BEFORE_MS).toISOString(),
    new Date(Math.max(Math.min(at + LISTED_AFTER_MS, Date.now()), at)).toISOString(),
  );
  return paymentOf(list, p);
}

/**
 * What one capture's refund came to (the whole capture, or `amount` dollars of it): `refunded`
 * (now, or before: CAPTURE_FULLY_REFUNDED), `pending` (the capture not complete yet:
 * PENDING_CAPTURE, or the refund PENDING), or PayPal's final word on a refund it did not make
 * (FAILED, CANCELLED). `requestId` is its PayPal-Request-Id: asked again, PayPal answers the same
 * refund's latest status. Any other PayPal error is thrown (the job tries again).
 */
export async function refundCapture(
  captureId: string,
  requestId: string,
  reason: string,
  amount?: string,
): Promise<'refunded' | 'pending' | { refused: string }> {
  try {
    const refund = await paypalClient().refundCapture(captureId, requestId, reason, amount);
    if (refund.status === 'COMPLETED') return 'refunded';
    if (refund.status === 'PENDING') return 'pending';
    return { refused: refund.status };
  } catch (err) {
    if (!(err instanceof PayPalError)) throw err;
    if (err.issue === 'PENDING_CAPTURE') return 'pending';
    if (err.issue === 'CAPTURE_FULLY_REFUNDED') return 'refunded';
    throw err;
  }
}

/**
 * Cancels the subscription if PayPal still bills it, then refunds every payment PayPal captured
 * for it (in practice its first one), or those since `since` (a deleted account's plan: what was
 * taken after the deletion; a plan our side ended: after the end), or the one `payment` (a
 * payment for a plan already ended: found as paymentOf finds it, never by its time alone, which
 * PayPal may list earlier; `unlisted` while PayPal lists none). PayPal refuses the refund of a
 * payment not captured yet (PENDING_CAPTURE); a refund it answers PENDING completes later, and
 * asking again with its PayPal-Request-Id answers its latest status.
 */
export async function refundPaypalPayments(
  subscriptionId: string,
  reason: string,
  since?: string,
  payment?: ReportedPayment,
): Promise<RefundState> {
  const paypal = paypalClient();
  const s = await paypal.getSubscription(subscriptionId);
  if (s.status === 'ACTIVE' || s.status === 'SUSPENDED')
    await paypal.cancelSubscription(subscriptionId, reason);
  let transactions: PayPalTransaction[];
  if (payment) {
    const found = await findPayment(subscriptionId, payment);
    if (!found) return { state: 'unlisted' };
    transactions = [found];
  } else {
    const created = Date.parse(s.create_time ?? s.start_time ?? '');
    const from = since
      ? Date.parse(since)
      : (Number.isNaN(created) ? Date.now() - 31 * DAY_MS : created) - DAY_MS;
    transactions = (
      await paypal.listTransactions(
        subscriptionId,
        new Date(from).toISOString(),
        new Date().toISOString(),
      )
    ).filter((t) => !since || Date.parse(t.time) >= from);
  }
  let refunded = false;
  let pending = false;
  const refused: string[] = [];
  for (const t of transactions) {
    if (t.status === 'PENDING') pending = true;
    if (t.status === 'REFUNDED') refunded = true;
    if (t.status !== 'COMPLETED' && t.status !== 'PARTIALLY_REFUNDED') continue;
    const found = await refundCapture(t.id, `refund-${t.id}`, reason);
    if (found === 'refunded') refunded = true;
    else if (found === 'pending') pending = true;
    else refused.push(`PayPal answered the refund of payment ${t.id} ${found.refused}`);
  }
  if (refused.length) return { state: 'failed', error: refused.join('; ') };
  return { state: pending ? 'pending' : refunded ? 'refunded' : 'none' };
}

/**
 * How a queued refund stands, as the owner is answered: `refunded` when PayPal refunded every
 * payment it took, `failed` when PayPal refused the refund (FAILED or CANCELLED: final, recorded
 * at once for the owner's Plan page and the operator, as the job would record it), `queued`
 * otherwise (PayPal did not answer, or has not captured the payment or completed its refund yet:
 * the job does it, or records that it could not).
 */
export type RefundOutcome = 'refunded' | 'failed' | 'queued';

/** The cancel and refund tried at once, after queuePaypalRefund: how it stands (RefundOutcome). */
export async function refundPaypalNow(
  subscriptionId: string,
  reason: string,
): Promise<RefundOutcome> {
  try {
    if ((await refundable(subscriptionId)) !== 'yes') return 'queued';
    const found = await refundPaypalPayments(subscriptionId, reason);
    if (found.state === 'refunded' || found.state === 'failed')
      await finishPaypalRefund(
        subscriptionId,
        found.state,
        found.state === 'failed' ? found.error : undefined,
      );
    return found.state === 'refunded' || found.state === 'failed' ? found.state : 'queued';
  } catch (err) {
    console.error('[plans] PayPal refund (queued)', err);
    return 'queued';
  }
}

/**
 * How a refund queued earlier stands (a retry of its checkout): its public.paypal_refunds row
 * refunded or failed, else queued.
 */
export async function refundOutcomeOf(subscriptionId: string): Promise<RefundOutcome> {
  const { data, error } = await serviceClient()
    .from('paypal_refunds')
    .select('status')
    .eq('subscription_id', subscriptionId)
    .maybeSingle();
  if (error) throw new Error(`paypal_refunds: ${error.message}`);
  const status = (data as { status: string } | null)?.status;
  return status === 'refunded' || status === 'failed' ? status : 'queued';
}
