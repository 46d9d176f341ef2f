// setNotionToken: /oauth/notion sends the code Notion gave it; we check the state is the
// caller's (and spend it), exchange the code for a token with the official client (Notion's OAuth token
// endpoint, our client credentials), and keep the token in private.integration_tokens (no client
// role can read it). Connecting again replaces the token, grants the integration again and
// releases the writes parked while access was revoked.
import { serviceClient } from '../_shared/clients.ts';
import { kickWorker } from '../_shared/background.ts';
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import { classifyNotionError, notionClient, notionOAuthClient } from '../_shared/notion.ts';
import { afterSpentState, requireAllowedRedirect, spendState } from '../_shared/oauth-state.ts';
import { INTEGRATION_MESSAGES, ZSetNotionToken } from '@reaction-blocks/contracts/schemas';

Deno.serve(
  ownerHandler(ZSetNotionToken, async ({ body, user }) => {
    requireAllowedRedirect(body.redirectUrl, 'notion');
    const oauth = notionOAuthClient();
    // a forged, expired, another user's or an already used state
    if (!(await spendState(serviceClient(), oauth.clientSecret, body.state, user.id))) {
      throw new HttpError(400, 'invalid_state', INTEGRATION_MESSAGES.invalidState);
    }
    let token;
    try {
      token = await notionClient().oauth.token({
        grant_type: 'authorization_code',
        code: body.code,
        redirect_uri: body.redirectUrl,
        client_id: oauth.clientId,
        client_secret: oauth.clientSecret,
      });
    } catch (err) {
      const failure = classifyNotionError(err);
      console.error('[set-notion-token]', failure.kind, failure.message);
      if (
        failure.kind === 'unavailable' ||
        failure.kind === 'uncertain' ||
        failure.kind === 'rate_limited'
      ) {
        throw new HttpError(
          503,
          'notion_unavailable',
          'Notion did not answer; try connecting again in a moment',
        );
      }
      throw new HttpError(
        400,
        'invalid_code',
        'Notion did not accept this authorisation; connect again',
      );
    }
    const { data, error, status } = await serviceClient().rpc('save_notion_connection', {
      p_user_id: user.id,
      p_access_token: token.access_token,
      p_token_data: {
        bot_id: token.bot_id,
        workspace_id: token.workspace_id,
        owner_type: token.owner?.type ?? null,
        duplicated_template_id: token.duplicated_template_id ?? null,
      },
      p_workspace_name: token.workspace_name ?? 'Notion',
      p_workspace_icon: token.workspace_icon ?? null,
    });
    if (error) afterSpentState(dbError(error, status));
    // writes parked while access was revoked run now
    kickWorker();
    const saved = data as { status: string; workspace_name: string };
    return {
      status: true,
      integration: {
        provider: 'notion',
        status: saved.status,
        workspaceName: saved.workspace_name,
      },
    };
  }),
);
