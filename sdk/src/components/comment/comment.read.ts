// Reading the comment list again as the current visitor (on sign-in, log out and live resyncs)
// and its older pages (Load more): never before the first data shows, so a chunk of its own loaded
// then (comment.component.ts refresh, loadMore).
import { pageOf, rpc } from '../../core/api.js';
import type { Project } from '../../core/config.js';
import type { Block, BlockView, Message } from '../../core/types.js';
import { PAGE_SIZE } from './comment.live.js';
import { thread, threads } from './model.js';

/**
 * Reads the list again as the current visitor, as far back as the list on screen (`held`) goes
 * (pages of up to 50), merged with it: nothing that came live or by Load more is dropped, and
 * likes, labels and owner rights follow the new identity. `more`: whether older messages are
 * behind the list, undefined when the reading stopped short of the list's end (as before).
 */
export async function readAgain(
  p: Project,
  block: Block,
  held: Message[],
): Promise<{ view: BlockView; list: Message[]; fresh: Message[]; more?: boolean }> {
  const oldest = held.at(-1)?.created_at || '';
  // the exact view for this visitor now (never a cached public copy, which may be a minute old):
  // this runs on sign-in, log out and live resyncs, not on page views
  const view = await rpc<BlockView>(p, 'get_block_view', {
    p_block_id: block.id,
    ...pageOf(block),
  });
  // the list on screen is as of this read now: a live change from before it is not current
  // (comment.watch.ts)
  block.read_xmin = view.block.read_xmin;
  let fresh = threads(view.messages);
  let more = fresh.length >= PAGE_SIZE;
  for (let n = 0; more && n < 10 && fresh.at(-1)!.created_at > oldest; n++) {
    const page = await rpc<Message[]>(p, 'list_messages', {
      p_block_id: block.id,
      p_before: fresh.at(-1)!.created_at,
      p_limit: 50,
      ...pageOf(view.block),
    });
    fresh = [...fresh, ...threads(page)];
    more = page.length >= 50;
  }
  const reached = !fresh.length || fresh.at(-1)!.created_at <= oldest;
  return { view, list: mergeThreads(fresh, held), fresh, more: reached ? more : undefined };
}

/**
 * The list read again for the visitor's new identity (`fresh`, newest first, covering what was
 * on screen as far as the server returned it) merged with the list on screen (`held`): the fresh
 * copy of each thread wins (likes, labels, edits); a held thread older than everything fetched is
 * kept (the read stops at 50); a held thread within the fetched range but missing from it was
 * deleted meanwhile and goes.
 */
export function mergeThreads(fresh: Message[], held: Message[]): Message[] {
  const seen = new Set(fresh.map((m) => m.id));
  const oldest = fresh.length ? fresh[fresh.length - 1]!.created_at : '';
  return [
    ...fresh.map(thread),
    ...held.filter((m) => !seen.has(m.id) && (!oldest || m.created_at < oldest)),
  ];
}

/** Load more: the top-level messages before `before` (the list's last), a page of them. */
export const olderPage = (p: Project, block: Block, before: string): Promise<Message[]> =>
  rpc<Message[]>(p, 'list_messages', {
    p_block_id: block.id,
    p_before: before,
    p_limit: PAGE_SIZE,
    ...pageOf(block),
  });

/** The list with an older page after it; a thread the list holds already keeps its place. */
export function withOlder(list: Message[], page: Message[]): Message[] {
  const seen = new Set(list.map((m) => m.id));
  return [...list, ...threads(page.filter((m) => !seen.has(m.id)))];
}
