// cancelIamportPayment (Stop): the card plan stops renewing. PortOne is told first (the next
// period's schedule revoked, the pending renewal read once more in case PortOne ran it just
// before, the billing key deleted), then the plan row; the owner keeps
// everything until the period ends, then the daily expiry applies Starter's limits.
import { stopPlan } from '../_shared/plan-calls.ts';
import { revokeSchedules } from '../_shared/plan-flows.ts';
import { portone, portoneErrorType } from '../_shared/portone.ts';

const gone = (err: unknown) => {
  const type = portoneErrorType(err);
  return type === 'BILLING_KEY_NOT_FOUND' || type === 'BILLING_KEY_ALREADY_DELETED';
};

Deno.serve(
  stopPlan({
    name: 'cancel-iamport-payment',
    method: 'iamport',
    async stopAtProvider(billingKey, revoked) {
      await revokeSchedules('cancel-iamport-payment', billingKey, gone);
      await revoked();
      try {
        await portone().payment.billingKey.deleteBillingKey({
          billingKey,
          reason: 'Plan stopped by the owner',
        });
      } catch (err) {
        // the schedules are revoked: a key left behind cannot charge by itself
        if (!gone(err)) console.error('[cancel-iamport-payment] delete billing key', err);
      }
    },
  }),
);
