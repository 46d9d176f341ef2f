// An editor's first read of a block, in one place: the block workspace's and the letter
// workspace's (lib/use-draft-query.ts). Any signed-in user can read published blocks, so the
// owner filter is what keeps another owner's block out of an editor.
import { supabase } from './supabase';

/**
 * The owner's block `blockId` (its `columns`, as `Row`; null when it is not theirs) and its
 * private row (RLS: the owner's), read side by side; not sent once `signal` is aborted.
 */
export function readOwnBlock<Row>(
  blockId: string,
  ownerId: string,
  columns: string,
  signal: AbortSignal,
) {
  return Promise.all([
    supabase
      .from('blocks')
      .select(columns)
      .eq('id', blockId)
      .eq('owner_id', ownerId)
      .abortSignal(signal)
      .maybeSingle<Row>(),
    supabase
      .from('block_private')
      .select('*')
      .eq('block_id', blockId)
      .abortSignal(signal)
      .maybeSingle(),
  ]);
}
