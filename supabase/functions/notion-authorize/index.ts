// Starts connecting Notion: answers the URL of Notion's authorise page (opened in a popup by the
// dashboard) with our client id, the redirect to the dashboard's /oauth/notion, and a signed
// state naming the caller. Paid owners only (spec: Integration is a paid feature).
import { ownerHandler } from '../_shared/http.ts';
import { notionOAuthClient } from '../_shared/notion.ts';
import { requireAllowedRedirect, signState } from '../_shared/oauth-state.ts';
import { requirePaid } from '../_shared/paid.ts';
import { ZNotionAuthorize } from '@reaction-blocks/contracts/schemas';

Deno.serve(
  ownerHandler(ZNotionAuthorize, async ({ body, user }) => {
    requireAllowedRedirect(body.redirectUrl, 'notion');
    await requirePaid(user.id);
    const oauth = notionOAuthClient();
    const url = new URL(oauth.authorizeUrl);
    url.searchParams.set('client_id', oauth.clientId);
    url.searchParams.set('response_type', 'code');
    url.searchParams.set('owner', 'user');
    url.searchParams.set('redirect_uri', body.redirectUrl);
    url.searchParams.set('state', await signState(oauth.clientSecret, user.id));
    return { url: url.href };
  }),
);
