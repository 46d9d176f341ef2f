// jsdom lays nothing out and has no ResizeObserver: a box's overflow and sizes are stood in for,
// and a resize is told to every observer (lib/scroll-stop.ts).
import { expect, vi } from 'vitest';

const observers = new Set<() => void>();

class FakeResizeObserver {
  constructor(private readonly resized: () => void) {}
  observe() {
    observers.add(this.resized);
  }
  disconnect() {
    observers.delete(this.resized);
  }
}

/** Stands in for ResizeObserver until vi.unstubAllGlobals(). */
export function fakeResizeObserver() {
  observers.clear();
  vi.stubGlobal('ResizeObserver', FakeResizeObserver);
}

/** How many resize observers are observing. */
export const observing = () => observers.size;

/** Lays `box` out as a browser would (its overflow, its size and its content's), then resizes it. */
export function layOut(
  box: HTMLElement,
  overflow: 'auto' | 'visible',
  [width, height]: [number, number],
  [contentWidth, contentHeight]: [number, number],
) {
  // jsdom's computed style does not spread the shorthand into its two axes
  box.style.overflowX = overflow;
  box.style.overflowY = overflow;
  const sizes = {
    clientWidth: width,
    clientHeight: height,
    scrollWidth: contentWidth,
    scrollHeight: contentHeight,
  };
  for (const [name, value] of Object.entries(sizes))
    Object.defineProperty(box, name, { configurable: true, value });
  for (const resized of observers) resized();
}

/**
 * Checks that `box` is a Tab stop only while it scrolls (lib/scroll-stop.ts): not as rendered
 * in jsdom (nothing past its edges), then one once its content is taller than it, and none again
 * once the content fits. Call fakeResizeObserver() before rendering it.
 */
export function stopsOnlyWhileScrolling(box: HTMLElement) {
  expect(box.hasAttribute('tabindex')).toBe(false);
  layOut(box, 'auto', [400, 220], [400, 900]);
  expect(box.tabIndex).toBe(0);
  layOut(box, 'auto', [400, 900], [400, 600]);
  expect(box.hasAttribute('tabindex')).toBe(false);
}
