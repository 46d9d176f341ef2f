// Warns before unsaved changes are lost. The app uses BrowserRouter, which has no navigation
// blocker, so three ways out are covered here:
// - closing or reloading the tab, or typing another address: the browser's beforeunload prompt;
// - every link in the app that leaves the workspace (the back link, a link to the profile or the
//   plan, in a dialog too): a click listener on the document, in the capture phase so it runs
//   before the router's link handler, holds the click and asks first; links to other sites, in a
//   new tab or with a modifier key are the browser's (beforeunload asks where it must);
// - the browser's Back button: the router handles popstate before any listener added later
//   (Chromium runs window listeners in the order they were added, capture or not), so it cannot
//   be stopped. Instead, once there are unsaved changes, a copy of the current history entry is
//   pushed (a "guard entry"). Back then lands on the same workspace page, the router stays, and
//   the question is asked: Stay pushes the guard entry again, Leave goes back to the entry
//   before the workspace was opened (react-router numbers its entries in history.state.idx).
//   Once nothing is unsaved any more, stepping off the guard entry goes back one more entry.
//   Going back past the guard entry would leave it in the forward history: Forward to the page
//   it copies, then Forward onto it, a step where nothing happens. So both of these leave one
//   entry forward, the page right above where they land (goBackPastGuard). A guard entry left
//   behind by leaving with a link (Back from there lands on it, or on a mode above it) is taken
//   by the workspace as its own, so the Back after it does not stop on the page it copies.
// Moving between a workspace's modes (the paths under `home`) is not leaving: the draft lives
// above them.
// Used by the block workspace and the letter workspace.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useNavigate } from 'react-router-dom';
import { isWithin } from '../config/paths';

const GUARD_KEY = 'reactionLeaveGuard';

const isGuardEntry = (state: unknown) =>
  !!state && typeof state === 'object' && (state as Record<string, unknown>)[GUARD_KEY] === true;

function historyIndex(state: unknown): number | null {
  const idx = (state as { idx?: unknown } | null)?.idx;
  return typeof idx === 'number' ? idx : null;
}

/** A history entry: the router's state (without the guard's mark) and the address. */
interface Entry {
  state: Record<string, unknown>;
  href: string;
}

function currentEntry(): Entry {
  const state: unknown = window.history.state;
  const fields =
    state && typeof state === 'object' ? { ...(state as Record<string, unknown>) } : {};
  delete fields[GUARD_KEY];
  return { state: fields, href: window.location.href };
}

/** Pushes the guard entry; answers the router's index of the page it copies (the copy has it too). */
function pushGuardEntry(): number | null {
  const { state, href } = currentEntry();
  // keep the router's own fields (key, idx) so it reads the copy as the same location
  window.history.pushState({ ...state, [GUARD_KEY]: true }, '', href);
  return historyIndex(state);
}

/**
 * Goes back `steps` entries and leaves one entry in the forward history, `next` (the page right
 * above the one it lands on), in place of the pages and the guard entry that were there: the
 * History API drops forward entries only when an entry is pushed, so once back there `next` is
 * pushed again and left by Back. Forward then opens `next` and no guard entry is left to step on.
 */
function goBackPastGuard(steps: number, next: Entry) {
  const from = historyIndex(window.history.state);
  const landed = () => {
    // nothing to rewrite if Back went to another site, or nowhere (then this is a later Back)
    if (from === null || historyIndex(window.history.state) !== from - steps) return;
    window.history.pushState(next.state, '', next.href);
    window.history.back();
  };
  window.addEventListener('popstate', landed, { once: true });
  window.history.go(-steps);
}

/**
 * Where a click on an in-app link goes when it leaves the workspace at `home` (its path, search
 * and hash), or null: not a plain click on a same-site link, or one that stays in the workspace.
 */
