// The comment list's live updates (a reactive controller beside the element): Realtime loads after
// the first data shows, so it never delays it; the page's one socket carries the block's topic
// while the element is on screen, and coming back after a gap reads the list again
// (comment.read.ts) so nothing missed meanwhile is lost.
import type { ReactiveController, ReactiveControllerHost } from '../../core/element.js';
import { loadChunk } from '../../core/chunk.js';
import type { Project } from '../../core/config.js';
import type { Watcher } from '../../core/live.js';
import type { Block } from '../../core/types.js';

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
    const { watchBlock } = await loadChanges();
    // the list is drawn by repeat from now on (byId)
    this.host.requestUpdate();
    if (this.watching === thread)
      this.unsubscribe = watchBlock(p, b.id, this.host, this.watcher, b.page_key || '');
  }

  hostDisconnected(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.watching = '';
  }
}
