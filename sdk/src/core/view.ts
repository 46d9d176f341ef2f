// The visitor's own part of a block view with messages (comment, qna, and the block element that
// may show them). BlockElement.fetchView reads the public part with a cacheable GET (the same
// request for every visitor, so a CDN can answer it), then, only when the visitor already has a
// session, get_block_me for the messages on screen; these say what to ask and how the answer
// joins the public view. A chunk loaded only for a visitor with a session (core/mine.ts); like
// and A/B blocks only take `me` (core/marks.ts, meOnly).
import { pageOf } from './api.js';
import type { BlockView, Message } from './types.js';

/** What get_block_me answers: the visitor's own part of the block view. */
export interface Mine {
  me: NonNullable<BlockView['me']>;
  /** The block with its counts as they are now (the public part may be a cached copy). */
  block?: BlockView['block'];
  /** A/B blocks: the question with the current option counts. */
  questions?: BlockView['questions'];
  /** Top-level threads the visitor may see that the public page lacks (own, held, newer). */
  messages: Message[];
  /** Replies to messages on screen that the public page lacks. */
  replies: Message[];
}

/**
 * How an element asks for the visitor's own part (get_block_me: `args`, or null when the view has
 * none) and joins the answer to the view.
 */
export interface MinePart {
  args(view: BlockView): object | null;
  join(view: BlockView, mine: Mine): BlockView;
}

/** Top-level messages in the first page of the public view (the server's page size). */
export const PUBLIC_PAGE = 5;

const byDate = (a: Message, b: Message) =>
  a.created_at < b.created_at ? -1 : a.created_at > b.created_at ? 1 : 0;

/** Block types with a visitor's own part (likes, vote, own messages). */
const PERSONAL = ['comment', 'qna', 'like', 'ab'];

/**
 * The arguments of get_block_me for a public view: the ids on screen and the page's lower bound;
 * null for a block without a visitor's own part (form, button, letters).
 */
export function mineArgs(view: BlockView): object | null {
  if (!PERSONAL.includes(view.block.type)) return null;
  const list = view.messages || [];
  const ids = list.flatMap((m) => [m.id, ...(m.replies || []).map((r) => r.id)]);
  const others = list.filter((m) => !m.pinned_at);
  return {
    p_block_id: view.block.id,
    p_message_ids: ids,
    // a full page may have older messages behind it: the visitor's own ones come with Load more
    p_since: others.length >= PUBLIC_PAGE ? others.at(-1)!.created_at : null,
    ...pageOf(view.block),
  };
}

/**
 * The public view with the visitor's own part: `me`, the block's current counts, `liked` on the
 * messages, and the messages
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
  return { ...view, ...mine, messages: list };
}

/** The visitor's own part of a view with messages (BlockElement.mine). */
export const messagesMine = { args: mineArgs, join: withMine };
