// The order of a sign-out (lib/session.tsx): the profile read under way is aborted and the
// queries cleared before the client lets the session go, so nothing read for the owner is sent
// afterwards as anon (a 401 on /rest/v1/profiles once in two journey runs).
import { act, waitFor } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { renderSessionProvider, storedSession } from '../test/utils';
import i18next from 'i18next';
import { addressLanguage, initI18n, setLanguage } from './i18n';
import { onUserChange } from './session';

const order: string[] = [];
const client = vi.hoisted(() => ({
  signedOutWhenIdle: vi.fn(),
  readProfile: vi.fn(),
  /** What the store holds (getSession's answer). */
  session: null as unknown,
  /** The store's listener (lib/sealed-storage.ts onSessionStored). */
  stored: () => {},
}));

vi.mock('./auth-storage', async (original) => ({
  ...(await original<typeof import('./auth-storage')>()),
  mayHaveSession: () => true,
}));
vi.mock('./sealed-storage', () => ({
  onSessionStored: (listener: () => void) => {
    client.stored = listener;
    return () => {};
  },
}));
vi.mock('./profile', () => ({ readProfile: client.readProfile }));
vi.mock('./supabase', () => ({
  supabase: {
    auth: {
      onAuthStateChange: () => ({ data: { subscription: { unsubscribe: () => {} } } }),
      getSession: async () => ({ data: { session: client.session } }),
    },
    signedOutWhenIdle: client.signedOutWhenIdle,
  },
}));

beforeEach(() => {
  client.session = storedSession;
});

afterEach(() => {
  order.length = 0;
  vi.clearAllMocks();
});

/**
 * The provider, with the order of a sign-out recorded: the queries cleared (onUserChange), then
 * the client told (`told`). Answers the provider's value as it is now, and the unsubscribe.
 */
function renderSession(told: string) {
  const off = onUserChange(() => void order.push('queries cleared'));
  client.signedOutWhenIdle.mockImplementation(async () => {
    order.push(told);
    return { error: null };
  });
  return { session: renderSessionProvider(), off };
}

describe('sign-out', () => {
  it('aborts the profile read and clears the queries before the session goes', async () => {
    // the profile read is still on its way (its module loading, on a busy machine)
    client.readProfile.mockImplementation(
      (_user: string, _columns: string, signal?: AbortSignal) =>
        new Promise((_answer, fail) =>
          signal?.addEventListener('abort', () => {
            order.push('profile read aborted');
            fail(new DOMException('Signed out', 'AbortError'));
          }),
        ),
    );
    const error = vi.spyOn(console, 'error');
    const { session, off } = renderSession('session gone');
    try {
      await waitFor(() =>
        expect(client.readProfile).toHaveBeenCalledWith('owner-1', '*', expect.any(AbortSignal)),
      );
      order.length = 0;
      await act(() => session().signOut());
      expect(order).toEqual(['profile read aborted', 'queries cleared', 'session gone']);
      expect(session().status).toBe('signedOut');
      expect(session().profile).toBeNull();
      // the aborted read is no failure to report
      expect(error).not.toHaveBeenCalled();
    } finally {
      off();
      error.mockRestore();
    }
  });

  it('follows a "Log out" in a block: the same sign-out, with nothing sent to the server', async () => {
    client.readProfile.mockResolvedValue({ id: 'owner-1', agree: true, language: 'en' });
    const { session, off } = renderSession('client told');
    try {
      await waitFor(() => expect(session().profile).not.toBeNull());
      order.length = 0;
      // the block's element on this origin (the workspace's preview) logged out: its session
      // left the store, and the store says so
      client.session = null;
      await act(async () => client.stored());
      await waitFor(() => expect(session().status).toBe('signedOut'));
      expect(session().profile).toBeNull();
      expect(order).toEqual(['queries cleared', 'client told']);
      // gone: the block ended it at the server already (no second /logout)
      expect(client.signedOutWhenIdle).toHaveBeenCalledExactlyOnceWith(undefined, {
        deleted: false,
        gone: true,
      });
      // the client's own SIGNED_OUT that follows asks nothing more
      await act(async () => client.stored());
      expect(client.signedOutWhenIdle).toHaveBeenCalledTimes(1);
    } finally {
      off();
    }
  });
});

describe('language (walk F4)', () => {
  /** The app started at `search`, signed in as an owner whose profile says Korean. */
  async function openedAt(search: string) {
    window.history.replaceState(null, '', `/profile/email${search}`);
    initI18n();
    client.readProfile.mockResolvedValue({ id: 'owner-1', agree: true, language: 'ko' });
    const { session, off } = renderSession('client told');
    await waitFor(() => expect(session().profile).not.toBeNull());
    off();
  }
  afterEach(() => {
    window.history.replaceState(null, '', '/');
    initI18n();
  });

  it('takes the saved language when the address names none', async () => {
    await openedAt('');
    await waitFor(() => expect(i18next.language).toBe('ko'));
  });

  it("keeps the address's ?locale= for the visit, over the saved language", async () => {
    await openedAt('?locale=en');
    // the profile's read is done, and what it would have started is over (on main it was 'ko'
    // here without this)
    await act(async () => {});
    expect(i18next.language).toBe('en');
    expect(document.documentElement.lang).toBe('en');
    expect(addressLanguage()).toBe('en');
    // a language saved on /profile (or picked in the footer) is newer: the address no longer
    // holds the visit, so /profile stops saying it does
    await act(() => setLanguage('ko', false));
    expect(addressLanguage()).toBeNull();
  });
});
