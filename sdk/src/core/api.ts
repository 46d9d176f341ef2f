import { ApiError } from './errors.js';
import type { Project } from './config.js';
import { request } from './request.js';
import { loadSession, type Session } from './session.js';

export { ApiError, request };

/**
 * The visitor's session with a fresh token for a call, or null. Without a stored session a read
 * goes with the anon key and loads no auth code; a write makes the anonymous user, and a stored
 * session may need a refresh: only then core/auth.ts loads (with the writer's code, mostly).
 */
async function sessionFor(p: Project, write: boolean): Promise<Session | null> {
  if (!write && !(await loadSession(p))) return null;
  return (await import('./auth.js')).ensureSession(p, write);
}

/**
 * Calls an RPC (see request). Reads use the visitor's session when there is one (so `me` is
 * right) and the anon key otherwise; writes create the anonymous user first; `get` reads never
 * use the session.
 */
export async function rpc<T>(
  p: Project,
  name: string,
  body: object,
  write = false,
  get = false,
): Promise<T> {
  if (!p.url || !p.key) throw new ApiError('Missing project-url or anon-key', 'config');
  const s = get ? null : await sessionFor(p, write);
  let res: Response;
  try {
    res = await fetch(...request(p, name, body, s?.access_token, get));
  } catch {
    throw new ApiError('Network error', 'network');
  }
  const text = await res.text();
  let json: unknown = null;
  // the database's 429s say their wait in the hint, as JSON: a page on another origin cannot
  // read Retry-After (hosted Supabase does not expose it)
  let said: object | undefined;
  try {
    json = text ? JSON.parse(text) : null;
    said = JSON.parse((json as { hint: string }).hint);
  } catch {
    /* not JSON, no hint, or a hint in words */
  }
  if (!res.ok) {
    const e = (json || {}) as { message?: string; code?: string; details?: string };
    throw Object.assign(
      new ApiError(
        e.message || res.statusText || 'Request failed',
        e.code || String(res.status),
        e.details || '',
      ),
      said,
    );
  }
  return json as T;
}

/**
 * The page argument of a call about a view's thread (comment, qna, like on a page key); none for
 * the block's own thread, so its requests (and their cache keys) stay as they were.
 */
export const pageOf = (block: { page_key?: string } | undefined): { p_page_key?: string } =>
  block?.page_key ? { p_page_key: block.page_key } : {};

export const timezone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
};
