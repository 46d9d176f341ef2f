// Adds or changes a webhook endpoint of the owner (docs/webhooks.md): one block or all blocks,
// an https address that leads to a public server (checked now and at every delivery), the events.
// A new endpoint's signing secret is answered once, here; it is kept where no client role can
// read it. Paid owners only.
import { ZSaveWebhookEndpoint } from '@reaction-blocks/contracts/webhooks';
import { serviceClient } from '../_shared/clients.ts';
import { ownerHandler } from '../_shared/http.ts';
import { endpointError, requirePaid, requirePublicHost } from '../_shared/webhook-endpoints.ts';
import { newWebhookSecret } from '../_shared/webhooks.ts';

Deno.serve(
  ownerHandler(ZSaveWebhookEndpoint, async ({ body, user }) => {
    await requirePaid(user.id);
    await requirePublicHost(body.url);
    const secret = body.id ? '' : newWebhookSecret();
    const { data, error, status } = await serviceClient().rpc('save_webhook_endpoint', {
      p_user_id: user.id,
      p_endpoint: {
        id: body.id ?? null,
        block_id: body.blockId,
        url: body.url,
        events: body.events,
        description: body.description,
        enabled: body.enabled,
      },
      p_secret: secret,
    });
    if (error) endpointError(error, status);
    return { endpoint: data, ...(secret ? { secret } : {}) };
  }),
);
