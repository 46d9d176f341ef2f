// The plan jobs of the queue (registered in job-handlers.ts):
//   plan.reconcile         a checkout its function did not finish: read the payment back, record or fail
//   plan.schedule-renewal  schedule a card plan's next charge at PortOne
//   plan.revoke-schedule   revoke the schedule of a charge a Stop or Change revoked (same handler)
//   plan.delete-billing-key delete the billing key of a card plan that no longer renews (stopped,
//                          renewal failed, ended) once nothing is scheduled on it
//   plan.renewal-check     a renewing plan past its end date: did the provider renew it?
//   plan.mail              "your plan ends on ..." / "we could not renew your plan"
//   plan.paypal-refund     give back what PayPal took for a subscription cancelled without a plan
//   plan.refund-alert      tell the operator (OPERATOR_EMAIL) of a payment not given back (a
//                          PayPal refund failed, a deleted account's card stop that gave up)
//   plan.account-stop      a deleted account's provider charges stopped, what was taken after given
//                          back (plan-account-stop.ts)
//   plan.paypal-outstanding the part of a PayPal payment that paid a cycle PayPal could not take
//                          before (its outstanding balance) given back (paypal-outstanding.ts)
//   plan.paypal-ended      a PayPal plan our side ended: its subscription cancelled, what PayPal
//                          took after given back (paypal-no-plan.ts)
//   plan.paypal-orphan     a subscription approved and billed whose check never ran: cancelled
//                          and given back an hour later (paypal-no-plan.ts)
//   plan.paypal-first-payment a PayPal plan granted before its first payment was captured: ended
//                          if PayPal never captures it (paypal-no-plan.ts)
// The first five and plan.paypal-refund are idempotent end to end (a fixed PortOne payment id,
// records that set, a key deleted already, a refund's PayPal-Request-Id): they call the provider
// while preparing and answer a final outcome, so a worker that dies half way leaves a job that
// runs again, never one marked `unknown`. Mails are not idempotent: mailDelivery, as every mail.
import { siteUrl } from './env.ts';
import { platformMailDelivery } from './mail-delivery.ts';
import { type ClaimedJob, type Delivery, type JobHandler, type Outcome } from './jobs.ts';
import { mapLimit } from './map-limit.ts';
import { refundAlert } from './refund-alert.ts';
import { HOUR_MS, lookAgain, PENDING_DAYS, PENDING_MS, UNLISTED_MS } from './payment-waits.ts';
import type { OutgoingMail } from './mail.ts';
import {
  chargeById,
  rpc,
  scheduleCardRenewal,
  settleCardRenewal,
  settleCharge,
  syncPaypalPlan,
  waitingSchedules,
  type ChargeRow,
  type PaymentRow,
} from './plan-flows.ts';
import { renderPlanMail, type PlanMailTemplate } from './plan-mail.ts';
import { PayPalError, type PayPalSubscription } from './paypal.ts';
import { paypalClient } from './paypal-env.ts';
import { ACCOUNT_STOP_JOB, accountStop } from './plan-account-stop.ts';
import { PAYPAL_OUTSTANDING_JOB, paypalOutstanding } from './paypal-outstanding.ts';
import {
  PAYPAL_ENDED_JOB,
  PAYPAL_FIRST_PAYMENT_JOB,
  PAYPAL_ORPHAN_JOB,
  paypalEnded,
  paypalFirstPayment,
  paypalOrphan,
} from './paypal-no-plan.ts';
import { billingKeyGone, portone, portoneErrorType } from './portone.ts';
import {
  finishPaypalRefund,
  PAYPAL_REFUND_JOB,
  refundable,
  refundPaypalPayments,
} from './paypal-refund.ts';

/** The schedule id a charge is marked with when PortOne had its schedule already (its id unknown). */
const EXISTING = 'existing';

const errorText = (err: unknown) => String((err as Error)?.message ?? err).slice(0, 500);

const retry = (err: unknown): Outcome => ({ status: 'retry', error: errorText(err) });

/** Minutes since a timestamp. */
const minutesSince = (iso: string) => (Date.now() - Date.parse(iso)) / 60_000;

