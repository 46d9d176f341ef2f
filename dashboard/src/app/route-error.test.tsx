import { act, fireEvent, render, screen, waitFor } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactElement } from 'react';
import { MemoryRouter } from 'react-router-dom';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { RouteError } from './route-error';

function Thrower({ error }: { error: unknown }): never {
  throw error;
}

/** The route /work/1 whose screen throws `error`. */
const throwing = (error: unknown) => (
  <RouteError pathname="/work/1">
    <Thrower error={error} />
  </RouteError>
);

/** Renders `ui` where the app does, under a router (its heading reads the path). */
const renderRoute = (ui: ReactElement) => render(ui, { wrapper: MemoryRouter });

/** Waits until the alert says `reason`. */
const saysReason = (reason: string) =>
  waitFor(() => expect(screen.getByRole('alert').textContent).toContain(reason));

describe('a screen that cannot be shown', () => {
  // React reports what a screen threw on the console; the tests throw on purpose
  beforeEach(() => {
    vi.spyOn(console, 'error').mockImplementation(() => {});
  });
  afterEach(async () => {
    vi.restoreAllMocks();
    await i18next.changeLanguage('en');
  });

  it('says a chunk a deploy removed as an update, with a reload, in en and ko; another path tries again', async () => {
    // before: a lazy screen whose chunk was gone threw past every handler, and the app went blank
    const gone = new TypeError(
      'Failed to fetch dynamically imported module: https://x.example/assets/work-abc.js',
    );
    const reload = vi.fn();
    vi.stubGlobal('location', { ...window.location, reload });
    const { rerender } = renderRoute(throwing(gone));
    await saysReason('The dashboard was updated meanwhile. Reload the page, then try again.');
    fireEvent.click(screen.getByRole('button', { name: 'Reload' }));
    expect(reload).toHaveBeenCalledTimes(1);
    await act(() => i18next.changeLanguage('ko'));
    rerender(throwing(gone));
    expect(screen.getByRole('button', { name: '새로 고침' })).toBeTruthy();
    rerender(
      <RouteError pathname="/profile">
        <p>shown</p>
      </RouteError>,
    );
    expect(screen.queryByRole('alert')).toBeNull();
    expect(screen.getByText('shown')).toBeTruthy();
    vi.unstubAllGlobals();
  });

  it('says a reason for a screen that threw nothing (null) too', async () => {
    // before: the reason was set only when state held the very value thrown, and a thrown null is
    // held as an Error, so the alert showed a Reload button and no words
    renderRoute(throwing(null));
    await saysReason('Something went wrong on our side. Try again in a moment.');
  });

  it('names the tab after what happened, not the previous page, in en and ko (look2)', async () => {
    // before: the tab kept "Reaction · Reaction Blocks" on /audience when its chunk did not load
    document.title = 'Reaction · Reaction Blocks';
    const { rerender } = renderRoute(throwing(new Error('render failed')));
    expect(screen.getByRole('heading', { level: 1 }).textContent).toBe(
      'This page could not be shown',
    );
    await waitFor(() =>
      expect(document.title).toBe('This page could not be shown · Reaction Blocks'),
    );
    await act(() => i18next.changeLanguage('ko'));
    rerender(throwing(new Error('render failed')));
    await waitFor(() =>
      expect(document.title).toBe('이 페이지를 표시할 수 없습니다 · Reaction Blocks'),
    );
  });
});
