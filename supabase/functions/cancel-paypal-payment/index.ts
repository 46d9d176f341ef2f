// cancelPaypalPayment (Stop): the PayPal subscription is cancelled at PayPal first, then the plan
// row stops renewing; the owner keeps everything until the period ends. PayPal is told whatever the
// row says (a subscription it still bills is cancelled; one cancelled already is left so).
import { stopPlan } from '../_shared/plan-calls.ts';
import { providerUnavailable } from '../_shared/plan-flows.ts';
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
      }
    },
  }),
);
