import { z } from 'zod';
import { supabase } from '../../../lib/supabase';
import { useBlockCountWrite } from './block-count-write';

export const ZDeleteBlockInput = z.object({ id: z.string().min(1) });
export type TDeleteBlockInput = z.infer<typeof ZDeleteBlockInput>;

export async function deleteBlock(input: TDeleteBlockInput) {
  const { id } = ZDeleteBlockInput.parse(input);
  const { error } = await supabase.from('blocks').delete().eq('id', id);
  if (error) throw error;
}

/** Deletes, then reads the list and the profile's block count again. */
export const useDeleteBlock = () => useBlockCountWrite(deleteBlock);
