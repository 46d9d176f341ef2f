import { act, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { REACTION_TYPES } from '../../../lib/db-types';
import { renderWithProviders } from '../../../test/utils';
import { ShowcasePage } from './showcase-page';

/** An IntersectionObserver the test drives: `show()` brings every observed element into view. */
function fakeObserver() {
  const observed: { element: Element; callback: IntersectionObserverCallback }[] = [];
  class FakeObserver {
    constructor(private callback: IntersectionObserverCallback) {}
    observe(element: Element) {
      observed.push({ element, callback: this.callback });
    }
    disconnect() {}
  }
  vi.stubGlobal('IntersectionObserver', FakeObserver);
  return {
    observed,
    show(element: Element) {
      for (const entry of observed.filter((o) => o.element === element))
        entry.callback(
          [{ isIntersecting: true, target: element } as IntersectionObserverEntry],
          {} as IntersectionObserver,
        );
    },
  };
}

afterEach(() => vi.unstubAllGlobals());

describe('ShowcasePage', () => {
  it('shows each type on its page, the live block only once it comes into view', () => {
    const io = fakeObserver();
    const { container } = renderWithProviders(<ShowcasePage />, { route: '/showcase' });
    for (const caption of ['Comments under a blog post', 'A feedback form in a help centre'])
      expect(screen.getByRole('heading', { name: caption })).toBeTruthy();
    // nothing live yet: every block waits in a box of its final size
    expect(container.querySelectorAll('.demo-block-waiting')).toHaveLength(6);
    for (const type of REACTION_TYPES)
      expect(container.querySelector(`reaction-${type}`)).toBeNull();

    const formWindow = container.querySelector('.showcase-item-form .showcase-window')!;
    act(() => io.show(formWindow));
    expect(container.querySelector('reaction-form')).not.toBeNull();
    expect(container.querySelector('reaction-comment')).toBeNull();
    expect(container.querySelectorAll('.demo-block-waiting')).toHaveLength(5);
  });

  it('names the next step', () => {
    fakeObserver();
    renderWithProviders(<ShowcasePage />, { route: '/showcase' });
    expect(screen.getByRole('link', { name: 'Make your own' }).getAttribute('href')).toBe('/login');
  });
});
