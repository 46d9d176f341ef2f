// The comment list's watcher (a reactive controller beside the element), in the realtime chunk
// (comment.realtime.ts): the page's one socket carries the block's topic while the element is on
// screen, and coming back after a gap reads the list again (comment.read.ts) so nothing missed
// meanwhile is lost.
import type { ReactiveController, ReactiveControllerHost } from '../../core/element.js';
import type { Project } from '../../core/config.js';
import { watchBlock, type Watcher } from '../../core/live.js';
import type { Block } from '../../core/types.js';

/** Watches a block's messages while the element is connected (core/live.ts watchBlock). */
export class LiveList implements ReactiveController {
  private unsubscribe?: () => void;
  /** The thread watched: `<block id>:<page key>` (a page's thread has a topic of its own). */
  private watching = '';
  /** The project and block asked for last: watched again when the element comes back. */
  private last?: [Project, Block];

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly watcher: Watcher,
  ) {
    host.addController(this);
  }

  /**
   * Watches the block's thread (once: the same thread again changes nothing) while the element is
   * on the page; `fresh` false: the list on screen may have missed changes, so it is read again
   * once the topic is joined.
   */
  watch(p: Project, b: Block, fresh = true): void {
    const thread = `${b.id}:${b.page_key || ''}`;
    this.last = [p, b];
    if (this.watching === thread || !p.url || !this.host.isConnected) return;
    this.watching = thread;
    this.unsubscribe?.();
    // the list is drawn by repeat from now on (comment.live.ts byId)
    this.host.requestUpdate();
    // b.read_xmin: live changes from before it are not current (core/live.ts; comment.read.ts)
    this.unsubscribe = watchBlock(p, b.id, this.host, this.watcher, b.page_key || '', fresh, b);
  }

  /** Back on the page (moved, or taken off and put back): watches again, and reads the list. */
  hostConnected(): void {
    if (!this.watching && this.last) this.watch(...this.last, false);
  }

  hostDisconnected(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.watching = '';
  }
}
