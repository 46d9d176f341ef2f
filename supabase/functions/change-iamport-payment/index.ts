// changeIamportPayment: the card plan of the next periods. The current period stays as paid;
// PortOne's pending schedule is revoked first, then the plan row keeps the change for the next
// period and the queue schedules the next charge at the new price (docs/plans.md).
import { kickWorker } from '../_shared/background.ts';
import { handler } from '../_shared/http.ts';
import { httpErrorOf, providerUnavailable, rpc, type PaymentRow } from '../_shared/plan-flows.ts';
import { planPrice, PLAN_MESSAGES, ZChangePayment } from '@reaction-blocks/contracts/plans';
import { portone, portoneErrorType } from '../_shared/portone.ts';
import { HttpError } from '../_shared/http.ts';

Deno.serve(
  handler(
    ZChangePayment,
    async ({ body, user }) => {
      const price = planPrice(body.plan);
      let info: { payment: PaymentRow; billing_key: string | null };
      try {
        info = await rpc('plan_for_owner', {
          p_user_id: user.id,
          p_payment_id: body.paymentId,
          p_method: 'iamport',
        });
      } catch (err) {
        throw httpErrorOf(err, 'change-iamport-payment');
      }
      if (!info.payment.auto_renew) throw new HttpError(409, 'conflict', PLAN_MESSAGES.notRenewing);
      if (info.billing_key) {
        try {
          await portone().payment.paymentSchedule.revokePaymentSchedules({
            billingKey: info.billing_key,
          });
        } catch (err) {
          console.error('[change-iamport-payment] revoke', portoneErrorType(err), err);
          throw providerUnavailable();
        }
      }
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
        kickWorker();
        return { status: true, payment };
      } catch (err) {
        throw httpErrorOf(err, 'change-iamport-payment');
      }
    },
    { ownersOnly: true },
  ),
);
