// The leave guard (lib/use-leave-guard.ts). Its hold on links: while something is unsaved, a plain
// click on any in-app link out of the workspace asks first, wherever the link is; links inside the
// workspace, to other sites, to a new tab or with a modifier key are left alone. Its guard entry
// for the browser's Back (jsdom's session history, with the app's BrowserRouter): a Back while it
// asks, or after Forward, asks again and keeps the draft; Leave goes to the list from wherever it is,
// and to the list by address when there is nothing to go back to.
import { fireEvent, render, screen, waitFor } from '@testing-library/react';
import { useState } from 'react';
import { BrowserRouter, Link, Route, Routes, useLocation } from 'react-router-dom';
import { describe, expect, it, vi } from 'vitest';
import { renderWithProviders } from '../test/utils';
import { useLeaveGuard } from './use-leave-guard';

/** The workspaces' question (WorkspaceLeaveDialog), while the guard asks. */
function LeaveQuestion({ guard }: { guard: ReturnType<typeof useLeaveGuard> }) {
  if (!guard.confirming) return null;
  return (
    <div role="alertdialog" aria-label="Leave?">
      <button type="button" onClick={guard.stay}>
        Stay
      </button>
      <button type="button" onClick={guard.leave}>
        Leave
      </button>
    </div>
  );
}

function Workspace({ dirty }: { dirty: boolean }) {
  const guard = useLeaveGuard(dirty, '/work/1', '/list');
  return (
    <>
      <Link to="/profile/plan?from=work#top">Plan</Link>
      <Link to="/work/1/comments">Comments</Link>
      <a href="https://example.com/help">Help</a>
      <Link to="/profile" target="_blank">
        Profile in a new tab
      </Link>
      <Link to="/work/12">Another block</Link>
      <Link to="/work/1/audience">Audience</Link>
      <LeaveQuestion guard={guard} />
    </>
  );
}

const location = () => screen.getByTestId('location').textContent;
const asking = () => screen.queryByRole('alertdialog', { name: 'Leave?' }) !== null;
/** A click as the browser sends it; fireEvent's default would also do, this names the options. */
const click = (name: string, init: MouseEventInit = {}) =>
  fireEvent.click(screen.getByRole('link', { name }), { button: 0, ...init });

describe('useLeaveGuard on links', () => {
  it('asks before any in-app link leaves unsaved changes; Stay stays, Leave goes there', () => {
    renderWithProviders(<Workspace dirty />, { route: '/work/1' });
    click('Plan');
    expect(asking()).toBe(true);
    expect(location()).toBe('/work/1');
    fireEvent.click(screen.getByRole('button', { name: 'Stay' }));
    expect(asking()).toBe(false);
    expect(location()).toBe('/work/1');
    click('Plan');
    fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
    expect(location()).toBe('/profile/plan?from=work');
  });

  it("asks for another block whose id starts with this one's", () => {
    renderWithProviders(<Workspace dirty />, { route: '/work/1' });
    click('Another block');
    expect(asking()).toBe(true);
  });

  it("asks for the block's audience: under the workspace's path, but not one of its modes", () => {
    renderWithProviders(<Workspace dirty />, { route: '/work/1' });
    click('Audience');
    expect(asking()).toBe(true);
    expect(location()).toBe('/work/1');
  });

  it("lets the workspace's own modes, other sites, new tabs and modified clicks through", () => {
    renderWithProviders(<Workspace dirty />, { route: '/work/1' });
    click('Comments');
    expect(asking()).toBe(false);
    expect(location()).toBe('/work/1/comments');
    const help = screen.getByRole('link', { name: 'Help' });
    // jsdom does not navigate; the click is the browser's (beforeunload asks there)
    expect(fireEvent.click(help)).toBe(true);
    click('Profile in a new tab');
    click('Plan', { ctrlKey: true });
    click('Plan', { metaKey: true });
    expect(asking()).toBe(false);
  });

  it('asks nothing when nothing is unsaved', () => {
    renderWithProviders(<Workspace dirty={false} />, { route: '/work/1' });
    click('Plan');
    expect(asking()).toBe(false);
    expect(location()).toBe('/profile/plan?from=work');
  });
});

/** A workspace whose draft is a checkbox: checked is unsaved. */
function CheckboxWorkspace() {
  const [dirty, setDirty] = useState(false);
  const guard = useLeaveGuard(dirty, '/work/1', '/list');
  return (
    <>
      <label>
        <input type="checkbox" checked={dirty} onChange={(e) => setDirty(e.target.checked)} />
        Changed
      </label>
      <Link to="/profile">Profile</Link>
      <Link to="/work/1/comments">Comments</Link>
      <Link to="/work/1">Edit</Link>
      <LeaveQuestion guard={guard} />
    </>
  );
}

