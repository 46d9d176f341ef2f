// plan.paypal-outstanding: the part of a PayPal payment that paid no period (docs/plans.md, "An
// outstanding balance"). PayPal adds a cycle's amount it could not take after its retries to the
// subscription's outstanding balance and, by default (the plan's auto_bill_outstanding), bills it
// with the next cycle in one payment: $6 for a $3 plan. The cycle it could not take gave no
// period (the plan ended, or ran on while PayPal retried), so sync_paypal_plan gives the payment's
// period at the cycle's price and queues this job for the rest, which refunds that part of the
// payment (Payments v2 refund with an amount). A payment that moves no period at all (an
// outstanding balance PayPal collected on its own: its capture of a subscription's outstanding
// balance) is queued whole (amount = billed) and refunded whole.
// Nothing twice: one job per payment (its time), and the refund's PayPal-Request-Id is made of the
// capture's id (PayPal answers a repeat with the same refund). Nothing lost: PayPal failing is
// retried with the queue's backoff (100 attempts); a refund PayPal answers FAILED or CANCELLED, a
// payment never listed, or one (or its refund) still pending after 14 days, mails the operator
// (plan.refund-alert), as a PayPal refund that fails does.
import type { JobHandler, Outcome } from './jobs.ts';
import { mapLimit } from './map-limit.ts';
import { lookAgain, PENDING_MS, UNLISTED_MS } from './payment-waits.ts';
import { rpc } from './plan-flows.ts';
import { findPayment, refundCapture } from './paypal-refund.ts';

export const PAYPAL_OUTSTANDING_JOB = 'plan.paypal-outstanding';

const REASON = 'A billing cycle that gave no plan period, collected with the next one';
/** A payment that moved no period: an outstanding balance PayPal collected on its own. */
const REASON_WHOLE = 'An outstanding balance collected on its own, which paid no plan period';

interface Payload {
  subscription_id: string;
  /** The payment's time (billing_info.last_payment.time). */
  paid_at: string;
  /** What PayPal took in all, and the part of it to give back (dollars). */
  billed: number;
  amount: number;
}

type Found = 'refunded' | 'pending' | 'unlisted' | { failed: string; capture?: string };

async function refundOutstanding(p: Payload): Promise<Found> {
  // the payment is found as refundPaypalPayments finds one (paymentOf): by amount and nearest time
  const t = await findPayment(p.subscription_id, { paidAt: p.paid_at, billed: p.billed });
  if (!t) return 'unlisted';
  if (t.status === 'PENDING') return 'pending';
  // refunded in full meanwhile (by hand): nothing is left to give back
  if (t.status === 'REFUNDED') return 'refunded';
  const found = await refundCapture(
    t.id,
    `outstanding-${t.id}`,
    Number(p.amount) >= Number(p.billed) ? REASON_WHOLE : REASON,
    Number(p.amount).toFixed(2),
  );
  if (typeof found === 'string') return found;
  return {
    failed: `PayPal answered the refund of ${p.amount} of payment ${t.id} ${found.refused}`,
    capture: t.id,
  };
}

/** The operator's mail (plan.refund-alert) of an outstanding part not given back, once a job. */
const alert = (p: Payload, jobId: number, error: string, capture?: string) =>
  rpc('queue_refund_alert', {
    p_payload: {
      kind: 'outstanding',
      subscription_id: p.subscription_id,
      paid_at: p.paid_at,
      amount: p.amount,
      billed: p.billed,
      capture: capture ?? null,
      error,
    },
    p_key: `outstanding:${jobId}`,
  });

export const paypalOutstanding: JobHandler = {
  prepare: (jobs) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      const p = job.payload as unknown as Payload;
      const age = Date.now() - Date.parse(job.created_at);
      const failed = async (error: string, capture?: string): Promise<Outcome> => {
        await alert(p, job.id, error, capture);
        return { status: 'failed', error };
      };
      try {
        const found = await refundOutstanding(p);
        if (found === 'refunded') return { status: 'done', result: { refunded: Number(p.amount) } };
        if (typeof found === 'object') return await failed(found.failed, found.capture);
        if (found === 'pending')
          return age < PENDING_MS
            ? lookAgain()
            : await failed('The payment or its refund still pending after 14 days');
        return age < UNLISTED_MS ? lookAgain() : await failed('PayPal never listed the payment');
      } catch (err) {
        const error = String((err as Error)?.message ?? err).slice(0, 500);
        if (job.attempts >= job.max_attempts) {
          try {
            return await failed(`Gave up after ${job.attempts} attempts: ${error}`);
          } catch {
            // the database too: the queue fails the job; its error is kept there
          }
        }
        return { status: 'retry', error };
      }
    }),
};
