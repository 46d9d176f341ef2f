import { z } from 'zod';
import { supabase } from '../../../lib/supabase';

export const ZUpdateBlockTagsInput = z.object({
  id: z.string().min(1),
  tags: z.array(z.string().trim().min(1).max(50)),
});
export type TUpdateBlockTagsInput = z.infer<typeof ZUpdateBlockTagsInput>;

export async function updateBlockTags(input: TUpdateBlockTagsInput) {
  const { id, tags } = ZUpdateBlockTagsInput.parse(input);
  const { error } = await supabase.from('blocks').update({ tags }).eq('id', id);
  if (error) throw error;
}
