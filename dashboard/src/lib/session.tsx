// Sign-in state for the whole app: the Supabase session, the user's profile row, and sign-out.
import type { Session, User } from '@supabase/auth-js';
import {
  createContext,
  useCallback,
  useContext,
  useEffect,
  useMemo,
  useRef,
  useState,
  type ReactNode,
} from 'react';
import { AUTH_STORAGE_KEY, mayHaveSession } from './auth-storage';
import type { ProfileRow } from './db-types';
import { addressLanguage, setLanguage, toLanguage } from './i18n';

// The client (and supabase-js, the largest dependency) loads after the first paint, so the
// landing pages render without waiting for it, and only when the visit may carry a session.
const loadClient = () => import('./supabase').then((m) => m.supabase);

export type SessionStatus = 'loading' | 'signedOut' | 'signedIn';

export interface SessionValue {
  status: SessionStatus;
  user: User | null;
  profile: ProfileRow | null;
  profileLoading: boolean;
  refreshProfile: () => Promise<void>;
  /**
   * `deleted`: the account was deleted (its sessions with it): nothing is asked of the server.
   * `gone`: the session already left the store (a block's "Log out"): nothing is sent either.
   */
  signOut: (options?: { deleted?: boolean; gone?: boolean }) => Promise<void>;
  /**
   * Why the provider's return this tab held did not sign in (its code already spent, a flow of
   * another browser: lib/sign-in-return.ts finishSignIn), for the sign-in page to say; else null.
   */
  signInFailure?: unknown;
}

export const SessionContext = createContext<SessionValue | null>(null);

/**
 * Only owners enter the signed-in area: a user with a Google or Apple identity, or one the admin
 * API made an owner. What the database decides (private.is_owner_account: only owners get a
 * profile, docs/security.md "Who is an owner"); this only chooses what to show.
 */
export function isEligibleUser(user: User | null | undefined): user is User {
  if (!user || user.is_anonymous || !user.email) return false;
  const meta = (user.app_metadata ?? {}) as { providers?: unknown; owner?: unknown };
  const providers = Array.isArray(meta.providers) ? meta.providers : [];
  return providers.includes('google') || providers.includes('apple') || meta.owner === true;
}

// With the client, after the first paint (loadClient); not sent once `signal` is aborted.
const fetchProfile = (userId: string, signal: AbortSignal): Promise<ProfileRow | null> =>
  import('./profile').then((m) => m.readProfile(userId, '*', signal));

const userChangeListeners = new Set<() => void>();

/**
 * Calls `listener` whenever the signed-in user changes (sign-out, another account), so what was
 * cached for the last user is dropped. Returns the unsubscribe.
 */
export function onUserChange(listener: () => void): () => void {
  userChangeListeners.add(listener);
  return () => userChangeListeners.delete(listener);
}

