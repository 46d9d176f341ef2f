// The comment list as pure functions: a server list as threads and the list as shown. What a
// change from the server (live, or the answer to the visitor's own write) does to the list is
// comment.changes.ts, loaded after the first data; a list read again for another identity is
// merged with the one on screen in comment.read.ts, loaded then.
//
// Invariants: a thread list holds top-level messages newest first, each with its replies oldest
// first (pinned threads come first from the server; pinnedFirst orders them for display); a
// message id appears once; the count moves as the server's blocks.response_count does (every
// message row counts, top-level or reply, held ones too from their posting; a deleted thread takes
// its replies with it). A live change (Realtime) leaves reply counts alone: the server sends them
// as `counts` messages (applyCounts), in either order with the reply itself.
import type { Message } from '../../core/types.js';

export const thread = (m: Message): Message => ({ ...m, replies: m.replies || [] });

/** A server list (get_block_view, list_messages) as threads with reply arrays. */
export const threads = (list: Message[] | undefined): Message[] => (list || []).map(thread);

/** The list as shown: pinned threads first (newest pin first), then the others in list order. */
export function pinnedFirst(list: Message[]): Message[] {
  const pinned = list
    .filter((m) => m.pinned_at)
    .sort((a, b) => (b.pinned_at! > a.pinned_at! ? 1 : b.pinned_at! < a.pinned_at! ? -1 : 0));
  return pinned.length ? [...pinned, ...list.filter((m) => !m.pinned_at)] : list;
}
