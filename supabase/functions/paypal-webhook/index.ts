// PayPal's webhooks (subscription activated, updated, cancelled, payments completed or failed).
// Not a user call: verify_jwt is off and PayPal's verify-webhook-signature call (with our
// PAYPAL_WEBHOOK_ID) is the check. Each event id is applied once; the subscription it names is
// read back from PayPal's API before anything changes (one whose checkout had ended, approved too
// late, is given back: settleEndedPaypalCheckout; one of a deleted account runs its stop again,
// which cancels it and gives back what PayPal took after the deletion: plan.account-stop; one on
// our plan with neither a checkout nor a plan, approved but never checked, is cancelled and given
// back an hour later unless its check came: plan.paypal-orphan). A
// failure answers 500 (503 with Retry-After when the database was out of reach) and PayPal retries.
import { json } from '../_shared/http.ts';
import {
  rpc,
  settleCharge,
  settleEndedPaypalCheckout,
  syncPaypalPlan,
  type ChargeRow,
} from '../_shared/plan-flows.ts';
import { webhookFailure } from '../_shared/plan-answers.ts';
import { paypalClient } from '../_shared/paypal-env.ts';
import { kickWorker } from '../_shared/background.ts';
import { mayBeOrphan, queueOrphanCheck } from '../_shared/paypal-no-plan.ts';

interface PayPalEvent {
  id?: unknown;
  event_type?: unknown;
  resource?: { id?: unknown; billing_agreement_id?: unknown };
}

Deno.serve(async (req) => {
  if (req.method !== 'POST')
    return json(405, { error: { code: 'method_not_allowed', message: 'Use POST' } });
  const h = (name: string) => req.headers.get(name) ?? '';
  let event: PayPalEvent;
  try {
    event = JSON.parse(await req.text()) as PayPalEvent;
  } catch {
    return json(400, { error: { code: 'invalid_json', message: 'The body is not JSON' } });
  }
  if (
    !event ||
    typeof event !== 'object' ||
    typeof event.id !== 'string' ||
    typeof event.event_type !== 'string'
  ) {
    return json(400, { error: { code: 'invalid_webhook', message: 'Not a PayPal event' } });
  }
  try {
    const verified = await paypalClient().verifyWebhook(
      {
        authAlgo: h('paypal-auth-algo'),
        certUrl: h('paypal-cert-url'),
        transmissionId: h('paypal-transmission-id'),
        transmissionSig: h('paypal-transmission-sig'),
        transmissionTime: h('paypal-transmission-time'),
      },
      event,
    );
    if (!verified)
      return json(401, {
        error: { code: 'invalid_signature', message: 'The webhook signature is not valid' },
      });

    const key = `paypal:${event.id}`;
    if (await rpc<boolean>('payment_event_seen', { p_id: key }))
      return json(200, { data: { duplicate: true } });
    const type = event.event_type;
    const subscriptionId = type.startsWith('PAYMENT.SALE.')
      ? event.resource?.billing_agreement_id
      : type.startsWith('BILLING.SUBSCRIPTION.')
        ? event.resource?.id
        : undefined;
    let applied = 'ignored';
    if (typeof subscriptionId === 'string' && /^I-[A-Z0-9]{6,40}$/.test(subscriptionId)) {
      const checkout = await rpc<ChargeRow | null>('plan_charge_by_ref', {
        p_method: 'paypal',
        p_ref: subscriptionId,
      });
      if (checkout?.status === 'pending') applied = (await settleCharge(checkout)).state;
      // approved after its checkout was closed: what PayPal took goes back
      else if (checkout?.status === 'failed')
        applied = (await settleEndedPaypalCheckout(checkout)).state;
      const s = await paypalClient().getSubscription(subscriptionId);
      const plan = await syncPaypalPlan(
        subscriptionId,
        type === 'BILLING.SUBSCRIPTION.PAYMENT.FAILED',
        s,
      );
      if (plan) applied = 'synced';
      else if (
        !checkout &&
        (await rpc<string | null>('account_stop_again', {
          p_charge_id: null,
          p_method: 'paypal',
          p_ref: subscriptionId,
          p_key: key,
        }))
      ) {
        applied = 'account_deleted';
        kickWorker();
      } else if (!checkout && mayBeOrphan(s)) {
        // approved and billed, but its check never ran: an hour for it, then cancelled and given
        // back (plan.paypal-orphan)
        await queueOrphanCheck(subscriptionId);
        applied = 'no_checkout';
      }
    }
    await rpc('record_payment_event', { p_id: key });
    return json(200, { data: { type, applied } });
  } catch (err) {
    return webhookFailure(err, 'paypal-webhook');
  }
});
