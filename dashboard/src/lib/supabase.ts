// The one Supabase client of the dashboard, put together from supabase-js's own parts (auth-js,
// postgrest-js, functions-js) the way createClient does, minus what the dashboard never uses:
// Storage is left out and Realtime is loaded only by the screen that listens (lib/realtime.ts).
// 31 KB gzip instead of createClient's 59 KB on /login and every signed-in page.
import { AuthClient } from '@supabase/auth-js';
import { FunctionsClient } from '@supabase/functions-js';
import { PostgrestClient } from '@supabase/postgrest-js';
import { AUTH_STORAGE_KEY, keptSignInReturn } from './auth-storage';
import { isVerifierKey, sealedStorage, verifierKeys } from './sealed-storage';
import type { Database } from './db-types';
import { env } from './env';

if (!env.anonKey) {
  console.warn(
    '[reaction-dashboard] no anon key configured; set it in /env.js or SUPABASE_ANON_KEY',
  );
}

const apiKey = env.anonKey || 'missing-anon-key';
const base = new URL(env.supabaseUrl.endsWith('/') ? env.supabaseUrl : `${env.supabaseUrl}/`);
/** A path of the project's API (`rest/v1`, `auth/v1`, ...). */
export const projectUrl = (path: string) => new URL(path, base);

/**
 * While a return's code is being exchanged, auth-js's removal of the verifier waits for the
 * answer (sign-in-return.ts finishSignIn): it drops it on any failure, and a request with no answer (the page being
 * left aborts it, the network, a gateway's 502-504) may not have spent the code.
 */
let exchanging = false;

const auth = new AuthClient({
  url: projectUrl('auth/v1').href,
  headers: { Authorization: `Bearer ${apiKey}`, apikey: apiKey },
  storageKey: AUTH_STORAGE_KEY,
  // sealed, and shared with the SDK's elements on this origin (lib/sealed-storage.ts)
  storage: {
    ...sealedStorage,
    removeItem: async (key) => {
      if (!(exchanging && isVerifierKey(key))) await sealedStorage.removeItem(key);
    },
  },
  flowType: 'pkce',
  persistSession: true,
  // the provider's return is exchanged by finishSignIn below, from wherever this tab kept it
  detectSessionInUrl: false,
  autoRefreshToken: true,
});

/**
 * The provider's return finished (sign-in-return.ts finishSignIn), loaded only when this tab
 * keeps a return or a flow's verifier is stored (its code in the address is read only with one):
 * otherwise there is nothing to exchange or clean up. The landing's prerender (Node) loads this
 * module too.
 */
function finishSignIn(): Promise<unknown> {
  if (typeof window === 'undefined') return Promise.resolve(null);
  if (!keptSignInReturn() && verifierKeys().length === 0) return Promise.resolve(null);
  return import('./sign-in-return').then((m) =>
    m.finishSignIn(auth, (on) => {
      exchanging = on;
    }),
  );
}

/** The signed-in user's access token (refreshed by auth-js when due), or null. */
export async function accessToken(): Promise<string | null> {
  const { data } = await auth.getSession();
  return data.session?.access_token ?? null;
}

/** Requests of the API not answered yet (sign-out waits for them: signedOutWhenIdle). */
const inFlight = new Set<Promise<unknown>>();
/** Sign-outs so far: a request started before one and not yet holding its token is not sent. */
let signOuts = 0;
/**
 * A request went with a user's token and no sign-out has been counted since: one that now finds
 * no session (it went without this client's sign-out: a block's "Log out" on this origin, another
 * tab, a refresh refused) is the owner's read all the same, and is not sent as anon either.
 */
let signedIn = false;

/**
 * fetch with the project's key, and the user's token as the bearer (the key without a session).
 * A request started with a session that reads its token only after a sign-out (one that waited
 * longer than signedOutWhenIdle's limit, on a busy machine), or that finds the session gone
 * before the sign-out is counted here (`signedIn`), is dropped with an AbortError: not sent as
 * anonymous (PostgREST would refuse the owner's tables with a 401), nor as whoever signed in
 * meanwhile.
 */
