import { useCallback, useEffect, useState } from 'react';
import type { BlockRow } from '../../../lib/db-types';
import { messageOf } from '../../../lib/errors';
import { supabase } from '../../../lib/supabase';

/**
 * The counts through their computed fields: exact even while a burst's changes wait for the
 * 5-second fold (supabase/migrations/20261124130100_block_live_counts.sql).
 */
export const BLOCK_COLUMNS =
  'id, owner_id, type, name, created_at, response_count:live_response_count, new_response_count:live_new_response_count, tags, deactivated';

/** The owner's blocks, newest first (the card order is applied by sortBlocks). */
export async function listBlocks(ownerId: string): Promise<BlockRow[]> {
  const { data, error } = await supabase
    .from('blocks')
    .select(BLOCK_COLUMNS)
    .eq('owner_id', ownerId)
    .order('created_at', { ascending: false });
  if (error) throw error;
  return (data ?? []) as BlockRow[];
}

export function useBlocks(ownerId: string | undefined) {
  const [blocks, setBlocks] = useState<BlockRow[] | null>(null);
  const [error, setError] = useState<string | null>(null);

  const reload = useCallback(async () => {
    if (!ownerId) return;
    try {
      setBlocks(await listBlocks(ownerId));
      setError(null);
    } catch (cause) {
      console.error('[reaction-dashboard] block list failed', cause);
      setError(messageOf(cause));
      setBlocks((current) => current ?? []);
    }
  }, [ownerId]);

  useEffect(() => {
    // eslint-disable-next-line react-hooks/set-state-in-effect -- loads data for this owner
    void reload();
  }, [reload]);

  return { blocks, error, reload, setBlocks };
}
