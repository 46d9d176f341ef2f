// checkPaypalPayment: buys a plan with the PayPal subscription the owner approved. Accepted only
// when PayPal says it is ACTIVE, on our plan id (PAYPAL_PLAN_ID), made for this owner (custom_id)
// and with quantity equal to the price the server computes for the plan (docs/plans.md).
import { ownerHandler, HttpError } from '../_shared/http.ts';
import {
  DbError,
  paypalMismatch,
  providerUnavailable,
  rpc,
  settleEndedPaypalCheckout,
  settlePaypalCheckout,
  startCheckout,
  type ChargeRow,
} from '../_shared/plan-flows.ts';
import {
  dbCall,
  finishedCheckoutAnswer,
  httpErrorOf,
  settledCheckoutAnswer,
} from '../_shared/plan-answers.ts';
import { paypalClient } from '../_shared/paypal-env.ts';
import { kickWorker } from '../_shared/background.ts';
import { PayPalError, type PayPalSubscription } from '../_shared/paypal.ts';
import {
  queuePaypalRefund,
  refundable,
  refundOutcomeOf,
  refundPaypalNow,
} from '../_shared/paypal-refund.ts';
import { orphanRefundOf } from '../_shared/paypal-no-plan.ts';
import {
  planPrice,
  PLAN_MESSAGES,
  SECOND_PURCHASE_CODES,
  secondPurchaseOf,
  ZCheckPaypalPayment,
} from '@reaction-blocks/contracts/plans';

Deno.serve(
  ownerHandler(ZCheckPaypalPayment, async ({ body, user }) => {
    const price = planPrice(body.plan);
    // read-only first: another account's subscription is refused without leaving a trace
    let subscription: PayPalSubscription;
    try {
      subscription = await paypalClient().getSubscription(body.subscriptionId);
    } catch (err) {
      if (err instanceof PayPalError && err.status === 404)
        throw new HttpError(400, 'invalid_subscription', 'Invalid subscription id');
      console.error('[check-paypal-payment] read', err);
      throw providerUnavailable();
    }
    if (subscription.custom_id !== user.id)
      throw new HttpError(403, 'forbidden', 'This subscription belongs to another account');
    // approved, but checked only after plan.paypal-orphan's hour (the tab came back late): the job
    // cancelled it and gives its payment back; said so, nothing recorded (buy again)
    if (subscription.status !== 'ACTIVE') await answerIfGivenBackLate(subscription.id);
    const mismatch = paypalMismatch(subscription, { user_id: user.id, price });
    if (mismatch && subscription.status === 'ACTIVE') {
      // the owner's own plan, or a checkout being completed, sent again as another plan: left
      // alone (its own checkout settles it), nothing cancelled, nothing to give back
      if ((await refundableOrFail(subscription.id)) !== 'yes')
        throw new HttpError(
          409,
          'subscription_in_use',
          'This subscription already pays for your plan, or its payment is being completed. Nothing changed.',
        );
      // a forged price or plan: the subscription does not buy what was asked; nothing is recorded
      // (and the owner's subscription is cancelled so PayPal does not keep charging for it, and
      // what PayPal took for it given back by the queue)
      await giveBackLater(subscription.id, user.id, mismatch);
      try {
        await paypalClient().cancelSubscription(
          subscription.id,
          'It does not match the plan ordered',
        );
      } catch (err) {
        console.error('[check-paypal-payment] cancel mismatch', err);
      }
      throw new HttpError(400, 'plan_mismatch', `Failed to payment: ${mismatch}`);
    }

    let charge: ChargeRow;
    try {
      charge = await startCheckout(user.id, 'paypal', body.subscriptionId, body.plan, price);
    } catch (err) {
      const second = err instanceof DbError ? secondPurchaseOf(err.message) : undefined;
      if (second && subscription.status === 'ACTIVE') {
        // one plan at a time: a second subscription (beside a plan, or approved while another
        // checkout is being settled) would be billed for nothing, and nothing else would ever
        // cancel it (it has no checkout of its own): cancelled, and what PayPal took for it
        // given back by the queue; its own code says which (the dashboard's text for it)
        const message = PLAN_MESSAGES[second];
        await giveBackLater(subscription.id, user.id, message);
        await paypalClient()
          .cancelSubscription(subscription.id, message)
          .catch((e) => console.error('[check-paypal-payment] cancel second', e));
        throw new HttpError(
          409,
          SECOND_PURCHASE_CODES[second],
          `${message}. The payment will be given back.`,
        );
      }
      // being given back (plan.paypal-orphan's hour came first and it is cancelling it at PayPal
      // now, or a check refused it before): how its refund stands, no checkout
      if (err instanceof DbError && err.code === 'PT410') await answerGivenBack(subscription.id);
      // the account was deleted while this check ran (its subscription approved just before): the
      // subscription is cancelled and what PayPal took given back by the account's stop
      if (err instanceof DbError && err.code === 'PT403')
        await stopForDeletedAccount(user.id, body.subscriptionId);
      throw httpErrorOf(err, 'check-paypal-payment');
    }
    // a checkout closed before the buyer approved it: what PayPal took since goes back
    if (charge.existing && charge.status === 'failed')
      return settledCheckoutAnswer('check-paypal-payment', () =>
        settleEndedPaypalCheckout(charge, subscription),
      );
    // a double submit or a retry of a finished checkout: its outcome, nothing charged again
    const finished = await finishedCheckoutAnswer(charge);
    if (finished) return finished;
    return settledCheckoutAnswer('check-paypal-payment', () => settlePaypalCheckout(charge));
  }),
);

