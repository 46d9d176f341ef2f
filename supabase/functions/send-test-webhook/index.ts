// "Send test": a webhook.test event to an endpoint of the owner, delivered now through the same
// signed POST and SSRF guard as every event, and logged like them; answers what the receiver
// said. Paid owners only.
import { ZWebhookEndpointId } from '@reaction-blocks/contracts/webhooks';
import { serviceClient } from '../_shared/clients.ts';
import { dbError, ownerHandler } from '../_shared/http.ts';
import { endpointError, requirePaid } from '../_shared/webhook-endpoints.ts';
import { webhookContexts } from '../_shared/webhook-jobs.ts';
import { deliverWebhook } from '../_shared/webhooks.ts';

Deno.serve(
  ownerHandler(ZWebhookEndpointId, async ({ body, user }) => {
    await requirePaid(user.id);
    const db = serviceClient();
    const {
      data: deliveryId,
      error,
      status,
    } = await db.rpc('create_test_webhook', {
      p_user_id: user.id,
      p_endpoint_id: body.endpointId,
    });
    if (error) endpointError(error, status);
    const ctx = (await webhookContexts([deliveryId as string])).get(deliveryId as string)!;
    const attempt = await deliverWebhook(ctx.url!, ctx.delivery_id, ctx.payload, ctx.secrets ?? []);
    const { error: recordError, status: recordStatus } = await db.rpc('record_webhook_attempts', {
      p_results: [{ delivery_id: ctx.delivery_id, ...attempt, final: !attempt.ok }],
    });
    if (recordError) throw dbError(recordError, recordStatus);
    return { deliveryId, ok: attempt.ok, status: attempt.status, error: attempt.error };
  }),
);
