// Starts connecting Notion: answers the URL of Notion's authorise page (opened in a popup by the
// dashboard) with our client id, the redirect to the dashboard's /oauth/notion, and a signed
// state naming the caller. Paid owners only (spec: Integration is a paid feature).
import { serviceClient } from '../_shared/clients.ts';
import { handler, HttpError } from '../_shared/http.ts';
import { notionOAuthClient } from '../_shared/notion.ts';
import { allowedRedirect, signState } from '../_shared/oauth-state.ts';
import {
  BLOCK_MESSAGES,
  INTEGRATION_MESSAGES,
  ZNotionAuthorize,
} from '@reaction-blocks/contracts/schemas';

Deno.serve(
  handler(
    ZNotionAuthorize,
    async ({ body, user }) => {
      if (!allowedRedirect(body.redirectUrl, 'notion')) {
        throw new HttpError(400, 'invalid_input', INTEGRATION_MESSAGES.invalidRedirect);
      }
      const { data: profile } = await serviceClient()
        .from('profiles')
        .select('paid')
        .eq('id', user.id)
        .maybeSingle();
      if (!profile?.paid)
        throw new HttpError(403, 'paid_plan_required', BLOCK_MESSAGES.paidPlanRequired);
      const oauth = notionOAuthClient();
      const url = new URL(oauth.authorizeUrl);
      url.searchParams.set('client_id', oauth.clientId);
      url.searchParams.set('response_type', 'code');
      url.searchParams.set('owner', 'user');
      url.searchParams.set('redirect_uri', body.redirectUrl);
      url.searchParams.set('state', await signState(oauth.clientSecret, user.id));
      return { url: url.href };
    },
    { ownersOnly: true },
  ),
);
