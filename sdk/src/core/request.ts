import type { Project } from './config.js';

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
