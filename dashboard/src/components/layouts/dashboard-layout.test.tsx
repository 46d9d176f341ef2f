import { screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../../test/utils';
import { SideMenu } from './dashboard-layout';

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
