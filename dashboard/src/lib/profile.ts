// The owner's profile row, read in one place: the session reads every column, the plan page the
// usage and the letter workspace the quota (RLS: an owner reads only their own row).
import { supabase } from './supabase';

/**
 * The `columns` (PostgREST select syntax, typed from it) of `userId`'s profile row, or null when
 * the user has none (not an owner).
 */
export async function readProfile<Columns extends string>(userId: string, columns: Columns) {
  const { data, error } = await supabase
    .from('profiles')
    .select(columns)
    .eq('id', userId)
    .maybeSingle();
  if (error) throw error;
  return data;
}
