import type { User } from '@supabase/auth-js';
import { act, fireEvent, render, screen, waitFor, within } from '@testing-library/react';
import i18next from 'i18next';
import type { ReactElement, ReactNode } from 'react';
import { I18nextProvider } from 'react-i18next';
import { MemoryRouter, useLocation } from 'react-router-dom';
import { expect, vi } from 'vitest';
import type { QueryClient } from '@tanstack/react-query';
import type { ProfileRow } from '../lib/db-types';
import { createQueryClient } from '../lib/query-client';
import { QueryProvider } from '../lib/query-provider';
import { SessionContext, SessionProvider, useSession, type SessionValue } from '../lib/session';

export function fakeUser(overrides: Partial<User> = {}): User {
  return {
    id: 'user-1',
    email: 'owner@example.com',
    is_anonymous: false,
    app_metadata: { provider: 'google', providers: ['google'] },
    user_metadata: {},
    aud: 'authenticated',
    created_at: '2024-01-01T00:00:00Z',
    ...overrides,
  } as User;
}

export function fakeProfile(overrides: Partial<ProfileRow> = {}): ProfileRow {
  return {
    id: 'user-1',
    name: 'Owner',
    email: 'owner@example.com',
    photo_url: null,
    home_url: null,
    language: 'en',
    agree: true,
    paid: false,
    block_limit: 3,
    block_count: 1,
    ...overrides,
  };
}

export function fakeSession(overrides: Partial<SessionValue> = {}): SessionValue {
  return {
    status: 'signedOut',
    user: null,
    profile: null,
    profileLoading: false,
    refreshProfile: async () => {},
    signOut: async () => {},
    ...overrides,
  };
}

export function signedInSession(overrides: Partial<SessionValue> = {}): SessionValue {
  return fakeSession({
    status: 'signedIn',
    user: fakeUser(),
    profile: fakeProfile(),
    ...overrides,
  });
}

/** A session as auth-js keeps it in storage (lib/sealed-storage.ts), valid until 2100. */
export const storedSession = {
  access_token: 'eyJ.access',
  refresh_token: 'refresh-1',
  expires_at: 4102444800,
  user: {
    id: 'owner-1',
    email: 'owner@example.com',
    is_anonymous: false,
    app_metadata: { provider: 'google', providers: ['google'] },
  },
};

/** Prints the current location so tests can assert redirects. */
export function LocationProbe() {
  const location = useLocation();
  return <div data-testid="location">{location.pathname + location.search}</div>;
}

export function renderWithProviders(
  ui: ReactElement,
  {
    route = '/',
    session = fakeSession(),
    client = createQueryClient(),
  }: { route?: string; session?: SessionValue; client?: QueryClient } = {},
) {
  // a client of its own per render: no test sees another's cached answers
  return render(
    <I18nextProvider i18n={i18next}>
      <SessionContext.Provider value={session}>
        <QueryProvider client={client}>
          <MemoryRouter initialEntries={[route]}>
            {ui}
            <LocationProbe />
          </MemoryRouter>
        </QueryProvider>
      </SessionContext.Provider>
    </I18nextProvider>,
  );
}

/**
 * The real SessionProvider around `children` (its client mocked or stubbed by the test), with a
 * probe: answers the provider's value as it is now.
 */
export function renderSessionProvider(children?: ReactNode): () => SessionValue {
  let session!: SessionValue;
  render(
    <SessionProvider>
      <SessionProbe onValue={(value) => (session = value)} />
      {children}
    </SessionProvider>,
  );
  return () => session;
}

function SessionProbe({ onValue }: { onValue: (value: SessionValue) => void }) {
  onValue(useSession());
  return null;
}

/** A stand-in for a PostgREST query builder: every method chains, awaiting gives the result. */
export function fakeQuery<T>(data: T, error: unknown = null) {
  const result = { data, error };
  const builder: Record<string, unknown> = {};
  for (const name of [
    'select',
    'eq',
    'order',
    'update',
    'delete',
    'insert',
    'single',
    'maybeSingle',
    'range',
    'abortSignal',
  ]) {
    builder[name] = () => builder;
  }
  builder.then = (resolve: (value: typeof result) => unknown) => Promise.resolve(resolve(result));
  return builder;
}

/**
 * For `vi.mock`'s factory: the real module with a `vi.fn()` in place of each named export, so the
 * rest (messages, parsers) stays real. The test reaches the fakes through `vi.mocked` on its own
 * import of the module:
 *
 *     import * as plans from '../api/plans';
 *     vi.mock(import('../api/plans'), (original) => fakeExports(original, ['loadUsage']));
 *     const api = vi.mocked(plans);
 *
 * `restoreMocks` (vitest.config.ts) resets every fake before each test.
 */
export async function fakeExports<T extends object>(
  importOriginal: () => Promise<T>,
  names: (keyof T)[],
): Promise<T> {
  const fakes = Object.fromEntries(names.map((name) => [name, vi.fn()]));
  return { ...(await importOriginal()), ...fakes };
}

/** An edge function's refusal as lib/supabase.ts invokeFunction throws it. */
export const functionError = (status: number, code: string, message: string) =>
  Object.assign(new Error(message), { status, code });

/**
 * Presses each step's button in the step's language and waits until the page's alert reads the
 * step's text: the steps of a test that a failure is said in the reader's language.
 */
export async function alertsAfterClicks(
  steps: ReadonlyArray<readonly [language: 'en' | 'ko', button: string, text: string]>,
) {
  for (const [language, name, text] of steps) {
    if (i18next.language !== language) await act(() => i18next.changeLanguage(language));
    fireEvent.click(screen.getByRole('button', { name }));
    await waitFor(() => expect(screen.getByRole('alert').textContent).toBe(text));
  }
}

/**
 * Presses a dialog's confirm button once per failure the action will meet and answers the error
 * the dialog shows after each (each one's words differ from the last's).
 */
export async function alertsAfterTries(dialog: HTMLElement, confirmLabel: string, tries: number) {
  const alerts: string[] = [];
  for (let n = 0; n < tries; n++) {
    const before = within(dialog).queryByRole('alert')?.textContent ?? null;
    fireEvent.click(within(dialog).getByRole('button', { name: confirmLabel }));
    await waitFor(() => expect(within(dialog).getByRole('alert').textContent).not.toBe(before));
    alerts.push(within(dialog).getByRole('alert').textContent ?? '');
  }
  return alerts;
}

/** Switches to Korean, opens the screen with `open` and waits until it shows `text`. */
export async function opensInKorean(open: () => unknown, text: string) {
  await i18next.changeLanguage('ko');
  open();
  expect(await screen.findByText(text)).toBeTruthy();
}
