import type { Project } from './config.js';
import { ApiError } from './errors.js';

/**
 * The request of an RPC: POST {project}/rest/v1/rpc/{name} with a JSON body and the visitor's
 * token (or the anon key); with `get`, a cacheable read: GET with the body as query parameters
 * and the anon key only (never the visitor's session), so every visitor sends the same request
 * and a shared cache (a CDN) may answer it (get_block_public).
 */
export function request(
  p: Project,
  name: string,
  body: object,
  token = '',
  get = false,
): [string, RequestInit] {
  const url = `${p.url}/rest/v1/rpc/${name}`;
  const headers = { apikey: p.key, Authorization: 'Bearer ' + (token || p.key) };
  return get
    ? [`${url}?${new URLSearchParams(body as Record<string, string>)}`, { headers }]
    : [
        url,
        {
          method: 'POST',
          headers: { ...headers, 'Content-Type': 'application/json' },
          body: JSON.stringify(body),
        },
      ];
}

/**
 * Calls an RPC with `token` (the visitor's access token; none: the anon key) and reads its answer;
 * a refusal is an ApiError with PostgREST's code, message and details, and its HTTP status.
 */
export async function call<T>(
  p: Project,
  name: string,
  body: object,
  token = '',
  get = false,
): Promise<T> {
  if (!p.url || !p.key) throw new ApiError('Missing project-url or anon-key', 'config');
  let res: Response;
  try {
    res = await fetch(...request(p, name, body, token, get));
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
      { status: res.status },
    );
  }
  return json as T;
}
