// What a change from the server (live, or the answer to the visitor's own write) does to the
// comment list and to the block's message count (the list's invariants: model.ts). A chunk the
// element loads with realtime, after its first data shows, or with the write paths
// (comment.live.ts loadChanges): a reader's first data never waits for it.
import type { Change, Counts } from '../../core/live.js';
import type { Message } from '../../core/types.js';
import { thread } from './model.js';

/**
 * The list after one change, and how much the block's message count moved. `gone`: the ids this
 * element has counted out by a DELETE (its own, from the answer, or one heard live), kept by the
 * element so that each message is counted out once.
 */
export function applyChange(
  list: Message[],
  c: Change,
  gone: Set<string>,
): { list: Message[]; delta: number } {
  const row = c.row as Message;
  const next: Message[] = list.map((m) => ({ ...m, replies: [...(m.replies || [])] }));
  if (c.type === 'DELETE' || c.type === 'REMOVE') {
    // A DELETE or REMOVE (held or hidden by the owner) heard live is of a published message
    // (realtime.sql messages_broadcast): one off the count, loaded here or not (break9 C1). A
    // deleted thread's replies come each with its own DELETE (the cascade); a REMOVEd thread's
    // replies stay counted. The visitor's own delete counts when its answer comes and again not
    // when heard live. A delete may carry only the id: every list is looked in.
    // (a row from the visitor's own list has its status: held or hidden, never counted)
    const delta = gone.has(row.id) || /^h/.test(row.status!) ? 0 : -1;
    if (c.type == 'DELETE') gone.add(row.id);
    for (const m of next)
      if (m.replies!.some((r) => r.id === row.id)) {
        m.replies = m.replies!.filter((r) => r.id !== row.id);
        if (!c.live) m.reply_count = (m.reply_count || 1) - 1;
      }
    return { list: next.filter((m) => m.id !== row.id), delta };
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
          like_count: c.like_count ?? m.like_count,
          reply_count: c.reply_count ?? m.reply_count,
        };
  return list.map((m) => {
    const top = set(m);
    return m.replies?.some((r) => r.id === c.id) ? { ...top, replies: m.replies.map(set) } : top;
  });
}
