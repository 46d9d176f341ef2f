// changeIamportPayment: the card plan of the next periods. The current period stays as paid;
// PortOne's pending schedule is revoked first (and the pending renewal read once more, in case
// PortOne ran it just before), then the plan row keeps the change for the next
// period and the queue schedules the next charge at the new price (docs/plans.md).
import { kickWorker } from '../_shared/background.ts';
import { changePlan } from '../_shared/plan-calls.ts';
import { revokeSchedules } from '../_shared/plan-flows.ts';

Deno.serve(
  changePlan({
    name: 'change-iamport-payment',
    method: 'iamport',
    async changeAtProvider(billingKey, _price, revoked) {
      await revokeSchedules('change-iamport-payment', billingKey);
      await revoked();
    },
    recorded: kickWorker,
  }),
);
