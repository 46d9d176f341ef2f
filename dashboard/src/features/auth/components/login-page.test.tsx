import { cleanup, fireEvent, screen, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { initI18n, setLanguage } from '../../../lib/i18n';
import { fakeSession, renderWithProviders } from '../../../test/utils';
import { LoginPage, oauthErrorFrom, returnPath } from './login-page';

const signInWithOAuth = vi.fn();
vi.mock('../../../lib/supabase', () => ({
  supabase: { auth: { signInWithOAuth: (...args: unknown[]) => signInWithOAuth(...args) } },
}));

describe('LoginPage', () => {
  it('starts Google sign-in with the dashboard as the return address', async () => {
    signInWithOAuth.mockResolvedValue({ data: {}, error: null });
    renderWithProviders(<LoginPage />, { route: '/login' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with Google' }));
    await waitFor(() =>
      expect(signInWithOAuth).toHaveBeenCalledWith({
        provider: 'google',
        options: { redirectTo: `${window.location.origin}/dashboard/reaction` },
      }),
    );
    expect(screen.getByRole('link', { name: 'Reaction Blocks home' }).getAttribute('href')).toBe(
      '/',
    );
    expect(screen.getByRole('link', { name: 'Need help signing in?' })).toBeTruthy();
  });

  it('asks Apple for email and name, and shows a failure', async () => {
    signInWithOAuth.mockResolvedValue({ data: {}, error: new Error('provider is not enabled') });
    renderWithProviders(<LoginPage />, { route: '/login' });
    fireEvent.click(screen.getByRole('button', { name: 'Sign in with Apple' }));
    // the auth client's English is not shown: the reader's language says what happened
    expect((await screen.findByRole('alert')).textContent).toBe(
      'Sign-in failed: Something went wrong on our side. Try again in a moment.',
    );
    expect(signInWithOAuth.mock.calls.at(-1)?.[0]).toMatchObject({
      provider: 'apple',
      options: { scopes: 'email name' },
    });
    expect(
      (screen.getByRole('button', { name: 'Sign in with Apple' }) as HTMLButtonElement).disabled,
    ).toBe(false);
  });

  it("shows the providers' marks beside their names, as their guidelines ask", async () => {
    renderWithProviders(<LoginPage />, { route: '/login' });
    const google = screen.getByRole('button', { name: 'Sign in with Google' });
    const apple = screen.getByRole('button', { name: 'Sign in with Apple' });
    // the four colours of the G, and no letter standing in for a logo
    const fills = Array.from(google.querySelectorAll('svg path'), (p) => p.getAttribute('fill'));
    expect(new Set(fills)).toEqual(new Set(['#EA4335', '#FBBC05', '#34A853', '#4285F4']));
    expect(google.querySelector('svg')!.getAttribute('aria-hidden')).toBe('true');
    expect(google.textContent).toBe('Sign in with Google');
    expect(apple.querySelector('svg path')!.getAttribute('fill')).toBe('currentColor');
    expect(apple.textContent).toBe('Sign in with Apple');
    expect(google.className).toContain('button-google');
    expect(apple.className).toContain('button-apple');
    await setLanguage('ko', false);
    expect(await screen.findByRole('button', { name: 'Google로 로그인' })).toBeTruthy();
    expect(screen.getByRole('button', { name: 'Apple로 로그인' })).toBeTruthy();
  });

  it('says a sign-in return whose code was spent or whose flow began elsewhere did not finish (en, ko)', async () => {
    // auth-js's answers (lib/sign-in-return.ts finishSignIn): GoTrue's flow_state_not_found, no verifier
    for (const code of ['flow_state_not_found', 'pkce_code_verifier_not_found']) {
      const failure = Object.assign(new Error('invalid flow state'), { code, status: 404 });
      const view = renderWithProviders(<LoginPage />, {
        route: '/audience',
        session: fakeSession({ status: 'signedOut', signInFailure: failure }),
      });
      expect(screen.getByRole('alert').textContent).toBe(
        'Sign-in failed: It did not finish: the page was left while it was being completed, or it was started in another browser. Sign in again.',
      );
      view.unmount();
    }
    await setLanguage('ko', false);
    renderWithProviders(<LoginPage />, {
      route: '/audience',
      session: fakeSession({
        status: 'signedOut',
        signInFailure: Object.assign(new Error('x'), { code: 'flow_state_not_found' }),
      }),
    });
    expect(screen.getByRole('alert').textContent).toBe(
      '로그인하지 못했습니다: 로그인을 마무리하는 중에 페이지를 떠났거나, 다른 브라우저에서 시작한 로그인입니다. 다시 로그인해 주세요.',
    );
    await setLanguage('en', false);
  });

  it("shows an error the provider sent back in the reader's language, not the provider's", async () => {
    renderWithProviders(<LoginPage />, {
      route: '/dashboard/reaction?error=access_denied&error_description=The+user+cancelled',
    });
    expect(screen.getByRole('alert').textContent).toBe(
      'Sign-in failed: It was cancelled, or Google or Apple did not allow it. Try again, or use the other one.',
    );
    await setLanguage('ko', false);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        '로그인하지 못했습니다: 로그인을 취소했거나 Google 또는 Apple에서 허용하지 않았습니다. 다시 시도하거나 다른 방법으로 로그인해 주세요.',
      ),
    );
    await setLanguage('en', false);
    expect(oauthErrorFrom('', '#error=server_error')).toEqual({
      code: 'server_error',
      message: 'server_error',
    });
    expect(oauthErrorFrom('?code=abc', '')).toBeNull();
  });

  it('shows an unknown sign-in error as the generic reason, in ko too', async () => {
    renderWithProviders(<LoginPage />, {
      route: '/dashboard/reaction#error=server_error&error_description=Unable+to+exchange+code',
    });
    await setLanguage('ko', false);
    await waitFor(() =>
      expect(screen.getByRole('alert').textContent).toBe(
        '로그인하지 못했습니다: 서버에서 문제가 발생했습니다. 잠시 후 다시 시도해 주세요.',
      ),
    );
    await setLanguage('en', false);
  });
});

describe("a visit's ?locale= across the sign-in", () => {
  /** The page as loaded at `address`, then /login (or the page itself) and Google's button. */
  async function returnAddress(address: string, route = '/login', picked?: 'en' | 'ko') {
    cleanup();
    window.history.replaceState(null, '', address);
    initI18n();
    if (picked) await setLanguage(picked); // the footer's picker
    signInWithOAuth.mockResolvedValue({ data: {}, error: null });
    renderWithProviders(<LoginPage />, { route });
    fireEvent.click(screen.getAllByRole('button')[0]!);
    await waitFor(() => expect(signInWithOAuth).toHaveBeenCalled());
    const { options } = signInWithOAuth.mock.calls.at(-1)![0] as {
      options: { redirectTo: string };
    };
    signInWithOAuth.mockClear();
    return options.redirectTo.slice(window.location.origin.length);
  }
  afterEach(() => {
    window.history.replaceState(null, '', '/');
    initI18n();
  });

  it('comes back in the language the address asked for (it failed: the saved one won)', async () => {
    // opened at /pricing?locale=ko, then its Sign in link (in the app: the address is unchanged)
    expect(await returnAddress('/pricing?locale=ko')).toBe('/dashboard/reaction?locale=ko');
    // the login shown in place of a signed-in page keeps the page's own query beside it
    expect(await returnAddress('/purchase?focus=custom&locale=ko', '/purchase?focus=custom')).toBe(
      '/purchase?focus=custom&locale=ko',
    );
  });

  it('leaves off a locale it does not speak, and one a language picked since has ended', async () => {
    const hostile = `/profile?locale=${encodeURIComponent('<script>alert(1)</script>')}`;
    expect(await returnAddress(hostile, hostile)).toBe('/profile');
    expect(await returnAddress('/?locale=xx')).toBe('/dashboard/reaction');
    expect(await returnAddress('/profile?locale=ko', '/profile?locale=ko', 'en')).toBe('/profile');
  });
});

describe('returnPath', () => {
  it('comes back to the page the login stood in for, without an earlier answer', () => {
    expect(returnPath('/login', '')).toBeUndefined();
    expect(returnPath('/purchase', '?focus=custom')).toBe('/purchase?focus=custom');
    expect(
      returnPath('/dashboard/reaction', '?error=access_denied&error_description=x&code=abc'),
    ).toBe('/dashboard/reaction');
  });
});
