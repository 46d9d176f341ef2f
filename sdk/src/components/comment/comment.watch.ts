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

  constructor(
    private readonly host: ReactiveControllerHost & HTMLElement,
    private readonly watcher: Watcher,
  ) {
    host.addController(this);
  }

  /** Watches the block's thread (once: the same thread again changes nothing). */
  watch(p: Project, b: Block): void {
    const thread = `${b.id}:${b.page_key || ''}`;
    if (this.watching === thread || !p.url) return;
    this.watching = thread;
    this.unsubscribe?.();
    // the list is drawn by repeat from now on (comment.live.ts byId)
    this.host.requestUpdate();
    this.unsubscribe = watchBlock(p, b.id, this.host, this.watcher, b.page_key || '');
  }

  hostDisconnected(): void {
    this.unsubscribe?.();
    this.unsubscribe = undefined;
    this.watching = '';
  }
}
