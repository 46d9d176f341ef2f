import { ApiError } from './errors.js';
import type { Project } from './config.js';
import { call, request } from './request.js';
import { loadSession } from './session.js';

export { ApiError, call, request };

/**
 * Calls a read RPC (see request) with the visitor's session when there is one (so `me` is right:
 * core/auth.ts read, which loads only then) and the anon key otherwise; `get` reads never use the
 * session.
 */
export const rpc = async <T>(p: Project, name: string, body: object, get = false): Promise<T> =>
  !get && (await loadSession(p))
    ? (await import('./auth.js')).read<T>(p, name, body)
    : call<T>(p, name, body, '', get);

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
