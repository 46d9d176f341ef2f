// What the payment functions, the provider webhooks and the plan jobs share: the database calls
// (service role, private.payment_charges behind public functions: plan-db.ts, re-exported here)
// and the "settle" steps that
// read a payment back from the provider before anything is recorded. Every step is idempotent, so
// a retry, a double submit, a replayed webhook and the reconcile job may all run it again. What
// the functions answer of a settled checkout, and of a database refusal, is in plan-answers.ts.
import type { TPaymentMethod } from '@reaction-blocks/contracts/enums';
import { paypalClient } from './paypal-env.ts';
import { approveLink, PayPalError, type PayPalSubscription } from './paypal.ts';
import {
  queuePaypalRefund,
  refundOutcomeOf,
  refundPaypalNow,
  type RefundOutcome,
} from './paypal-refund.ts';
import {
  PLAN_MESSAGES,
  PLAN_RULES,
  shownBlocks,
  shownEmails,
  type TPlan,
} from '@reaction-blocks/contracts/plans';
import { portone, portoneErrorType } from './portone.ts';
import { env } from './env.ts';
import { queueFirstPaymentCheck } from './paypal-no-plan.ts';
import { DbError, providerUnavailable, rpc, type ChargeRow, type PaymentRow } from './plan-db.ts';
export { DbError, providerUnavailable, rpc, type ChargeRow, type PaymentRow };

export const orderName = (plan: {
  type: string;
  blockLimit: number;
  responseMonthlyLimit: number;
}) =>
  `Reaction Blocks ${plan.type === 'basic' ? 'Basic' : 'Custom'} plan: ${shownBlocks(plan.blockLimit)} blocks, ${shownEmails(plan.responseMonthlyLimit)} emails a month`;

/** When a card renewal is charged: PLAN_RULES.noticeDays before its period starts, 00:00 UTC. */
export function renewalTime(periodStart: string): string {
  const at = Date.parse(`${periodStart}T00:00:00Z`) - PLAN_RULES.noticeDays * 86_400_000;
  return new Date(Math.max(at, Date.now() + 60_000)).toISOString();
}

