// removeIntegration: disconnects an integration.
// - Notion: the token is revoked at Notion (best effort: an owner who already removed us in
//   Notion, or Notion being down, does not keep them connected here), every block of the owner is
//   unlinked, the token and the notes are deleted, and writes still queued are settled.
// - Cafe24: the loader stops showing at once (get_cafe24_embed serves nothing for a shop being
//   removed) and the jobs queue takes our script tag off the mall, then deletes the shop and its
//   tokens; the card says so until then (docs/cafe24.md).
import { kickWorker } from '../_shared/background.ts';
import { serviceClient } from '../_shared/clients.ts';
import { dbError, ownerHandler } from '../_shared/http.ts';
import { classifyNotionError, notionClient, notionOAuthClient } from '../_shared/notion.ts';
import { ZRemoveIntegration } from '@reaction-blocks/contracts/schemas';

async function removeNotion(userId: string) {
  const { data, error, status } = await serviceClient().rpc('remove_notion_connection', {
    p_user_id: userId,
  });
  if (error) throw dbError(error, status);
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
}

async function removeCafe24(userId: string) {
  const { data, error, status } = await serviceClient().rpc('remove_cafe24_connection', {
    p_user_id: userId,
  });
  if (error) throw dbError(error, status);
  // the tag comes off within seconds; the schedule runs the job if this kick is lost
  if (data === true) kickWorker();
  return { status: true, removing: data === true };
}

Deno.serve(
  ownerHandler(ZRemoveIntegration, async ({ body, user }) =>
    body.mode === 'cafe24' ? removeCafe24(user.id) : removeNotion(user.id),
  ),
);
