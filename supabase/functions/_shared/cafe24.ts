// Cafe24 through a thin typed client (Cafe24 publishes no JavaScript SDK for its Admin API), with
// a configurable base URL: each mall's API at https://{mall_id}.cafe24api.com in production, the
// providers server's Cafe24 fake locally and in tests (CAFE24_API_URL with `{mall_id}` in it).
// OAuth 2.0: the authorise page and the token endpoint (HTTP Basic client credentials, form
// body; a code lives one minute, an access token two hours, a refresh token two weeks, and a
// refresh spends the old refresh token). Admin API: the app's script tags. See docs/cafe24.md.
import { CAFE24_MALL_ID, CAFE24_SCOPES } from '@reaction-blocks/contracts/cafe24';
import { env, optionalEnv } from './env.ts';
import { providerFetch, unanswered } from './provider-fetch.ts';

/** The Admin API version we speak (X-Cafe24-Api-Version). */
const API_VERSION = () => optionalEnv('CAFE24_API_VERSION', '2025-12-01');
const TIMEOUT_MS = 15_000;

export function cafe24ApiUrl(mallId: string): string {
  if (!CAFE24_MALL_ID.test(mallId)) throw new Error('not a mall id');
  return optionalEnv('CAFE24_API_URL', 'https://{mall_id}.cafe24api.com')
    .replace('{mall_id}', mallId)
    .replace(/\/+$/, '');
}

export function cafe24App(): { clientId: string; clientSecret: string } {
  return { clientId: env('CAFE24_CLIENT_ID'), clientSecret: env('CAFE24_CLIENT_SECRET') };
}

/** The mall's authorise page for our app, with the scopes we ask for. */
export function cafe24AuthorizeUrl(mallId: string, redirectUri: string, state: string): string {
  const url = new URL(`${cafe24ApiUrl(mallId)}/api/v2/oauth/authorize`);
  url.searchParams.set('response_type', 'code');
  url.searchParams.set('client_id', cafe24App().clientId);
  url.searchParams.set('state', state);
  url.searchParams.set('redirect_uri', redirectUri);
  url.searchParams.set('scope', CAFE24_SCOPES.join(','));
  return url.href;
}

export interface Cafe24Tokens {
  accessToken: string;
  refreshToken: string;
  /** ISO 8601 (UTC). */
  expiresAt: string;
  refreshTokenExpiresAt: string;
  mallId: string;
  shopNo: number;
  scopes: string[];
  userId: string;
  issuedAt: string;
}

export type Cafe24FailureKind =
  /** The token is not (or no longer) accepted: the app was removed, or the refresh token ran out. */
  | 'unauthorized'
  /** The token lacks a scope. */
  | 'forbidden'
  | 'not_found'
  | 'rate_limited'
  /** Cafe24 answered 5xx, or could not be reached (provider-fetch.ts unanswered): it did nothing. */
  | 'unavailable'
  /** A write with no answer (a lost answer, a timeout): Cafe24 may have done it. */
  | 'uncertain'
  | 'invalid';

export class Cafe24Error extends Error {
  constructor(
    readonly kind: Cafe24FailureKind,
    message: string,
    readonly status = 0,
    /** Seconds to wait before the next call (429). */
    readonly retryAfter = 0,
  ) {
    super(message);
  }
}

/**
 * Cafe24 writes times as Korean local time, often without an offset ("2026-11-26T18:00:21.000");
 * this reads them as such and answers ISO 8601 in UTC.
 */
export function cafe24TimeToIso(value: unknown): string {
  if (typeof value !== 'string' || !value) throw new Cafe24Error('invalid', 'a time is missing');
  const withZone = /(?:Z|[+-]\d{2}:?\d{2})$/.test(value) ? value : `${value}+09:00`;
  const ms = Date.parse(withZone);
  if (Number.isNaN(ms)) throw new Cafe24Error('invalid', `not a time: ${value}`);
  return new Date(ms).toISOString();
}

function retryAfter(res: Response): number {
  const value = Number(res.headers.get('retry-after'));
  // Cafe24's bucket drains two calls a second: a few seconds free a few calls
  return Number.isFinite(value) && value > 0 ? Math.min(Math.ceil(value), 3600) : 5;
}

async function send(url: string, init: RequestInit, idempotent: boolean): Promise<Response> {
  try {
    // a write on a fresh connection: never re-sent by the runtime (provider-fetch.ts)
    return await providerFetch(url, {
      ...init,
      signal: AbortSignal.timeout(TIMEOUT_MS),
      redirect: 'error',
    });
  } catch (err) {
    // a write that got no answer may have been done (a lost answer, a timeout): only a
    // connection that never opened did nothing; a read or an idempotent write is safe to repeat
    const kind = idempotent ? 'unavailable' : unanswered(err);
    const cause = (err as { cause?: { message?: string } })?.cause?.message;
    throw new Cafe24Error(
      kind,
      `Cafe24 did not answer${kind === 'uncertain' ? ' (the call may have been carried out)' : ''}: ${(err as Error)?.message ?? err}${cause ? ` (${cause})` : ''}`,
    );
  }
}

