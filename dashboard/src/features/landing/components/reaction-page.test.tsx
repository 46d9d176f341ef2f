import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { REACTION_TYPES } from '../../../lib/db-types';
import { DEFAULT_DEMO } from '../../../lib/env';
import { setLanguage } from '../../../lib/i18n';
import en from '../../../locales/en';
import { fakeResizeObserver, stopsOnlyWhileScrolling } from '../../../test/scroll-box';
import { renderWithProviders } from '../../../test/utils';
import { parseFocus } from '../hooks/use-focus-param';
import { ReactionPage } from './reaction-page';
import { SendPage } from './send-page';

/** Each type's tab label: the app's English texts. */
const labels = en.blockTypes;

function selectedTab() {
  return screen.getAllByRole('tab').find((tab) => tab.getAttribute('aria-selected') === 'true');
}

describe('parseFocus', () => {
  it('matches every allowed value, including button, and trims stray spaces', () => {
    for (const type of REACTION_TYPES)
      expect(parseFocus(type, REACTION_TYPES, 'comment')).toBe(type);
    expect(parseFocus(' button', REACTION_TYPES, 'comment')).toBe('button');
    expect(parseFocus('BUTTON ', REACTION_TYPES, 'comment')).toBe('button');
  });

  it('falls back for missing or unknown values', () => {
    expect(parseFocus(null, REACTION_TYPES, 'comment')).toBe('comment');
    expect(parseFocus('letter', REACTION_TYPES, 'comment')).toBe('comment');
  });
});

describe('ReactionPage focus preselection', () => {
  it.each(REACTION_TYPES)('focus=%s selects its tab and shows its demo element', (type) => {
    const { container } = renderWithProviders(<ReactionPage />, {
      route: `/reaction?focus=${type}`,
    });
    expect(selectedTab()?.textContent).toBe(labels[type]);
    const element = container.querySelector(`reaction-${type}`);
    expect(element).not.toBeNull();
    expect(element?.getAttribute('project-url')).toBe('http://127.0.0.1:54321');
    expect(element?.hasAttribute('block-id')).toBe(true);
    expect(element?.hasAttribute('owner-id')).toBe(true);
    expect(element?.hasAttribute('anon-key')).toBe(true);
  });

  it("gives the demo element the page's language and its blocks, and follows a switch (U10)", async () => {
    const { container } = renderWithProviders(<ReactionPage />, { route: '/reaction' });
    const demo = () => container.querySelector('reaction-comment');
    expect(demo()?.getAttribute('lang')).toBe('en');
    expect(demo()?.getAttribute('block-id')).toBe(DEFAULT_DEMO.blocks.comment);
    await act(() => setLanguage('ko', false));
    expect(demo()?.getAttribute('lang')).toBe('ko');
    // the owner's texts of the English block were English on the Korean page: the Korean block
    expect(demo()?.getAttribute('block-id')).toBe(DEFAULT_DEMO.ko!.comment);
    // the seed's ids (supabase/seed/01-demo-owner.sql): the English comment block ...101, the
    // Korean ...111, form ...116
    expect([DEFAULT_DEMO.blocks.comment, DEFAULT_DEMO.ko!.comment, DEFAULT_DEMO.ko!.form]).toEqual(
      ['101', '111', '116'].map((nn) => `00000000-0000-4000-8000-000000000${nn}`),
    );
    await act(() => setLanguage('en', false));
    expect(demo()?.getAttribute('block-id')).toBe(DEFAULT_DEMO.blocks.comment);
  });

  it('selects button even with the old stray leading space in the URL', () => {
    renderWithProviders(<ReactionPage />, { route: '/reaction?focus=%20button' });
    expect(selectedTab()?.textContent).toBe('Button');
  });

  it('defaults to comment without focus and switches tabs on click and arrow keys', () => {
    renderWithProviders(<ReactionPage />, { route: '/reaction' });
    expect(selectedTab()?.textContent).toBe('Comment');
    fireEvent.click(screen.getByRole('tab', { name: 'Form' }));
    expect(selectedTab()?.textContent).toBe('Form');
    expect(screen.getByTestId('location').textContent).toBe('/reaction?focus=form');
    fireEvent.keyDown(screen.getByRole('tablist'), { key: 'ArrowRight' });
    expect(selectedTab()?.textContent).toBe('Comment');
  });
});

describe('SendPage focus preselection', () => {
  it.each([
    ['notion_letter', 'Notion'],
    ['typedream', 'Typedream'],
    ['brunch_letter', 'Brunch'],
  ])('focus=%s selects %s', (focus, label) => {
    renderWithProviders(<SendPage />, { route: `/send?focus=${focus}` });
    expect(selectedTab()?.textContent).toBe(label);
  });
});

describe('SendPage before and after panes', () => {
  it('are scrollable regions with names, reached by keyboard while they scroll (look3)', () => {
    // before: tabIndex 0 always, also before the frame had loaded and with nothing to scroll
    fakeResizeObserver();
    renderWithProviders(<SendPage />, { route: '/send' });
    for (const name of ['Your page', 'The letter'])
      stopsOnlyWhileScrolling(screen.getByRole('region', { name }));
    vi.unstubAllGlobals();
  });
});
