// What a reader needs to know of the visitor's session: whether there is one, whose, and when it
// changes. Opening it reads storage only (core/storage.ts); making, refreshing and signing in
// (core/auth.ts) load with the writer's code, on the first write or when a session is stored.
import type { Project } from './config.js';
import { load, peek, sessionKey, subscribe } from './storage.js';

/** The GoTrue session as returned by /auth/v1/signup and /auth/v1/token, trimmed to what we use. */
export interface Session {
  access_token: string;
  refresh_token: string;
  /** Seconds since the epoch. */
  expires_at: number;
  user: SessionUser;
}

export interface SessionUser {
  id: string;
  is_anonymous?: boolean;
  email?: string;
  user_metadata?: { full_name?: string; name?: string; avatar_url?: string; picture?: string };
}

export { sessionKey };
export const key = (p: Project) => sessionKey(p.url);
/** The popup window name; the returning page recognises itself by it. */
export const POPUP_NAME = 'reaction-blocks-auth';

/** Calls `fn` whenever a session changes: here, in another element or bundle, tab or the dashboard. */
export const onAuthChange = (fn: () => void): (() => void) =>
  subscribe((k) => k.startsWith('reaction-blocks.session:') && fn());

const valid = (s: Session | null): Session | null =>
  s && typeof s.access_token === 'string' && s.user && typeof s.user.id === 'string' ? s : null;

/** The session as last opened (see loadSession), or null. */
export const getSession = (p: Project): Session | null => valid(peek<Session>(key(p)));

/** The session as stored now, opened. */
export const loadSession = async (p: Project): Promise<Session | null> =>
  valid(await load<Session>(key(p)));

/** Signed in with a provider (not the anonymous stand-in). */
export const isSignedIn = (s: Session | null): boolean => !!s && !s.user.is_anonymous;

export function displayUser(s: Session | null): { name?: string; photo?: string } {
  const m = s?.user.user_metadata || {};
  return { name: m.full_name || m.name, photo: m.avatar_url || m.picture };
}

/**
 * Opens the sign-in popup, empty: called in the visitor's click, where a popup blocker allows it;
 * core/auth.ts signInWithPopup sends it to the provider once its code has loaded.
 */
export const openPopup = (): Window | null => window.open('', POPUP_NAME, 'width=480,height=640');

/** Whether this page is the sign-in popup come back from Auth (core/auth.ts handleAuthReturn). */
export const isAuthReturn = (): boolean =>
  typeof window !== 'undefined' && window.name === POPUP_NAME && !!location.hash;
