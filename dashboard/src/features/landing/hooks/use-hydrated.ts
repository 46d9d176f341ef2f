import { useSyncExternalStore } from 'react';

const subscribe = () => () => {};

/**
 * False when rendering a page at build time and while the browser hydrates it, true in every
 * other render. What differs between the build and the visit (the URL's query, runtime
 * configuration from /env.js) waits for it, so hydration finds the markup it expects and React
 * then updates the page once.
 */
export function useHydrated(): boolean {
  return useSyncExternalStore(
    subscribe,
    () => true,
    () => false,
  );
}