function BrowserApp() {
  const { pathname } = useLocation();
  return (
    <>
      <div data-testid="path">{pathname}</div>
      <Routes>
        <Route
          path="/list"
          element={
            <>
              <Link to="/work/1">Open</Link>
              <Link to="/work/1/audience">Audience</Link>
            </>
          }
        />
        {/* the block's audience (app/routes/work.tsx): the workspace is not on it */}
        <Route path="/work/1/audience" element={<Link to="/work/1">Open</Link>} />
        <Route path="/profile" element={null} />
        <Route path="/work/1/*" element={<CheckboxWorkspace />} />
      </Routes>
    </>
  );
}

describe('useLeaveGuard on Back', () => {
  const path = () => screen.getByTestId('path').textContent;
  const changed = () => screen.findByRole<HTMLInputElement>('checkbox', { name: 'Changed' });
  type From = 'list' | 'audience';
  /** The app in a tab whose only entry is `at`. */
  function renderAt(at: string) {
    window.history.replaceState(null, '', at);
    render(
      <BrowserRouter>
        <BrowserApp />
      </BrowserRouter>,
    );
  }
  /** Opens the workspace from the list, or from the block's audience opened from the list. */
  function open(from: From = 'list') {
    renderAt('/list');
    if (from === 'audience') fireEvent.click(screen.getByRole('link', { name: 'Audience' }));
    fireEvent.click(screen.getByRole('link', { name: 'Open' }));
  }
  /** Opens the workspace (from the list, or from the block's audience) and changes it. */
  async function openAndChange(from: From = 'list') {
    open(from);
    fireEvent.click(await changed());
  }
  /** Answers the guard's question, once it asks. */
  const answer = async (name: 'Stay' | 'Leave') =>
    fireEvent.click(await screen.findByRole('button', { name }));
  /** Answers Leave; it lands on `to`. */
  async function leaveTo(to: string) {
    await answer('Leave');
    await waitFor(() => expect(path()).toBe(to));
  }
  /** A Back the guard holds: it asks. */
  async function backAsks() {
    window.history.back();
    await screen.findByRole('alertdialog', { name: 'Leave?' });
  }
  /** Back, and where it lands. */
  async function backTo(to: string) {
    window.history.back();
    await waitFor(() => expect(path()).toBe(to));
  }
  /** Opens the workspace, changes it, goes to Comments and leaves for the profile by its link. */
  async function leaveByLinkFromComments() {
    await openAndChange();
    fireEvent.click(screen.getByRole('link', { name: 'Comments' }));
    fireEvent.click(screen.getByRole('link', { name: 'Profile' }));
    await leaveTo('/profile');
  }
  /** jsdom traverses in two tasks; a Back asked for before would count from where Forward began. */
  const traversed = () => new Promise((resolve) => setTimeout(resolve, 20));
  /** Still in the workspace on `at` once the traversal is done: nothing asks, the draft kept. */
  async function stillEditing(at: string) {
    await waitFor(() => expect(path()).toBe(at));
    await traversed();
    expect(asking()).toBe(false);
    expect((await changed()).checked).toBe(true);
  }
  /**
   * Back `steps` entries at once, past the guard entry and the page it copies, below the
   * workspace: held, it asks, the workspace's address and the draft kept.
   */
  async function backHeld(steps: number) {
    window.history.go(-steps);
    await screen.findByRole('button', { name: 'Stay' });
    expect(path()).toBe('/work/1');
    expect(window.location.pathname).toBe('/work/1');
    expect((await changed()).checked).toBe(true);
  }
  /**
   * Landed on Edit, still in the workspace: nothing asks, the draft kept; the next Back leaves:
   * it asks, and Leave goes to the list.
   */
  async function onEditThenBackLeaves() {
    await stillEditing('/work/1');
    window.history.back();
    await leaveTo('/list');
  }
  /**
   * From the list: Forward opens the workspace as saved; Forward again steps onto the guard entry
   * left forward (the same page, nothing happens); Back from there is the list.
   */
  async function forwardForwardBack() {
    window.history.forward();
    expect((await changed()).checked).toBe(false);
    window.history.forward();
    await traversed();
    expect(path()).toBe('/work/1');
    expect((await changed()).checked).toBe(false);
    await backTo('/list');
  }
  /** Changed, then a Back that asks; then Forward: it still asks. */
  async function backAsksThenForward() {
    await openAndChange();
    await backAsks();
    window.history.forward();
    await traversed();
  }
  /** Leave with history.go going nowhere: `landed()` checks where the page is; go was called once. */
  async function leaveGoingNowhere(landed: () => Promise<void>) {
    const go = vi.spyOn(window.history, 'go').mockImplementation(() => {});
    try {
      fireEvent.click(screen.getByRole('button', { name: 'Leave' }));
      await landed();
      expect(go).toHaveBeenCalledTimes(1);
    } finally {
      go.mockRestore();
    }
  }

  it('Back and Leave go to the list; Forward opens the workspace as saved', async () => {
    await openAndChange();
    window.history.back();
    await leaveTo('/list');
    await forwardForwardBack();
  });

  it('changed back, Back goes to the list at once; Forward opens it as saved', async () => {
    await openAndChange();
    fireEvent.click(await changed());
    await backTo('/list');
    await forwardForwardBack();
  });

  it('left by a link: Back opens the workspace, the next Back is the list', async () => {
    await openAndChange();
    fireEvent.click(screen.getByRole('link', { name: 'Profile' }));
    await leaveTo('/profile');
    window.history.back();
    expect((await changed()).checked).toBe(false);
    await backTo('/list');
  });

  it('left by a link from another mode: Back, Back, Back is the list', async () => {
    await leaveByLinkFromComments();
    await backTo('/work/1/comments');
    await backTo('/work/1');
    await backTo('/list');
  });

  it('a Back while asking asks again and keeps the draft; Leave then goes to the list', async () => {
    await openAndChange();
    await backAsks();
    window.history.back();
    await traversed();
    expect(path()).toBe('/work/1');
    expect(asking()).toBe(true);
    expect((await changed()).checked).toBe(true);
    await leaveTo('/list');
  });

  it('Back, Forward (still asking), Leave goes to the list', async () => {
    await backAsksThenForward();
    expect(asking()).toBe(true);
    await leaveTo('/list');
  });

  it('Back, Forward, Stay: the next Back asks again, the draft kept', async () => {
    await backAsksThenForward();
    await answer('Stay');
    expect(asking()).toBe(false);
    await backAsks();
    expect(path()).toBe('/work/1');
    expect((await changed()).checked).toBe(true);
  });

  it('Edit, Comments, Edit by the links, then a change: Back is Comments, nothing asks', async () => {
    open();
    fireEvent.click(screen.getByRole('link', { name: 'Comments' }));
    fireEvent.click(screen.getByRole('link', { name: 'Edit' }));
    fireEvent.click(await changed());
    window.history.back();
    await stillEditing('/work/1/comments');
    window.history.back();
    await stillEditing('/work/1');
    // Back from the workspace's first entry leaves: asks
    await backAsks();
    expect(path()).toBe('/work/1');
    await leaveTo('/list');
  });

  it('two Backs past the guard entry before it answers: asks, the draft kept', async () => {
    await openAndChange();
    // both Backs taken by the browser before the page handled the first, so they land below the
    // workspace (Chromium does so with two history.back() in one task; jsdom takes those as one
    // step, so one step of two here)
    await backHeld(2);
    await answer('Stay');
    window.history.back();
    await leaveTo('/list');
    window.history.forward();
    expect((await changed()).checked).toBe(false);
  });

  it('two Backs past the guard entry, Stay, Comments, Back: Edit, nothing asks', async () => {
    await openAndChange();
    window.history.go(-2);
    await answer('Stay');
    // the guard entry is on top again: Back from a mode opened after it is not leaving
    fireEvent.click(screen.getByRole('link', { name: 'Comments' }));
    window.history.back();
    await onEditThenBackLeaves();
  });

  // the audience is no mode of the workspace (the router would unmount it, draft and all); past
  // it, the workspace's entry is put back right above the list, so Leave counts from there
  it.each([
    [2, "the block's audience", '/work/1/audience'],
    [3, 'the list (from Back’s menu)', '/list'],
  ])(
    'from the audience to the workspace, a change, %i Backs at once onto %s: asks; Leave goes there',
    async (steps, _onto, to) => {
      await openAndChange('audience');
      await backHeld(steps);
      await leaveTo(to);
    },
  );

  it('opened above a guard entry left behind, two Backs onto it: Leave goes to the list', async () => {
    await leaveByLinkFromComments();
    // Back to Comments (the workspace opened again, as saved) and a change there
    window.history.back();
    fireEvent.click(await changed());
    // two Backs at once: onto the guard entry left behind on Edit, the last visit's; nothing asks
    window.history.go(-2);
    await onEditThenBackLeaves();
  });

  it('Leave with nothing to go back to (a new tab) opens the list', async () => {
    // a tab opened on the workspace: its first entry
    renderAt('/work/1');
    fireEvent.click(await changed());
    await backAsks();
    // history.go going nowhere, as in a tab opened on the workspace
    await leaveGoingNowhere(() => waitFor(() => expect(path()).toBe('/list')));
  });

  it('Leave from a workspace opened from the list waits for Back to land, however slow', async () => {
    await openAndChange();
    await backAsks();
    // a popstate slower than any timer: the list is reached only by Back itself
    await leaveGoingNowhere(async () => {
      await new Promise((resolve) => setTimeout(resolve, 1500));
      expect(path()).toBe('/work/1');
    });
  });
});