/** The day after a date (YYYY-MM-DD). */
const nextDay = (date: string) =>
  new Date(Date.parse(`${date}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

// ---------------------------------------------------------------------------------------------
// checkout

export function startCheckout(
  userId: string,
  method: TPaymentMethod,
  providerRef: string,
  plan: TPlan,
  price: number,
): Promise<ChargeRow> {
  return rpc<ChargeRow>('start_plan_checkout', {
    p_user_id: userId,
    p_method: method,
    p_provider_ref: providerRef,
    p_plan: {
      type: plan.type,
      blockLimit: plan.blockLimit,
      responseMonthlyLimit: plan.responseMonthlyLimit,
    },
    p_price: price,
  });
}

export const chargeById = (id: string) => rpc<ChargeRow | null>('plan_charge', { p_charge_id: id });

export type Settled =
  | { state: 'recorded'; payment: PaymentRow }
  /**
   * `refused`: the provider refused the payment (a declined card); `cancelled`: the buyer
   * cancelled the PayPal subscription before its first payment went through; otherwise our own
   * reading ended the checkout (no such subscription, one not active, a charge no longer pending).
   */
  | { state: 'failed'; message: string; refused?: boolean; cancelled?: boolean }
  /**
   * The provider took the money but the plan could not be recorded: the money went back (a card
   * payment cancelled; `refund` absent or `refunded`), the refund is queued and the jobs worker
   * gives it back (`queued`), or PayPal refused it (`failed`: recorded for the owner's Plan page
   * and the operator).
   */
  | { state: 'refunded'; message: string; refund?: RefundOutcome }
  | { state: 'pending' }
  | { state: 'none' };

const DAY_MS = 86_400_000;

/**
 * The ids of the waiting schedules PortOne has for a renewal charge (our charge id is the payment
 * id it was given). PortOne lists a billing key's schedules by status and by the time they are to
 * be paid (`from` and `until`, by default the 90 days before now, where a schedule ahead never
 * is), so the window is a month either side of the renewal's time.
 */
export async function waitingSchedules(
  chargeId: string,
  billingKey: string,
  periodStart: string,
): Promise<string[]> {
  const at = Date.parse(renewalTime(periodStart));
  const { items } = await portone().payment.paymentSchedule.getPaymentSchedules({
    page: { number: 0, size: 100 },
    filter: {
      billingKey,
      status: ['SCHEDULED'],
      from: new Date(Math.min(at, Date.now()) - 31 * DAY_MS).toISOString(),
      until: new Date(at + 31 * DAY_MS).toISOString(),
    },
  });
  return items.flatMap((s) => (s.status === 'SCHEDULED' && s.paymentId === chargeId ? [s.id] : []));
}

/**
 * Schedules a card renewal charge at PortOne: the schedule's id. One PortOne has already (an
 * earlier try whose answer was lost) is looked up, so it can be revoked by its id; null when
 * PortOne has none waiting for it (the charge was paid already, or its schedule ran).
 */
export async function scheduleCardRenewal(
  chargeId: string,
  billingKey: string,
  userId: string,
  plan: ChargeRow['plan'],
  amount: number,
  periodStart: string,
): Promise<string | null> {
  try {
    const { schedule } = await portone().payment.paymentSchedule.createPaymentSchedule({
      paymentId: chargeId,
      payment: {
        billingKey,
        orderName: orderName(plan),
        customer: { id: userId },
        amount: { total: amount },
        currency: 'KRW',
      },
      timeToPay: renewalTime(periodStart),
    });
    return schedule.id;
  } catch (err) {
    const type = portoneErrorType(err);
    if (type === 'PAYMENT_SCHEDULE_ALREADY_EXISTS')
      return (await waitingSchedules(chargeId, billingKey, periodStart))[0] ?? null;
    if (type === 'ALREADY_PAID_OR_WAITING') return null;
    throw err;
  }
}

/** Refunds a payment PortOne took for a checkout that cannot become a plan (or a deleted account). */
export async function refundCard(chargeId: string, reason: string): Promise<void> {
  try {
    await portone().payment.cancelPayment({ paymentId: chargeId, reason });
  } catch (err) {
    const type = portoneErrorType(err);
    if (type !== 'PAYMENT_ALREADY_CANCELLED') throw err;
  }
}

type PortOnePayment = Awaited<ReturnType<ReturnType<typeof portone>['payment']['getPayment']>>;

/** A charge's payment as PortOne has it, or null when PortOne has none (nothing was charged). */
export async function portonePayment(
  charge: Pick<ChargeRow, 'id'>,
): Promise<PortOnePayment | null> {
  try {
    return await portone().payment.getPayment({ paymentId: charge.id });
  } catch (err) {
    if (portoneErrorType(err) === 'PAYMENT_NOT_FOUND') return null;
    throw err;
  }
}

/**
 * What a failed first charge records of a provider's refusal: its error starts with this, so a
 * retry, or a check after a webhook settled it, answers the same decline (payment_failed).
 */
const REFUSED = 'Refused: ';

/**
 * What a failed PayPal first charge records when its payment is given back (queued or done): a
 * retry answers that, not a failure.
 */
const GIVEN_BACK = 'Given back: ';

/**
 * What a failed PayPal first charge records when the buyer cancelled the subscription before its
 * first payment went through: a retry answers a cancelled checkout (checkout_cancelled).
 */
const CANCELLED = 'Cancelled: ';
const CANCELLED_FIRST = 'The subscription was cancelled before its first payment';

/**
 * Ends a first charge's checkout as failed, recording whether the provider refused it, and says
 * how it ended: as this settle saw it, or as a settle running beside it (a webhook, the job)
 * ended it first (fail_plan_checkout fails a pending charge only).
 */
async function failCheckout(
  charge: ChargeRow,
  message: string,
  refused: boolean,
  cancelled = false,
): Promise<Settled> {
  const error = (refused ? REFUSED : cancelled ? CANCELLED : '') + message;
  await rpc('fail_plan_checkout', { p_charge_id: charge.id, p_error: error });
  const current = await chargeById(charge.id);
  if (current?.status === 'recorded' && current.payment)
    return { state: 'recorded', payment: current.payment };
  return failedCharge(current?.error ?? error);
}

/** A failed first charge's outcome from its recorded error. */
export const failedCharge = (error: string | null | undefined): Settled => {
  if (error?.startsWith(GIVEN_BACK))
    return { state: 'refunded', message: error.slice(GIVEN_BACK.length), refund: 'queued' };
  if (error?.startsWith(CANCELLED))
    return { state: 'failed', message: error.slice(CANCELLED.length), cancelled: true };
  const refused = !!error?.startsWith(REFUSED);
  return {
    state: 'failed',
    message: refused ? error!.slice(REFUSED.length) : (error ?? PLAN_MESSAGES.failedToPayment),
    refused,
  };
};

/**
 * A card checkout, read back from PortOne: paid (the amount, currency and billing key ours) ->
 * the renewal is scheduled and the plan recorded; failed -> the checkout fails; not there ->
 * `none` (nothing was charged).
 */
export async function settleCardCheckout(charge: ChargeRow): Promise<Settled> {
  const payment = await portonePayment(charge);
  if (!payment) return { state: 'none' };
  if (payment.status === 'FAILED' || payment.status === 'CANCELLED') {
    const reason =
      payment.status === 'FAILED'
        ? payment.failure.pgMessage || payment.failure.reason || 'The card was declined'
        : 'The payment was cancelled';
    return failCheckout(charge, reason, payment.status === 'FAILED');
  }
  if (payment.status !== 'PAID') return { state: 'pending' };
  if (
    payment.amount.total !== Number(charge.amount) ||
    payment.currency !== charge.currency ||
    payment.billingKey !== charge.provider_ref
  ) {
    // never ours as asked: give it back
    await refundCard(charge.id, 'The payment does not match the order');
    await rpc('fail_plan_checkout', {
      p_charge_id: charge.id,
      p_error: 'The payment does not match the order',
    });
    return { state: 'refunded', message: 'The payment does not match the order' };
  }
  let scheduleId: string | null = null;
  if (charge.status === 'pending' && charge.next_charge_id) {
    try {
      scheduleId = await scheduleCardRenewal(
        charge.next_charge_id,
        charge.provider_ref,
        charge.user_id,
        charge.plan,
        Number(charge.amount),
        nextDay(charge.period_end),
      );
    } catch (err) {
      // the plan is paid for: record it, and the schedule job tries again
      console.error('[plans] schedule renewal', err);
    }
  }
  try {
    const recorded = await rpc<PaymentRow>('record_plan_checkout', {
      p_charge_id: charge.id,
      p_provider: {
        provider_payment_id: payment.transactionId,
        ...(scheduleId ? { schedule_id: scheduleId } : {}),
      },
    });
    return { state: 'recorded', payment: recorded };
  } catch (err) {
    if (err instanceof DbError && (err.code === 'PT402' || err.code === 'PT409')) {
      await refundCard(charge.id, err.message);
      if (scheduleId) {
        await portone()
          .payment.paymentSchedule.revokePaymentSchedules({ scheduleIds: [scheduleId] })
          .catch((e) => console.error('[plans] revoke schedule', e));
      }
      return { state: 'refunded', message: err.message };
    }
    throw err;
  }
}

/**
 * Why a renewal PortOne took at another amount than the plan's is given back (only a charge of
 * ours cancelled this way reads CANCELLED and not revoked).
 */
const RENEWAL_MISMATCH = 'The renewal payment does not match the plan';

/** Why a renewal PortOne charged after its Stop or Change revoked it is given back. */
const REVOKED_RENEWAL = 'The plan was stopped or changed before this renewal was charged';

/**
 * A card renewal read back from PortOne: paid -> one more period; failed -> the owner is told;
 * paid at another amount -> given back, and failed. One a Stop or Change revoked (its schedule
 * ran before PortOne had it revoked: made late, or revoked by plan.revoke-schedule after it ran)
 * is never the owner's period: paid, it is given back.
 */
export async function settleCardRenewal(charge: ChargeRow): Promise<Settled> {
  const payment = await portonePayment(charge);
  if (!payment) return { state: 'none' };
  if (charge.status === 'revoked') {
    // under way at the card company: not taken yet, and maybe soon (looked at again)
    if (payment.status === 'PAY_PENDING') return { state: 'pending' };
    if (payment.status !== 'PAID') return { state: 'none' };
    await refundCard(charge.id, REVOKED_RENEWAL);
    return { state: 'refunded', message: REVOKED_RENEWAL };
  }
  if (
    payment.status === 'PAID' &&
    payment.amount.total === Number(charge.amount) &&
    payment.currency === charge.currency
  ) {
    try {
      const recorded = await rpc<PaymentRow>('record_plan_renewal', {
        p_charge_id: charge.id,
        p_provider_payment_id: payment.transactionId,
      });
      return { state: 'recorded', payment: recorded };
    } catch (err) {
      // revoked meanwhile (record_plan_renewal refuses it): given back
      if (!(err instanceof DbError && err.code === 'PT409')) throw err;
      await refundCard(charge.id, REVOKED_RENEWAL);
      return { state: 'refunded', message: REVOKED_RENEWAL };
    }
  }
  // taken at another amount or currency than the plan's: never kept, given back (as a checkout's
  // is) before the renewal is recorded failed, so a settle that fails between them refunds again
  // (one cancelled already is done) and then reads it CANCELLED
  if (payment.status === 'PAID') await refundCard(charge.id, RENEWAL_MISMATCH);
  if (payment.status === 'FAILED' || payment.status === 'PAID' || payment.status === 'CANCELLED') {
    const reason =
      payment.status === 'FAILED'
        ? payment.failure.pgMessage || payment.failure.reason || 'The card was declined'
        : RENEWAL_MISMATCH;
    await rpc('record_renewal_failed', {
      p_payment_id: charge.payment_id,
      p_charge_id: charge.id,
      p_error: reason,
    });
    return { state: 'failed', message: reason };
  }
  return { state: 'pending' };
}

/** Why a PayPal subscription cannot be this checkout's plan, or null when it can. */
export function paypalMismatch(
  s: PayPalSubscription,
  charge: Pick<ChargeRow, 'user_id' | 'price'>,
): string | null {
  if (s.custom_id !== charge.user_id) return 'This subscription belongs to another account';
  if (s.plan_id !== env('PAYPAL_PLAN_ID')) return 'The subscription is not on our plan';
  if (Number(s.quantity ?? '1') !== Number(charge.price))
    return 'The subscription price does not match the plan';
  return null;
}

/**
 * A PayPal checkout, read back from PayPal: ACTIVE, on our plan, for this owner, with quantity
 * equal to the price -> recorded; still waiting for the buyer -> pending; anything else fails
 * (and a subscription PayPal bills or took a payment for is cancelled and given back).
 */
export async function settlePaypalCheckout(charge: ChargeRow): Promise<Settled> {
  let s: PayPalSubscription;
  try {
    s = await paypalClient().getSubscription(charge.provider_ref);
  } catch (err) {
    if (err instanceof PayPalError && err.status === 404) {
      await rpc('fail_plan_checkout', { p_charge_id: charge.id, p_error: 'No such subscription' });
      return { state: 'failed', message: 'No such subscription' };
    }
    throw err;
  }
  if (s.status === 'APPROVAL_PENDING' || s.status === 'APPROVED') return { state: 'pending' };
  // PayPal refused the first payment after the approval: a failed payment and none paid. The
  // subscription stays ACTIVE while PayPal retries (days apart), then is suspended (the plan's
  // payment_failure_threshold) or cancelled. That is the provider's refusal (payment_failed), not
  // our reading; an ACTIVE one is cancelled, so PayPal never charges later for a plan not recorded.
  const refused =
    (s.status === 'ACTIVE' || s.status === 'SUSPENDED' || s.status === 'CANCELLED') &&
    (s.billing_info?.failed_payments_count ?? 0) > 0 &&
    !s.billing_info?.last_payment;
  const mismatch = refused
    ? 'PayPal refused the first payment'
    : s.status === 'ACTIVE'
      ? paypalMismatch(s, charge)
      : `The subscription is ${s.status.toLowerCase()}`;
  if (mismatch) {
    const ours = s.custom_id === charge.user_id;
    // PayPal bills it, or took a payment before the buyer (or PayPal) cancelled it: given back
    if (ours && !refused && (s.status === 'ACTIVE' || s.billing_info?.last_payment))
      return givePaypalCheckoutBack(charge, s.id, mismatch);
    if (ours && s.status === 'ACTIVE') await paypalClient().cancelSubscription(s.id, mismatch);
    // cancelled before its first payment went through: nothing was taken, a cancelled checkout.
    // A payment PayPal had started (an e-check not cleared) may still be captured: the refund
    // job looks for one (a day, or while one is pending) and gives it back
    if (ours && !refused && s.status === 'CANCELLED') {
      await queuePaypalRefund(s.id, charge.user_id, CANCELLED_FIRST);
      return failCheckout(charge, CANCELLED_FIRST, false, true);
    }
    return failCheckout(charge, mismatch, refused);
  }
  const next = s.billing_info?.next_billing_time;
  // the first payment not captured yet (an e-check): the plan is granted, and taken back if PayPal
  // never captures it (plan.paypal-first-payment, queued before the record)
  if (!s.billing_info?.last_payment) await queueFirstPaymentCheck(s.id);
  try {
    const recorded = await rpc<PaymentRow>('record_plan_checkout', {
      p_charge_id: charge.id,
      p_provider: {
        provider_payment_id: s.id,
        // the first payment taken already: the one this period is for (sync_paypal_plan)
        ...(s.billing_info?.last_payment ? { paid_at: s.billing_info.last_payment.time } : {}),
        ...(next
          ? { end_date: new Date(Date.parse(next) - 86_400_000).toISOString().slice(0, 10) }
          : {}),
      },
    });
    return { state: 'recorded', payment: recorded };
  } catch (err) {
    if (err instanceof DbError && (err.code === 'PT402' || err.code === 'PT409'))
      return givePaypalCheckoutBack(charge, s.id, err.message);
    throw err;
  }
}

/**
 * A PayPal checkout that cannot become a plan, its first payment taken: the refund is queued, the
 * checkout failed as given back (before the cancel, so a settle beside this one that reads the
 * subscription cancelled finds it so), then the subscription cancelled (PayPal bills it no more)
 * and the payment refunded at once if PayPal answers; `refunded`, `queued` unless it did.
 */
async function givePaypalCheckoutBack(
  charge: ChargeRow,
  subscriptionId: string,
  message: string,
): Promise<Settled> {
  await queuePaypalRefund(subscriptionId, charge.user_id, message);
  await rpc('fail_plan_checkout', { p_charge_id: charge.id, p_error: GIVEN_BACK + message });
  // a settle beside this one may have given it back first, with its own reason
  const error = (await chargeById(charge.id))?.error;
  return {
    state: 'refunded',
    message: error?.startsWith(GIVEN_BACK) ? error.slice(GIVEN_BACK.length) : message,
    refund: await refundPaypalNow(subscriptionId, message),
  };
}

/**
 * A PayPal checkout that ended failed without giving anything back (closed by plan.reconcile
 * before the buyer approved, who approved later; or failed), as a webhook or the owner's check
 * finds it: if PayPal bills its subscription or took a payment for it, that goes back as
 * givePaypalCheckoutBack does (the job written first cancels, refunds once and never a plan);
 * otherwise the checkout's outcome as it failed. `s`: the subscription, when read already.
 */
export async function settleEndedPaypalCheckout(
  charge: ChargeRow,
  s?: PayPalSubscription,
): Promise<Settled> {
  const failed = failedCharge(charge.error);
  // given back already (a retry): as its refund stands now
  if (failed.state === 'refunded')
    return { ...failed, refund: await refundOutcomeOf(charge.provider_ref) };
  if (failed.state !== 'failed') return failed;
  s ??= await paypalClient().getSubscription(charge.provider_ref);
  const paid = !!s.billing_info?.last_payment;
  // an ACTIVE one whose first payment PayPal refused (and retries) is a decline, cancelled already
  const billed = s.status === 'ACTIVE' && !(s.billing_info?.failed_payments_count ?? 0);
  if (s.custom_id !== charge.user_id || !(paid || billed)) return failed;
  await queuePaypalRefund(s.id, charge.user_id, failed.message);
  return {
    state: 'refunded',
    message: failed.message,
    refund: await refundPaypalNow(s.id, failed.message),
  };
}

/**
 * What PayPal says about a subscription, applied to its plan (renewals, changes, cancels); `s`: the
 * subscription, when read already. Its last payment, when later than the last one applied, pays a
 * new period, and what it billed (`billed`) decides that period's plan.
 */
export async function syncPaypalPlan(
  subscriptionId: string,
  paymentFailed = false,
  s?: PayPalSubscription,
): Promise<PaymentRow | null> {
  s ??= await paypalClient().getSubscription(subscriptionId);
  const next = s.billing_info?.next_billing_time;
  const last = s.billing_info?.last_payment;
  const billed = last?.amount.value;
  // a failed payment PayPal tries again (while it counts failures): when, for the Plan page
  const retryAt = s.billing_info?.failed_payments_count
    ? s.billing_info.last_failed_payment?.next_payment_retry_time
    : undefined;
  return rpc<PaymentRow | null>('sync_paypal_plan', {
    p_subscription_id: subscriptionId,
    p_state: {
      status: s.status,
      next_billing_date: next ? new Date(Date.parse(next)).toISOString().slice(0, 10) : null,
      quantity: s.quantity === undefined ? null : Number(s.quantity),
      billed: billed === undefined ? null : Number(billed),
      // a payment later than the last one applied pays a new period; none, nothing moves
      paid_at: last?.time ?? null,
      payment_failed: paymentFailed,
      retry_at: retryAt ?? null,
    },
  });
}

/** Settles any charge, whichever its kind and method (webhooks and the reconcile job). */
export async function settleCharge(charge: ChargeRow): Promise<Settled> {
  if (charge.kind === 'first') {
    if (charge.status === 'recorded' && charge.payment)
      return { state: 'recorded', payment: charge.payment };
    if (charge.status !== 'pending') return failedCharge(charge.error);
    return charge.method === 'iamport' ? settleCardCheckout(charge) : settlePaypalCheckout(charge);
  }
  if (charge.status === 'recorded' && charge.payment)
    return { state: 'recorded', payment: charge.payment };
  if (
    charge.status === 'unscheduled' ||
    charge.status === 'scheduled' ||
    charge.status === 'revoked'
  )
    return settleCardRenewal(charge);
  return { state: 'none' };
}

/**
 * Revokes the card plan's pending PortOne schedules (no next charge); PortOne failing is
 * providerUnavailable, unless `tolerated` says the error leaves nothing to revoke.
 */
export async function revokeSchedules(
  label: string,
  billingKey: string,
  tolerated: (err: unknown) => boolean = () => false,
): Promise<void> {
  try {
    await portone().payment.paymentSchedule.revokePaymentSchedules({ billingKey });
  } catch (err) {
    if (tolerated(err)) return;
    console.error(`[${label}] revoke`, portoneErrorType(err), err);
    throw providerUnavailable();
  }
}

export { approveLink };
