// One page of a block's messages and replies for the owner, newest first, filtered and searched
// (public.moderation_messages, which checks the caller owns the block).
import { z } from 'zod';
import { supabase } from '../../../../lib/supabase';
import { MODERATION_FILTERS, type ModerationMessage } from './types';

/** Messages read at once; the server allows 100. */
export const MODERATION_PAGE_SIZE = 50;

export const ZListModerationInput = z.strictObject({
  blockId: z.guid(),
  filter: z.enum(MODERATION_FILTERS),
  search: z.string().trim().max(200).optional(),
  /** created_at of the last message shown: the next page is older. */
  before: z.string().optional(),
  limit: z.int().min(1).max(100).optional(),
});
export type TListModerationInput = z.infer<typeof ZListModerationInput>;

export async function listModeration(
  input: TListModerationInput,
  signal: AbortSignal,
): Promise<ModerationMessage[]> {
  const { blockId, filter, search, before, limit } = ZListModerationInput.parse(input);
  const { data, error } = await supabase
    .rpc('moderation_messages', {
      p_block_id: blockId,
      p_filter: filter,
      ...(search ? { p_search: search } : {}),
      ...(before ? { p_before: before } : {}),
      p_limit: limit ?? MODERATION_PAGE_SIZE,
    })
    .abortSignal(signal);
  if (error) throw error;
  return (data ?? []) as unknown as ModerationMessage[];
}
