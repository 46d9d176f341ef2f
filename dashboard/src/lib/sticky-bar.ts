/**
 * The ref of a sticky top bar (`<header ref={stickyBar}>`): while the bar is shown its height is
 * kept in `--sticky-bar` on the root element, so the page's scroll padding (shell.css) stops a
 * control reached by Tab, or scrolled to, below the bar instead of under it (WCAG 2.4.11).
 * Measured, not a fixed 4rem: a workspace's bar wraps with the width, the name, the language and
 * Save (59 px at 1440 px wide, two rows, 109 px, at 375), and the 4rem that held for the dashboard's bar
 * never applied there (B12: a block's settings field was focused under the bar at 1440 x 900).
 */
export function stickyBar(bar: HTMLElement | null): (() => void) | undefined {
  if (!bar) return undefined;
  const root = document.documentElement;
  const measure = () => root.style.setProperty('--sticky-bar', `${bar.offsetHeight}px`);
  measure();
  const observer = typeof ResizeObserver === 'undefined' ? null : new ResizeObserver(measure);
  observer?.observe(bar);
  return () => {
    observer?.disconnect();
    root.style.removeProperty('--sticky-bar');
  };
}
