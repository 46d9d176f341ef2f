// What a reader needs to know of the visitor's session: whether there is one, whose, and when it
// changes. Opening a stored one loads the sealed store (core/storage.ts, a chunk: nothing loads
// while nothing is stored); making, refreshing and signing in (core/auth.ts) load with the
// writer's code, on the first write or when a session is stored.
import type { Project } from './config.js';
import { sessionKey } from './session-key.js';
import { store, stored, subscribe } from './stored.js';

type SealedStore = typeof import('./storage.js');
let storage: SealedStore | undefined;
/** The sealed store's code; one that cannot load counts as nothing stored (as a seal that cannot open). */
const open = async (): Promise<SealedStore | undefined> =>
  (storage ??= await import('./storage.js').catch(() => undefined));
/** Something to open under `key`: stored, or kept for this page (or the store's code is here). */
const held = (key: string): boolean => !!storage || stored(key) != null || store().entries.has(key);

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
const SESSION = sessionKey('');
/** The popup window name; the returning page recognises itself by it. */
export const POPUP_NAME = 'reaction-blocks-auth';

/** Calls `fn` whenever a session changes: here, in another element or bundle, tab or the dashboard. */
export function onAuthChange(fn: () => void): () => void {
  const s = store();
  if (!s.watching) {
    s.watching = true;
    // another tab signed in before this page loaded the sealed store: open what it kept (which
    // tells the subscribers); once loaded, core/storage.ts listens itself
    globalThis.addEventListener?.('storage', ({ key }) => {
      if (!s.listening && key?.startsWith(SESSION) && stored(key) != null)
        void open().then((m) => m?.load(key));
    });
  }
  return subscribe((k) => k.startsWith(SESSION) && fn());
}

const valid = (s: Session | null): Session | null =>
  s && typeof s.access_token === 'string' && s.user && typeof s.user.id === 'string' ? s : null;

/**
 * The session as last opened (see loadSession), or null; one stored but not opened yet is opened
 * in the background (onAuthChange tells of it).
 */
export function getSession(p: Project): Session | null {
  const k = key(p);
  if (storage) return valid(storage.peek<Session>(k));
  if (held(k)) void open().then((m) => m?.peek(k));
  return valid((store().entries.get(k)?.value as Session | undefined) ?? null);
}

/** The session as stored now, opened (no code loads while nothing is stored). */
export const loadSession = async (p: Project): Promise<Session | null> =>
  held(key(p)) ? valid((await (await open())?.load<Session>(key(p))) ?? null) : null;

/**
 * Whether this page may be the sign-in popup come back from Auth: its name is POPUP_NAME and the
 * sign-in's state (core/auth.ts handleAuthReturn checks the state before taking anything).
 */
export const isAuthReturn = (): boolean =>
  typeof window !== 'undefined' && window.name.startsWith(POPUP_NAME) && !!location.hash;
