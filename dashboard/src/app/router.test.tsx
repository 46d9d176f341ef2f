import { fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import {
  fakeProfile,
  fakeQuery,
  fakeSession,
  fakeUser,
  renderWithProviders,
  signedInSession,
} from '../test/utils';
import { useNavigate } from 'react-router-dom';
import { AppRoutes } from './router';

vi.mock('../lib/supabase', () => ({
  supabase: { from: () => fakeQuery([]), rpc: vi.fn(), functions: { invoke: vi.fn() } },
  invokeFunction: vi.fn(),
}));

const location = () => screen.getByTestId('location').textContent;

describe('routes and redirects', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('shows the home page for unknown public paths when signed out', async () => {
    renderWithProviders(<AppRoutes />, { route: '/no/such/page' });
    expect(
      await screen.findByRole('heading', { level: 1, name: 'Reactions for every page' }),
    ).toBeTruthy();
    expect(location()).toBe('/no/such/page');
  });

  it.each(['/', '/reaction', '/send/notion', '/anything'])(
    'redirects a signed-in user from %s to /dashboard/reaction',
    async (route) => {
      renderWithProviders(<AppRoutes />, { route, session: signedInSession() });
      await waitFor(() => expect(location()).toBe('/dashboard/reaction'));
    },
  );

  it('sends a signed-in owner from /pricing to their plan page, as every landing screen sends them on', async () => {
    renderWithProviders(<AppRoutes />, { route: '/pricing', session: signedInSession() });
    await waitFor(() => expect(location()).toBe('/profile/plan'));
  });

  it('shows the pricing page to a visitor, every plan leading to sign-in', async () => {
    renderWithProviders(<AppRoutes />, { route: '/pricing' });
    expect(await screen.findByRole('heading', { level: 1, name: 'Pricing' })).toBeTruthy();
    const plans = [...document.querySelectorAll<HTMLAnchorElement>('.plans a')];
    expect(plans.map((a) => a.getAttribute('href'))[0]).toBe('/login');
  });

  it('lists the plan page in the profile menu', async () => {
    renderWithProviders(<AppRoutes />, { route: '/profile/plan', session: signedInSession() });
    expect(await screen.findByRole('heading', { level: 1, name: 'Plan' })).toBeTruthy();
    const menu = screen.getByRole('navigation', { name: 'Profile' });
    expect(menu.querySelector('a[href="/profile/plan"]')?.getAttribute('aria-current')).toBe(
      'page',
    );
  });

  it('redirects /dashboard to the first menu route', async () => {
    renderWithProviders(<AppRoutes />, { route: '/dashboard', session: signedInSession() });
    await waitFor(() => expect(location()).toBe('/dashboard/reaction'));
  });

  it.each(['/dashboard/unknown', '/dashboard/reaction/letter', '/dashboard/send/x'])(
    'redirects unknown dashboard path %s to /dashboard/reaction',
    async (route) => {
      renderWithProviders(<AppRoutes />, { route, session: signedInSession() });
      await waitFor(() => expect(location()).toBe('/dashboard/reaction'));
    },
  );

  it.each([
    ['/dashboard/send', 'Send'],
    ['/dashboard/send/notion', 'Notion'],
  ])('keeps the send route %s and shows its heading', async (route, heading) => {
    renderWithProviders(<AppRoutes />, { route, session: signedInSession() });
    expect(await screen.findByRole('heading', { level: 1, name: heading })).toBeTruthy();
    expect(location()).toBe(route);
  });

  it('keeps a type filter route and shows its heading', async () => {
    renderWithProviders(<AppRoutes />, {
      route: '/dashboard/reaction/button',
      session: signedInSession(),
    });
    expect(await screen.findByRole('heading', { level: 1, name: 'Button' })).toBeTruthy();
    expect(location()).toBe('/dashboard/reaction/button');
  });

  it('starts the list afresh going from a reaction type straight to a send source (Back, history)', async () => {
    function Jump() {
      const navigate = useNavigate();
      return (
        <button type="button" onClick={() => navigate('/dashboard/send/notion')}>
          jump
        </button>
      );
    }
    renderWithProviders(
      <>
        <AppRoutes />
        <Jump />
      </>,
      { route: '/dashboard/reaction/comment', session: signedInSession() },
    );
    const before = await screen.findByRole('heading', { level: 1, name: 'Comment' });
    fireEvent.click(screen.getByRole('button', { name: 'jump' }));
    // a new page, not the reaction list's state under a new heading
    expect(await screen.findByRole('heading', { level: 1, name: 'Notion' })).not.toBe(before);
  });

  it.each([
    ['signed out', fakeSession()],
    ['anonymous', fakeSession({ status: 'signedIn', user: fakeUser({ is_anonymous: true }) })],
    ['without email', fakeSession({ status: 'signedIn', user: fakeUser({ email: '' }) })],
  ])('shows the login screen in the signed-in area when %s', async (_label, session) => {
    renderWithProviders(<AppRoutes />, { route: '/dashboard/reaction', session });
    expect(await screen.findByRole('button', { name: 'Sign in with Google' })).toBeTruthy();
    expect(screen.queryByRole('navigation', { name: 'Dashboard menu' })).toBeNull();
  });

  it('sends a signed-in user away from /login', async () => {
    renderWithProviders(<AppRoutes />, { route: '/login', session: signedInSession() });
    await waitFor(() => expect(location()).toBe('/dashboard/reaction'));
  });

  it('shows the consent modal when the profile has not agreed', async () => {
    renderWithProviders(<AppRoutes />, {
      route: '/dashboard/reaction',
      session: signedInSession({ profile: fakeProfile({ agree: false }) }),
    });
    expect(await screen.findByRole('dialog', { name: 'Terms of Service' })).toBeTruthy();
  });

  it('goes to /not_supported when local storage does not work', async () => {
    vi.spyOn(Storage.prototype, 'setItem').mockImplementation(() => {
      throw new Error('SecurityError');
    });
    renderWithProviders(<AppRoutes />, { route: '/pricing' });
    await waitFor(() => expect(location()).toBe('/not_supported'));
    expect(await screen.findByRole('heading', { name: 'Sorry' })).toBeTruthy();
  });

  it('scrolls to the top on navigation', async () => {
    const scrollTo = vi.fn();
    window.scrollTo = scrollTo;
    renderWithProviders(<AppRoutes />, { route: '/showcase' });
    expect(await screen.findByRole('heading', { name: 'Comments under a blog post' })).toBeTruthy();
    scrollTo.mockClear();
    fireEvent.click(screen.getByRole('link', { name: 'Pricing' }));
    expect(await screen.findByRole('heading', { level: 1, name: 'Pricing' })).toBeTruthy();
    expect(location()).toBe('/pricing');
    expect(scrollTo).toHaveBeenCalledWith(0, 0);
  });
});
