// checkIamportPayment: buys a plan with the billing key PortOne's checkout issued (a Korean card
// through the KCP billing channel, or a wallet). The price is the server's (plans.ts, checked
// again in SQL); the checkout row is written before the money is asked for, with our charge id
// as PortOne's payment id, so a double submit or a retry charges once. Then: read the payment
// back, schedule the next period's charge, record the plan (docs/plans.md).
import { ownerHandler, HttpError } from '../_shared/http.ts';
import {
  orderName,
  providerUnavailable,
  rpc,
  settleCardCheckout,
  startCheckout,
} from '../_shared/plan-flows.ts';
import { dbCall, finishedCheckoutAnswer, settledCheckoutAnswer } from '../_shared/plan-answers.ts';
import { planPrice, ZCheckIamportPayment } from '@reaction-blocks/contracts/plans';
import { portone, portoneErrorType } from '../_shared/portone.ts';

Deno.serve(
  ownerHandler(ZCheckIamportPayment, async ({ body, user }) => {
    const { billingKey, pg } = body.content;
    const price = planPrice(body.plan);

    // Whose card is it? Read-only, before anything is written: a billing key issued to another
    // account is refused without leaving a trace.
    let info: Awaited<
      ReturnType<ReturnType<typeof portone>['payment']['billingKey']['getBillingKeyInfo']>
    >;
    try {
      info = await portone().payment.billingKey.getBillingKeyInfo({ billingKey });
    } catch (err) {
      const type = portoneErrorType(err);
      if (type === 'BILLING_KEY_NOT_FOUND')
        throw new HttpError(400, 'invalid_billing_key', 'Invalid billing key');
      console.error('[check-iamport-payment] billing key', err);
      throw providerUnavailable();
    }
    if (!('customer' in info) || info.customer.id !== user.id) {
      throw new HttpError(403, 'forbidden', 'This payment method belongs to another account');
    }
    const method = 'methods' in info ? info.methods?.[0]?.type : undefined;
    if (
      pg === 'kcp_billing'
        ? method !== 'BillingKeyPaymentMethodCard'
        : method === 'BillingKeyPaymentMethodCard'
    ) {
      throw new HttpError(
        400,
        'invalid_billing_key',
        'The payment method does not match the route',
      );
    }

    const charge = await dbCall('check-iamport-payment', () =>
      startCheckout(user.id, 'iamport', billingKey, body.plan, price),
    );
    // a double submit or a retry of a finished checkout: its outcome, nothing charged again
    const finished = await finishedCheckoutAnswer(charge);
    if (finished) return finished;
    if (info.status !== 'ISSUED') {
      await rpc('fail_plan_checkout', {
        p_charge_id: charge.id,
        p_error: 'The billing key was deleted',
      });
      throw new HttpError(400, 'invalid_billing_key', 'Invalid billing key');
    }

    try {
      await portone().payment.payWithBillingKey({
        paymentId: charge.id,
        billingKey,
        orderName: orderName(charge.plan),
        customer: { id: user.id, ...(user.email ? { email: user.email } : {}) },
        amount: { total: Number(charge.amount) },
        currency: 'KRW',
        customData: JSON.stringify({ plan: charge.plan }),
      });
    } catch (err) {
      const type = portoneErrorType(err);
      // ALREADY_PAID: this checkout was charged by an earlier attempt; a refusal (PG_PROVIDER
      // and the like) is read back below, as is anything else PortOne answered
      if (type === null) {
        console.error('[check-iamport-payment] pay', err);
        throw providerUnavailable();
      }
    }
    return settledCheckoutAnswer('check-iamport-payment', () => settleCardCheckout(charge));
  }),
);
