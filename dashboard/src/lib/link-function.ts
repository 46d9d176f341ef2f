// The calls of the public pages that answer a mail's link (/unsubscribe, /confirm-email) to their
// edge function, with plain fetch: those pages need no session and no supabase-js. Each feature
// checks the token with its function's own schema first, so one that cannot be a token is refused
// in the server's words without a request.
import { env } from './env';
import { failureReason, messageOf } from './errors';

/** The server's answer to a link whose token is forged, spent, expired or malformed. */
export const INVALID_LINK = 'Invalid link';

/**
 * GET /functions/v1/<name>?token=... (no `body`) or a POST of `body` as JSON: the answer's data,
 * or an Error with the server's message (else the HTTP status) that carries the status and the
 * function's code. `signal`: the page's query's, for the GET (lib/use-query.ts).
 */
export async function callLinkFunction<T>(
  name: string,
  token: string,
  body?: object,
  signal?: AbortSignal,
): Promise<T> {
  const url = `${env.supabaseUrl}/functions/v1/${name}`;
  const res = await fetch(body ? url : `${url}?token=${encodeURIComponent(token)}`, {
    method: body ? 'POST' : 'GET',
    headers: body ? { 'content-type': 'application/json' } : undefined,
    body: body ? JSON.stringify(body) : undefined,
    signal,
  });
  const payload = (await res.json().catch(() => null)) as {
    data?: T;
    error?: { code?: string; message?: string };
  } | null;
  if (!res.ok || !payload?.data)
    throw Object.assign(new Error(payload?.error?.message ?? `HTTP ${res.status}`), {
      status: res.status,
      ...(payload?.error?.code ? { code: payload.error.code } : {}),
    });
  return payload.data;
}

/**
 * Why a link's answer failed, in the reader's language: a link that is not one by the page's
 * own text (`invalidText`), anything else through failureReason, never the server's English.
 */
export const linkFailure = (cause: unknown, invalidText: string): string =>
  messageOf(cause) === INVALID_LINK ? invalidText : failureReason(cause);