/** A database call of the check, its failure as the answer (dbCall). */
const checkDb = <T>(call: () => Promise<T>): Promise<T> => dbCall('check-paypal-payment', call);

/**
 * The answer for a subscription cancelled and given back (`why`), as its refund stands: refused by
 * PayPal (refund_failed), given back (`refunded`'s code), else on its way (`pending`'s code).
 */
function givenBackAnswer(
  refund: string,
  why: string,
  codes: { refunded: string; pending: string },
): HttpError {
  if (refund === 'failed')
    return new HttpError(
      409,
      'refund_failed',
      `${why}. PayPal refused to give the payment back; the Plan page says whom to write to.`,
    );
  if (refund === 'refunded')
    return new HttpError(409, codes.refunded, `${why}. The payment was given back.`);
  return new HttpError(409, codes.pending, `${why}. Any payment taken will be given back.`);
}

/**
 * A subscription plan.paypal-orphan cancelled and gives back, its check come after the hour: how
 * its refund stands, as the owner's answer (approval_expired_refunded, approval_expired, or
 * refund_failed when PayPal refused it); nothing when the job did not give it back.
 */
async function answerIfGivenBackLate(subscriptionId: string): Promise<void> {
  const refund = await checkDb(() => orphanRefundOf(subscriptionId));
  if (!refund) return;
  throw givenBackAnswer(
    refund,
    'The purchase was not completed within an hour of the approval, so the subscription was cancelled',
    { refunded: 'approval_expired_refunded', pending: 'approval_expired' },
  );
}

/**
 * A subscription whose refund was queued before this check's checkout (start_plan_checkout's
 * PT410): plan.paypal-orphan's, as a check after its hour is answered; another's (a check that
 * refused it, asked again), as its refund stands.
 */
async function answerGivenBack(subscriptionId: string): Promise<never> {
  await answerIfGivenBackLate(subscriptionId);
  const why = 'The subscription is cancelled';
  let refund = await checkDb(() => refundOutcomeOf(subscriptionId));
  // still queued: tried at once, as a check that meets a cancelled subscription does (each
  // refund has its PayPal-Request-Id, so the queue's try of it gives nothing back twice)
  if (refund === 'queued') refund = await refundPaypalNow(subscriptionId, why);
  throw givenBackAnswer(refund, why, { refunded: 'refunded', pending: 'refund_pending' });
}

/** Queues the refund of a subscription about to be cancelled; not queued, it is not cancelled. */
const giveBackLater = (subscriptionId: string, userId: string, reason: string) =>
  checkDb(() => queuePaypalRefund(subscriptionId, userId, reason));

/**
 * A subscription of an account that no longer exists: its stop queued (plan.account-stop cancels it
 * and gives back what PayPal took); stop_for_deleted_account writes nothing for a live account.
 */
async function stopForDeletedAccount(userId: string, subscriptionId: string): Promise<void> {
  const stopped = await checkDb(() =>
    rpc<boolean>('stop_for_deleted_account', {
      p_user_id: userId,
      p_method: 'paypal',
      p_ref: subscriptionId,
    }),
  );
  if (stopped) kickWorker();
}

/** Whether the subscription may be given back (refundable); the database failing is its error. */
const refundableOrFail = (subscriptionId: string) => checkDb(() => refundable(subscriptionId));
