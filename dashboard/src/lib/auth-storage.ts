// Where the Supabase session is kept, known without loading supabase-js: the landing pages ask
// "could this visitor be signed in?" before deciding to download the client (about 56 KB gzip).
import { sessionKey } from '../../../sdk/src/core/session-key';
import { env } from './env';
import { readStored } from './storage';

/**
 * The auth-js `storageKey` of the dashboard's client (see supabase.ts): the SDK's key for this
 * project, so the dashboard and the elements on its origin (/block/) share one session, kept
 * sealed by lib/sealed-storage.ts.
 */
export const AUTH_STORAGE_KEY = sessionKey(env.supabaseUrl);

/** Where the dashboard kept its session before, in plain JSON (sealed once, then removed). */
export const LEGACY_AUTH_STORAGE_KEY = 'reaction.auth';

/**
 * True when this visit may carry a session: one is stored, a provider's return waits in this tab
 * (keptSignInReturn), or the page is the return from a provider (PKCE `?code=`, an `error` query,
 * or tokens in the hash).
 */
export function mayHaveSession(search: string, hash: string): boolean {
  if (readStored(AUTH_STORAGE_KEY) || readStored(LEGACY_AUTH_STORAGE_KEY)) return true;
  if (keptSignInReturn()) return true;
  const query = new URLSearchParams(search);
  if (query.has('code') || query.has('error') || query.has('error_description')) return true;
  return /(?:^#|&)(?:access_token|error)=/.test(hash);
}

/**
 * Where this tab keeps a provider's return until its code is exchanged (sessionStorage): written
 * by index.html's boot script, before any other script runs, as `{ code, at }`; read by
 * sign-in-return.ts, which loads only when one is kept or a flow's verifier is.
 */
export const SIGN_IN_RETURN_KEY = 'reaction-blocks.sign-in-return';

/** Whether this tab keeps a return, read as it is (sign-in-return.ts checks its code and age). */
export function keptSignInReturn(): boolean {
  try {
    return window.sessionStorage.getItem(SIGN_IN_RETURN_KEY) != null;
  } catch {
    return false;
  }
}