const reconcile: JobHandler = {
  prepare: (jobs) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      let charge: ChargeRow | null = null;
      try {
        charge = await chargeById(String(job.payload.charge_id));
        if (!charge) {
          // the account was deleted with its checkout in flight: what PortOne or PayPal took for
          // it is given back by its stop (plan.account-stop)
          const stop = await rpc<string | null>('account_stop_again', {
            p_charge_id: String(job.payload.charge_id),
            p_method: null,
            p_ref: null,
            p_key: `reconcile:${String(job.payload.charge_id)}`,
          });
          return {
            status: 'done',
            result: stop ? { account_deleted: stop } : { skipped: 'no such charge' },
          };
        }
        if (charge.kind !== 'first' || charge.status !== 'pending')
          return { status: 'done', result: { state: charge.status } };
        const settled = await settleCharge(charge);
        if (settled.state === 'none' || settled.state === 'pending') {
          // nothing charged (PortOne has no payment with this id) or PayPal still waits for the
          // buyer: give the function and the buyer time, then close the checkout
          if (minutesSince(charge.created_at) > (charge.method === 'paypal' ? 60 : 10)) {
            await rpc('fail_plan_checkout', {
              p_charge_id: charge.id,
              p_error: settled.state === 'none' ? 'Not charged' : 'Not approved in time',
            });
            return { status: 'done', result: { state: 'failed' } };
          }
          // a wait, not a failure: not counted against the job's attempts (the 120 s waits of
          // PayPal's hour counted, and its eighth ended the job at 16 minutes, the checkout open)
          return { status: 'defer', run_at: new Date(Date.now() + 120_000).toISOString() };
        }
        return { status: 'done', result: { state: settled.state } };
      } catch (err) {
        // its last attempt, about a day on: the checkout stays pending (a webhook may still
        // settle it) and the operator is told, as for a payment not given back
        if (charge && job.attempts >= job.max_attempts)
          await rpc('queue_refund_alert', {
            p_payload: {
              kind: 'checkout',
              charge_id: charge.id,
              user_id: charge.user_id,
              method: charge.method,
              provider_ref: charge.provider_ref,
              error: errorText(err),
            },
            p_key: `checkout:${charge.id}`,
          }).catch((e) => console.error('[plan.reconcile] alert', e));
        return retry(err);
      }
    }),
};

/** What PortOne answers when a schedule has nothing left to revoke: revoked, run, or never made. */
const SCHEDULE_GONE = new Set([
  'PAYMENT_SCHEDULE_ALREADY_REVOKED',
  'PAYMENT_SCHEDULE_ALREADY_PROCESSED',
  'PAYMENT_SCHEDULE_NOT_FOUND',
]);

/**
 * Revokes one PortOne schedule by its id (a renewal scheduled after its plan's Stop or Change
 * revoked the billing key's schedules); one PortOne revoked already, ran or never made is done.
 */
async function revokeSchedule(scheduleId: string): Promise<void> {
  try {
    await portone().payment.paymentSchedule.revokePaymentSchedules({ scheduleIds: [scheduleId] });
  } catch (err) {
    const type = portoneErrorType(err);
    if (!type || !SCHEDULE_GONE.has(type)) throw err;
  }
}

/**
 * Revokes what PortOne has scheduled for a revoked charge: its schedule by the id we kept, else
 * (none kept: a try whose answer was lost made it, or an older row marked `existing`) the
 * schedules PortOne lists for the charge. Answers the ids revoked.
 */
async function revokeChargeSchedules(charge: ChargeRow): Promise<string[]> {
  const ids =
    charge.schedule_id && charge.schedule_id !== EXISTING
      ? [charge.schedule_id]
      : await waitingSchedules(charge.id, charge.provider_ref, charge.period_start);
  for (const id of ids) await revokeSchedule(id);
  return ids;
}

