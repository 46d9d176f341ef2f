// Blocks (or unblocks) a writer from one block: their later writes there are refused
// (public.block_writer); hideMessages also hides what they wrote there.
import { z } from 'zod';
import { supabase } from '../../../../lib/supabase';

export const ZBlockWriterInput = z.strictObject({
  blockId: z.guid(),
  userId: z.guid(),
  blocked: z.boolean(),
  hideMessages: z.boolean().optional(),
});
export type TBlockWriterInput = z.infer<typeof ZBlockWriterInput>;

export async function blockWriter(input: TBlockWriterInput): Promise<void> {
  const { blockId, userId, blocked, hideMessages } = ZBlockWriterInput.parse(input);
  const { error } = await supabase.rpc('block_writer', {
    p_block_id: blockId,
    p_user_id: userId,
    p_blocked: blocked,
    p_hide_messages: hideMessages ?? false,
  });
  if (error) throw error;
}
