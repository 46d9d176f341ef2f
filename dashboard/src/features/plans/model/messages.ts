// The plan functions answer with the shared English messages (PLAN_MESSAGES); the screens show
// them in the reader's language (plans.messages.*).
import { sharedMessageReason } from '../../../lib/errors';
import { PLAN_MESSAGES } from './plans';

/** The reason of a failure of a plan call, in the reader's language where it is one of ours. */
export const planReason = sharedMessageReason(PLAN_MESSAGES, 'plans.messages');

/**
 * Whether a payment call failed because the provider refused the payment (a declined card, a
 * PayPal charge that failed): the server's 'payment_failed'. Its message carries the provider's
 * own words (in English); the screens say what to do instead (plans.payment.declined).
 */
export function isPaymentRefused(cause: unknown): boolean {
  return (cause as { code?: unknown } | null)?.code === 'payment_failed';
}
