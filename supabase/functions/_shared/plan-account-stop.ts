// plan.account-stop: what a deleted account's providers may still charge is stopped, and what they
// took for it after the deletion is given back (docs/plans.md, "Deleting an account"). The account's
// charges and plan rows went with its profile; private.account_stops keeps the provider ids (one
// row a billing key or subscription, written in the deleting transaction with this job). A payment
// that arrives later for one of them (a webhook, the reconcile job) queues the job again
// (account_stop_again), so it is given back too.
// Nothing twice: PortOne's cancel of a cancelled payment and a revoke of what is gone answer an
// error taken as done; PayPal's cancel of a cancelled subscription is done, and each refund has its
// PayPal-Request-Id (refundPaypalPayments). Nothing lost: any provider failure retries with the
// queue's backoff (100 attempts, about 90 hours); a refund PayPal refuses is kept in
// public.paypal_refunds (no owner) and the operator is mailed (plan.refund-alert), as they are when
// a stop of either provider gives up (account_stop_failed).
import type { JobHandler, Outcome } from './jobs.ts';
import { mapLimit } from './map-limit.ts';
import { HOUR_MS, lookAgain, PENDING_MS } from './payment-waits.ts';
import { portonePayment, refundCard, rpc } from './plan-flows.ts';
import { portone, portoneErrorType } from './portone.ts';
import { finishPaypalRefund, refundPaypalPayments } from './paypal-refund.ts';
import { PayPalError } from './paypal.ts';

export const ACCOUNT_STOP_JOB = 'plan.account-stop';

interface AccountStop {
  id: string;
  user_id: string;
  method: 'iamport' | 'paypal';
  provider_ref: string;
  charge_ids: string[];
  was_plan: boolean;
  deleted_at: string;
}

const REASON = 'The account was deleted';
/** How long a checkout in flight at the deletion may still reach PortOne (as plan.reconcile waits). */
const IN_FLIGHT_MS = 10 * 60_000;

const gone = (err: unknown, types: string[]) => types.includes(portoneErrorType(err) ?? '');

/**
 * Card: the key's schedules revoked, every charge id PortOne may have paid for the account refunded
 * (a checkout in flight, a renewal not recorded), then the key deleted (PortOne refuses while a
 * schedule waits: revoked first, and a retry revokes again). `later` when a charge id may still be
 * paid (a checkout in flight) or a payment is under way.
 */
async function stopCard(stop: AccountStop): Promise<'done' | 'later'> {
  const key = stop.provider_ref;
  const keyGone = ['BILLING_KEY_NOT_FOUND', 'BILLING_KEY_ALREADY_DELETED'];
  try {
    await portone().payment.paymentSchedule.revokePaymentSchedules({ billingKey: key });
  } catch (err) {
    if (!gone(err, [...keyGone, 'PAYMENT_SCHEDULE_NOT_FOUND'])) throw err;
  }
  let later = false;
  for (const id of stop.charge_ids) {
    const payment = await portonePayment({ id });
    if (!payment) {
      later ||= Date.now() - Date.parse(stop.deleted_at) < IN_FLIGHT_MS;
      continue;
    }
    if (payment.status === 'PAID') await refundCard(id, REASON);
    else if (payment.status !== 'FAILED' && payment.status !== 'CANCELLED') later = true;
  }
  try {
    await portone().payment.billingKey.deleteBillingKey({ billingKey: key, reason: REASON });
  } catch (err) {
    if (!gone(err, keyGone)) throw err;
  }
  return later ? 'later' : 'done';
}

/**
 * PayPal: the subscription cancelled, and what PayPal took given back: every payment of a checkout
 * that never became a plan; of a plan, those after the deletion (the period paid before was the
 * owner's). `later` while a payment or its refund is pending. A refund PayPal answers FAILED or
 * CANCELLED is final (asked again, it answers the same): recorded `failed` in public.paypal_refunds
 * with no owner, which queues plan.refund-alert to the operator, as a live account's is, and the
 * job fails with PayPal's answer.
 */
async function stopPaypal(stop: AccountStop): Promise<'done' | 'later' | RefusedRefund> {
  const since = stop.was_plan ? stop.deleted_at : undefined;
  const found = await refundPaypalPayments(stop.provider_ref, REASON, since);
  if (found.state === 'failed') {
    await finishPaypalRefund(stop.provider_ref, 'failed', found.error, REASON);
    return { refused: found.error };
  }
  return found.state === 'pending' ? 'later' : 'done';
}

/** A refund PayPal refused: what it answered. */
interface RefusedRefund {
  refused: string;
}

export const accountStop: JobHandler = {
  prepare: (jobs) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      try {
        const stop = await rpc<AccountStop | null>('account_stop', {
          p_id: String(job.payload.stop_id),
        });
        if (!stop) return { status: 'done', result: { skipped: 'no such stop' } };
        let state: 'done' | 'later' | RefusedRefund;
        try {
          state = stop.method === 'iamport' ? await stopCard(stop) : await stopPaypal(stop);
        } catch (err) {
          if (err instanceof PayPalError && err.status === 404)
            return { status: 'done', result: { skipped: 'no such subscription' } };
          throw err;
        }
        if (typeof state === 'object') return { status: 'failed', error: state.refused };
        if (state === 'done') return { status: 'done', result: { stopped: stop.provider_ref } };
        if (Date.now() - Date.parse(stop.deleted_at) > PENDING_MS) {
          const error = 'A payment or its refund still pending after 14 days';
          await rpc('account_stop_failed', {
            p_id: stop.id,
            p_error: error,
            p_reason: REASON,
            p_key: String(job.id),
          });
          return { status: 'failed', error };
        }
        return lookAgain(stop.method === 'iamport' ? 2 * 60_000 : HOUR_MS);
      } catch (err) {
        const error = String((err as Error)?.message ?? err).slice(0, 500);
        // the queue's last attempt: the provider (or the database) failed for about 90 hours, or
        // refused for good (a key PortOne will not delete, a payment it will not cancel)
        if (job.attempts >= job.max_attempts) {
          try {
            await rpc('account_stop_failed', {
              p_id: String(job.payload.stop_id),
              p_error: `Gave up after ${job.attempts} attempts: ${error}`,
              p_reason: REASON,
              p_key: String(job.id),
            });
          } catch (recording) {
            console.error(
              `[alert] ${ACCOUNT_STOP_JOB} gave up: ${error}`,
              job.payload.stop_id,
              recording,
            );
          }
        }
        return { status: 'retry', error };
      }
    }),
};
