import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserTagRow } from '../../../lib/db-types';
import { supabase } from '../../../lib/supabase';
import { blockKeys } from './keys';

export async function listUserTags(userId: string, signal: AbortSignal): Promise<UserTagRow[]> {
  const { data, error } = await supabase
    .from('user_tags')
    .select('id, user_id, label, active')
    .eq('user_id', userId)
    .order('label', { ascending: true })
    .abortSignal(signal);
  if (error) throw error;
  return (data ?? []) as UserTagRow[];
}

export const userTagsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: blockKeys.tags(userId),
    queryFn: ({ signal }) => listUserTags(userId, signal),
  });

export function useUserTags(userId: string | undefined) {
  return useQuery({ ...userTagsQueryOptions(userId ?? ''), enabled: !!userId });
}
