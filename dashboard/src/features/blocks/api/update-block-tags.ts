import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { supabase } from '../../../lib/supabase';
import { blockKeys } from './keys';

// Tags are the one block setting written straight through PostgREST (everything else goes through
// save-block); the database holds them to this same rule (blocks.tags check constraints).
export const ZUpdateBlockTagsInput = z.object({
  id: z.string().min(1),
  tags: z.array(z.string().trim().min(1).max(50)).max(50),
});
export type TUpdateBlockTagsInput = z.infer<typeof ZUpdateBlockTagsInput>;

export async function updateBlockTags(input: TUpdateBlockTagsInput) {
  const { id, tags } = ZUpdateBlockTagsInput.parse(input);
  const { error } = await supabase.from('blocks').update({ tags }).eq('id', id);
  if (error) throw error;
}

export function useUpdateBlockTags() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Parameters<typeof updateBlockTags>[0]) => updateBlockTags(input),
    onSuccess: () => client.invalidateQueries({ queryKey: blockKeys.all }),
  });
}
