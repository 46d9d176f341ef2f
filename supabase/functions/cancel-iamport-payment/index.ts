// cancelIamportPayment (Stop): the card plan stops renewing. PortOne is told first (the next
// period's schedule revoked, the pending renewal read once more in case PortOne ran it just
// before, the billing key deleted), then the plan row (the queue deletes the key later only if
// PortOne refused it now); the owner keeps
// everything until the period ends, then the daily expiry applies Starter's limits.
import { stopPlan } from '../_shared/plan-calls.ts';
import { revokeSchedules } from '../_shared/plan-flows.ts';
import { billingKeyGone, portone } from '../_shared/portone.ts';

Deno.serve(
  stopPlan({
    name: 'cancel-iamport-payment',
    method: 'iamport',
    async stopAtProvider(billingKey, revoked) {
      await revokeSchedules('cancel-iamport-payment', billingKey, billingKeyGone);
      // a renewal PortOne declined in the moment before the revoke: its failure queued
      // plan.delete-billing-key already, which deletes the key (one request, not two)
      if ((await revoked()) === 'failed') return { keyDeleted: false };
      try {
        await portone().payment.billingKey.deleteBillingKey({
          billingKey,
          reason: 'Plan stopped by the owner',
        });
        return { keyDeleted: true };
      } catch (err) {
        // PortOne refuses while a schedule made just after the revoke waits: plan.revoke-schedule
        // revokes that one, and plan.delete-billing-key, queued with the Stop, deletes the key
        // once nothing is scheduled on it (queued only then: a key deleted here costs one call)
        if (billingKeyGone(err)) return { keyDeleted: true };
        console.error('[cancel-iamport-payment] delete billing key', err);
        return { keyDeleted: false };
      }
    },
  }),
);
