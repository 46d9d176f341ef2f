// PayPal subscriptions PayPal may bill with no live plan of ours (docs/plans.md, "A subscription
// with no live plan"); both jobs are registered in plan-jobs.ts.
//   plan.paypal-ended   a PayPal plan our side ended (end_plan from plan.renewal-check, the daily
//                       expiry), or a payment PayPal took for a plan already ended: the subscription
//                       is cancelled if PayPal still bills it, and what PayPal took from `since` on
//                       is given back (queued by private.stop_paypal_later); a payment's job
//                       finds that payment by amount and nearest time (paymentOf).
//   plan.paypal-orphan  a subscription on our plan that PayPal activated or billed with neither a
//                       checkout nor a plan of ours (the buyer approved, then check-paypal-payment
//                       never ran: the tab closed, the network cut): an hour after its webhook
//                       (the check has had its chance), still neither, it is cancelled and given
//                       back as a second purchase is (queue_orphan_refund decides it under the
//                       owner's lock, which the check's checkout takes too; plan.paypal-refund);
//                       the owner's account gone, its stop does it (stop_for_deleted_account).
// Nothing twice: the cancel of a cancelled subscription is a no-op, each refund has its
// PayPal-Request-Id and a refunded payment is skipped (refundPaypalPayments). Nothing lost: PayPal
// failing retries with the queue's backoff (100 attempts); a refund PayPal refuses, or one still
// pending after 14 days, is recorded `failed` in public.paypal_refunds (the owner's Plan page says
// so, plan.refund-alert mails the operator).
import { PAYPAL_ENDED_REASON } from '@reaction-blocks/contracts/plans';
import { serviceClient } from './clients.ts';
import { env } from './env.ts';
import { rpc as rpcWith, type JobHandler, type Outcome } from './jobs.ts';
import { mapLimit } from './map-limit.ts';
import { HOUR_MS, lookAgain, PENDING_MS, UNLISTED_MS } from './payment-waits.ts';
import { paypalClient } from './paypal-env.ts';
import { PayPalError, type PayPalSubscription } from './paypal.ts';
import {
  finishPaypalRefund,
  refundable,
  refundPaypalNow,
  refundPaypalPayments,
} from './paypal-refund.ts';

export const PAYPAL_ENDED_JOB = 'plan.paypal-ended';
export const PAYPAL_ORPHAN_JOB = 'plan.paypal-orphan';

/** Why a payment for an ended plan goes back (public.paypal_refunds.reason). */
export const ENDED_REASON = PAYPAL_ENDED_REASON;
/** Why a subscription with no checkout and no plan is cancelled and given back. */
export const ORPHAN_REASON =
  'The subscription was approved but the purchase was never completed; the payment is given back';

/** How long after its webhook a subscription with no checkout waits for check-paypal-payment. */
export const ORPHAN_WAIT_MS = HOUR_MS;

/** A service-role database call (jobs.ts's; plan-flows.ts imports this file). */
const rpc = <T = unknown>(name: string, args: Record<string, unknown>) =>
  rpcWith<T>(serviceClient(), name, args);

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

const errorText = (err: unknown) => String((err as Error)?.message ?? err).slice(0, 500);

interface EndedPayload {
  subscription_id: string;
  payment_id: string;
  user_id: string;
  /** Payments PayPal took from then on paid no period. */
  since: string;
  /**
   * A payment for a plan already ended: its amount (dollars); `since` is then its time
   * (last_payment.time), and that one payment goes back (paymentOf: PayPal may list it earlier).
   */
  billed?: number;
}

/**
 * The refund's row (one a subscription), the owner's so their Plan page shows a refund PayPal
 * refused; an owner deleted meanwhile leaves it with none, for the operator (as a deleted account's).
 */
async function refundRow(p: EndedPayload): Promise<void> {
  const db = serviceClient();
  const { error } = await db
    .from('paypal_refunds')
    .upsert(
      { subscription_id: p.subscription_id, user_id: p.user_id, reason: ENDED_REASON },
      { onConflict: 'subscription_id', ignoreDuplicates: true },
    );
  if (error?.code === '23503')
    await rpc('finish_paypal_refund', {
      p_subscription_id: p.subscription_id,
      p_status: 'queued',
      p_error: null,
      p_reason: ENDED_REASON,
    });
  else if (error) throw new Error(`paypal_refunds: ${error.message}`);
}

