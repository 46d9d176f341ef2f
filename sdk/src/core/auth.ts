import type { Project } from './config.js';
import { ApiError } from './errors.js';
import { call } from './request.js';
import { log } from './log.js';
import { flush, write } from './storage.js';
import { isSignedIn } from './user.js';
import {
  getSession,
  isAuthReturn,
  key,
  loadSession,
  POPUP_NAME,
  type Session,
  type SessionUser,
} from './session.js';

// the writer's code takes a signed-in writer's name from here (core/writer.ts writer): core/user.ts
// comes with this chunk, which every write loads
export { displayUser } from './user.js';
export const AUTH_MESSAGE = 'reaction-blocks:auth';

const pending = new Map<string, Promise<Session | null>>();
/**
 * The refreshes this page sent whose answer has not come yet, by the refresh token each spends
 * (rotate): another refresh of that session joins the one on its way, never sends the token again.
 */
const flying = new Map<string, Promise<Session>>();

export function saveSession(p: Project, s: Session | null): void {
  write(key(p), s);
}

function decode(token: string): Record<string, unknown> {
  try {
    const part = token.split('.')[1] ?? '';
    return JSON.parse(atob(part.replace(/-/g, '+').replace(/_/g, '/')));
  } catch {
    return {};
  }
}

/** Builds a session from the tokens in a redirect fragment (implicit flow). */
export function sessionFromTokens(access: string, refresh: string, expiresIn?: number): Session {
  const c = decode(access) as {
    sub?: string;
    exp?: number;
    email?: string;
    is_anonymous?: boolean;
    user_metadata?: SessionUser['user_metadata'];
  };
  return {
    access_token: access,
    refresh_token: refresh,
    // expires_in on this device's clock before the token's exp (the server's clock: see authCall)
    expires_at: expiresIn || !c.exp ? Math.floor(Date.now() / 1000) + (expiresIn ?? 3600) : c.exp,
    user: {
      id: c.sub ?? '',
      email: c.email,
      is_anonymous: !!c.is_anonymous,
      user_metadata: c.user_metadata,
    },
  };
}

/**
 * How long (ms) a call to the auth server (a refresh, a sign-up) waits for its answer, and how
 * long a refresh, a sign-in or a sign-out waits for the lock another caller holds (locked): a
 * stalled refresh in one tab held every other tab's elements at "Loading..." until it settled
 * (40 s and more). `flight`: how long a refresh's answer is still waited for after that, before
 * the session's token may be sent again (rotate). The tests shorten them.
 */
export const waits = { fetch: 10_000, lock: 5_000, flight: 60_000 };

/** Rejects after `ms` with the error of an auth server that does not answer. */
const after = (ms: number): Promise<never> =>
  new Promise((_, no) => setTimeout(no, ms, new ApiError('Network error', 'network')));

async function authCall(
  p: Project,
  path: string,
  body: object,
  /** false: never aborted (a refresh: its caller stops waiting, its answer is still kept) */
  bound = true,
): Promise<Session> {
  const res = await fetch(p.url + '/auth/v1/' + path, {
    method: 'POST',
    headers: {
      apikey: p.key,
      Authorization: 'Bearer ' + p.key,
      'Content-Type': 'application/json',
    },
    body: JSON.stringify(body),
    // (AbortSignal.timeout: Chrome 103+; older browsers wait as long as the network does)
    signal: bound ? AbortSignal.timeout?.(waits.fetch) : undefined,
  }).catch(() => {
    // not reached or no answer in time (offline, the auth server down or stalled): the element's
    // own words, not the browser's
    throw new ApiError('Network error', 'network');
  });
  const json = await res.json().catch(() => ({}));
  if (!res.ok)
    throw new ApiError(
      json.msg || json.message || json.error_description || 'Auth failed',
      json.error_code || String(res.status),
      // the server said no (a revoked or unknown refresh token), not "later" (429, 5xx)
      res.status < 500 && res.status !== 429 ? 'refused' : '',
    );
  const s = json as Session;
  // the session's life counted on this device's clock: the server's expires_at is its own clock's,
  // and a device an hour fast never had a fresh session (every write refreshed, then gave up)
  if (json.expires_in || !s.expires_at)
    s.expires_at = Math.floor(Date.now() / 1000) + (json.expires_in ?? 3600);
  return s;
}

function once(p: Project, tag: string, fn: () => Promise<Session | null>): Promise<Session | null> {
  const k = tag + p.url;
  let pr = pending.get(k);
  if (!pr) {
    pr = fn().finally(() => pending.delete(k));
    pending.set(k, pr);
  }
  return pr;
}

