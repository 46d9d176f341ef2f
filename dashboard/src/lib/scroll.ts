/** Scroll loading starts once this share of the content has been scrolled into view. */
export const SCROLL_LOAD_RATIO = 0.9;

interface ScrollBox {
  scrollTop: number;
  clientHeight: number;
  scrollHeight: number;
}

/** True when the bottom of the viewport is at or beyond `ratio` of the scrollable content. */
export function reachedScrollEnd(box: ScrollBox, ratio = SCROLL_LOAD_RATIO): boolean {
  if (box.scrollHeight <= 0 || box.clientHeight <= 0) return false;
  return box.scrollTop + box.clientHeight >= box.scrollHeight * ratio;
}

/** The nearest ancestor that scrolls its content, else the page. */
export function scrollParent(node: Element): Element {
  for (let el: Element | null = node; el; el = el.parentElement) {
    const { overflowY } = getComputedStyle(el);
    if ((overflowY === 'auto' || overflowY === 'scroll') && el.scrollHeight > el.clientHeight) {
      return el;
    }
  }
  return document.scrollingElement ?? document.documentElement;
}
