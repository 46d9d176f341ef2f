// changePaypalPayment: asks PayPal to revise the subscription's quantity (= the new price) and
// answers PayPal's links, the approval link first (the spec opens links[0].href in a new tab).
// The change starts with the first period after the owner approved it on PayPal.
import { env, siteUrl } from '../_shared/env.ts';
import { changePlan } from '../_shared/plan-calls.ts';
import { providerUnavailable } from '../_shared/plan-flows.ts';
import { paypalClient } from '../_shared/paypal-env.ts';
import { approveLink } from '../_shared/paypal.ts';

Deno.serve(
  changePlan({
    name: 'change-paypal-payment',
    method: 'paypal',
    renews: (plan) => !!plan.subscription_id,
    async changeAtProvider(subscription, price) {
      let link: string | null;
      try {
        const revision = await paypalClient().reviseSubscription(subscription, {
          plan_id: env('PAYPAL_PLAN_ID'),
          quantity: String(price),
          application_context: {
            return_url: `${siteUrl()}/profile/plan?paypal=approved`,
            // not the purchase's cancel: the plan page says the plan stays as it is (U8)
            cancel_url: `${siteUrl()}/profile/plan?paypal=change-cancelled`,
          },
        });
        link = approveLink(revision.links);
      } catch (err) {
        console.error('[change-paypal-payment] revise', err);
        throw providerUnavailable();
      }
      if (!link) throw providerUnavailable();
      return { links: [{ href: link, rel: 'approve', method: 'GET' }] };
    },
  }),
);
