// changePaypalPayment: asks PayPal to revise the subscription's quantity (= the new price) and
// answers PayPal's links, the approval link first (the spec opens links[0].href in a new tab).
// The change starts with the first period after the owner approved it on PayPal.
import { siteUrl } from '../_shared/env.ts';
import { handler, HttpError } from '../_shared/http.ts';
import { httpErrorOf, providerUnavailable, rpc, type PaymentRow } from '../_shared/plan-flows.ts';
import { paypalClient } from '../_shared/paypal-env.ts';
import { approveLink } from '../_shared/paypal.ts';
import { env } from '../_shared/env.ts';
import { planPrice, PLAN_MESSAGES, ZChangePayment } from '@reaction-blocks/contracts/plans';

Deno.serve(
  handler(
    ZChangePayment,
    async ({ body, user }) => {
      const price = planPrice(body.plan);
      let info: { payment: PaymentRow; subscription_id: string | null };
      try {
        info = await rpc('plan_for_owner', {
          p_user_id: user.id,
          p_payment_id: body.paymentId,
          p_method: 'paypal',
        });
      } catch (err) {
        throw httpErrorOf(err, 'change-paypal-payment');
      }
      if (!info.payment.auto_renew || !info.subscription_id)
        throw new HttpError(409, 'conflict', PLAN_MESSAGES.notRenewing);
      let link: string | null;
      try {
        const revision = await paypalClient().reviseSubscription(info.subscription_id, {
          plan_id: env('PAYPAL_PLAN_ID'),
          quantity: String(price),
          application_context: {
            return_url: `${siteUrl()}/profile/plan?paypal=approved`,
            cancel_url: `${siteUrl()}/profile/plan?paypal=cancelled`,
          },
        });
        link = approveLink(revision.links);
      } catch (err) {
        console.error('[change-paypal-payment] revise', err);
        throw providerUnavailable();
      }
      if (!link) throw providerUnavailable();
      try {
        const payment = await rpc<PaymentRow>('record_plan_change', {
          p_user_id: user.id,
          p_payment_id: body.paymentId,
          p_plan: {
            type: body.plan.type,
            blockLimit: body.plan.blockLimit,
            responseMonthlyLimit: body.plan.responseMonthlyLimit,
          },
          p_price: price,
        });
        return { status: true, payment, links: [{ href: link, rel: 'approve', method: 'GET' }] };
      } catch (err) {
        throw httpErrorOf(err, 'change-paypal-payment');
      }
    },
    { ownersOnly: true },
  ),
);
