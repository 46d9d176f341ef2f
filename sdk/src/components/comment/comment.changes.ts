// What a change from the server (live, or the answer to the visitor's own write) does to the
// comment list and to the block's message count (the list's invariants: model.ts). A chunk the
// element loads with realtime, after its first data shows, or with the write paths
// (comment.live.ts loadChanges): a reader's first data never waits for it.
import type { Change, Counts } from '../../core/live.js';
import type { Message } from '../../core/types.js';
import { thread } from './model.js';

/** The list after one change, and how much the block's message count moved. */
export function applyChange(list: Message[], c: Change): { list: Message[]; delta: number } {
  const row = c.row as Message;
  const next: Message[] = list.map((m) => ({ ...m, replies: [...(m.replies || [])] }));
  if (c.type === 'DELETE' || c.type === 'REMOVE') {
    // A delete may carry only the id: look in every list. REMOVE (held or hidden by the owner)
    // takes it off the list and the block stops counting it (its replies stay counted).
    const top = next.findIndex((m) => m.id === row.id);
    if (top >= 0) {
      const [gone] = next.splice(top, 1);
      return { list: next, delta: c.type == 'REMOVE' ? -1 : -1 - gone!.replies!.length };
    }
    for (const m of next) {
      const k = m.replies!.findIndex((r) => r.id === row.id);
      if (k < 0) continue;
      m.replies!.splice(k, 1);
      if (!c.live) m.reply_count = Math.max(0, (m.reply_count || 1) - 1);
      return { list: next, delta: -1 };
    }
    return { list, delta: c.type == 'REMOVE' ? -1 : 0 };
  }
  // The block counts published messages only: a held one (the writer's own answer) when the owner
  // approves it, which comes as an UPDATE marked `published`.
  const ins = c.type == 'INSERT';
  const add = +(ins ? row.status != 'held' : !!(c as { published?: true }).published);
  const parent = row.parent_id ? next.find((m) => m.id === row.parent_id) : undefined;
  const where = parent ? parent.replies! : next;
  const i = where.findIndex((m) => m.id === row.id);
  if (i >= 0) {
    // Known already (an update, or our own insert coming back live): no new message.
    where[i] = { ...where[i]!, ...row, replies: where[i]!.replies };
    return { list: next, delta: ins ? 0 : add };
  }
  if (!ins) {
    // An update of a message not on screen: one the owner just approved (held messages reach
    // nobody else live) shows now, in its place, if it falls within what is loaded; anything
    // else (a change to an older message never loaded) is not ours to show.
    const oldest = next.filter((m) => !m.pinned_at).at(-1)?.created_at ?? '';
    if (row.status == 'published' && (row.parent_id ? parent : row.created_at >= oldest)) {
      if (parent) {
        where.push(row);
        where.sort((a, b) => (a.created_at < b.created_at ? -1 : 1));
        if (!c.live) parent.reply_count = (parent.reply_count || 0) + 1;
      } else {
        const at = next.findIndex((m) => !m.pinned_at && m.created_at < row.created_at);
        next.splice(at < 0 ? next.length : at, 0, thread(row));
      }
      list = next;
    }
    return { list, delta: add };
  }
  if (parent) {
    where.push(row);
    if (!c.live && add) parent.reply_count = (parent.reply_count || 0) + 1;
  } else if (!row.parent_id) next.unshift(thread(row));
  // A reply to a thread not loaded here is not shown, but the block counts it.
  return { list: parent || !row.parent_id ? next : list, delta: add };
}
/**
 * A message's like or reply count as the server sent it: the value after the change is set (so
 * the visitor's own like, already applied from its answer, is not counted twice).
 */
export function applyCounts(list: Message[], c: Counts): Message[] {
  const set = (m: Message): Message =>
    m.id !== c.id
      ? m
      : {
          ...m,
          ...(c.like_count !== undefined ? { like_count: c.like_count } : {}),
          ...(c.reply_count !== undefined ? { reply_count: c.reply_count } : {}),
        };
  return list.map((m) => {
    const top = set(m);
    return m.replies?.some((r) => r.id === c.id) ? { ...top, replies: m.replies.map(set) } : top;
  });
}
