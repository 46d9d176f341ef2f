// cancelPaypalPayment (Stop): the PayPal subscription is cancelled at PayPal first, then the plan
// row stops renewing; the owner keeps everything until the period ends. PayPal is told whatever the
// row says (a subscription it still bills is cancelled; one cancelled already is left so). A period
// PayPal billed before the cancel (its webhook still on its way, or lost) is the owner's, as a card
// renewal PortOne took before a Stop: the subscription is read back after the cancel and applied
// (syncPaypalPlan), so the plan runs to the end of that period.
import { stopPlan } from '../_shared/plan-calls.ts';
import { providerUnavailable, syncPaypalPlan } from '../_shared/plan-flows.ts';
import { paypalClient } from '../_shared/paypal-env.ts';
import { PayPalError } from '../_shared/paypal.ts';

Deno.serve(
  stopPlan({
    name: 'cancel-paypal-payment',
    method: 'paypal',
    evenIfNotRenewing: true,
    async stopAtProvider(subscription) {
      try {
        await paypalClient().cancelSubscription(subscription, 'Stopped by the owner');
      } catch (err) {
        if (!(err instanceof PayPalError && err.status === 404)) {
          console.error('[cancel-paypal-payment]', err);
          throw providerUnavailable();
        }
        return;
      }
      // cancelled: nothing more is billed, and what was is applied now (the webhooks of the
      // payment and of the cancel do the same, later, if this read fails)
      await syncPaypalPlan(subscription).catch((err) =>
        console.error('[cancel-paypal-payment] sync', err),
      );
    },
  }),
);
