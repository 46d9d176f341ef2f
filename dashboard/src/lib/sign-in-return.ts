// A provider's sign-in return finished on whichever route loads next (rev-visitor4 D7): loaded by
// supabase.ts only when there is something to finish or clean up (a return kept in this tab, a
// flow's verifier left in storage), so no other visit downloads it; the landing's main chunk
// carries only auth-storage.ts's check (cf693da7 had put all of it there: 5.5 -> 6.3 KB).
import { isAuthRetryableFetchError, type AuthClient } from '@supabase/auth-js';
import { AUTH_STORAGE_KEY, SIGN_IN_RETURN_KEY } from './auth-storage';
import { sealedStorage, verifierKeys } from './sealed-storage';
import { readStored } from './storage';

/** GoTrue's code lives 5 minutes after the provider's answer: an older one is not sent. */
const SIGN_IN_RETURN_MS = 10 * 60_000;

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
function signInReturnSpent(): void {
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

/**
 * Every PKCE verifier auth-js keeps goes. Called once a flow is over: its code spent, or the
 * provider's error back. auth-js removes only the one it read, and without the flow id in the
 * return address (an opt-in: the id in redirect_to can miss an exact redirect allow-list entry)
 * that is the latest flow's copy, never the flow's own key and index: one pair was left per
 * sign-in (rev-visitor4 D7).
 */
function forgetVerifiers(): Promise<unknown> {
  return Promise.all(verifierKeys().map((key) => sealedStorage.removeItem(key)));
}

/**
 * The provider's return this tab holds, exchanged for the session before the session is read
 * (lib/session.tsx waits for it): a full load of another route or a reload before the exchange
 * had sent the code finishes it here. Resolves with null or the failure to say on the sign-in
 * page: a code already spent (the page that sent it was left before the answer came) or a flow
 * begun in another browser. Leftover verifiers of flows that will not come back go once a
 * session is stored or a provider's error came back. `exchanging` tells supabase.ts's storage
 * that a code is being exchanged: auth-js's removal of the verifier then waits for the answer.
 */
export async function finishSignIn(
  auth: InstanceType<typeof AuthClient>,
  exchanging: (on: boolean) => void,
): Promise<unknown> {
  const code = pendingSignInReturn();
  if (code) {
    let failure: unknown;
    exchanging(true);
    try {
      failure = (await auth.exchangeCodeForSession(code)).error;
    } catch (cause) {
      failure = cause;
    } finally {
      exchanging(false);
    }
    // No answer: the code may still be good; the return and its verifier stay for the next load.
    if (isAuthRetryableFetchError(failure)) return failure;
    // Answered: the code is spent (used once, whatever the answer), the session kept if any.
    signInReturnSpent();
    await forgetVerifiers();
    return failure;
  }
  const query = new URLSearchParams(window.location.search);
  const over = query.has('error') && !window.location.pathname.startsWith('/oauth/');
  if (over || readStored(AUTH_STORAGE_KEY) != null) await forgetVerifiers();
  return null;
}
