import { render, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeResizeObserver, layOut, observing } from '../test/scroll-box';
import { scrollStop } from './scroll-stop';

afterEach(() => {
  vi.unstubAllGlobals();
});

const box = () => screen.getByRole('region', { name: 'Rows' });

describe('scrollStop', () => {
  it('makes a box a Tab stop only while it scrolls, checked again as it resizes', () => {
    fakeResizeObserver();
    const { unmount } = render(
      <div ref={scrollStop} role="region" aria-label="Rows">
        <table />
      </div>,
    );
    // jsdom's box: no overflow, nothing past its edges
    expect(box().hasAttribute('tabindex')).toBe(false);
    // a 70vh box with more rows than it shows
    layOut(box(), 'auto', [700, 500], [700, 900]);
    expect(box().tabIndex).toBe(0);
    // columns wider than the box
    layOut(box(), 'auto', [330, 500], [900, 400]);
    expect(box().tabIndex).toBe(0);
    // everything fits: nothing to scroll
    layOut(box(), 'auto', [700, 500], [700, 400]);
    expect(box().hasAttribute('tabindex')).toBe(false);
    // a phone's cards in the page's flow: taller than the box, but the box does not scroll
    layOut(box(), 'visible', [330, 500], [330, 2000]);
    expect(box().hasAttribute('tabindex')).toBe(false);
    unmount();
    expect(observing()).toBe(0);
  });

  it("watches content put in place of the box's own: /send's frame for another source (look3)", async () => {
    fakeResizeObserver();
    const { rerender } = render(
      <div ref={scrollStop} role="region" aria-label="Rows">
        <iframe key="notion" title="notion" />
      </div>,
    );
    layOut(box(), 'auto', [700, 500], [700, 900]);
    expect(box().tabIndex).toBe(0);
    // another frame, as tall as the box until its document loads
    Object.defineProperty(box(), 'scrollHeight', { configurable: true, value: 500 });
    rerender(
      <div ref={scrollStop} role="region" aria-label="Rows">
        <iframe key="brunch" title="brunch" />
      </div>,
    );
    await waitFor(() => expect(box().hasAttribute('tabindex')).toBe(false));
    // its document loaded: the new frame grows past the box
    layOut(box(), 'auto', [700, 500], [700, 1200]);
    expect(box().tabIndex).toBe(0);
    expect(observing()).toBe(1);
  });

  it('checks once where the browser has no ResizeObserver', () => {
    vi.stubGlobal('ResizeObserver', undefined);
    render(<div ref={scrollStop} role="region" aria-label="Rows" />);
    expect(box().hasAttribute('tabindex')).toBe(false);
  });
});