async function errorOf(res: Response): Promise<Cafe24Error> {
  let message = res.statusText || `HTTP ${res.status}`;
  let code = '';
  try {
    const body = (await res.json()) as {
      error?: string | { code?: number; message?: string };
      error_description?: string;
    };
    if (typeof body.error === 'string') {
      code = body.error;
      message = body.error_description ? `${body.error}: ${body.error_description}` : body.error;
    } else if (body.error && typeof body.error === 'object') {
      message = String(body.error.message ?? message);
    }
  } catch {
    // not JSON
  }
  message = message.slice(0, 300);
  if (res.status === 401 || code === 'invalid_grant' || code === 'invalid_token')
    return new Cafe24Error('unauthorized', message, res.status);
  if (res.status === 403) return new Cafe24Error('forbidden', message, res.status);
  if (res.status === 404) return new Cafe24Error('not_found', message, res.status);
  if (res.status === 429)
    return new Cafe24Error('rate_limited', message, res.status, retryAfter(res));
  if (res.status >= 500) return new Cafe24Error('unavailable', message, res.status);
  return new Cafe24Error('invalid', message, res.status);
}

async function tokenCall(mallId: string, form: Record<string, string>): Promise<Cafe24Tokens> {
  const app = cafe24App();
  const res = await send(
    `${cafe24ApiUrl(mallId)}/api/v2/oauth/token`,
    {
      method: 'POST',
      headers: {
        authorization: `Basic ${btoa(`${app.clientId}:${app.clientSecret}`)}`,
        'content-type': 'application/x-www-form-urlencoded',
      },
      body: new URLSearchParams(form).toString(),
    },
    // a code or refresh token is spent by the call: never sent twice
    false,
  );
  if (!res.ok) throw await errorOf(res);
  const body = (await res.json()) as Record<string, unknown>;
  if (typeof body.access_token !== 'string' || typeof body.refresh_token !== 'string')
    throw new Cafe24Error('invalid', 'the token answer has no tokens');
  return {
    accessToken: body.access_token,
    refreshToken: body.refresh_token,
    expiresAt: cafe24TimeToIso(body.expires_at),
    refreshTokenExpiresAt: cafe24TimeToIso(body.refresh_token_expires_at),
    mallId: String(body.mall_id ?? ''),
    shopNo: Number(body.shop_no ?? 1) || 1,
    scopes: Array.isArray(body.scopes) ? body.scopes.map(String) : [],
    userId: String(body.user_id ?? ''),
    issuedAt: body.issued_at ? cafe24TimeToIso(body.issued_at) : new Date().toISOString(),
  };
}

/** The code /oauth/cafe24 received, for tokens (within the code's minute). */
export const exchangeCafe24Code = (mallId: string, code: string, redirectUri: string) =>
  tokenCall(mallId, { grant_type: 'authorization_code', code, redirect_uri: redirectUri });

/** New tokens for a refresh token (which Cafe24 then no longer accepts). */
export const refreshCafe24Tokens = (mallId: string, refreshToken: string) =>
  tokenCall(mallId, { grant_type: 'refresh_token', refresh_token: refreshToken });

export interface ScriptTag {
  script_no: string;
  src: string;
  display_location: string[];
  integrity?: string | null;
  shop_no?: number;
}

export interface ScriptTagInput {
  src: string;
  display_location: string[];
  integrity: string | null;
}

/** The Admin API's script tags of our app in one mall. */
export function cafe24ScriptTags(mallId: string, accessToken: string, shopNo = 1) {
  const base = `${cafe24ApiUrl(mallId)}/api/v2/admin/scripttags`;
  const call = async (path: string, method: string, body?: unknown) => {
    const res = await send(
      `${base}${path}`,
      {
        method,
        headers: {
          authorization: `Bearer ${accessToken}`,
          'content-type': 'application/json',
          'x-cafe24-api-version': API_VERSION(),
        },
        body: body === undefined ? undefined : JSON.stringify(body),
      },
      method === 'GET' || method === 'DELETE' || method === 'PUT',
    );
    if (!res.ok) throw await errorOf(res);
    return (await res.json()) as Record<string, unknown>;
  };
  const request = (tag: ScriptTagInput) => ({
    src: tag.src,
    display_location: tag.display_location,
    ...(tag.integrity ? { integrity: tag.integrity } : {}),
  });
  return {
    async list(): Promise<ScriptTag[]> {
      const body = await call(`?shop_no=${shopNo}`, 'GET');
      return Array.isArray(body.scripttags) ? (body.scripttags as ScriptTag[]) : [];
    },
    async create(tag: ScriptTagInput): Promise<ScriptTag> {
      const body = await call('', 'POST', { shop_no: shopNo, request: request(tag) });
      return body.scripttag as ScriptTag;
    },
    async update(scriptNo: string, tag: ScriptTagInput): Promise<ScriptTag> {
      const body = await call(`/${encodeURIComponent(scriptNo)}`, 'PUT', {
        shop_no: shopNo,
        request: { ...request(tag), integrity: tag.integrity ?? '' },
      });
      return body.scripttag as ScriptTag;
    },
    async remove(scriptNo: string): Promise<void> {
      try {
        await call(`/${encodeURIComponent(scriptNo)}?shop_no=${shopNo}`, 'DELETE');
      } catch (err) {
        // already gone is what removing wants
        if (!(err instanceof Cafe24Error && err.kind === 'not_found')) throw err;
      }
    },
  };
}
