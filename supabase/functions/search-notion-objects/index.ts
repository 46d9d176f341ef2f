// searchNotionObjects: what the owner may link a block to, from their connected workspace:
// data sources (Notion's databases) for form, ab, button, comment and qna blocks, pages for like
// blocks (spec). Pages that are rows of a data source are left out: a like block writes under a
// page of its own. A 401 marks the integration not granted. What it lists is kept with the
// connection (keep_notion_listed): save-block links a block only to one of those.
import type { TIntegrationStatus } from '@reaction-blocks/contracts/enums';
import { serviceClient } from '../_shared/clients.ts';
import { dbError, HttpError, ownerHandler } from '../_shared/http.ts';
import { classifyNotionError, notionClient, plainText } from '../_shared/notion.ts';
import { requirePaid } from '../_shared/paid.ts';
import {
  INTEGRATION_MESSAGES,
  ZSearchNotionObjects,
  type TNotionObject,
} from '@reaction-blocks/contracts/schemas';

interface Connection {
  id: string;
  workspace_id: string | null;
  status: TIntegrationStatus;
  access_token: string;
}

Deno.serve(
  ownerHandler(ZSearchNotionObjects, async ({ body, user }) => {
    const db = serviceClient();
    // the paid check beside the connection read: its refusal (or its failed read) comes first
    const [, connectionRead] = await Promise.all([
      requirePaid(user.id),
      db.rpc('notion_connection', { p_user_id: user.id }),
    ]);
    if (connectionRead.error) throw dbError(connectionRead.error, connectionRead.status);
    const conn = connectionRead.data as Connection | null;
    if (!conn) throw new HttpError(409, 'not_connected', INTEGRATION_MESSAGES.notConnected);
    if (conn.status !== 'granted')
      throw new HttpError(409, 'not_granted', INTEGRATION_MESSAGES.notGranted);

    const objects: TNotionObject[] = [];
    try {
      const notion = notionClient(conn.access_token);
      let cursor: string | undefined;
      // at most three pages of 100: enough to pick from, bounded in time
      for (let page = 0; page < 3; page++) {
        const found = await notion.search({
          query: body.query || undefined,
          filter: { property: 'object', value: body.target === 'page' ? 'page' : 'data_source' },
          sort: { timestamp: 'last_edited_time', direction: 'descending' },
          page_size: 100,
          start_cursor: cursor,
        });
        for (const r of found.results) {
          const o = r as Record<string, unknown>;
          if (o.object === 'data_source' && 'properties' in o) {
            objects.push({
              id: String(o.id),
              object: 'data_source',
              title: plainText(o.title) || 'Untitled',
              url: typeof o.url === 'string' ? o.url : null,
              properties: Object.values(
                o.properties as Record<string, { name: string; type: string }>,
              ).map((p) => ({
                name: p.name,
                type: p.type,
              })),
            });
          } else if (o.object === 'page' && 'properties' in o) {
            const parent = o.parent as { type?: string } | undefined;
            if (parent?.type === 'data_source_id' || parent?.type === 'database_id') continue;
            const title = Object.values(
              o.properties as Record<string, { type: string; title?: unknown }>,
            ).find((p) => p.type === 'title');
            objects.push({
              id: String(o.id),
              object: 'page',
              title: plainText(title?.title) || 'Untitled',
              url: typeof o.url === 'string' ? o.url : null,
            });
          }
        }
        if (!found.has_more || !found.next_cursor) break;
        cursor = found.next_cursor;
      }
    } catch (err) {
      const failure = classifyNotionError(err);
      if (failure.kind === 'unauthorized') {
        await db.rpc('mark_notion_not_granted', {
          p_user_id: user.id,
          p_reason: failure.message.slice(0, 500),
        });
        throw new HttpError(409, 'not_granted', INTEGRATION_MESSAGES.notGranted);
      }
      if (failure.kind === 'rate_limited') {
        throw new HttpError(429, 'rate_limited', 'Notion is busy', failure.retryAfter);
      }
      console.error('[search-notion-objects]', failure.kind, failure.message);
      throw new HttpError(
        503,
        'notion_unavailable',
        'Notion did not answer; try again in a moment',
      );
    }
    // kept for the connection it was listed with (a connection replaced meanwhile keeps nothing)
    const kept = await db.rpc('keep_notion_listed', {
      p_integration_id: conn.id,
      p_workspace_id: conn.workspace_id ?? '',
      p_objects: objects.map((o) => ({ id: o.id, object: o.object })),
    });
    if (kept.error) throw dbError(kept.error, kept.status);
    return { objects };
  }),
);
