import { useNavigate } from 'react-router-dom';
import { paths } from '../config/paths';
import { useSession } from './session';
import { invokeFunction } from './supabase';

/** Deletes the signed-in user's account (edge function delete-user). */
export function deleteUser() {
  return invokeFunction<unknown>('delete-user', {});
}

/**
 * Deletes the account, then signs out and goes home. Profile's Remove account: a failed deletion
 * keeps the owner signed in and reaches the caller (the dialog says why; they can retry).
 * Consent's Decline passes `leaveAnyway`: whoever declines the terms leaves, deleted or not (the
 * error still reaches the caller). Once deleted, the session went with the account: it is only
 * forgotten here (the server's sign-out would answer 403 user_not_found).
 */
export function useRemoveAccount({ leaveAnyway = false } = {}) {
  const { signOut } = useSession();
  const navigate = useNavigate();
  const leave = async (deleted: boolean) => {
    await signOut({ deleted });
    navigate(paths.home);
  };
  return async () => {
    try {
      await deleteUser();
    } catch (cause) {
      if (leaveAnyway) await leave(false);
      throw cause;
    }
    await leave(true);
  };
}
