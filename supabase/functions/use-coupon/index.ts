// useCoupon: redeems a coupon code (1 to 99 characters) for the caller. The rules (once per
// owner, expiry, usage cap, promote coupons for owners who never had a plan) live in
// public.redeem_coupon, which locks the coupon's row so parallel redemptions cannot overshoot.
import { handler } from '../_shared/http.ts';
import { httpErrorOf, rpc, type PaymentRow } from '../_shared/plan-flows.ts';
import { ZUseCoupon } from '../_shared/plans.ts';

Deno.serve(
  handler(
    ZUseCoupon,
    async ({ body, user }) => {
      try {
        const payment = await rpc<PaymentRow>('redeem_coupon', {
          p_user_id: user.id,
          p_code: body.couponId,
        });
        return { status: true, payment };
      } catch (err) {
        throw httpErrorOf(err, 'use-coupon');
      }
    },
    { ownersOnly: true },
  ),
);