export const paypalEnded: JobHandler = {
  prepare: (jobs) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      const p = job.payload as unknown as EndedPayload;
      const age = Date.now() - Date.parse(job.created_at);
      const notGivenBack = async (error: string): Promise<Outcome> => {
        await refundRow(p);
        await finishPaypalRefund(p.subscription_id, 'failed', error);
        return { status: 'failed', error };
      };
      try {
        const found = await refundPaypalPayments(
          p.subscription_id,
          ENDED_REASON,
          p.since,
          p.billed === undefined || p.billed === null
            ? undefined
            : { paidAt: p.since, billed: Number(p.billed) },
        );
        if (found.state === 'failed') return await notGivenBack(found.error);
        // the payment reported but not listed yet: looked for again for a day
        if (found.state === 'unlisted')
          return age < UNLISTED_MS
            ? lookAgain()
            : await notGivenBack('PayPal never listed the payment');
        if (found.state === 'refunded') {
          await refundRow(p);
          await finishPaypalRefund(p.subscription_id, 'refunded');
          return { status: 'done', result: { cancelled: true, refunded: true } };
        }
        if (found.state === 'pending')
          return age < PENDING_MS
            ? lookAgain()
            : await notGivenBack('A payment or its refund still pending after 14 days');
        return { status: 'done', result: { cancelled: true, refunded: false } };
      } catch (err) {
        if (err instanceof PayPalError && err.status === 404)
          return { status: 'done', result: { skipped: 'no such subscription' } };
        if (job.attempts >= job.max_attempts) {
          try {
            return await notGivenBack(`Gave up after ${job.attempts} attempts: ${errorText(err)}`);
          } catch {
            // the database too: the queue fails the job; its error is kept there
          }
        }
        return { status: 'retry', error: errorText(err) };
      }
    }),
};

/**
 * Whether a webhook's subscription may be billed with no checkout and no plan of ours: on our plan,
 * made for an owner (custom_id), and active or paid.
 */
export const mayBeOrphan = (s: PayPalSubscription): boolean =>
  s.plan_id === env('PAYPAL_PLAN_ID') &&
  typeof s.custom_id === 'string' &&
  UUID.test(s.custom_id) &&
  (s.status === 'ACTIVE' || !!s.billing_info?.last_payment);

/** Queues the job `kind` about a subscription, once (its dedupe key), to run in `ms`. */
const queueSubscriptionJob = (kind: string, subscriptionId: string, ms: number) =>
  rpc('enqueue_job', {
    p_kind: kind,
    p_payload: { subscription_id: subscriptionId },
    p_dedupe_key: `${kind}:${subscriptionId}`,
    p_run_at: new Date(Date.now() + ms).toISOString(),
    p_max_attempts: 100,
  });

/** Queues plan.paypal-orphan for a subscription a webhook found with no checkout and no plan. */
export const queueOrphanCheck = (subscriptionId: string) =>
  queueSubscriptionJob(PAYPAL_ORPHAN_JOB, subscriptionId, ORPHAN_WAIT_MS);

/**
 * How plan.paypal-orphan's refund of a subscription stands (its public.paypal_refunds row, by its
 * reason), or null when the job did not give it back: a check that comes after the job's hour
 * (the buyer's tab came back late) answers this, not a checkout of its own.
 */
export async function orphanRefundOf(
  subscriptionId: string,
): Promise<'refunded' | 'queued' | 'failed' | 'none' | null> {
  const { data, error } = await serviceClient()
    .from('paypal_refunds')
    .select('status')
    .eq('subscription_id', subscriptionId)
    .eq('reason', ORPHAN_REASON)
    .maybeSingle();
  if (error) throw new Error(`paypal_refunds: ${error.message}`);
  return ((data as { status: 'refunded' | 'queued' | 'failed' | 'none' } | null)?.status ??
    null) as 'refunded' | 'queued' | 'failed' | 'none' | null;
}

