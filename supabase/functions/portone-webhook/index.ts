// PortOne's webhooks (Transaction.Paid, Transaction.Failed, ...). Not a user call: verify_jwt is
// off and the Standard Webhooks signature (PORTONE_WEBHOOK_SECRET, checked by the official SDK,
// five minutes' tolerance) is the check. Each webhook-id is applied once; the payment it names is
// read back from PortOne's API before anything changes, so the body itself is never trusted.
// A payment for a deleted account (its charge went with it), found by its id or by the billing key
// PortOne says it was made with, runs its stop again, which gives back what PortOne took
// (plan.account-stop).
// A failure answers 500 (503 with Retry-After when the database was out of reach) and PortOne
// sends it again.
import { Webhook } from '@portone/server-sdk';
import { env } from '../_shared/env.ts';
import { json } from '../_shared/http.ts';
import { chargeById, portonePayment, rpc, settleCharge } from '../_shared/plan-flows.ts';
import { webhookFailure } from '../_shared/plan-answers.ts';
import { kickWorker } from '../_shared/background.ts';

/** Our charge ids, the payment ids we give PortOne; plan_charge takes nothing else. */
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** The billing key PortOne says a payment was made with, or null (none, or no such payment). */
async function billingKeyOf(paymentId: string): Promise<string | null> {
  const payment = await portonePayment({ id: paymentId });
  return (payment && 'billingKey' in payment && payment.billingKey) || null;
}

Deno.serve(async (req) => {
  if (req.method !== 'POST')
    return json(405, { error: { code: 'method_not_allowed', message: 'Use POST' } });
  const body = await req.text();
  let event: Awaited<ReturnType<typeof Webhook.verify>>;
  try {
    event = await Webhook.verify(
      env('PORTONE_WEBHOOK_SECRET'),
      body,
      Object.fromEntries(req.headers),
    );
  } catch (err) {
    if (
      err instanceof Webhook.WebhookVerificationError ||
      err instanceof Webhook.InvalidInputError
    ) {
      return json(401, {
        error: { code: 'invalid_signature', message: 'The webhook signature is not valid' },
      });
    }
    console.error('[portone-webhook] verify', err);
    return json(400, {
      error: { code: 'invalid_webhook', message: 'The webhook could not be read' },
    });
  }
  const key = `portone:${req.headers.get('webhook-id')}`;
  try {
    if (await rpc<boolean>('payment_event_seen', { p_id: key }))
      return json(200, { data: { duplicate: true } });
    let applied = 'ignored';
    if ('data' in event && event.type.startsWith('Transaction.') && 'paymentId' in event.data) {
      const paymentId = event.data.paymentId;
      const charge = UUID.test(paymentId) ? await chargeById(paymentId) : null;
      if (charge) applied = (await settleCharge(charge)).state;
      else if (
        await rpc<string | null>('account_stop_again', {
          p_charge_id: paymentId.slice(0, 200),
          // found by its billing key too: a payment PortOne made with a deleted account's key
          // under an id its stop does not hold (a schedule it ran after the deletion)
          p_method: 'iamport',
          p_ref: await billingKeyOf(paymentId),
          p_key: `portone:${paymentId}`.slice(0, 200),
        })
      ) {
        applied = 'account_deleted';
        kickWorker();
      }
    }
    await rpc('record_payment_event', { p_id: key });
    return json(200, { data: { type: event.type, applied } });
  } catch (err) {
    return webhookFailure(err, 'portone-webhook');
  }
});