/**
 * plan.schedule-renewal: schedules a renewal charge at PortOne, then marks it scheduled under the
 * plan row's lock (mark_charge_scheduled). A Stop or Change that revoked the charge meanwhile (its
 * PortOne revoke came before this schedule) makes the mark answer false: the schedule is revoked
 * here. plan.revoke-schedule (queued by Stop, Change and end_plan for a charge that was scheduled,
 * perhaps after their revoke at PortOne) and a retry revoke a revoked charge's schedule, by its
 * id or, unknown, as PortOne lists it for the charge (revokeChargeSchedules). A schedule that ran
 * first charged a period the owner had stopped or changed: that payment is given back
 * (settleCardRenewal).
 */
const scheduleRenewal: JobHandler = {
  prepare: (jobs) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      try {
        const charge = await chargeById(String(job.payload.charge_id));
        if (charge?.kind === 'renewal' && charge.status === 'revoked') {
          const revoked = await revokeChargeSchedules(charge);
          // its schedule ran before it could be revoked (its webhook may be lost): given back;
          // a payment still under way is looked at again (an hour apart, for 14 days) until it
          // ends, so one that completes with its webhook lost is given back too
          const { state } = await settleCardRenewal(charge);
          if (state === 'pending') {
            if (Date.now() - Date.parse(job.created_at) < PENDING_MS) return lookAgain();
            const error = 'The renewal payment still under way after 14 days';
            await rpc('queue_refund_alert', {
              p_payload: {
                kind: 'card-renewal',
                charge_id: charge.id,
                user_id: charge.user_id,
                error,
              },
              p_key: `card-renewal:${charge.id}`,
            });
            return { status: 'failed', error };
          }
          return {
            status: 'done',
            result: state === 'refunded' ? { revoked, refunded: charge.id } : { revoked },
          };
        }
        if (!charge || charge.kind !== 'renewal' || charge.status !== 'unscheduled')
          return { status: 'done', result: { skipped: charge?.status ?? 'no such charge' } };
        if (!charge.payment?.is_active || !charge.payment.auto_renew)
          return { status: 'done', result: { skipped: 'the plan does not renew' } };
        const scheduleId = await scheduleCardRenewal(
          charge.id,
          charge.provider_ref,
          charge.user_id,
          charge.plan,
          Number(charge.amount),
          charge.period_start,
        );
        const kept = await rpc<boolean>('mark_charge_scheduled', {
          p_charge_id: charge.id,
          p_schedule_id: scheduleId ?? EXISTING,
        });
        if (kept) return { status: 'done', result: { schedule_id: scheduleId } };
        // revoked while it was being scheduled: PortOne must not charge it (without an id,
        // PortOne had nothing waiting for it)
        if (scheduleId) await revokeSchedule(scheduleId);
        return { status: 'done', result: { revoked: scheduleId } };
      } catch (err) {
        return retry(err);
      }
    }),
};

/**
 * plan.delete-billing-key (private.delete_billing_key_later: a Stop whose own delete PortOne refused,
 * a failed renewal, a plan ended by end_plan or the daily expiry): deletes the card plan's billing
 * key at PortOne. Never while the key is still needed: its plan renews, or its checkout is in
 * flight (skipped; neither happens once a plan stops renewing, which is when it is queued). PortOne refuses while a schedule of the key waits (one made just after a
 * Stop's revoke, which plan.revoke-schedule revokes): tried again with the queue's backoff, for up
 * to about 90 hours. A key deleted already is done: nothing is deleted twice.
 */
const deleteBillingKey: JobHandler = {
  prepare: (jobs) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      const billingKey = String(job.payload.billing_key);
      try {
        const checkout = await rpc<ChargeRow | null>('plan_charge_by_ref', {
          p_method: 'iamport',
          p_ref: billingKey,
        });
        if (checkout?.status === 'pending' || checkout?.payment?.auto_renew)
          return { status: 'done', result: { skipped: 'the key is in use' } };
        await portone().payment.billingKey.deleteBillingKey({
          billingKey,
          reason: 'The plan no longer renews',
        });
        return { status: 'done', result: { deleted: true } };
      } catch (err) {
        if (billingKeyGone(err)) return { status: 'done', result: { deleted: 'already' } };
        return retry(err);
      }
    }),
};

interface PlanPayment {
  payment: PaymentRow | null;
  first_charge: ChargeRow | null;
  renewal_charge: ChargeRow | null;
}

