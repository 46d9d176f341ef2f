// The comment list's live updates and its reading again (a reactive controller beside the element,
// with model.ts's pure functions): Realtime loads after the first data shows, so it never delays
// it; the page's one socket carries the block's topic while the element is on screen, and coming
// back after a gap reads the list again so nothing missed meanwhile is lost.
import type { ReactiveController, ReactiveControllerHost } from 'lit';
import { pageOf, rpc } from '../../core/api.js';
import type { Project } from '../../core/config.js';
import type { Watcher } from '../../core/live.js';
import type { Block, BlockView, Message } from '../../core/types.js';
import { mergeThreads, threads } from './model.js';

/** Spec section 9. */
export const PAGE_SIZE = 5;

/** Watches a block's messages while the element is connected (core/live.ts watchBlock). */
export class LiveList implements ReactiveController {
  private unsubscribe?: () => void;
  /** The thread watched: `<block id>:<page key>` (a page's thread has a topic of its own). */
  private watching = '';

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly watcher: Watcher,
  ) {
    host.addController(this);
  }

  /** Watches the block's thread (once: the same thread again changes nothing). */
  async watch(p: Project, b: Block): Promise<void> {
    const thread = `${b.id}:${b.page_key || ''}`;
    if (this.watching === thread || !p.url) return;
    this.watching = thread;
    this.unsubscribe?.();
    const { watchBlock } = await import('../../core/live.js');
    if (this.watching === thread)
      this.unsubscribe = watchBlock(p, b.id, this.host, this.watcher, b.page_key || '');
  }

  hostDisconnected(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.watching = '';
  }
}

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
