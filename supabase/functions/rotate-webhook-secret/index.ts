// A new signing secret for a webhook endpoint of the owner, answered once; the old one keeps
// signing beside it for a day (two signatures in webhook-signature), so the receiver can switch.
import { ZWebhookEndpointId } from '@reaction-blocks/contracts/webhooks';
import { serviceClient } from '../_shared/clients.ts';
import { ownerHandler } from '../_shared/http.ts';
import { endpointError, requirePaid } from '../_shared/webhook-endpoints.ts';
import { newWebhookSecret } from '../_shared/webhooks.ts';

Deno.serve(
  ownerHandler(ZWebhookEndpointId, async ({ body, user }) => {
    await requirePaid(user.id);
    const secret = newWebhookSecret();
    const { data, error, status } = await serviceClient().rpc('rotate_webhook_secret', {
      p_user_id: user.id,
      p_endpoint_id: body.endpointId,
      p_secret: secret,
    });
    if (error) endpointError(error, status);
    return { endpoint: data, secret };
  }),
);