const renewalCheck: JobHandler = {
  prepare: (jobs) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      try {
        const state = await rpc<PlanPayment | null>('plan_payment', {
          p_payment_id: String(job.payload.payment_id),
        });
        const payment = state?.payment;
        if (!payment?.is_active || !payment.auto_renew)
          return { status: 'done', result: { skipped: 'not renewing' } };
        const today = new Date().toISOString().slice(0, 10);
        if (payment.method === 'paypal' && payment.provider_payment_id) {
          const s = await paypalClient().getSubscription(payment.provider_payment_id);
          const synced = await syncPaypalPlan(payment.provider_payment_id, false, s);
          if (synced && synced.end_date && synced.end_date >= today)
            return { status: 'done', result: { renewed: synced.end_date } };
          // PayPal has not billed yet but will: the billing day's payment not taken yet (it bills
          // during the day), or a failed one it retries; the plan runs on until then
          const until = paypalBillsUntil(s);
          if (until) {
            // looked at again an hour after PayPal's time, within an hour to six from now
            const at = Date.parse(until) + HOUR_MS;
            const next = Math.min(
              Math.max(at, Date.now() + HOUR_MS),
              Date.now() + PAYPAL_GRACE_LOOK_MS,
            );
            return { status: 'defer', run_at: new Date(next).toISOString() };
          }
        } else if (payment.method === 'iamport' && state?.renewal_charge) {
          const charge = { ...state.renewal_charge, payment };
          const settled = await settleCardRenewal(charge);
          if (settled.state === 'recorded')
            return { status: 'done', result: { renewed: settled.payment.end_date } };
          if (settled.state === 'pending')
            return { status: 'retry', error: 'renewal pending', retry_in: 3600 };
          if (settled.state === 'none')
            await rpc('record_renewal_failed', {
              p_payment_id: payment.id,
              p_charge_id: charge.id,
              p_error: 'The renewal was never charged',
            });
        }
        // the provider did not renew it: the period is over
        await rpc('end_plan', { p_payment_id: payment.id });
        return { status: 'done', result: { ended: true } };
      } catch (err) {
        return retry(err);
      }
    }),
};

/** The longest a PayPal plan past its end waits between looks while PayPal still bills it. */
const PAYPAL_GRACE_LOOK_MS = 6 * 3_600_000;

/**
 * When PayPal will next try to bill an ACTIVE subscription whose period is over, from its own
 * billing_info: the next billing time, if not later than tomorrow (the billing day's payment,
 * taken during the day, not yet), else the retry of a failed payment (last_failed_payment's
 * next_payment_retry_time). Null when PayPal will not bill it (not ACTIVE, or nothing due): the
 * plan then ends.
 */
export function paypalBillsUntil(s: PayPalSubscription, now = Date.now()): string | null {
  if (s.status !== 'ACTIVE') return null;
  const next = s.billing_info?.next_billing_time;
  if (next && Date.parse(next) <= now + 86_400_000) return next;
  const retry = s.billing_info?.last_failed_payment?.next_payment_retry_time;
  if (retry && Date.parse(retry) > now) return retry;
  return null;
}

/**
 * plan.paypal-refund (paypal-refund.ts): refunds what PayPal took, once; a payment not captured
 * yet (or a refund PayPal answered PENDING) is looked at again every hour (PENDING_MS), and so
 * is a subscription with no payment listed (UNLISTED_MS, then nothing was taken); PayPal failing
 * is retried with the queue's backoff. A refund PayPal answers FAILED or CANCELLED, a payment
 * still pending after PENDING_MS and PayPal failing on the last attempt are not given back:
 * recorded `failed` (the owner's Plan page says so, and plan.refund-alert tells the operator).
 */
