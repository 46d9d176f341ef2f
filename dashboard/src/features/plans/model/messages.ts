// The plan functions answer with the shared English messages (PLAN_MESSAGES); the screens show
// them in the reader's language (plans.messages.*).
import {
  SECOND_PURCHASE_CODES,
  SECOND_PURCHASE_REFUNDED_CODES,
} from '@reaction-blocks/contracts/plans';
import { messageOf, failureReason, sharedMessageReason } from '../../../lib/errors';
import { PLAN_MESSAGES } from './plans';

/** The reason of a failure of a plan call, in the reader's language where it is one of ours. */
export const planReason = sharedMessageReason(PLAN_MESSAGES, 'plans.messages');

const planMessages = new Set<string>(Object.values(PLAN_MESSAGES));

/**
 * The payment functions' own failure codes (supabase/functions check-*-payment, plan-answers
 * checkoutAnswer), each with its text under plans.payment.reasons.
 */
const PAYMENT_CODES = [
  'refunded',
  'refund_pending',
  'refund_failed',
  'approval_expired_refunded',
  'approval_expired',
  'provider_unavailable',
  'payment_pending',
  'plan_mismatch',
  'subscription_in_use',
  'checkout_cancelled',
  'invalid_billing_key',
  'invalid_subscription',
  'forbidden',
] as const;

type T = (key: string, options?: Record<string, unknown>) => string;

/**
 * check-paypal-payment's refusals of a second purchase, by their codes: the payment to be given
 * back (plans.payment.second), or given back already (plans.payment.secondRefunded).
 */
const SECOND_PURCHASE = [
  ...Object.entries(SECOND_PURCHASE_CODES).map(([key, code]) => [code, `second.${key}`]),
  ...Object.entries(SECOND_PURCHASE_REFUNDED_CODES).map(([key, code]) => [
    code,
    `secondRefunded.${key}`,
  ]),
];

const codeOf = (cause: unknown) => (cause as { code?: unknown } | null)?.code;

/**
 * What a failed payment call says. Only the provider's refusal (the server's `payment_failed`: a
 * declined card, a refused wallet payment) reads as a decline, with what to do instead of the
 * provider's English words (plans.payment.declined); a checkout our own reading ended (the
 * server's `checkout_failed`: no such subscription, one no longer active, a checkout no longer
 * pending) says so; anything else says why.
 */
export function paymentFailedText(t: T, cause: unknown, via: 'card' | 'wallet' | 'paypal') {
  const code = codeOf(cause);
  if (code === 'payment_failed') return t(`plans.payment.declined.${via}`);
  if (code === 'checkout_failed')
    return t('plans.payment.failed', { reason: t('plans.payment.checkoutEnded') });
  return t('plans.payment.failed', { reason: paymentReason(t, cause) });
}

/**
 * Why a payment call failed, in the reader's language: a payment code's text, one of the shared
 * plan messages, or (a failed call, anything unknown) failureReason's translated sentence, never
 * the server's English words.
 */
function paymentReason(t: T, cause: unknown): string {
  const code = codeOf(cause);
  // a second purchase refused (a plan is active, or another checkout is in flight): its
  // subscription is given back, and "start again" would be wrong
  const second = SECOND_PURCHASE.find(([secondCode]) => secondCode === code);
  if (second) return t(`plans.payment.${second[1]}`);
  if ((PAYMENT_CODES as readonly unknown[]).includes(code))
    return t(`plans.payment.reasons.${String(code)}`);
  if (planMessages.has(messageOf(cause))) return planReason(t, cause);
  return failureReason(cause);
}

/**
 * Why a Stop or Change of a plan failed, in the reader's language: one of the shared plan
 * messages (its own wording first: a renewal being paid reads as such, not as a checkout), a
 * payment code's text (the provider not answering: nothing changed), else failureReason.
 */
export function planChangeReason(t: T, cause: unknown): string {
  if (planMessages.has(messageOf(cause))) return planReason(t, cause);
  return paymentReason(t, cause);
}

/**
 * PayPal's JS SDK calls `onError` for anything that stops its button (its docs: "a catch-all"):
 * a popup closed while loading ("Detected popup close", "Window closed"), a popup the browser
 * blocked, a call that failed on the way (its status 0), our plan id refused (RESOURCE_NOT_FOUND), and, rarely,
 * a funding source it declined (INSTRUMENT_DECLINED). Its words are for developers: the owner
 * reads what happened and what to do, in their language; only a refusal reads as a decline.
 */
const PAYPAL_ERRORS: ReadonlyArray<readonly [RegExp, string]> = [
  [/INSTRUMENT_DECLINED|PAYER_CANNOT_PAY|declined/i, 'declined'],
  [/popup close|window (is )?closed|closed/i, 'closed'],
  [/block|can ?not open popup/i, 'blocked'],
  // the SDK's own call that got no answer: "Request to post /smart/api/... failed with 0 error"
  [/fetch|network|timed? ?out|timeout|offline|load failed|failed with 0 error/i, 'network'],
  [/RESOURCE_NOT_FOUND|INVALID_RESOURCE_ID|INVALID_REQUEST|UNPROCESSABLE|plan/i, 'setup'],
];

export function paypalErrorText(t: T, error: unknown): string {
  const message = String((error as { message?: unknown } | null)?.message ?? error ?? '');
  const kind = PAYPAL_ERRORS.find(([pattern]) => pattern.test(message))?.[1] ?? 'other';
  if (kind === 'declined') return t('plans.payment.declined.paypal');
  return t('plans.payment.failed', { reason: t(`plans.payment.paypalError.${kind}`) });
}

/**
 * Why a provider's checkout could not start (PortOne's window, PayPal's button): not set up on
 * this server (providers.ts 'not configured'), the provider's script out of reach (paypal-js:
 * 'The script "…" failed to load'; a dynamic import or fetch that failed), or anything else. The
 * provider's words are for developers (a URL, a parameter): the owner reads what happened.
 */
const CHECKOUT_ERRORS: ReadonlyArray<readonly [RegExp, string]> = [
  [/^not configured$/, 'notConfigured'],
  [
    /failed to load|failed to fetch|dynamically imported module|network|load failed/i,
    'unreachable',
  ],
];

export function checkoutErrorReason(t: T, cause: unknown): string {
  const message = String((cause as { message?: unknown } | null)?.message ?? cause ?? '');
  const kind = CHECKOUT_ERRORS.find(([pattern]) => pattern.test(message))?.[1] ?? 'other';
  return t(`plans.payment.checkoutError.${kind}`);
}
