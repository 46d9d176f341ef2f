// Giving back what PayPal took for a subscription we cancel because its checkout cannot become a
// plan (another plan became active meanwhile, or it is not the plan ordered): docs/plans.md, "What
// if recording fails". The refund is queued first (`plan.paypal-refund`, one job per
// subscription), so a crash or PayPal being down loses nothing, then tried at once; the job tries
// again until PayPal answers (cancelling the subscription first if it is still billed), and
// refunds a first payment PayPal captures only after the cancel.
// Nothing twice: one job per subscription, a payment PayPal lists as refunded is skipped, each
// refund's PayPal-Request-Id is made of the payment's id (PayPal answers a repeat with the same
// refund), and PayPal refuses a second refund of a capture (CAPTURE_FULLY_REFUNDED).
import { serviceClient } from './clients.ts';
import { rpc } from './jobs.ts';
import { paypalClient } from './paypal-env.ts';
import { PayPalError } from './paypal.ts';

export const PAYPAL_REFUND_JOB = 'plan.paypal-refund';

/** The job's first run, after the refund tried at once has had its chance. */
const FIRST_RUN_MS = 2 * 60_000;

/** Queues the refund of a subscription's payments; a second call adds nothing. */
export const queuePaypalRefund = (subscriptionId: string, reason: string) =>
  rpc(serviceClient(), 'enqueue_job', {
    p_kind: PAYPAL_REFUND_JOB,
    p_payload: { subscription_id: subscriptionId, reason },
    p_dedupe_key: `${PAYPAL_REFUND_JOB}:${subscriptionId}`,
    p_run_at: new Date(Date.now() + FIRST_RUN_MS).toISOString(),
    // PayPal down: tried again with the queue's backoff (capped at an hour) for about 90 hours
    p_max_attempts: 100,
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

const DAY_MS = 86_400_000;

/**
 * Cancels the subscription if PayPal still bills it, then refunds every payment PayPal captured
 * for it (in practice its first one): `refunded` when there was one and each is refunded now or
 * was already, `pending` when one is not captured yet (PayPal refuses its refund:
 * PENDING_CAPTURE), `none` when PayPal lists none.
 */
export async function refundPaypalPayments(
  subscriptionId: string,
  reason: string,
): Promise<'refunded' | 'pending' | 'none'> {
  const paypal = paypalClient();
  const s = await paypal.getSubscription(subscriptionId);
  if (s.status === 'ACTIVE' || s.status === 'SUSPENDED')
    await paypal.cancelSubscription(subscriptionId, reason);
  const created = Date.parse(s.create_time ?? s.start_time ?? '');
  const since = (Number.isNaN(created) ? Date.now() - 31 * DAY_MS : created) - DAY_MS;
  const transactions = await paypal.listTransactions(
    subscriptionId,
    new Date(since).toISOString(),
    new Date().toISOString(),
  );
  let refunded = false;
  let pending = false;
  for (const t of transactions) {
    if (t.status === 'PENDING') pending = true;
    if (t.status === 'REFUNDED') refunded = true;
    if (t.status !== 'COMPLETED' && t.status !== 'PARTIALLY_REFUNDED') continue;
    try {
      await paypal.refundCapture(t.id, `refund-${t.id}`, reason);
      refunded = true;
    } catch (err) {
      if (!(err instanceof PayPalError)) throw err;
      if (err.issue === 'PENDING_CAPTURE') pending = true;
      else if (err.issue === 'CAPTURE_FULLY_REFUNDED') refunded = true;
      else throw err;
    }
  }
  return pending ? 'pending' : refunded ? 'refunded' : 'none';
}

/**
 * The cancel and refund tried at once, after queuePaypalRefund: `refunded` only when PayPal
 * refunded every payment it took; `queued` otherwise (PayPal did not answer, or has not captured
 * the payment yet), and the job does it.
 */
export async function refundPaypalNow(
  subscriptionId: string,
  reason: string,
): Promise<'refunded' | 'queued'> {
  try {
    if ((await refundable(subscriptionId)) !== 'yes') return 'queued';
    return (await refundPaypalPayments(subscriptionId, reason)) === 'refunded'
      ? 'refunded'
      : 'queued';
  } catch (err) {
    console.error('[plans] PayPal refund (queued)', err);
    return 'queued';
  }
}
