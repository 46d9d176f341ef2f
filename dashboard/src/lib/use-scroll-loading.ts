// The paged lists' rule (spec: pages of 10, more at 90 % scroll): the next page loads when the
// scroll reaches 90 % of the list's scroller or of the page, and at once while the rows do not
// fill it (a list that cannot be scrolled could never reach 90 %).
import { useEffect, type RefObject } from 'react';
import { reachedScrollEnd, scrollParent } from './scroll';

export function useScrollLoading(
  root: RefObject<Element | null>,
  /** True while another page may be read now (more to read, nothing loading, no error). */
  canLoad: boolean,
  loadMore: () => unknown,
  /** The rows shown: when it changes, the list checks again whether it fills its scroller. */
  shown: number,
) {
  // Scroll events do not bubble, so listen in the capture phase on the document: that covers
  // the list scrolling itself, any scrolling ancestor around it, and the page. Only scrollers
  // that contain the list count.
  useEffect(() => {
    if (!canLoad) return;
    const onScroll = (event: Event) => {
      const node = root.current;
      if (!node) return;
      const scroller =
        event.target === document ? document.scrollingElement : (event.target as Element | null);
      if (scroller instanceof Element && scroller.contains(node) && reachedScrollEnd(scroller)) {
        void loadMore();
      }
    };
    document.addEventListener('scroll', onScroll, { capture: true, passive: true });
    return () => document.removeEventListener('scroll', onScroll, { capture: true });
  }, [root, canLoad, loadMore]);

  useEffect(() => {
    if (!canLoad || shown === 0 || !root.current) return;
    if (reachedScrollEnd(scrollParent(root.current))) void loadMore();
  }, [root, canLoad, shown, loadMore]);
}
