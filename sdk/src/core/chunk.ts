import { ApiError } from './errors.js';
import { log } from './log.js';

/**
 * A chunk loaded once, when first asked for. A load that failed (offline, a CDN hiccup) is tried
 * again by the next ask (on the CDN with a new address: a browser keeps a failed module import
 * for the page's life, see retryingImports in rollup.config.mjs); the ask that failed rejects
 * with code `chunk`, which the elements show as a failure to reach the server.
 */
export function loadChunk<T>(load: () => Promise<T>): () => Promise<T> {
  let loading: Promise<T> | undefined;
  return () =>
    (loading ??= load().catch((e) => {
      loading = undefined;
      log('could not load', e);
      throw new ApiError('Network error', 'chunk');
    }));
}
