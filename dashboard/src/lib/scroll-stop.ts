import { useCallback, type RefObject } from 'react';

/**
 * The ref of a scroll box a keyboard must reach (`<div ref={scrollStop} role="region"
 * aria-label=...>`): it is a Tab stop (tabindex 0, so the arrow keys scroll it) only while it
 * scrolls, that is while its overflow is auto or scroll and its content is wider or taller than
 * it. A box that does not scroll is no stop: at 480 px and narrower the audience table is cards
 * in the page's flow (audience.css), and Tab stopped on it with nothing to scroll. Checked again
 * whenever the box or its content changes size (a window resize, rows added, /send's frame
 * taking its document's height) or its content is replaced (another source's frame on /send).
 */
export function scrollStop(box: HTMLElement | null): (() => void) | undefined {
  if (!box) return undefined;
  const check = () => {
    const { overflowX, overflowY } = getComputedStyle(box);
    const scrolls = (overflow: string) => overflow === 'auto' || overflow === 'scroll';
    const stop =
      (scrolls(overflowX) && box.scrollWidth > box.clientWidth) ||
      (scrolls(overflowY) && box.scrollHeight > box.clientHeight);
    if (stop) box.tabIndex = 0;
    else box.removeAttribute('tabindex');
  };
  check();
  const resized = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(check);
  resized?.observe(box);
  for (const child of box.children) resized?.observe(child);
  const replaced = new MutationObserver((records) => {
    for (const record of records)
      for (const node of record.addedNodes)
        if (node instanceof Element && node.parentElement === box) resized?.observe(node);
    check();
  });
  replaced.observe(box, { childList: true });
  return () => {
    resized?.disconnect();
    replaced.disconnect();
  };
}

/**
 * scrollStop for a box the component also reads or scrolls itself: the ref keeps the box in
 * `keptRef` while it is on the page.
 */
export function useScrollStop<T extends HTMLElement>(keptRef: RefObject<T | null>) {
  return useCallback(
    (box: T | null) => {
      keptRef.current = box;
      const stop = scrollStop(box);
      return () => {
        keptRef.current = null;
        stop?.();
      };
    },
    [keptRef],
  );
}
