// changeIamportPayment: the card plan of the next periods. The current period stays as paid;
// PortOne's pending schedule is revoked first, then the plan row keeps the change for the next
// period and the queue schedules the next charge at the new price (docs/plans.md).
import { kickWorker } from '../_shared/background.ts';
import { changePlan } from '../_shared/plan-calls.ts';
import { providerUnavailable } from '../_shared/plan-flows.ts';
import { portone, portoneErrorType } from '../_shared/portone.ts';

Deno.serve(
  changePlan({
    name: 'change-iamport-payment',
    method: 'iamport',
    async changeAtProvider({ billing_key: billingKey }) {
      if (!billingKey) return;
      try {
        await portone().payment.paymentSchedule.revokePaymentSchedules({ billingKey });
      } catch (err) {
        console.error('[change-iamport-payment] revoke', portoneErrorType(err), err);
        throw providerUnavailable();
      }
    },
    recorded: kickWorker,
  }),
);
