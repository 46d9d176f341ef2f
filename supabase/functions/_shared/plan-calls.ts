// The owner's Stop and Change of a renewing plan (cancel-*-payment, change-*-payment): one flow,
// each payment method giving only its provider step. The plan row is read for its owner and
// method, a card plan's pending renewal read back from PortOne (settledPlan); the provider is told first (a provider that does not answer changes nothing: 502);
// then the row records the stop or the change. Database refusals become HTTP errors the same way
// everywhere (httpErrorOf).
import { ownerHandler, HttpError } from './http.ts';
import {
  DbError,
  providerUnavailable,
  rpc,
  settleCardRenewal,
  type ChargeRow,
  type Settled,
  type PaymentRow,
} from './plan-flows.ts';
import { dbCall, httpErrorOf } from './plan-answers.ts';
import type { TPaymentMethod } from '@reaction-blocks/contracts/enums';
import {
  planPrice,
  PLAN_MESSAGES,
  ZCancelPayment,
  ZChangePayment,
} from '@reaction-blocks/contracts/plans';

/** The owner's renewing plan and what its provider knows it by (plan_for_owner). */
export interface OwnerPlan {
  payment: PaymentRow;
  /** Card plans: the PortOne billing key. */
  billing_key?: string | null;
  /** PayPal plans: the subscription. */
  subscription_id?: string | null;
  /** Card plans: the next period's charge, not recorded yet (unscheduled or scheduled). */
  renewal_charge?: ChargeRow | null;
}

interface PlanCall {
  /** The function's name, in logs. */
  name: string;
  method: TPaymentMethod;
}

const ownerPlan = (call: PlanCall, userId: string, paymentId: string) =>
  dbCall(call.name, () =>
    rpc<OwnerPlan>('plan_for_owner', {
      p_user_id: userId,
      p_payment_id: paymentId,
      p_method: call.method,
    }),
  );

/**
 * A card plan's pending renewal read back from PortOne and settled as the webhook and the renewal
 * check settle it: a paid one recorded, a declined one stops the plan renewing. PortOne not
 * answering changes nothing (providerUnavailable); a payment under way is 409 payment_pending.
 */
async function settleRenewal(call: PlanCall, charge: ChargeRow): Promise<Settled['state']> {
  let state;
  try {
    state = (await settleCardRenewal(charge)).state;
  } catch (err) {
    if (err instanceof DbError) throw httpErrorOf(err, call.name);
    console.error(`[${call.name}] renewal`, err);
    throw providerUnavailable();
  }
  if (state === 'pending')
    throw new HttpError(409, 'payment_pending', PLAN_MESSAGES.renewalPending);
  return state;
}

/**
 * The owner's plan, its pending card renewal settled first: PortOne charges it 3 days before its
 * period, and until its webhook is recorded (seconds, or the renewal check's day when the webhook
 * is lost) our row still says scheduled. A paid one is recorded, so a Stop or Change then works
 * from the period after it, never revoking a paid charge and charging the period again.
 */
async function settledPlan(call: PlanCall, userId: string, paymentId: string): Promise<OwnerPlan> {
  const plan = await ownerPlan(call, userId, paymentId);
  if (!plan.renewal_charge) return plan;
  const state = await settleRenewal(call, plan.renewal_charge);
  return state === 'none' ? plan : ownerPlan(call, userId, paymentId);
}

/**
 * What the card provider step calls right after revoking the billing key's schedules: PortOne may
 * have run the pending renewal between settledPlan's read and the revoke (a revoke leaves a
 * schedule that ran alone), so it is settled once more, and a payment that slipped through is
 * recorded before the Stop or Change is: never lost, never charged again.
 */
const settleAfterRevoke =
  (call: PlanCall, plan: OwnerPlan) => async (): Promise<Settled['state'] | undefined> =>
    plan.renewal_charge ? settleRenewal(call, plan.renewal_charge) : undefined;

/** What the plan's provider knows it by: the billing key or the subscription, if it has one. */
const providerRef = (plan: OwnerPlan): string | null =>
  plan.billing_key ?? plan.subscription_id ?? null;

const record = (call: PlanCall, fn: string, args: Record<string, unknown>) =>
  dbCall(call.name, () => rpc<PaymentRow>(fn, args));

/** Stop: the plan no longer renews; the owner keeps everything until the period ends. */
export function stopPlan(
  call: PlanCall & {
    /**
     * The provider step, for a plan its provider knows (providerRef); a card plan's calls
     * `revoked` once PortOne's schedules are revoked (it answers how the pending renewal settled:
     * `failed`, declined, has queued the key's deletion already), and answers whether it deleted
     * the billing key (else the queue deletes it: record_plan_stop).
     */
    stopAtProvider(
      ref: string,
      revoked: () => Promise<Settled['state'] | undefined>,
    ): Promise<{ keyDeleted: boolean } | void>;
    /**
     * Whether the provider is told even when the row says the plan does not renew: PayPal may
     * still bill a subscription the row has as not renewing (a failed renewal it retries), and
     * its cancel of one cancelled already is a no-op.
     */
    evenIfNotRenewing?: boolean;
  },
) {
  return ownerHandler(ZCancelPayment, async ({ body, user }) => {
    const plan = await settledPlan(call, user.id, body.paymentId);
    if (!plan.payment.auto_renew && !call.evenIfNotRenewing)
      return { status: true, payment: plan.payment };
    const ref = providerRef(plan);
    const told = ref ? await call.stopAtProvider(ref, settleAfterRevoke(call, plan)) : undefined;
    const payment = await record(call, 'record_plan_stop', {
      p_user_id: user.id,
      p_payment_id: body.paymentId,
      p_key_deleted: told?.keyDeleted ?? false,
    });
    return { status: true, payment };
  });
}

/**
 * Change: the plan of the next periods, at the price computed here (never the client's). The
 * provider step answers what the function adds to its answer (PayPal's approval links).
 */
export function changePlan(
  call: PlanCall & {
    /** Whether the provider can renew it at all (a PayPal plan needs its subscription). */
    renews?(plan: OwnerPlan): boolean;
    /**
     * The provider step, for a plan its provider knows (providerRef); a card plan's calls
     * `revoked` once PortOne's schedules are revoked.
     */
    changeAtProvider(
      ref: string,
      price: number,
      revoked: () => Promise<unknown>,
      /** The owner declined the change at the provider (PayPal's "Cancel and return"). */
      declined: boolean,
    ): Promise<Record<string, unknown> | void>;
    /** After the change is recorded (the card plan kicks the queue that schedules the charge). */
    recorded?(): void;
  },
) {
  return ownerHandler(ZChangePayment, async ({ body, user }) => {
    const price = planPrice(body.plan);
    if (body.declined && call.method !== 'paypal')
      throw new HttpError(400, 'invalid_request', PLAN_MESSAGES.declinedCardOnly);
    const plan = await settledPlan(call, user.id, body.paymentId);
    if (!plan.payment.auto_renew || call.renews?.(plan) === false)
      throw new HttpError(409, 'conflict', PLAN_MESSAGES.notRenewing);
    const ref = providerRef(plan);
    const extra = ref
      ? await call.changeAtProvider(ref, price, settleAfterRevoke(call, plan), !!body.declined)
      : undefined;
    const payment = await record(call, 'record_plan_change', {
      p_user_id: user.id,
      p_payment_id: body.paymentId,
      p_plan: {
        type: body.plan.type,
        blockLimit: body.plan.blockLimit,
        responseMonthlyLimit: body.plan.responseMonthlyLimit,
      },
      p_price: price,
    });
    call.recorded?.();
    return { status: true, payment, ...extra };
  });
}
