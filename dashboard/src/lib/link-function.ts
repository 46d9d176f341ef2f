// The calls of the public pages that answer a mail's link (/unsubscribe, /confirm-email) to their
// edge function, with plain fetch: those pages need no session and no supabase-js. Each feature
// checks the token with its function's own schema first, so one that cannot be a token is refused
// in the server's words without a request.
import { env } from './env';

/** The server's answer to a link whose token is forged, spent, expired or malformed. */
export const INVALID_LINK = 'Invalid link';

/**
 * GET /functions/v1/<name>?token=... (no `body`) or a POST of `body` as JSON: the answer's data,
 * or an Error with the server's message (else the HTTP status) that carries the status.
 */
export async function callLinkFunction<T>(name: string, token: string, body?: object): Promise<T> {
  const url = `${env.supabaseUrl}/functions/v1/${name}`;
  const res = await fetch(body ? url : `${url}?token=${encodeURIComponent(token)}`, {
    method: body ? 'POST' : 'GET',
    headers: body ? { 'content-type': 'application/json' } : undefined,
    body: body ? JSON.stringify(body) : undefined,
  });
  const payload = (await res.json().catch(() => null)) as {
    data?: T;
    error?: { message?: string };
  } | null;
  if (!res.ok || !payload?.data)
    throw Object.assign(new Error(payload?.error?.message ?? `HTTP ${res.status}`), {
      status: res.status,
    });
  return payload.data;
}
