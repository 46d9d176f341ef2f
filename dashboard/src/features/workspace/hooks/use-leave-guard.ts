// Warns before unsaved changes are lost. The app uses BrowserRouter, which has no navigation
// blocker, so three ways out are covered here:
// - closing or reloading the tab, or typing another address: the browser's beforeunload prompt;
// - the workspace's own links out (back to the dashboard): `confirmLeave(go)` asks first;
// - the browser's Back and Forward buttons: the popstate is caught before the router sees it
//   (a capturing listener on window runs first), the history step is undone, and the same
//   question is asked; leaving replays the step.
// Moving between the workspace's modes is not leaving: the draft lives above them.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation } from 'react-router-dom';

/** The router's history index (react-router keeps `idx` in history.state). */
function historyIndex(state: unknown): number | null {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx : null;
}

export function useLeaveGuard(dirty: boolean, stayInside: (pathname: string) => boolean) {
  const [pending, setPending] = useState<(() => void) | null>(null);
  const { key } = useLocation();
  const dirtyRef = useRef(dirty);
  const stayRef = useRef(stayInside);
  // the history index of the location the router shows
  const currentRef = useRef<number | null>(null);
  useEffect(() => {
    dirtyRef.current = dirty;
    stayRef.current = stayInside;
  });
  useEffect(() => {
    currentRef.current = historyIndex(window.history.state);
  }, [key]);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // older browsers show the prompt only when returnValue is set
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty]);

  useEffect(() => {
    // set while we undo a step (its popstate is ours) or replay it (the router's)
    let undoing = false;
    let leaving = false;
    const onPopState = (event: PopStateEvent) => {
      const next = historyIndex(event.state);
      if (undoing) {
        undoing = false;
        event.stopImmediatePropagation();
        return;
      }
      const current = currentRef.current;
      if (leaving || !dirtyRef.current || stayRef.current(window.location.pathname)) {
        leaving = false;
        return;
      }
      if (current === null || next === null) return;
      event.stopImmediatePropagation();
      const delta = current - next;
      undoing = true;
      window.history.go(delta);
      setPending(() => () => {
        leaving = true;
        window.history.go(-delta);
      });
    };
    window.addEventListener('popstate', onPopState, { capture: true });
    return () => {
      window.removeEventListener('popstate', onPopState, { capture: true });
    };
  }, []);

  /** Runs `go` at once when nothing is unsaved, else after the owner confirms. */
  const confirmLeave = useCallback((go: () => void) => {
    if (dirtyRef.current) setPending(() => go);
    else go();
  }, []);

  const stay = useCallback(() => setPending(null), []);
  const leave = useCallback(() => {
    const go = pending;
    setPending(null);
    go?.();
  }, [pending]);

  return { confirming: pending !== null, confirmLeave, stay, leave };
}
