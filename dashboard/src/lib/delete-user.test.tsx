import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '../config/paths';
import { renderWithProviders, signedInSession } from '../test/utils';
import { useRemoveAccount } from './delete-user';
import { invokeFunction } from './supabase';

vi.mock('./supabase', () => ({ supabase: {}, invokeFunction: vi.fn() }));

function RemoveButton({
  onError,
  leaveAnyway,
}: {
  onError: (cause: unknown) => void;
  leaveAnyway?: boolean;
}) {
  const removeAccount = useRemoveAccount({ leaveAnyway });
  return (
    <button type="button" onClick={() => void removeAccount().catch(onError)}>
      Remove
    </button>
  );
}

async function remove(outcome: 'deleted' | 'refused', leaveAnyway?: boolean) {
  vi.mocked(invokeFunction).mockReset();
  if (outcome === 'deleted') vi.mocked(invokeFunction).mockResolvedValue({});
  else vi.mocked(invokeFunction).mockRejectedValue(new Error('Could not delete'));
  const signOut = vi.fn(async (_options?: { deleted?: boolean }) => {});
  const onError = vi.fn();
  const view = renderWithProviders(<RemoveButton onError={onError} leaveAnyway={leaveAnyway} />, {
    route: '/profile',
    session: signedInSession({ signOut }),
  });
  await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove' })));
  expect(invokeFunction).toHaveBeenCalledWith('delete-user', {});
  return { signOut, onError, location: screen.getByTestId('location').textContent, view };
}

describe('useRemoveAccount', () => {
  it('deletes the account, then signs out (here only: the session went with it) and goes home', async () => {
    for (const leaveAnyway of [false, true]) {
      const { signOut, onError, location, view } = await remove('deleted', leaveAnyway);
      expect(signOut).toHaveBeenCalledTimes(1);
      expect(signOut).toHaveBeenCalledWith({ deleted: true });
      expect(location).toBe(paths.home);
      expect(onError).not.toHaveBeenCalled();
      view.unmount();
    }
  });

  it('keeps the owner signed in where they were when the deletion fails, and passes the error on', async () => {
    const { signOut, onError, location } = await remove('refused');
    expect(signOut).not.toHaveBeenCalled();
    expect(location).toBe('/profile');
    expect(onError).toHaveBeenCalledWith(new Error('Could not delete'));
  });

  it('leaves anyway when asked (consent Decline), still passing the error on', async () => {
    const { signOut, onError, location } = await remove('refused', true);
    expect(signOut).toHaveBeenCalledTimes(1);
    // the account is still there: its session is ended at the server too
    expect(signOut).toHaveBeenCalledWith({ deleted: false });
    expect(location).toBe(paths.home);
    expect(onError).toHaveBeenCalledWith(new Error('Could not delete'));
  });
});
