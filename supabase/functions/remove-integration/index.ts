// removeIntegration: disconnects Notion. The token is revoked at Notion (best effort: an owner
// who already removed us in Notion, or Notion being down, does not keep them connected here),
// every block of the owner is unlinked, the token and the notes are deleted, and writes still
// queued are settled.
import { serviceClient } from '../_shared/clients.ts';
import { handler } from '../_shared/http.ts';
import { classifyNotionError, notionClient, notionOAuthClient } from '../_shared/notion.ts';
import { ZRemoveIntegration } from '@reaction-blocks/contracts/schemas';

Deno.serve(
  handler(
    ZRemoveIntegration,
    async ({ user }) => {
      const { data, error } = await serviceClient().rpc('remove_notion_connection', {
        p_user_id: user.id,
      });
      if (error) throw new Error(error.message);
      const removed = data as { access_token: string | null; unlinked: number };
      let revoked = false;
      if (removed.access_token) {
        const oauth = notionOAuthClient();
        try {
          await notionClient().oauth.revoke({
            token: removed.access_token,
            client_id: oauth.clientId,
            client_secret: oauth.clientSecret,
          });
          revoked = true;
        } catch (err) {
          const failure = classifyNotionError(err);
          // 401: Notion no longer knows the token, which is what revoking wants
          revoked = failure.kind === 'unauthorized';
          if (!revoked)
            console.error('[remove-integration] revoke failed:', failure.kind, failure.message);
        }
      }
      return { status: true, revoked, unlinked: removed.unlinked };
    },
    { ownersOnly: true },
  ),
);
