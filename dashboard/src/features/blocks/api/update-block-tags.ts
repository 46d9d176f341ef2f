import { useMutation, useQueryClient } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';
import { blockKeys } from './keys';
import { parseInput } from './parse-input';
import type { TUpdateBlockTagsInput } from './schemas';

export type { TUpdateBlockTagsInput };

export async function updateBlockTags(input: TUpdateBlockTagsInput) {
  const { id, tags } = await parseInput('ZUpdateBlockTagsInput', input);
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
