import { queryOptions, useQuery } from '@tanstack/react-query';
import type { UserTagRow } from '../../../lib/db-types';
import { readRows } from '../../../lib/read-rows';
import { supabase } from '../../../lib/supabase';
import { blockKeys } from './keys';

export function listUserTags(userId: string, signal: AbortSignal): Promise<UserTagRow[]> {
  return readRows(
    supabase
      .from('user_tags')
      .select('id, user_id, label, active')
      .eq('user_id', userId)
      .order('label', { ascending: true })
      .abortSignal(signal),
  );
}

export const userTagsQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: blockKeys.tags(userId),
    queryFn: ({ signal }) => listUserTags(userId, signal),
  });

export function useUserTags(userId: string | undefined) {
  return useQuery({ ...userTagsQueryOptions(userId ?? ''), enabled: !!userId });
}