export const paypalOrphan: JobHandler = {
  prepare: (jobs) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      const id = String(job.payload.subscription_id);
      try {
        const can = await refundable(id);
        // the check ran meanwhile: a plan, or a checkout still being settled (then see)
        if (can === 'plan') return { status: 'done', result: { skipped: 'a plan' } };
        if (can === 'settling') return lookAgain(10 * 60_000);
        const s = await paypalClient().getSubscription(id);
        if (!mayBeOrphan(s)) return { status: 'done', result: { skipped: 'not billed' } };
        const owner = s.custom_id!;
        // the account is gone: its stop cancels it and gives back what PayPal took
        if (
          await rpc<boolean>('stop_for_deleted_account', {
            p_user_id: owner,
            p_method: 'paypal',
            p_ref: id,
          })
        )
          return { status: 'done', result: { account_deleted: true } };
        // decided under the owner's lock that the check's checkout takes: a checkout started since
        // the look above keeps the subscription, and none starts once the refund is queued (the
        // check meeting the cancel below answers approval_expired, never a plan given back)
        const claimed = await rpc<'queued' | 'settling' | 'plan' | 'no account'>(
          'queue_orphan_refund',
          { p_subscription_id: id, p_user_id: owner, p_reason: ORPHAN_REASON },
        );
        if (claimed === 'plan') return { status: 'done', result: { skipped: 'a plan' } };
        if (claimed === 'settling') return lookAgain(10 * 60_000);
        // deleted since the look above: the next try finds it gone and its stop does it
        if (claimed === 'no account')
          return { status: 'retry', error: 'the account is being deleted' };
        const refund = await refundPaypalNow(id, ORPHAN_REASON);
        return { status: 'done', result: { refund } };
      } catch (err) {
        if (err instanceof PayPalError && err.status === 404)
          return { status: 'done', result: { skipped: 'no such subscription' } };
        return { status: 'retry', error: errorText(err) };
      }
    }),
};

export const PAYPAL_FIRST_PAYMENT_JOB = 'plan.paypal-first-payment';

/**
 * Queues plan.paypal-first-payment for a PayPal checkout recorded before PayPal captured its first
 * payment (no `last_payment`: an e-check clearing in days, or the seconds between the activation
 * and the capture). Written before the plan is recorded, so a crash between them loses nothing;
 * the job finds no plan then and does nothing.
 */
export const queueFirstPaymentCheck = (subscriptionId: string) =>
  queueSubscriptionJob(PAYPAL_FIRST_PAYMENT_JOB, subscriptionId, HOUR_MS);

/**
 * plan.paypal-first-payment (rev-money3 D9): a PayPal plan granted while its first payment was not
 * captured keeps it only if PayPal captures it. Looked at hourly: captured (`last_payment`), done;
 * a payment PayPal still has PENDING, again for up to 14 days; none listed, again for a day (the
 * capture follows the activation); otherwise (never listed, denied, still pending after 14 days)
 * nothing was paid: the plan ends (end_plan, which cancels the subscription through
 * plan.paypal-ended, and a payment PayPal captures after that is given back).
 */
export const paypalFirstPayment: JobHandler = {
  prepare: (jobs) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      const id = String(job.payload.subscription_id);
      const age = Date.now() - Date.parse(job.created_at);
      try {
        const { data, error } = await serviceClient()
          .from('payments')
          .select('id, is_active')
          .eq('method', 'paypal')
          .eq('provider_payment_id', id)
          .order('created_at', { ascending: false })
          .limit(1);
        if (error) throw new Error(`payments: ${error.message}`);
        const plan = (data as { id: string; is_active: boolean }[])[0];
        if (!plan?.is_active) return { status: 'done', result: { skipped: 'no live plan' } };
        const paypal = paypalClient();
        const s = await paypal.getSubscription(id);
        if (s.billing_info?.last_payment) return { status: 'done', result: { captured: true } };
        const created =
          Date.parse(s.create_time ?? s.start_time ?? '') || Date.now() - 31 * 86_400_000;
        const list = await paypal.listTransactions(
          id,
          new Date(created - 86_400_000).toISOString(),
          new Date().toISOString(),
        );
        if (list.some((t) => t.status === 'COMPLETED'))
          return { status: 'done', result: { captured: true } };
        if (list.some((t) => t.status === 'PENDING') && age < PENDING_MS) return lookAgain();
        if (!list.length && age < UNLISTED_MS) return lookAgain();
        await rpc('end_plan', { p_payment_id: plan.id });
        return { status: 'done', result: { ended: plan.id } };
      } catch (err) {
        if (err instanceof PayPalError && err.status === 404)
          return { status: 'done', result: { skipped: 'no such subscription' } };
        return { status: 'retry', error: errorText(err) };
      }
    }),
};
