import { act, fireEvent, screen } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { paths } from '../config/paths';
import { renderWithProviders, signedInSession } from '../test/utils';
import { useRemoveAccount } from './delete-user';
import { invokeFunction } from './supabase';

vi.mock('./supabase', () => ({ supabase: {}, invokeFunction: vi.fn() }));

function RemoveButton({ onError }: { onError: (cause: unknown) => void }) {
  const removeAccount = useRemoveAccount();
  return (
    <button type="button" onClick={() => void removeAccount().catch(onError)}>
      Remove
    </button>
  );
}

describe('useRemoveAccount', () => {
  it('deletes the account, then signs out and goes home, even when the deletion fails', async () => {
    for (const outcome of ['deleted', 'refused'] as const) {
      vi.mocked(invokeFunction).mockReset();
      if (outcome === 'deleted') vi.mocked(invokeFunction).mockResolvedValue({});
      else vi.mocked(invokeFunction).mockRejectedValue(new Error('Could not delete'));
      const signOut = vi.fn(async () => {});
      const onError = vi.fn();
      const { unmount } = renderWithProviders(<RemoveButton onError={onError} />, {
        route: '/profile',
        session: signedInSession({ signOut }),
      });
      await act(async () => fireEvent.click(screen.getByRole('button', { name: 'Remove' })));
      expect(invokeFunction).toHaveBeenCalledWith('delete-user', {});
      expect(signOut).toHaveBeenCalledTimes(1);
      expect(screen.getByTestId('location').textContent).toBe(paths.home);
      expect(onError).toHaveBeenCalledTimes(outcome === 'refused' ? 1 : 0);
      unmount();
    }
  });
});
