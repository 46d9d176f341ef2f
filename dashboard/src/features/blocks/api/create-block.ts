import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useSession } from '../../../lib/session';
import { invokeFunction } from '../../../lib/supabase';
import { blockKeys } from './keys';
import { parseInput } from './parse-input';
import type { TCreateBlockInput, TCreateBlockResult } from './schemas';

export type { TCreateBlockInput, TCreateBlockResult };

/** Creates a block through the edge function create-block; the database enforces the limit. */
export async function createBlock(input: TCreateBlockInput): Promise<TCreateBlockResult> {
  const body = await parseInput('ZCreateBlockInput', input);
  const data = await invokeFunction<unknown>('create-block', body);
  return parseInput('ZCreateBlockResult', data);
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