const fetchWithAuth: typeof fetch = (input, init) => {
  const started = signOuts;
  const sent = (async () => {
    // a read its caller gave up before it went (the sign-out's: lib/session.tsx) is not sent
    init?.signal?.throwIfAborted();
    const headers = new Headers(init?.headers);
    if (!headers.has('apikey')) headers.set('apikey', apiKey);
    if (!headers.has('Authorization')) {
      const token = await accessToken();
      // any token read after a sign-out is nobody's or the next user's, never this request's
      if (signOuts !== started || (!token && signedIn))
        throw new DOMException('Signed out before the request was sent', 'AbortError');
      if (token) signedIn = true;
      headers.set('Authorization', `Bearer ${token ?? apiKey}`);
    }
    return fetch(input, { ...init, headers });
  })();
  inFlight.add(sent);
  void sent.catch(() => {}).finally(() => inFlight.delete(sent));
  return sent;
};

/**
 * Signs the client out once the requests under way have answered (for at most `ms`): one that
 * started with the session and read its token after the sign-out would go as anonymous, and
 * PostgREST refuses the owner's tables to anon with a 401.
 *
 * `deleted`: the account is gone, and its sessions with it, so the session is only forgotten here.
 * auth-js's sign-out, even `{ scope: 'local' }`, still sends the token to /logout, which answers a
 * deleted user's with 403 user_not_found (a console error in the browser): with no session left
 * in storage it has no token to send, and it still tells its listeners SIGNED_OUT.
 * `gone`: the session left the store without this client (a block's "Log out" on this origin,
 * which ended it at the server already; another tab): nothing is sent, where a second /logout
 * with the spent token would be refused; a session signed in meanwhile stays.
 */
async function signedOutWhenIdle(ms = 3000, { deleted = false, gone = false } = {}) {
  const until = Date.now() + ms;
  while (inFlight.size && Date.now() < until)
    await Promise.race([
      Promise.allSettled([...inFlight]),
      new Promise((r) => setTimeout(r, until - Date.now())),
    ]);
  signOuts += 1;
  signedIn = false;
  if (deleted) await sealedStorage.removeItem(AUTH_STORAGE_KEY);
  else if (!gone) return auth.signOut();
  else if ((await auth.getSession()).data.session) return { error: null };
  return auth.signOut({ scope: 'local' });
}

const rest = new PostgrestClient<Database>(projectUrl('rest/v1').href, { fetch: fetchWithAuth });

export const supabase = {
  auth,
  from: rest.from.bind(rest),
  rpc: rest.rpc.bind(rest),
  functions: new FunctionsClient(projectUrl('functions/v1').href, { customFetch: fetchWithAuth }),
  /** The project's key, for the Realtime connection (lib/realtime.ts). */
  apiKey,
  signedOutWhenIdle,
  /** The provider's return finished (lib/session.tsx reads the session after it): see finishSignIn. */
  signInReturn: finishSignIn(),
};

/**
 * Calls an edge function that answers `{ data }` or `{ error: { code, message } }` and returns
 * the data, throwing an Error with the server's message on failure. `signal`: a query's (a read
 * through lib/use-query.ts), aborted with it (not sent once aborted).
 */
export async function invokeFunction<T>(
  name: string,
  body: Record<string, unknown> = {},
  signal?: AbortSignal,
): Promise<T> {
  const { data, error } = await supabase.functions.invoke(name, { body, signal });
  if (error) {
    let message = error.message;
    let retryAfter: number | undefined;
    let code: string | undefined;
    const context = (error as { context?: unknown }).context;
    if (context instanceof Response) {
      try {
        const payload = (await context.clone().json()) as {
          error?: { code?: string; message?: string; retryAfter?: number };
        };
        if (payload.error?.message) message = payload.error.message;
        code = payload.error?.code;
        retryAfter = payload.error?.retryAfter;
      } catch {
        // not JSON; keep the client's message
      }
      retryAfter ??= Number(context.headers.get('retry-after')) || undefined;
    }
    // The status tells a refused request (4xx, not retried) from a failed server (5xx); without
    // an answer the error keeps supabase-js's name (FunctionsFetchError: the network failed). A
    // 429 says how long to wait (lib/errors.ts withWait shows it); the code names a few answers
    // the dashboard says in its own words (messageOf: `unavailable`).
    const failure = new Error(message) as Error & {
      status?: number;
      retryAfter?: number;
      code?: string;
    };
    if (context instanceof Response) failure.status = context.status;
    else failure.name = error.name;
    if (retryAfter && retryAfter > 0) failure.retryAfter = retryAfter;
    if (code) failure.code = code;
    throw failure;
  }
  const payload = data as { data?: T; error?: { message?: string } } | null;
  if (payload && typeof payload === 'object' && payload.error) {
    throw new Error(payload.error.message ?? 'Request failed');
  }
  return (
    payload && typeof payload === 'object' && 'data' in payload ? payload.data : payload
  ) as T;
}