const fresh = (s: Session | null): boolean => !!s && s.expires_at - 60 > Date.now() / 1000;

/**
 * Runs `fn` holding the lock supabase-js takes for the same storage key (`lock:<key>`), so the
 * SDK and the dashboard's client, in any tab of the origin, never refresh one session at once
 * (the refresh token rotates: the second would be refused), and a sign-in, a sign-out or a
 * session forgotten (refused) never lands in the middle of a refresh. Without the Web Locks API (plain
 * http pages), the page's own once() is all there is.
 * The lock is waited for `waits.lock` at most (its holder may be stalled: another tab's refresh
 * whose answer does not come, or the dashboard's client); then `waitedOut` runs instead: a refresh gives up (no second refresh beside the
 * stalled one), the others run without the lock, their compare-and-set and the refresh's (it
 * saves only over the session it refreshed) keeping either from undoing the other.
 */
const locked = <T>(name: string, fn: () => Promise<T>, waitedOut = fn): Promise<T> =>
  navigator.locks
    ? new Promise<T>((ok, no) => {
        let granted = false;
        navigator.locks
          .request('lock:' + name, { signal: AbortSignal.timeout?.(waits.lock) }, () => {
            granted = true;
            const r = fn();
            r.then(ok, no);
            // held until the refreshes this page sent are answered (or given up for good,
            // waits.flight): another tab would send the same refresh token again
            return r.then(held, held);
          })
          .catch(() => void (granted || waitedOut().then(ok, no)));
      })
    : fn();
const held = () => Promise.allSettled(flying.values());

/**
 * `fn` under the session's lock (locked), or at once where this page's own refresh of `s` is on
 * its way (its lock callback holds the lock until it is answered): `fn` joins that refresh.
 */
const guarded = <T>(p: Project, s: Session, fn: () => Promise<T>, waitedOut: () => Promise<T>) =>
  flying.has(s.refresh_token) ? fn() : locked(key(p), fn, waitedOut);

/** What a write meets when the visitor's signed-in session was refused: nothing is sent. */
export const SIGNED_OUT = 'signed_out';

/**
 * The current session with a fresh access token, or null. With `create`, an anonymous user is
 * signed up first (what signInAnonymously does); that happens on the first write, never on view.
 * A refresh the server refuses (revoked, signed out elsewhere) forgets the session; one that
 * could not reach the server keeps it for the next try. A signed-in visitor's session refused
 * (here, or by another caller first) is never followed by a new anonymous one: the visitor is
 * shown signed out, and a write (`create`) fails with SIGNED_OUT, sending nothing.
 */
export async function ensureSession(p: Project, create: boolean): Promise<Session | null> {
  const s = await loadSession(p);
  if (fresh(s)) return s;
  if (s) {
    // refreshed; or another caller's since, or kept (the server could not be reached): no sign-up
    const now =
      (await once(p, 'r', () =>
        guarded(
          p,
          s,
          () => refresh(p),
          async () => null,
        ),
      )) ?? (await loadSession(p));
    if (now) return fresh(now) ? now : null;
    if (create && isSignedIn(s)) throw new ApiError('Signed out', SIGNED_OUT);
  }
  if (!create) return null;
  return once(p, 's', () => signUp(p));
}

/** The same session (its refresh token rotates with every refresh, a new sign-in has another). */
const same = (a: Session | null, b: Session | null): boolean =>
  a?.refresh_token === b?.refresh_token;

/**
 * Refreshes the stored session: the new one, or null (refused: forgotten; or unreachable). Held
 * under the lock sign-in and sign-out take (locked), and saved only over the session it refreshed:
 * a log out, or another account signed in, while the refresh was on its way is never undone.
 */
async function refresh(p: Project): Promise<Session | null> {
  // another tab, element bundle or the dashboard may have refreshed (or forgotten) it meanwhile
  const now = await loadSession(p);
  if (!now || fresh(now)) return now;
  let n: Session | null = null;
  try {
    n = await rotate(p, now);
  } catch (e) {
    log('session refresh failed', e);
    if ((e as ApiError).details !== 'refused') return null;
  }
  return keep(p, now, n);
}

