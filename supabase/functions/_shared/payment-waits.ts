// How long the plan jobs wait on a payment provider's state that is not final yet, one definition
// for all of them (plan-jobs.ts, plan-account-stop.ts, paypal-no-plan.ts, paypal-outstanding.ts):
// a payment or a refund still pending (an e-check PayPal has not cleared, a refund PayPal answered
// PENDING, a card payment PortOne still has under way) is looked at again an hour apart for 14
// days, then the operator is told; a payment the provider has not listed yet, for a day.
import type { Outcome } from './jobs.ts';

export const HOUR_MS = 3_600_000;
export const DAY_MS = 24 * HOUR_MS;
export const PENDING_DAYS = 14;
/** How long a payment (or its refund) the provider has not completed yet is looked at again. */
export const PENDING_MS = PENDING_DAYS * DAY_MS;
/** How long a payment the provider has not listed yet (it follows the activation) is waited for. */
export const UNLISTED_MS = DAY_MS;

/** Back to the queue in `ms` (an hour unless said), the attempt not counted. */
export const lookAgain = (ms = HOUR_MS): Outcome => ({
  status: 'defer',
  run_at: new Date(Date.now() + ms).toISOString(),
});
