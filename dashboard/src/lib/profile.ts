// The owner's profile row, read in one place: the session reads every column, the plan page the
// usage and the letter workspace the quota (RLS: an owner reads only their own row).
import { supabase } from './supabase';

/**
 * The `columns` (PostgREST select syntax, typed from it) of `userId`'s profile row, or null when
 * the user has none (not an owner); with `signal`, not sent (an AbortError) once it is aborted.
 */
export async function readProfile<Columns extends string>(
  userId: string,
  columns: Columns,
  signal?: AbortSignal,
) {
  const read = supabase.from('profiles').select(columns).eq('id', userId);
  const { data, error } = await (signal ? read.abortSignal(signal) : read).maybeSingle();
  if (error) throw error;
  return data;
}