/** Saves `n` (null: forgotten) only over `was`, the session it came from; returns what is stored. */
async function keep(p: Project, was: Session, n: Session | null): Promise<Session | null> {
  // forgotten while a refresh of `was` is on its way: its answer first (saved over `was`)
  if (!n) await flying.get(was.refresh_token)?.catch(() => {});
  // changed while the server answered (signed out or in, here or in another tab): that stays
  const cur = await loadSession(p);
  if (!same(cur, was)) return cur;
  saveSession(p, n);
  await flush(key(p));
  return n;
}

/**
 * Spends `s`'s refresh token. Waited for `waits.fetch` at most (then: unreachable), but the
 * request is not aborted: one that reached the server has rotated the token there, and an answer
 * dropped cost the visitor their session (the next refresh sent the used token: "Already Used",
 * refused, forgotten). Its answer is kept over `s` when it comes, if `s` is still the stored one,
 * and until then (waits.flight at most) a refresh of `s` joins it (flying), another tab's waits
 * for the lock (locked): a second one sent the used token, and GoTrue, past its 10 s reuse
 * interval, refused it and revoked the new one too.
 */
function rotate(p: Project, s: Session): Promise<Session> {
  const t = s.refresh_token;
  let f = flying.get(t);
  if (!f) {
    const call = authCall(p, 'token?grant_type=refresh_token', { refresh_token: t }, false).then(
      async (n) => (await keep(p, s, n), n),
    );
    f = Promise.race([call, after(waits.flight)]).finally(() => flying.delete(t));
    flying.set(t, f);
  }
  return Promise.race([f, after(waits.fetch)]);
}

/**
 * A session whose token the server did not take (a 401), under the lock a refresh takes. Refreshed
 * first (with `again`): the token may only have expired on the server's clock (PGRST303 "JWT
 * expired", a device clock behind), and forgetting it lost an anonymous visitor's identity for good.
 * Forgotten (and said once) only if that refresh is refused, or without `again` (the new token was
 * not taken either: a rotated secret, an altered token). Returns what is stored now: the new
 * session, null (forgotten), or `s` itself (the auth server could not be reached: kept for the
 * next try); another caller's change meanwhile (refreshed, signed out) is left as it is.
 */
export const refused = (p: Project, s: Session, again = true): Promise<Session | null> => {
  const run = async () => {
    const cur = await loadSession(p);
    if (cur?.access_token !== s.access_token) return cur;
    if (again)
      try {
        return await keep(p, s, await rotate(p, s));
      } catch (e) {
        log('session refresh failed', e);
        if ((e as ApiError).details !== 'refused') return s;
      }
    log('signed out: the server did not take the session');
    return keep(p, s, null);
  };
  // the lock waited out: its holder may be refreshing `s` (another tab's answer on its way), so
  // no second refresh beside it: kept, as when the auth server cannot be reached
  return guarded(p, s, run, async () => (again ? s : run()));
};

/**
 * A read with the visitor's session (core/api.ts rpc, when one is stored), refreshed first when it
 * must be. A token the server does not take (a 401) is refreshed once and the read goes again with
 * the new one; forgotten when the refresh is refused (or the new token is not taken either), the
 * read goes without it: the element loads as a signed-out visitor's; the auth server out of reach,
 * this read goes without it and the session is kept.
 */
export async function read<T>(p: Project, name: string, body: object, again = true): Promise<T> {
  const s = await ensureSession(p, false);
  return call<T>(p, name, body, s?.access_token).catch(async (e: ApiError) => {
    if (!s || e.status !== 401) throw e;
    const n = await refused(p, s, again);
    return n && n !== s ? read<T>(p, name, body, false) : call<T>(p, name, body);
  });
}

/**
 * Signs up an anonymous user; with the token of a solved captcha when the auth server asked for
 * one (past the address's limit, or a project with captcha protection on: `captcha_failed`).
 * Answers once the session is in storage: the write it is made for goes only then, or a visitor
 * who left as it landed lost it (their like counted, not theirs after a reload).
 */
export const signUp = (p: Project, captcha?: string): Promise<Session> =>
  authCall(p, 'signup', captcha ? { gotrue_meta_security: { captcha_token: captcha } } : {}).then(
    async (n) => (saveSession(p, n), await flush(key(p)), n),
  );

/**
 * Signs out: the server is told and the session goes at once (this page and storage), then again
 * under the lock a refresh takes: one still on its way when the visitor logged out saves nothing
 * over it, and a session of the same user stored meanwhile (a refresh that landed first, in
 * another tab) goes too.
 */
