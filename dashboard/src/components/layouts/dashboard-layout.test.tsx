import { screen, within } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../../test/utils';
import { ProfileMenu, SideMenu } from './dashboard-layout';

const links = () =>
  within(screen.getByRole('navigation', { name: 'Dashboard menu' }))
    .getAllByRole('link')
    .map((a) => a.getAttribute('href'));

describe('side menu', () => {
  it('shows the types under Reaction while a reaction list is shown', () => {
    renderWithProviders(<SideMenu />, { route: '/dashboard/reaction/button' });
    expect(links()).toEqual([
      '/dashboard/reaction',
      ...['comment', 'qna', 'like', 'button', 'ab', 'form'].map((t) => `/dashboard/reaction/${t}`),
      '/dashboard/send',
      '/audience',
    ]);
  });

  it('shows the sources under Send while the letters are shown', () => {
    renderWithProviders(<SideMenu />, { route: '/dashboard/send' });
    expect(links()).toEqual([
      '/dashboard/reaction',
      '/dashboard/send',
      '/dashboard/send/notion',
      '/dashboard/send/typedream',
      '/dashboard/send/brunch',
      '/audience',
    ]);
  });

  it('shows no types on the other pages', () => {
    renderWithProviders(<SideMenu />, { route: '/audience' });
    expect(links()).toEqual(['/dashboard/reaction', '/dashboard/send', '/audience']);
  });
});

describe('profile menu', () => {
  it('scrolls its current link into its row (one row at phone widths: shell.css)', () => {
    // a 343 px row of four links, "Plan" from 403 to 466 px: past the edge before
    const layout = { Account: 0, 'Sender emails': 101, Integration: 257, Plan: 387 };
    vi.spyOn(HTMLElement.prototype, 'offsetLeft', 'get').mockImplementation(function (
      this: HTMLElement,
    ) {
      return layout[this.textContent as keyof typeof layout] ?? 0;
    });
    vi.spyOn(HTMLElement.prototype, 'offsetWidth', 'get').mockReturnValue(63);
    vi.spyOn(HTMLElement.prototype, 'clientWidth', 'get').mockReturnValue(343);
    renderWithProviders(<ProfileMenu />, { route: '/profile/plan' });
    const row = screen.getByRole('navigation', { name: 'Profile' }).querySelector('ul')!;
    expect(row.scrollLeft).toBe(387 + 63 - 343);
  });
});
