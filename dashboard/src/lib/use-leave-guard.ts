// Warns before unsaved changes are lost. The app uses BrowserRouter, which has no navigation
// blocker, so three ways out are covered here:
// - closing or reloading the tab, or typing another address: the browser's beforeunload prompt;
// - every link in the app that leaves the workspace (the back link, a link to the profile or the
//   plan, in a dialog too): a click listener on the document, in the capture phase so it runs
//   before the router's link handler, holds the click and asks first; links to other sites, in a
//   new tab or with a modifier key are the browser's (beforeunload asks where it must);
// - the browser's Back button: the router handles popstate before the workspace's listeners
//   (Chromium runs window listeners in the order they were added, capture or not), so they
//   cannot stop it. Instead, while there are unsaved changes, a copy of the current history
//   entry (a "guard entry") is on top. Back lands on the page it copies, the same workspace
//   page, so the router stays; the guard entry is pushed again at once and the question is
//   asked. So a Back while asking, or two quick Backs, only ask again, and Stay just closes the
//   question. Leave counts its steps back from wherever it is then to the entry before the
//   workspace was opened (react-router numbers its entries in history.state.idx; a guard entry
//   has its copy's); when that goes nowhere (a new tab: nothing before), it opens the
//   workspace's list instead.
//   When the page below the copy is a mode of this workspace (Edit, Questions, Edit by the links,
//   then the change), Back is not leaving: it goes on to that mode without asking, and the guard
//   entry is pushed again there.
//   Two Backs taken by the browser at once (Chromium sends the second below the workspace
//   before the page has handled the first) would land past the guard entry and its copy, and the
//   router renders a popstate before any later listener runs. So a listener that runs before the
//   router's (lib/popstate-first.ts, loaded by main.tsx) holds a Back that lands outside the
//   workspace while something is unsaved: the router never sees it, the workspace's entry and a
//   guard entry are pushed again on top of where it landed, and the question is asked.
//   Once nothing is unsaved any more, stepping off the guard entry goes back one more entry.
//   The guard entry stays in the forward history after that (Forward, Forward: the second does
//   nothing); taking it out again once back (9033ede) raced with the owner's own Back and
//   Forward and lost drafts, a dead Forward step loses nothing. A guard entry left behind by
//   leaving with a link (Back from there lands on it, or on a mode above it) is taken by the
//   workspace as its own, so the Back after it does not stop on the page it copies.
// Moving between a workspace's modes (the paths under `home` but its audience: isWorkspacePage)
// is not leaving: the draft lives above them. /work/{id}/audience is a page of the dashboard
// (the workspace is not on it), so a link or a Back to it leaves.
// Used by the block workspace and the letter workspace.
import { useCallback, useEffect, useRef, useState } from 'react';
import { useLocation, useNavigate } from 'react-router-dom';
import { isWithin } from '../config/paths';
import { holdPopState } from './popstate-first';

const GUARD_KEY = 'reactionLeaveGuard';

/**
 * The path is a page of the workspace at `home` (`/work/{id}`): Edit and its modes under it, not
 * `/work/{id}/audience`, the block's audience, which app/routes/work.tsx renders in the
 * dashboard's shell instead of the workspace. (Here, not in config/paths: that is in the
 * landing's JS.)
 */
const isWorkspacePage = (pathname: string, home: string) =>
  isWithin(pathname, home) && !isWithin(pathname, `${home}/audience`);

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

/** How long a Leave waits for history.go to land before it takes the history as ending there. */
const LEAVE_LANDS_WITHIN_MS = 1000;

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
  if (url.origin !== window.location.origin || isWorkspacePage(url.pathname, home)) return null;
  return url.pathname + url.search + url.hash;
}

/**
 * `home`: the workspace's path (`/work/{id}`), its modes are paths under it (isWorkspacePage);
 * `list`: where Leave goes when there is no history before the workspace to go back to (opened in
 * a new tab).
 */
