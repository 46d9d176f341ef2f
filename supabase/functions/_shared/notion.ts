// Notion through its official client (@notionhq/client) with a configurable base URL: Notion's
// API in production, the providers server's Notion fake locally and in tests (NOTION_API_URL).
// The OAuth client (NOTION_CLIENT_ID, NOTION_CLIENT_SECRET) is a Notion public integration whose
// redirect URI is the dashboard's /oauth/notion (docs/self-hosting.md); which origins may receive
// the code is _shared/oauth-state.ts's allowedRedirect.
import { APIResponseError, Client, isNotionClientError, LogLevel } from '@notionhq/client';
import { env, optionalEnv } from './env.ts';
import { providerFetch, unanswered } from './provider-fetch.ts';

/** Notion's API origin (no /v1): NOTION_API_URL, https://api.notion.com by default. */
export function notionApiUrl(): string {
  return optionalEnv('NOTION_API_URL', 'https://api.notion.com').replace(/\/+$/, '');
}

/**
 * A client for one owner's token. The client's own retries are off: the jobs queue retries
 * with its backoff and honours Retry-After for the owner's whole queue, and a retried POST
 * inside the client could write a page twice. Its writes (pages, the token exchange) go out on
 * fresh connections, which the runtime never sends twice (provider-fetch.ts).
 */
export function notionClient(auth?: string): Client {
  return new Client({
    auth,
    baseUrl: notionApiUrl(),
    retry: false,
    timeoutMs: 20_000,
    logLevel: LogLevel.ERROR,
    fetch: providerFetch,
  });
}

export function notionOAuthClient(): {
  clientId: string;
  clientSecret: string;
  authorizeUrl: string;
} {
  return {
    clientId: env('NOTION_CLIENT_ID'),
    clientSecret: env('NOTION_CLIENT_SECRET'),
    authorizeUrl: optionalEnv('NOTION_AUTHORIZE_URL', `${notionApiUrl()}/v1/oauth/authorize`),
  };
}

export type NotionFailure =
  | { kind: 'unauthorized'; message: string }
  | { kind: 'not_found'; message: string }
  | { kind: 'rate_limited'; message: string; retryAfter: number }
  | { kind: 'invalid'; message: string }
  /** Notion could not be reached (provider-fetch.ts unanswered: no connection): it did nothing. */
  | { kind: 'unavailable'; message: string }
  /**
   * No answer (a lost answer, a timeout) or a 5xx: Notion may have done it (a 500 after the page
   * was stored, a proxy's 502 or 504 after Notion took the request).
   */
  | { kind: 'uncertain'; message: string };

function header(headers: unknown, name: string): string | null {
  if (headers && typeof (headers as Headers).get === 'function')
    return (headers as Headers).get(name);
  if (headers && typeof headers === 'object') {
    const entry = Object.entries(headers as Record<string, unknown>).find(
      ([k]) => k.toLowerCase() === name,
    );
    return entry ? String(entry[1]) : null;
  }
  return null;
}

/** Seconds to wait from a Retry-After header (delta seconds or an HTTP date); 1 when absent. */
export function retryAfterSeconds(value: string | null, now = Date.now()): number {
  if (!value) return 1;
  const seconds = Number(value);
  if (Number.isFinite(seconds) && seconds >= 0) return Math.min(Math.ceil(seconds), 3600);
  const date = Date.parse(value);
  return Number.isNaN(date) ? 1 : Math.min(Math.max(1, Math.ceil((date - now) / 1000)), 3600);
}

/** What an error from the client means for the caller. */
export function classifyNotionError(err: unknown): NotionFailure {
  const message = err instanceof Error ? err.message : String(err);
  if (APIResponseError.isAPIResponseError(err)) {
    if (err.status === 401 || err.code === 'unauthorized') return { kind: 'unauthorized', message };
    if (err.status === 404 || err.code === 'object_not_found')
      return { kind: 'not_found', message };
    if (err.status === 403 || err.code === 'restricted_resource')
      return { kind: 'not_found', message };
    if (err.status === 429 || err.code === 'rate_limited') {
      return {
        kind: 'rate_limited',
        message,
        retryAfter: retryAfterSeconds(header(err.headers, 'retry-after')),
      };
    }
    if (err.status >= 500) return { kind: 'uncertain', message };
    return { kind: 'invalid', message };
  }
  if (isNotionClientError(err)) {
    if (err.code === 'notionhq_client_request_timeout') return { kind: 'uncertain', message };
    const status = (err as { status?: number }).status ?? 0;
    if (status === 401) return { kind: 'unauthorized', message };
    if (status === 404) return { kind: 'not_found', message };
    if (status === 429)
      return {
        kind: 'rate_limited',
        message,
        retryAfter: retryAfterSeconds(
          header((err as { headers?: unknown }).headers, 'retry-after'),
        ),
      };
    if (status >= 500) return { kind: 'uncertain', message };
    if (status === 0) return { kind: 'unavailable', message };
    return { kind: 'invalid', message };
  }
  // fetch failed with no answer: nothing reached Notion only if the connection never opened;
  // a connection closed after the request (a lost answer) may have written the page
  if (err instanceof TypeError) {
    const cause = (err as { cause?: { message?: string } }).cause?.message;
    return { kind: unanswered(err), message: cause ? `${message} (${cause})` : message };
  }
  return { kind: 'uncertain', message };
}

/** Plain text of a rich text array. */
export function plainText(value: unknown): string {
  return Array.isArray(value)
    ? value
        .map((r) =>
          r && typeof r === 'object' ? String((r as { plain_text?: string }).plain_text ?? '') : '',
        )
        .join('')
    : '';
}
