import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { ZCreateBlock, type TCreateBlock } from '@reaction-blocks/contracts/schemas';
import { useSession } from '../../../lib/session';
import { invokeFunction } from '../../../lib/supabase';
import { blockKeys } from './keys';

/** The payload schema shared with the edge function create-block. */
export const ZCreateBlockInput = ZCreateBlock;
export type TCreateBlockInput = TCreateBlock;

export const ZCreateBlockResult = z.object({ blockId: z.string().min(1) }).loose();
export type TCreateBlockResult = z.infer<typeof ZCreateBlockResult>;

/** Creates a block through the edge function create-block; the database enforces the limit. */
export async function createBlock(input: TCreateBlockInput): Promise<TCreateBlockResult> {
  const body = ZCreateBlockInput.parse(input);
  const data = await invokeFunction<unknown>('create-block', body);
  return ZCreateBlockResult.parse(data);
}

/** Creates; the list is stale from then on and the profile's block count is read again. */
export function useCreateBlock() {
  const client = useQueryClient();
  const { refreshProfile } = useSession();
  return useMutation({
    mutationFn: (input: Parameters<typeof createBlock>[0]) => createBlock(input),
    onSuccess: () => {
      // stale, not read now: the owner is on the way to the new block's workspace
      void client.invalidateQueries({ queryKey: blockKeys.all, refetchType: 'none' });
      void refreshProfile();
    },
  });
}