function leavingPath(event: MouseEvent, home: string): string | null {
  if (event.defaultPrevented || event.button !== 0) return null;
  if (event.metaKey || event.ctrlKey || event.shiftKey || event.altKey) return null;
  const link = event.target instanceof Element ? event.target.closest('a[href]') : null;
  if (!(link instanceof HTMLAnchorElement) || link.hasAttribute('download')) return null;
  if (link.target && link.target !== '_self') return null;
  const url = new URL(link.href);
  if (url.origin !== window.location.origin || isWithin(url.pathname, home)) return null;
  return url.pathname + url.search + url.hash;
}

/** `home`: the workspace's path (`/work/{id}`); its modes are paths under it. */
export function useLeaveGuard(dirty: boolean, home: string) {
  const navigate = useNavigate();
  const [pending, setPending] = useState<(() => void) | null>(null);
  const dirtyRef = useRef(dirty);
  const homeRef = useRef(home);
  /** The history entry the workspace was opened at (a guard entry left by the last visit, too). */
  const [opened] = useState(() => ({
    ...currentEntry(),
    guard: isGuardEntry(window.history.state),
  }));
  const openedAt = historyIndex(opened.state);
  /** A guard entry sits at or below the current history entry (one opened on is this one's). */
  const guarded = useRef(opened.guard);
  /** The router's index of the page the guard entry copies: entries above it are the modes. */
  const guardAt = useRef<number | null>(opened.guard ? openedAt : null);
  useEffect(() => {
    dirtyRef.current = dirty;
    homeRef.current = home;
  });
  /** Pushes a guard entry unless one is in place. */
  const guard = useCallback(() => {
    if (guarded.current) return;
    guardAt.current = pushGuardEntry();
    guarded.current = true;
  }, []);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      event.preventDefault();
      // older browsers show the prompt only when returnValue is set
      event.returnValue = '';
    };
    window.addEventListener('beforeunload', onBeforeUnload);
    guard();
    return () => window.removeEventListener('beforeunload', onBeforeUnload);
  }, [dirty, guard]);

  useEffect(() => {
    if (!dirty) return;
    const onClick = (event: MouseEvent) => {
      const to = leavingPath(event, homeRef.current);
      if (to === null) return;
      event.preventDefault();
      setPending(() => () => navigate(to));
    };
    document.addEventListener('click', onClick, true);
    return () => document.removeEventListener('click', onClick, true);
  }, [dirty, navigate]);

  useEffect(() => {
    let leaving = false;
    const onPopState = (event: PopStateEvent) => {
      if (leaving || !isWithin(window.location.pathname, homeRef.current)) return;
      if (isGuardEntry(event.state)) {
        // one left by the last visit, stepped on from a page above it: this visit's now
        if (!guarded.current) {
          guardAt.current = historyIndex(event.state);
          guarded.current = true;
        }
        return;
      }
      if (!guarded.current) return;
      // Back from one mode to another opened after the guard entry (Edit, Preview, Edit, Back):
      // still above the guard entry, not leaving
      const at = historyIndex(event.state);
      if (at !== null && guardAt.current !== null && at > guardAt.current) return;
      // stepped back off the guard entry onto the page it copies
      guarded.current = false;
      if (!dirtyRef.current) {
        // saved (or changed back) since: the copy is no page of its own, so Back goes on to
        // where the owner meant (without this, the first Back after a Save did nothing)
        goBackPastGuard(1, currentEntry());
        return;
      }
      setPending(() => () => {
        leaving = true;
        const now = historyIndex(window.history.state);
        const steps = now !== null && openedAt !== null ? Math.max(1, now - openedAt + 1) : 1;
        goBackPastGuard(steps, opened);
      });
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [openedAt, opened]);

  const stay = useCallback(() => {
    setPending(null);
    // a Back that was answered with Stay needs a new guard entry for the next one
    if (dirtyRef.current) guard();
  }, [guard]);
  const leave = useCallback(() => {
    const go = pending;
    setPending(null);
    go?.();
  }, [pending]);

  return { confirming: pending !== null, stay, leave };
}