export function SessionProvider({ children }: { children: ReactNode }) {
  const [status, setStatus] = useState<SessionStatus>('loading');
  const [user, setUser] = useState<User | null>(null);
  const [profile, setProfile] = useState<ProfileRow | null>(null);
  const [profileLoading, setProfileLoading] = useState(false);
  const [signInFailure, setSignInFailure] = useState<unknown>(null);
  const userId = isEligibleUser(user) ? user.id : null;
  /** The signed-in owner this page read for (null once signed out). */
  const lastUser = useRef(userId);
  /** signOut, for the session's listeners (set below). */
  const signOutRef = useRef<SessionValue['signOut']>(async () => {});

  useEffect(() => {
    let alive = true;
    let unsubscribe = () => {};
    const connect = () =>
      void loadClient().then(async (supabase) => {
        // A provider's return is exchanged first: read before, the session is none yet, and
        // the sign-in page would show while it signs in.
        const failure = await supabase.signInReturn;
        if (!alive) return;
        if (failure) setSignInFailure(failure);
        const follow = (session: Session | null) => {
          // The owner's session went without this page's sign-out: a block's "Log out" on this
          // origin (the workspace's preview, /block/ in another tab), a refresh refused. The
          // same sign-out as the account menu's (screens closed, reads aborted, the client told
          // before anything else is sent), with nothing left to send to the server.
          if (!session && lastUser.current !== null) return void signOutRef.current({ gone: true });
          setUser(session?.user ?? null);
          setStatus(session ? 'signedIn' : 'signedOut');
          if (!session) setProfile(null);
        };
        const { data } = supabase.auth.onAuthStateChange((_event, session) => {
          if (alive) follow(session);
        });
        const sync = async () => {
          const { data: current } = await supabase.auth.getSession();
          if (alive) follow(current.session);
        };
        // The session is shared with the SDK's elements on this origin (lib/sealed-storage.ts):
        // a block's "Log out" or sign-in, here or in another tab, is read again at once.
        const { onSessionStored } = await import('./sealed-storage');
        const offStored = onSessionStored(() => void sync());
        unsubscribe = () => {
          data.subscription.unsubscribe();
          offStored();
        };
        if (!alive) return unsubscribe();
        await sync();
      });
    if (mayHaveSession(window.location.search, window.location.hash)) {
      connect();
      return () => {
        alive = false;
        unsubscribe();
      };
    }
    // No stored session and no provider return: signed out without downloading the client,
    // until another tab signs in. (Set here, not as the initial state, so the prerendered landing
    // and its hydration agree.)
    // eslint-disable-next-line react-hooks/set-state-in-effect
    setStatus('signedOut');
    const onStorage = (event: StorageEvent) => {
      if (event.key !== AUTH_STORAGE_KEY || !event.newValue) return;
      window.removeEventListener('storage', onStorage);
      connect();
    };
    window.addEventListener('storage', onStorage);
    return () => {
      alive = false;
      unsubscribe();
      window.removeEventListener('storage', onStorage);
    };
  }, []);

  /** The signed-in user's own reads (the profile's): aborted when the user changes. */
  const reads = useRef(new AbortController());
  /**
   * What was read or is being read for the last user goes: the profile read under way is not
   * sent, and the queries are cancelled and cleared (onUserChange, lib/query-client.ts).
   */
  const forgetUser = useCallback((next: string | null) => {
    lastUser.current = next;
    reads.current.abort();
    reads.current = new AbortController();
    for (const listener of userChangeListeners) listener();
  }, []);
  useEffect(() => {
    if (lastUser.current !== userId) forgetUser(userId);
  }, [userId, forgetUser]);

  const refreshProfile = useCallback(async () => {
    if (!userId) return;
    const { signal } = reads.current;
    setProfileLoading(true);
    try {
      const row = await fetchProfile(userId, signal);
      if (signal.aborted) return;
      setProfile(row);
      // Before consent the account is brand new and its language is only the database's
      // default (en): keep the language the visitor signed up in (agreeing saves it). A page
      // opened with ?locale= keeps that language for the visit; the profile is not changed.
      const lng = row?.agree && !addressLanguage() ? toLanguage(row.language) : null;
      if (lng) void setLanguage(lng, false);
    } catch (error) {
      // a read the sign-out cut short (lib/supabase.ts drops it) is no failure
      if (lastUser.current === userId)
        console.error('[reaction-dashboard] profile load failed', error);
    } finally {
      setProfileLoading(false);
    }
  }, [userId]);

  useEffect(() => {
    if (!userId) return;
    // Loading the profile is this effect's job: it syncs with the signed-in user.
    // eslint-disable-next-line react-hooks/set-state-in-effect
    void refreshProfile();
  }, [userId, refreshProfile]);

  const signOut = useCallback(
    async ({ deleted = false, gone = false } = {}) => {
      // Signed out here first: the owner's screens close, the profile read under way is aborted
      // and the queries are cancelled and cleared, all before the session goes; the client
      // forgets it once the requests already sent have answered. The other way round, a read
      // begun before (the profile's, loading its module on a busy machine) reached the client
      // only after the session had gone, went as anon, and PostgREST refused the owner's table
      // with a 401 (a flake of the journeys' last sign-out).
      setUser(null);
      setProfile(null);
      setStatus('signedOut');
      forgetUser(null);
      const supabase = await loadClient();
      const { error } = await supabase.signedOutWhenIdle(undefined, { deleted, gone });
      if (error) console.error('[reaction-dashboard] sign-out failed', error);
    },
    [forgetUser],
  );
  useEffect(() => {
    signOutRef.current = signOut;
  }, [signOut]);

  const value = useMemo<SessionValue>(
    () => ({ status, user, profile, profileLoading, refreshProfile, signOut, signInFailure }),
    [status, user, profile, profileLoading, refreshProfile, signOut, signInFailure],
  );
  return <SessionContext.Provider value={value}>{children}</SessionContext.Provider>;
}

export function useSession(): SessionValue {
  const value = useContext(SessionContext);
  if (!value) throw new Error('useSession must be used inside SessionProvider');
  return value;
}