const paypalRefund: JobHandler = {
  prepare: (jobs) =>
    mapLimit(jobs, 4, async (job): Promise<Outcome> => {
      const id = String(job.payload.subscription_id);
      const age = Date.now() - Date.parse(job.created_at);
      const ended = async (status: 'refunded' | 'none', result: Record<string, unknown>) => {
        await finishPaypalRefund(id, status);
        return { status: 'done', result } satisfies Outcome;
      };
      const notGivenBack = async (error: string): Promise<Outcome> => {
        await finishPaypalRefund(id, 'failed', error);
        return { status: 'failed', error };
      };
      try {
        const can = await refundable(id);
        if (can === 'plan') return await ended('none', { skipped: 'a plan' });
        // its checkout is being settled (or closed by plan.reconcile within the hour): then see
        if (can === 'settling') return lookAgain(5 * 60_000);
        const found = await refundPaypalPayments(id, String(job.payload.reason ?? 'Not a plan'));
        if (found.state === 'failed') return await notGivenBack(found.error);
        if (found.state === 'refunded') return await ended('refunded', { refunded: true });
        if (found.state === 'pending')
          return age < PENDING_MS
            ? lookAgain()
            : await notGivenBack(
                `A payment or its refund still pending after ${PENDING_DAYS} days`,
              );
        return age < UNLISTED_MS
          ? lookAgain()
          : await ended('none', { refunded: false, taken: 'nothing' });
      } catch (err) {
        try {
          if (
            err instanceof PayPalError &&
            err.status === 404 &&
            err.issue === 'INVALID_RESOURCE_ID'
          )
            return await ended('none', { skipped: 'no such subscription' });
          // the queue's last attempt: PayPal (or the database) failed for about 90 hours
          if (job.attempts >= job.max_attempts)
            return await notGivenBack(`Gave up after ${job.attempts} attempts: ${errorText(err)}`);
        } catch (recording) {
          return retry(recording);
        }
        return retry(err);
      }
    }),
};

interface PlanMailRow {
  payment: PaymentRow;
  owner: { id: string; email: string | null; name: string; language: string };
}

const planMail: JobHandler = {
  async prepare(jobs, { db, mailer }) {
    const { data, error } = await db.rpc('plan_mail_context', {
      p_payment_ids: jobs.map((j) => String(j.payload.payment_id)),
    });
    if (error) throw new Error(error.message);
    const byId = new Map((data as PlanMailRow[]).map((r) => [r.payment.id, r]));
    const send = (mail: OutgoingMail) => mailer.send(mail);
    return jobs.map((job: ClaimedJob): Outcome | Delivery => {
      const row = byId.get(String(job.payload.payment_id));
      if (!row?.owner.email) return { status: 'done', result: { skipped: 'no owner address' } };
      const template = job.payload.template as PlanMailTemplate;
      if (template === 'ending' && (!row.payment.is_active || row.payment.auto_renew))
        return { status: 'done', result: { skipped: 'the plan renews or ended' } };
      const rendered = renderPlanMail({
        template,
        language: row.owner.language,
        name: row.owner.name,
        planName: row.payment.content.planName ?? 'Custom',
        blockLimit: row.payment.content.blockLimit ?? 0,
        responseMonthlyLimit: row.payment.content.responseMonthlyLimit ?? 0,
        endDate: row.payment.end_date ?? '',
        link: `${siteUrl()}/profile/plan`,
      });
      return platformMailDelivery(
        send,
        job,
        { to: row.owner.email, ...rendered },
        { user_id: row.owner.id },
        { template },
      );
    });
  },
};

export const planJobHandlers: Record<string, JobHandler> = {
  'plan.reconcile': reconcile,
  'plan.schedule-renewal': scheduleRenewal,
  'plan.revoke-schedule': scheduleRenewal,
  'plan.delete-billing-key': deleteBillingKey,
  'plan.renewal-check': renewalCheck,
  'plan.mail': planMail,
  [PAYPAL_REFUND_JOB]: paypalRefund,
  'plan.refund-alert': refundAlert,
  [ACCOUNT_STOP_JOB]: accountStop,
  [PAYPAL_OUTSTANDING_JOB]: paypalOutstanding,
  [PAYPAL_ENDED_JOB]: paypalEnded,
  [PAYPAL_ORPHAN_JOB]: paypalOrphan,
  [PAYPAL_FIRST_PAYMENT_JOB]: paypalFirstPayment,
};
