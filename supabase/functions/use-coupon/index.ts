// useCoupon: redeems a coupon code (1 to 99 characters) for the caller. The rules (once per
// owner, expiry, usage cap, promote coupons for owners who never had a plan) live in
// public.redeem_coupon, which locks the coupon's row so parallel redemptions cannot overshoot.
// Codes are words an operator picks: each owner gets ten tries an hour (_shared/owner-limits.ts),
// then 429 until the oldest try is an hour old.
import { ownerHandler } from '../_shared/http.ts';
import { limitOwnerCalls } from '../_shared/owner-limits.ts';
import { rpc, type PaymentRow } from '../_shared/plan-flows.ts';
import { dbCall } from '../_shared/plan-answers.ts';
import { PLAN_MESSAGES, ZUseCoupon } from '@reaction-blocks/contracts/plans';

Deno.serve(
  ownerHandler(ZUseCoupon, async ({ body, user }) => {
    const payment = await dbCall('use-coupon', async () => {
      await limitOwnerCalls(user.id, 'use-coupon', PLAN_MESSAGES.couponAttempts);
      return rpc<PaymentRow>('redeem_coupon', { p_user_id: user.id, p_code: body.couponId });
    });
    return { status: true, payment };
  }),
);
