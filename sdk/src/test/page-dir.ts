// A right-to-left host page (an Arabic or Hebrew blog: <html dir="rtl">) for the elements' tests,
// and what they read of a laid-out element there. Not a test file itself.
import { expect } from '@open-wc/testing';

/** Runs `check` on each page direction in turn, the test page's <html> set to it, and resets it. */
export async function onPagesOf(
  dirs: readonly ('rtl' | 'ltr')[],
  check: (dir: 'rtl' | 'ltr') => Promise<void>,
): Promise<void> {
  for (const dir of dirs) {
    document.documentElement.dir = dir;
    try {
      await check(dir);
    } finally {
      document.documentElement.removeAttribute('dir');
    }
  }
}

/** The direction (ltr or rtl) `el` is laid out and typed in. */
export const direction = (el: Element) => getComputedStyle(el).direction;

/**
 * The element's own UI reads left to right on this page, which does not scroll sideways: its base
 * is ltr (what its UI languages read), and the page is no wider than the window.
 */
export function ownUiLeftToRight(host: Element): void {
  expect(direction(host.shadowRoot!.querySelector('[part~=base]')!), 'its base').to.equal('ltr');
  expect(document.documentElement.scrollWidth, 'no sideways scroll').to.be.at.most(innerWidth);
}

/**
 * Clipped to nothing where it stands (1 px, overflow hidden, clip): no one sees it, and it widens
 * no page, whichever way the page reads (the honeypot, core/trust.ts).
 */
export function hiddenInPlace(el: Element): boolean {
  const box = el.getBoundingClientRect();
  const s = getComputedStyle(el);
  return (
    box.width <= 1 &&
    box.height <= 1 &&
    s.overflow === 'hidden' &&
    s.clip === 'rect(0px, 0px, 0px, 0px)'
  );
}

/**
 * The direction the text `text` in `host`'s shadow root reads in: the direction of the element
 * that holds it (an owner's option or choice in Arabic reads right to left in its own box).
 */
export function textDirection(host: Element, text: string): string {
  const walker = document.createTreeWalker(host.shadowRoot!, NodeFilter.SHOW_TEXT);
  for (let node = walker.nextNode(); node; node = walker.nextNode())
    if (node.textContent!.trim() === text) return direction(node.parentElement!);
  throw new Error(`no text "${text}"`);
}
