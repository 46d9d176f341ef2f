// What the payment functions and the provider webhooks answer of a plan flow (plan-flows.ts): a
// database refusal as the caller's HTTP error, a webhook that must be sent again, and a settled
// checkout as the paying owner's answer (recorded, or which failure, refund or wait).
import { HttpError, inTransit, retriedFailure, unavailable } from './http.ts';
import {
  PLAN_MESSAGES,
  SECOND_PURCHASE_CODES,
  SECOND_PURCHASE_REFUNDED_CODES,
  secondPurchaseOf,
} from '@reaction-blocks/contracts/plans';
import {
  chargeById,
  DbError,
  failedCharge,
  providerUnavailable,
  type ChargeRow,
  type PaymentRow,
  type Settled,
} from './plan-flows.ts';

/**
 * The caller's view of a database refusal; a failure in transit is a 503, anything unexpected a
 * 500 (logged).
 */
export function httpErrorOf(err: unknown, what: string): HttpError {
  if (err instanceof HttpError) return err;
  if (err instanceof DbError) {
    const m = /^PT(\d{3})$/.exec(err.code ?? '');
    if (m) {
      const status = Number(m[1]);
      const code =
        {
          // the database's 402 is a checkout no longer pending, never the provider's refusal
          402: 'checkout_failed',
          403: 'forbidden',
          404: 'not_found',
          409: 'conflict',
          410: 'expired',
        }[status] ?? 'refused';
      return new HttpError(status, code, err.message);
    }
    if (err.code === 'P0001') return new HttpError(400, 'invalid_input', err.message);
    if (inTransit(err, err.status)) return unavailable(err, what);
  }
  console.error(`[${what}]`, err);
  return new HttpError(500, 'internal_error', 'Something went wrong');
}

/** A database call of the payment function `label`, its failure as the answer (httpErrorOf). */
export async function dbCall<T>(label: string, call: () => Promise<T>): Promise<T> {
  try {
    return await call();
  } catch (err) {
    throw httpErrorOf(err, label);
  }
}

/**
 * A payment webhook's answer when applying it failed: 503 with Retry-After when its database call
 * failed in transit, else 500 (retriedFailure); the provider sends it again either way.
 */
export const webhookFailure = (err: unknown, label: string): Response =>
  retriedFailure(
    err instanceof DbError && inTransit(err, err.status) ? unavailable(err, label) : err,
    label,
    { code: 'internal_error', message: 'Not applied; send it again' },
  );

/** The answer of a settled checkout to the owner who is paying. */
export function checkoutAnswer(settled: Settled): { status: true; payment: PaymentRow } {
  switch (settled.state) {
    case 'recorded':
      return { status: true, payment: settled.payment };
    case 'failed':
      if (settled.cancelled)
        throw new HttpError(
          409,
          'checkout_cancelled',
          `${settled.message}. No plan was added and nothing was charged.`,
        );
      // only the provider's refusal is `payment_failed` (the dashboard reads it as a decline)
      throw new HttpError(
        settled.refused ? 402 : 409,
        settled.refused ? 'payment_failed' : 'checkout_failed',
        `${PLAN_MESSAGES.failedToPayment}: ${settled.message}`,
      );
    case 'refunded': {
      // another plan, or another checkout, came first: its own codes (the dashboard's texts)
      const second = secondPurchaseOf(settled.message);
      if (settled.refund === 'failed')
        throw new HttpError(
          409,
          'refund_failed',
          `${settled.message}. PayPal refused to give the payment back; the Plan page says whom to write to.`,
        );
      if (settled.refund === 'queued')
        throw new HttpError(
          409,
          second ? SECOND_PURCHASE_CODES[second] : 'refund_pending',
          `${settled.message}. The payment will be given back.`,
        );
      throw new HttpError(
        409,
        second ? SECOND_PURCHASE_REFUNDED_CODES[second] : 'refunded',
        `${settled.message}. The payment was given back.`,
      );
    }
    case 'pending':
      throw new HttpError(
        409,
        'payment_pending',
        'The payment is not complete yet. Your plan appears as soon as it is.',
      );
    case 'none':
      throw providerUnavailable();
  }
}

/**
 * A double submit or a retry of a checkout that has finished: its outcome, nothing charged again
 * (a failed one as it failed: the provider's refusal, which its charge's error marks, as
 * `payment_failed`, anything else as `checkout_failed`: failedCharge); null for a new or pending one.
 */
export async function finishedCheckoutAnswer(
  charge: ChargeRow,
): Promise<{ status: true; payment: PaymentRow } | null> {
  if (!charge.existing || charge.status === 'pending') return null;
  const current = await chargeById(charge.id);
  if (current?.status === 'recorded' && current.payment)
    return { status: true, payment: current.payment };
  return checkoutAnswer(failedCharge(current?.error));
}

/** checkoutAnswer of `settle`; a provider failing while it settles is providerUnavailable. */
export async function settledCheckoutAnswer(
  label: string,
  settle: () => Promise<Settled>,
): Promise<{ status: true; payment: PaymentRow }> {
  try {
    return checkoutAnswer(await settle());
  } catch (err) {
    if (err instanceof HttpError) throw err;
    console.error(`[${label}] settle`, err);
    throw providerUnavailable();
  }
}
