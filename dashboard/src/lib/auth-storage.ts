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
 * (pendingSignInReturn), or the page is the return from a provider (PKCE `?code=`, an `error` query,
 * or tokens in the hash).
 */
export function mayHaveSession(search: string, hash: string): boolean {
  if (readStored(AUTH_STORAGE_KEY) || readStored(LEGACY_AUTH_STORAGE_KEY)) return true;
  if (pendingSignInReturn()) return true;
  const query = new URLSearchParams(search);
  if (query.has('code') || query.has('error') || query.has('error_description')) return true;
  return /(?:^#|&)(?:access_token|error)=/.test(hash);
}

/**
 * Where this tab keeps a provider's return until its code is exchanged (sessionStorage): written
 * by index.html's boot script, before any other script runs, as `{ code, at }`.
 */
export const SIGN_IN_RETURN_KEY = 'reaction-blocks.sign-in-return';

/** GoTrue's code lives 5 minutes after the provider's answer: an older one is not sent. */
const SIGN_IN_RETURN_MS = 10 * 60_000;

/**
 * auth-js keeps a started PKCE flow's verifier under `<key>-code-verifier` (the latest flow), and
 * under `<key>-flow-<id>-code-verifier` with the index `<key>-flows-code-verifier`.
 */
export const isVerifierKey = (key: string): boolean =>
  key.startsWith(`${AUTH_STORAGE_KEY}-`) && key.endsWith('-code-verifier');

/** A `?code=` on this page that is a sign-in's: a flow was started here, and not an integration's. */
function codeInAddress(): string | null {
  const code = new URLSearchParams(window.location.search).get('code');
  if (!code || window.location.pathname.startsWith('/oauth/')) return null;
  return readStored(`${AUTH_STORAGE_KEY}-code-verifier`) == null ? null : code;
}

/** The code of a provider's return this tab has not exchanged yet, or null. */
export function pendingSignInReturn(): string | null {
  try {
    const kept = JSON.parse(window.sessionStorage.getItem(SIGN_IN_RETURN_KEY) ?? 'null') as {
      code?: unknown;
      at?: unknown;
    } | null;
    if (kept && typeof kept.code === 'string' && typeof kept.at === 'number') {
      if (Date.now() - kept.at < SIGN_IN_RETURN_MS) return kept.code;
      signInReturnSpent();
    }
  } catch {
    // no sessionStorage: the address holds it
  }
  return codeInAddress();
}

/** The return's code was sent (a code is used once, whatever the answer): it is not kept. */
export function signInReturnSpent(): void {
  try {
    window.sessionStorage.removeItem(SIGN_IN_RETURN_KEY);
  } catch {
    // nothing was kept
  }
  const url = new URL(window.location.href);
  if (!url.searchParams.has('code') || url.pathname.startsWith('/oauth/')) return;
  url.searchParams.delete('code');
  url.searchParams.delete('sb_flow_id');
  window.history.replaceState(window.history.state, '', url);
}
