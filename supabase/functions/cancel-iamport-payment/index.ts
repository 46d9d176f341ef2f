// cancelIamportPayment (Stop): the card plan stops renewing. PortOne is told first (the next
// period's schedule revoked, the billing key deleted), then the plan row; the owner keeps
// everything until the period ends, then the daily expiry applies Starter's limits.
import { handler, HttpError } from '../_shared/http.ts';
import { httpErrorOf, providerUnavailable, rpc, type PaymentRow } from '../_shared/plan-flows.ts';
import { ZCancelPayment } from '@reaction-blocks/contracts/plans';
import { portone, portoneErrorType } from '../_shared/portone.ts';

Deno.serve(
  handler(
    ZCancelPayment,
    async ({ body, user }) => {
      let info: { payment: PaymentRow; billing_key: string | null };
      try {
        info = await rpc('plan_for_owner', {
          p_user_id: user.id,
          p_payment_id: body.paymentId,
          p_method: 'iamport',
        });
      } catch (err) {
        throw httpErrorOf(err, 'cancel-iamport-payment');
      }
      if (!info.payment.auto_renew) return { status: true, payment: info.payment };
      if (info.billing_key) {
        try {
          await portone().payment.paymentSchedule.revokePaymentSchedules({
            billingKey: info.billing_key,
          });
        } catch (err) {
          const type = portoneErrorType(err);
          if (type !== 'BILLING_KEY_NOT_FOUND' && type !== 'BILLING_KEY_ALREADY_DELETED') {
            console.error('[cancel-iamport-payment] revoke', err);
            throw providerUnavailable();
          }
        }
        try {
          await portone().payment.billingKey.deleteBillingKey({
            billingKey: info.billing_key,
            reason: 'Plan stopped by the owner',
          });
        } catch (err) {
          const type = portoneErrorType(err);
          // the schedules are revoked: a key left behind cannot charge by itself
          if (type !== 'BILLING_KEY_NOT_FOUND' && type !== 'BILLING_KEY_ALREADY_DELETED')
            console.error('[cancel-iamport-payment] delete billing key', err);
        }
      }
      try {
        const payment = await rpc<PaymentRow>('record_plan_stop', {
          p_user_id: user.id,
          p_payment_id: body.paymentId,
        });
        return { status: true, payment };
      } catch (err) {
        throw err instanceof HttpError ? err : httpErrorOf(err, 'cancel-iamport-payment');
      }
    },
    { ownersOnly: true },
  ),
);
