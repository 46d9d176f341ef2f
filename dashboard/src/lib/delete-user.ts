import { useNavigate } from 'react-router-dom';
import { paths } from '../config/paths';
import { useSession } from './session';
import { invokeFunction } from './supabase';

/** Deletes the signed-in user's account (edge function delete-user). */
export function deleteUser() {
  return invokeFunction<unknown>('delete-user', {});
}

/**
 * Consent's Decline and profile's Remove account: deletes the account, then signs out and goes
 * home, even when the deletion failed (its error still reaches the caller).
 */
export function useRemoveAccount() {
  const { signOut } = useSession();
  const navigate = useNavigate();
  return async () => {
    try {
      await deleteUser();
    } finally {
      await signOut();
      navigate(paths.home);
    }
  };
}
