// The comment list's live updates: Realtime loads after the first data shows, so it never delays
// it (comment.realtime.ts, with the list's watcher, comment.watch.ts). What the element needs of
// it before that: the page size, the list drawn without it, and the loading of its chunk.
import { loadChunk } from '../../core/chunk.js';

/** Spec section 9. */
export const PAGE_SIZE = 5;

/** Realtime with what a change does to the list (comment.realtime.ts), once here. */
export let changes: typeof import('./comment.realtime.js') | undefined;
/**
 * Loads comment.realtime.ts: to watch the block (after the first data), with the write paths, or
 * by the first change itself; a failed load is tried again by the next ask (core/chunk.ts).
 */
export const loadChanges = loadChunk(() =>
  import('./comment.realtime.js').then((m) => (changes = m)),
);

/**
 * A list of messages by id: Lit's repeat once the changes' code is here, which keeps each
 * message's DOM (an open edit box, the focus, an avatar) with the message when the list moves.
 * Before it, nothing can move the list (a change, a live one or the visitor's own, waits for that
 * code: loadChanges), so the first page renders with a plain map, and the list's DOM is made
 * again once when the code arrives (LiveList.watch right after the first data; the write paths
 * on a first interaction), before anything moved.
 */
export const byId = <T extends { id: string }>(list: T[], render: (m: T) => unknown): unknown =>
  changes ? changes.repeat(list, (m) => m.id, render) : list.map(render);
