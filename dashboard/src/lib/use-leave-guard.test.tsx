// The leave guard's hold on links (lib/use-leave-guard.ts): while something is unsaved, a plain
// click on any in-app link out of the workspace asks first, wherever the link is; links inside the
// workspace, to other sites, to a new tab or with a modifier key are left alone.
import { fireEvent, screen } from '@testing-library/react';
import { Link } from 'react-router-dom';
import { describe, expect, it } from 'vitest';
import { renderWithProviders } from '../test/utils';
import { useLeaveGuard } from './use-leave-guard';

function Workspace({ dirty }: { dirty: boolean }) {
  const guard = useLeaveGuard(dirty, '/work/1');
  return (
    <>
      <Link to="/profile/plan?from=work#top">Plan</Link>
      <Link to="/work/1/comments">Comments</Link>
      <a href="https://example.com/help">Help</a>
      <Link to="/profile" target="_blank">
        Profile in a new tab
      </Link>
      <Link to="/work/12">Another block</Link>
      {guard.confirming ? (
        <div role="alertdialog" aria-label="Leave?">
          <button type="button" onClick={guard.stay}>
            Stay
          </button>
          <button type="button" onClick={guard.leave}>
            Leave
          </button>
        </div>
      ) : null}
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
