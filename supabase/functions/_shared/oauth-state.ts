// The OAuth pieces every integration shares (Notion, Cafe24):
// - the `state` of an authorisation: who started it, until when, and what it was for (Cafe24:
//   the mall), signed (HMAC-SHA256, _shared/signed-token.ts), so the code that comes back to
//   /oauth/<service> is accepted only for the user who asked, within ten minutes, and only once.
//   Without it, someone could make a signed-in owner connect the attacker's workspace or shop
//   (login CSRF) and collect the owner's responses there; spending it once keeps a state that
//   leaked after use (a browser history, a log) from carrying another code in.
// - the dashboard origins whose /oauth/<service> may receive a code.
import type { SupabaseClient } from '@supabase/supabase-js';
import { INTEGRATION_MESSAGES } from '@reaction-blocks/contracts/schemas';
import { optionalEnv, siteUrl } from './env.ts';
import { dbError, HttpError } from './http.ts';
import { base64url, hmacKey, readClaims, signClaims } from './signed-token.ts';

const STATE_TTL_MS = 10 * 60_000;

/** What a valid state says. */
export interface StateClaims {
  /** Single-use nonce. */
  nonce: string;
  /** Expiry, ms since the epoch. */
  expires: number;
  /** What the authorisation was for (Cafe24: the mall id), as signed. */
  data: string;
}

export async function signState(
  secret: string,
  userId: string,
  now = Date.now(),
  data = '',
): Promise<string> {
  const nonce = base64url(crypto.getRandomValues(new Uint8Array(12)));
  return signClaims(await hmacKey(secret), { u: userId, e: now + STATE_TTL_MS, n: nonce, d: data });
}

/** The claims when `state` was signed with `secret` for `userId` and has not expired; else null. */
export async function readState(
  secret: string,
  state: string,
  userId: string,
  now = Date.now(),
): Promise<StateClaims | null> {
  const claims = (await readClaims(await hmacKey(secret), state)) as {
    u?: unknown;
    e?: unknown;
    n?: unknown;
    d?: unknown;
  } | null;
  if (!claims || claims.u !== userId || typeof claims.e !== 'number' || claims.e <= now)
    return null;
  if (typeof claims.n !== 'string' || claims.n.length < 8) return null;
  return { nonce: claims.n, expires: claims.e, data: typeof claims.d === 'string' ? claims.d : '' };
}

/**
 * Reads a state and spends it (public.spend_oauth_state): the claims the first time, null for a
 * forged, expired or already used state.
 */
export async function spendState(
  db: SupabaseClient,
  secret: string,
  state: string,
  userId: string,
): Promise<StateClaims | null> {
  const claims = await readState(secret, state, userId);
  if (!claims) return null;
  const { data, error, status } = await db.rpc('spend_oauth_state', {
    p_nonce: claims.nonce,
    p_expires_at: new Date(claims.expires).toISOString(),
  });
  if (error) throw dbError(error, status);
  return data === true ? claims : null;
}

/**
 * Whether `redirectUrl` is the dashboard's `/oauth/<service>` page on an allowed origin: SITE_URL
 * and OAUTH_REDIRECT_ORIGINS (comma-separated; `http://127.0.0.1:*` allows any port, for the
 * local stack; NOTION_REDIRECT_ORIGINS, its older name, is read too).
 */
/** 400 invalid_input unless `redirectUrl` is an allowed /oauth/<service> (allowedRedirect). */
export function requireAllowedRedirect(redirectUrl: string, service: string): void {
  if (!allowedRedirect(redirectUrl, service)) {
    throw new HttpError(400, 'invalid_input', INTEGRATION_MESSAGES.invalidRedirect);
  }
}

export function allowedRedirect(redirectUrl: string, service: string): boolean {
  const url = URL.parse(redirectUrl);
  if (!url) return false;
  if (url.pathname !== `/oauth/${service}` || url.search || url.hash) return false;
  const extra = optionalEnv('OAUTH_REDIRECT_ORIGINS', optionalEnv('NOTION_REDIRECT_ORIGINS', ''));
  const patterns = [siteUrl(), ...extra.split(',')]
    .map((s) => s.trim().replace(/\/+$/, ''))
    .filter(Boolean);
  return patterns.some((pattern) => {
    if (pattern.endsWith(':*')) {
      const base = pattern.slice(0, -2);
      return `${url.protocol}//${url.hostname}` === base && url.port !== '';
    }
    return url.origin === pattern;
  });
}

/**
 * A failure of a step after spendState, as what to throw: the state is spent, so a 503 in transit
 * ("try again in 2 s") cannot succeed on retry (400 invalid_state); it says to connect again,
 * without Retry-After. Anything else as it is.
 */
export function afterSpentState(err: unknown): never {
  if (err instanceof HttpError && err.code === 'unavailable')
    throw new HttpError(503, 'connect_again', INTEGRATION_MESSAGES.notSaved);
  throw err;
}
