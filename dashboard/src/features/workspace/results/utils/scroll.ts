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
