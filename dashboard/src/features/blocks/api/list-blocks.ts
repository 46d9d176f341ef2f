import { queryOptions, useQuery } from '@tanstack/react-query';
import type { BlockRow } from '../../../lib/db-types';
import { readRows } from '../../../lib/read-rows';
import { supabase } from '../../../lib/supabase';
import { blockKeys } from './keys';

/**
 * The counts through their computed fields: exact even while a burst's changes wait for the
 * 5-second fold (supabase/schemas/counters.sql).
 */
export const BLOCK_COLUMNS =
  'id, owner_id, type, name, created_at, response_count:live_response_count, new_response_count:live_new_response_count, tags, deactivated';

/** The owner's blocks, newest first (the card order is applied by sortBlocks). */
export async function listBlocks(ownerId: string, signal: AbortSignal): Promise<BlockRow[]> {
  const rows = await readRows(
    supabase
      .from('blocks')
      .select(BLOCK_COLUMNS)
      .eq('owner_id', ownerId)
      .order('created_at', { ascending: false })
      .abortSignal(signal),
  );
  return rows as BlockRow[];
}

export const blocksQueryOptions = (ownerId: string) =>
  queryOptions({
    queryKey: blockKeys.list(ownerId),
    queryFn: ({ signal }) => listBlocks(ownerId, signal),
    // Counts change with every visitor: read again whenever the list is shown (the cached list
    // shows meanwhile).
    staleTime: 0,
  });

export function useBlocks(ownerId: string | undefined) {
  return useQuery({ ...blocksQueryOptions(ownerId ?? ''), enabled: !!ownerId });
}
