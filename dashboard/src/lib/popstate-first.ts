// The page's first popstate listener, so that the leave guard can see a Back before the router
// does. BrowserRouter listens from its first render, and Chromium calls a window's listeners in
// the order they were added (capture or not); this module is loaded by the app's entry
// (main.tsx) before anything renders, so its listener comes first. The router renders a popstate
// at once (React renders it eagerly, before the next listener runs), so a later listener would
// find the workspace and its draft gone already.
type Hold = (event: PopStateEvent) => boolean;

let hold: Hold | null = null;

if (typeof window !== 'undefined')
  window.addEventListener('popstate', (event) => {
    if (hold?.(event)) event.stopImmediatePropagation();
  });

/**
 * `see` is called on each popstate before the router's listener, until the returned function is
 * called; when it answers true, no listener after it (the router's) gets that popstate. One at a
 * time: the workspace on screen.
 */
export function holdPopState(see: Hold): () => void {
  hold = see;
  return () => {
    if (hold === see) hold = null;
  };
}
