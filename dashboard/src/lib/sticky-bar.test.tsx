import { render, screen } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { stickyBar } from './sticky-bar';

// jsdom lays nothing out: the bar's height and its resizing are stood in for
let resized: (() => void) | undefined;
class FakeResizeObserver {
  constructor(callback: () => void) {
    resized = callback;
  }
  observe() {}
  disconnect() {
    resized = undefined;
  }
}

const padding = () => document.documentElement.style.getPropertyValue('--sticky-bar');

afterEach(() => {
  resized = undefined;
});

describe('stickyBar', () => {
  it("keeps the shown bar's height for the page's scroll padding, as the bar wraps", () => {
    vi.stubGlobal('ResizeObserver', FakeResizeObserver);
    let height = 59;
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockImplementation(() => height);
    const { unmount } = render(<header ref={stickyBar}>bar</header>);
    expect(padding()).toBe('59px');
    // a phone's workspace bar: four rows
    height = 202;
    resized?.();
    expect(padding()).toBe('202px');
    unmount();
    expect(padding()).toBe('');
    expect(resized).toBeUndefined();
    vi.unstubAllGlobals();
  });

  it('measures once where the browser has no ResizeObserver', () => {
    vi.stubGlobal('ResizeObserver', undefined);
    vi.spyOn(HTMLElement.prototype, 'offsetHeight', 'get').mockReturnValue(64);
    render(<header ref={stickyBar}>bar</header>);
    expect(screen.getByText('bar')).toBeTruthy();
    expect(padding()).toBe('64px');
    vi.unstubAllGlobals();
  });
});
