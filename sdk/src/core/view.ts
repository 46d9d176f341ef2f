// How an element fetches its block view: the public part with a cacheable GET (the same request
// for every visitor, so a CDN can answer it), then, only when the visitor already has a session,
// their own part for the messages on screen (get_block_me, POST with the session). A visitor
// without a session costs one GET, which a cache in front of the API answers without the database.
import { getSession } from './auth.js';
import { rpc, rpcGet } from './api.js';
import type { Project } from './config.js';
import type { BlockView, Message } from './types.js';

/** Top-level messages in the first page of the public view (the server's page size). */
export const PUBLIC_PAGE = 5;

/** Block types with a per-visitor part (likes, vote, own messages). */
const PERSONAL = new Set(['comment', 'qna', 'like', 'ab']);

/** What get_block_me answers. */
export interface Mine {
  me: NonNullable<BlockView['me']>;
  /** Top-level threads the visitor may see that the public page lacks (own, held, newer). */
  messages: Message[];
  /** Replies to messages on screen that the public page lacks. */
  replies: Message[];
}

const byDate = (a: Message, b: Message) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0;

/** The arguments of get_block_me for a public view: the ids on screen and the page's lower bound. */
export function mineArgs(view: BlockView): {
  p_block_id: string;
  p_message_ids: string[];
  p_since: string | null;
} {
  const list = view.messages || [];
  const ids = list.flatMap((m) => [m.id, ...(m.replies || []).map((r) => r.id)]);
  const others = list.filter((m) => !m.pinned_at);
  return {
    p_block_id: view.block.id,
    p_message_ids: ids,
    // a full page may have older messages behind it: the visitor's own ones come with Load more
    p_since: others.length >= PUBLIC_PAGE ? others.at(-1)!.created_at : null,
  };
}

/**
 * The public view with the visitor's own part: `me`, `liked` on the messages, and the messages
 * the visitor may see that the public page lacks, each in its place (threads newest first,
 * replies oldest first); a message already shown is never added twice.
 */
export function withMine(view: BlockView, mine: Mine): BlockView {
  const liked = new Set(mine.me.liked_message_ids || []);
  const mark = (m: Message): Message => ({ ...m, liked: liked.has(m.id) });
  const list: Message[] = (view.messages || []).map((m) => ({
    ...mark(m),
    replies: (m.replies || []).map(mark),
  }));
  const seen = new Set(list.flatMap((m) => [m.id, ...m.replies!.map((r) => r.id)]));
  for (const r of mine.replies || []) {
    const parent = list.find((m) => m.id === r.parent_id);
    if (!parent || seen.has(r.id)) continue;
    seen.add(r.id);
    parent.replies = [...parent.replies!, mark(r)].sort(byDate);
  }
  for (const t of mine.messages || []) {
    if (seen.has(t.id)) continue;
    seen.add(t.id);
    const thread = { ...mark(t), replies: (t.replies || []).map(mark) };
    const at = t.pinned_at ? 0 : list.findIndex((m) => !m.pinned_at && m.created_at < t.created_at);
    list.splice(at < 0 ? list.length : at, 0, thread);
  }
  return { ...view, messages: list, me: mine.me };
}

/** Fetches a block view as the elements do: the public GET, then the visitor's own part. */
export async function loadView(p: Project, blockId: string): Promise<BlockView> {
  const view = await rpcGet<BlockView>(p, 'get_block_public', { p_block_id: blockId });
  if (!view || !view.block || !PERSONAL.has(view.block.type) || !getSession(p)) return view;
  const mine = await rpc<Mine>(p, 'get_block_me', mineArgs(view));
  return withMine(view, mine);
}