export function useLeaveGuard(dirty: boolean, home: string, list: string) {
  const navigate = useNavigate();
  const [pending, setPending] = useState<(() => void) | null>(null);
  const dirtyRef = useRef(dirty);
  const homeRef = useRef(home);
  const listRef = useRef(list);
  // the router's navigate changes with the path: the popstate listeners below stay the same
  // (a listener renewed while a popstate is handled would miss it: Chromium lets React render
  // the router's update, and run its effects, between the router's listener and the next)
  const navigateRef = useRef(navigate);
  const location = useLocation();
  const [opened] = useState(() => ({
    at: historyIndex(window.history.state),
    guard: isGuardEntry(window.history.state),
  }));
  /**
   * The router's index of the workspace's first history entry (opened at it, a guard entry left
   * by the last visit too; or one of its modes below that, stepped back to): entries from there
   * up are the workspace's, the one below it is where leaving goes.
   */
  const openedAt = useRef(opened.at);
  /** A guard entry sits at or below the current history entry (one opened on is this one's). */
  const guarded = useRef(opened.guard);
  /** The router's index of the page the guard entry copies: entries above it are the modes. */
  const guardAt = useRef<number | null>(opened.guard ? opened.at : null);
  /** The workspace's current history entry, to put back when a Back that would leave is held. */
  const here = useRef<Entry | null>(null);
  /** Leave by Back is going back: from history.go until it lands or is taken as going nowhere. */
  const leaving = useRef(false);
  useEffect(() => {
    dirtyRef.current = dirty;
    homeRef.current = home;
    listRef.current = list;
    navigateRef.current = navigate;
  });
  useEffect(() => {
    here.current = currentEntry();
  }, [location]);
  /** Pushes a guard entry unless one is in place. */
  const guard = useCallback(() => {
    if (guarded.current) return;
    guardAt.current = pushGuardEntry();
    guarded.current = true;
  }, []);

  useEffect(() => {
    if (!dirty) return;
    const onBeforeUnload = (event: BeforeUnloadEvent) => {
      // Leave was answered already (Back to another site)
      if (leaving.current) return;
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

  /** Leave, asked by Back: back from where it is now to the entry before the workspace. */
  const leaveByBack = useCallback(() => {
    const state: unknown = window.history.state;
    const now = historyIndex(state);
    const toList = () => navigateRef.current(listRef.current, { replace: true });
    const first = openedAt.current;
    if (now === null || first === null) {
      toList();
      return;
    }
    // a guard entry, and a mode above one, have one entry more below them than their index says
    const above = isGuardEntry(state) || (guardAt.current !== null && now > guardAt.current);
    const steps = now - first + 1 + (above ? 1 : 0);
    leaving.current = true;
    let timer = 0;
    const done = () => {
      window.clearTimeout(timer);
      leaving.current = false;
      window.removeEventListener('popstate', done);
      window.removeEventListener('pagehide', done);
    };
    // added after the router's and the guard's popstate listeners: runs once they have seen it
    window.addEventListener('popstate', done);
    // off to another site
    window.addEventListener('pagehide', done);
    // the workspace was the app's first entry in this tab: history.go goes to another site, or
    // nowhere (then no popstate comes). Otherwise an entry of the app is there to land on, and no
    // timer may race a slow popstate on a busy machine.
    if (first === 0)
      timer = window.setTimeout(() => {
        done();
        toList();
      }, LEAVE_LANDS_WITHIN_MS);
    window.history.go(-steps);
  }, []);

  useEffect(() => {
    const onPopState = (event: PopStateEvent) => {
      if (leaving.current || !isWorkspacePage(window.location.pathname, homeRef.current)) return;
      const at = historyIndex(event.state);
      // a mode of this workspace below its first entry (the workspace opened again above the
      // last visit's entries): the workspace's too, leaving goes below it
      if (at !== null && openedAt.current !== null && at < openedAt.current) openedAt.current = at;
      if (isGuardEntry(event.state)) {
        // one left by the last visit, stepped on from a page above it (or below this visit's, by
        // two Backs at once): this visit's now, so the next Back asks
        const below = at !== null && guardAt.current !== null && at < guardAt.current;
        if (!guarded.current || below) {
          guardAt.current = at;
          guarded.current = true;
        }
        return;
      }
      if (!guarded.current) return;
      // Back from one mode to another opened after the guard entry (Edit, Preview, Edit, Back):
      // still above the guard entry, not leaving
      if (at !== null && guardAt.current !== null && at > guardAt.current) return;
      // stepped back off the guard entry onto the page it copies (or further, two quick Backs)
      const onCopy = at === null || at === guardAt.current;
      if (!dirtyRef.current) {
        guarded.current = false;
        // saved (or changed back) since: the copy is no page of its own, so Back goes on to
        // where the owner meant (without this, the first Back after a Save did nothing)
        if (onCopy) window.history.back();
        return;
      }
      if (onCopy && at !== null && openedAt.current !== null && at > openedAt.current) {
        // the change was made in a mode opened after another (Edit, Questions, Edit, change,
        // Back): the entry below the copy is the other mode, so Back goes on to it and nothing
        // asks; once it lands there (below the guard entry, still guarded), the guard entry is
        // pushed again on top of it
        window.history.back();
        return;
      }
      // the guard entry on top again before anything else can step back
      guarded.current = false;
      guard();
      // Back meant to leave: ask. Else it landed on a mode below the copy (the step above, or
      // two quick Backs): still in the workspace, nothing to ask
      if (onCopy) setPending(() => leaveByBack);
    };
    window.addEventListener('popstate', onPopState);
    return () => window.removeEventListener('popstate', onPopState);
  }, [guard, leaveByBack]);

  useEffect(
    () =>
      holdPopState((event) => {
        if (!dirtyRef.current || leaving.current || here.current === null) return false;
        if (isWorkspacePage(window.location.pathname, homeRef.current)) return false;
        // Back went past the guard entry and the page it copies before the guard could answer:
        // two Backs taken by the browser before the page handled the first (after the first,
        // the guard entry is pushed again, but the second was already headed below the
        // workspace). The router never sees this one, so the workspace stays on screen with
        // the draft; its entry goes back on top of where Back landed, the guard entry above
        // it, and Leave goes to where Back landed.
        const at = historyIndex(event.state);
        const idx = at === null ? null : at + 1;
        window.history.pushState({ ...here.current.state, idx }, '', here.current.href);
        openedAt.current = idx;
        guarded.current = false;
        guard();
        setPending(() => leaveByBack);
        return true;
      }),
    [guard, leaveByBack],
  );

  const stay = useCallback(() => {
    setPending(null);
    // the guard entry is on top already while something is unsaved; this is for safety
    if (dirtyRef.current) guard();
  }, [guard]);
  const leave = useCallback(() => {
    const go = pending;
    setPending(null);
    go?.();
  }, [pending]);

  return { confirming: pending !== null, stay, leave };
}
