import { invokeFunction } from './supabase';

/** Shared by consent (Decline) and profile (Remove account). Deletes the signed-in user's account (edge function delete-user). */
export function deleteUser() {
  return invokeFunction<unknown>('delete-user', {});
}
