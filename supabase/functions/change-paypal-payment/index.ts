// changePaypalPayment: asks PayPal to revise the subscription's quantity (= the new price) and
// answers PayPal's links, the approval link first (the spec opens links[0].href in a new tab).
// The change starts with the first period after the owner approved it on PayPal. Back from the
// revise's "Cancel and return" (`declined`, with the plan held) the pending change is dropped:
// PayPal is read, not revised again, and the row keeps the plan held only while PayPal still bills
// its price (a change approved there before stays, 409 change_approved).
import { PLAN_MESSAGES } from '@reaction-blocks/contracts/plans';
import { env, siteUrl } from '../_shared/env.ts';
import { HttpError } from '../_shared/errors.ts';
import { changePlan } from '../_shared/plan-calls.ts';
import { providerUnavailable } from '../_shared/plan-flows.ts';
import { paypalClient } from '../_shared/paypal-env.ts';
import { approveLink } from '../_shared/paypal.ts';

Deno.serve(
  changePlan({
    name: 'change-paypal-payment',
    method: 'paypal',
    renews: (plan) => !!plan.subscription_id,
    async changeAtProvider(subscription, price, _revoked, declined) {
      if (declined) return await keepDeclined(subscription, price);
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

/** The owner declined the change at PayPal: nothing to ask PayPal while it bills `price` still. */
async function keepDeclined(subscription: string, price: number) {
  let quantity: string | undefined;
  try {
    quantity = (await paypalClient().getSubscription(subscription)).quantity;
  } catch (err) {
    console.error('[change-paypal-payment] read back', err);
    throw providerUnavailable();
  }
  if (Number(quantity ?? 1) !== price)
    throw new HttpError(409, 'change_approved', PLAN_MESSAGES.changeApproved);
  return { links: [] };
}