export async function signOut(p: Project): Promise<void> {
  const s = getSession(p);
  if (!s) return saveSession(p, null);
  fetch(p.url + '/auth/v1/logout', {
    method: 'POST',
    headers: { apikey: p.key, Authorization: 'Bearer ' + s.access_token },
  }).catch(() => {});
  saveSession(p, null);
  await locked(key(p), async () => {
    if ((await loadSession(p))?.user.id === s.user.id) saveSession(p, null);
  });
}

/**
 * Popup handshake: open {project}/auth/v1/authorize?provider=..&redirect_to=<this page> in a
 * window named POPUP_NAME. Auth redirects back to the host page with the tokens in the fragment;
 * the SDK on that page (see handleAuthReturn) stores the session (same origin, same storage),
 * posts AUTH_MESSAGE to its opener and closes. The opener resolves on the message or on the
 * storage event, whichever comes first.
 */
export function signInWithPopup(
  p: Project,
  provider: 'google' | 'apple',
  /** The popup already opened in the visitor's click (session.ts openPopup), if any. */
  opened?: Window | null,
): Promise<Session | null> {
  const back = location.origin + location.pathname + location.search;
  const url = `${p.url}/auth/v1/authorize?provider=${provider}&redirect_to=${encodeURIComponent(back)}`;
  // this sign-in's state, kept here and in the popup's name (which the popup keeps through the
  // provider's pages): only a return that carries it is taken (handleAuthReturn)
  const state = crypto.getRandomValues(new Uint32Array(4)).join('.');
  try {
    localStorage.setItem(AUTH_STATE, state);
  } catch {
    /* storage blocked: the popup's session could not reach this page anyway */
  }
  const name = POPUP_NAME + ':' + state;
  const w = opened === undefined ? window.open(url, name, 'width=480,height=640') : opened;
  if (w && opened) {
    w.name = name;
    w.location.href = url;
  }
  if (!w) {
    log('popup blocked');
    return Promise.resolve(null);
  }
  return new Promise((resolve) => {
    const done = async () => {
      clearInterval(timer);
      removeEventListener('message', onMsg);
      removeEventListener('storage', onStore);
      const s = await loadSession(p);
      resolve(isSignedIn(s) ? s : null);
    };
    const onMsg = (e: MessageEvent) => {
      if (e.origin === location.origin && e.data && e.data.type === AUTH_MESSAGE) void done();
    };
    const onStore = (e: StorageEvent) => {
      if (e.key === key(p)) void done();
    };
    addEventListener('message', onMsg);
    addEventListener('storage', onStore);
    const timer = setInterval(() => w.closed && void done(), 500);
  });
}

/** Where the state of the sign-in this origin started waits for its return (signInWithPopup). */
const AUTH_STATE = 'reaction-blocks.auth-state';

/**
 * Runs in the popup when Auth has redirected back to the host page. Taken only if this origin
 * started that sign-in: the window's name carries the state kept in storage when the popup opened,
 * used once. Any page can open ours in a window named POPUP_NAME with tokens of its own in the
 * fragment (or a same-site one in a named iframe, without a click): without the state those
 * would replace the visitor's session (login CSRF), so they are dropped.
 */
export function handleAuthReturn(p: Project): boolean {
  if (!isAuthReturn()) return false;
  const q = new URLSearchParams(location.hash.slice(1));
  let access = q.get('access_token');
  const refresh = q.get('refresh_token');
  if (!access && !q.get('error')) return false;
  let ours = false;
  try {
    const state = localStorage.getItem(AUTH_STATE);
    ours = !!state && window.name === POPUP_NAME + ':' + state;
    if (ours) localStorage.removeItem(AUTH_STATE);
  } catch {
    /* storage blocked: nothing started here can be told apart */
  }
  if (!ours) {
    if (access) log('sign-in return not started on this page: ignored');
    access = null;
  } else if (!access || !refresh)
    log('sign-in failed', q.get('error_description') || q.get('error'));
  history.replaceState(null, '', location.pathname + location.search);
  // kept under the lock a refresh takes (one on its way for the session before saves nothing over
  // it), sealed into storage: the opener reads it once it is there
  void locked(key(p), async () => {
    if (access && refresh)
      saveSession(p, sessionFromTokens(access, refresh, Number(q.get('expires_in')) || undefined));
    await flush(key(p));
  }).then(() => {
    try {
      window.opener?.postMessage({ type: AUTH_MESSAGE, ok: !!access }, location.origin);
    } catch {
      /* opener gone (cross-origin-opener-policy): the storage event still reaches it */
    }
    window.close();
  });
  return true;
}
