import { ensureSession } from './auth.js';
import { ApiError } from './errors.js';

export { ApiError };
import type { Project } from './config.js';

/**
 * Calls POST {project}/rest/v1/rpc/{name}. Reads use the visitor's session when there is one
 * (so `me` is right) and the anon key otherwise; writes create the anonymous user first.
 */
export async function rpc<T>(p: Project, name: string, body: object, write = false): Promise<T> {
  if (!p.url || !p.key) throw new ApiError('Missing project-url or anon-key', 'config');
  const s = await ensureSession(p, write);
  let res: Response;
  try {
    res = await fetch(`${p.url}/rest/v1/rpc/${name}`, {
      method: 'POST',
      headers: {
        apikey: p.key,
        Authorization: 'Bearer ' + (s?.access_token || p.key),
        'Content-Type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  } catch {
    throw new ApiError('Network error', 'network');
  }
  return answer<T>(res);
}

/**
 * The request of a cacheable read: GET {project}/rest/v1/rpc/{name}?{params}, with the anon key
 * only (never the visitor's session), so every visitor sends the same request and a shared cache
 * (a CDN) may answer it. Used for the public part of the block view (get_block_public).
 */
export function publicRequest(
  p: Project,
  name: string,
  params: Record<string, string>,
): { url: string; init: RequestInit } {
  return {
    url: `${p.url}/rest/v1/rpc/${name}?${new URLSearchParams(params)}`,
    init: {
      method: 'GET',
      headers: { apikey: p.key, Authorization: 'Bearer ' + p.key, Accept: 'application/json' },
    },
  };
}

/** Calls a cacheable read (see publicRequest). */
export async function rpcGet<T>(
  p: Project,
  name: string,
  params: Record<string, string>,
): Promise<T> {
  if (!p.url || !p.key) throw new ApiError('Missing project-url or anon-key', 'config');
  const { url, init } = publicRequest(p, name, params);
  let res: Response;
  try {
    res = await fetch(url, init);
  } catch {
    throw new ApiError('Network error', 'network');
  }
  return answer<T>(res);
}

/** The JSON of an answer, or its error as an ApiError (PostgREST's message, code, details). */
async function answer<T>(res: Response): Promise<T> {
  const text = await res.text();
  let json: unknown = null;
  try {
    json = text ? JSON.parse(text) : null;
  } catch {
    /* not JSON */
  }
  if (!res.ok) {
    const e = (json || {}) as { message?: string; code?: string; details?: string };
    throw new ApiError(
      e.message || res.statusText || 'Request failed',
      e.code || String(res.status),
      e.details || '',
    );
  }
  return json as T;
}

export const timezone = (): string => {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
};
