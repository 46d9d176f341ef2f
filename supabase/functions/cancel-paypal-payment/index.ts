// cancelPaypalPayment (Stop): the PayPal subscription is cancelled at PayPal first, then the plan
// row stops renewing; the owner keeps everything until the period ends.
import { handler } from '../_shared/http.ts';
import { httpErrorOf, providerUnavailable, rpc, type PaymentRow } from '../_shared/plan-flows.ts';
import { paypalClient } from '../_shared/paypal-env.ts';
import { PayPalError } from '../_shared/paypal.ts';
import { ZCancelPayment } from '@reaction-blocks/contracts/plans';

Deno.serve(
  handler(
    ZCancelPayment,
    async ({ body, user }) => {
      let info: { payment: PaymentRow; subscription_id: string | null };
      try {
        info = await rpc('plan_for_owner', {
          p_user_id: user.id,
          p_payment_id: body.paymentId,
          p_method: 'paypal',
        });
      } catch (err) {
        throw httpErrorOf(err, 'cancel-paypal-payment');
      }
      if (!info.payment.auto_renew) return { status: true, payment: info.payment };
      if (info.subscription_id) {
        try {
          await paypalClient().cancelSubscription(info.subscription_id, 'Stopped by the owner');
        } catch (err) {
          if (!(err instanceof PayPalError && err.status === 404)) {
            console.error('[cancel-paypal-payment]', err);
            throw providerUnavailable();
          }
        }
      }
      try {
        const payment = await rpc<PaymentRow>('record_plan_stop', {
          p_user_id: user.id,
          p_payment_id: body.paymentId,
        });
        return { status: true, payment };
      } catch (err) {
        throw httpErrorOf(err, 'cancel-paypal-payment');
      }
    },
    { ownersOnly: true },
  ),
);
