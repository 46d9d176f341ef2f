import { supabase } from '../../../lib/supabase';
import { useBlockCountWrite } from './block-count-write';
import { parseInput } from './parse-input';
import type { TDeleteBlockInput } from './schemas';

export type { TDeleteBlockInput };

export async function deleteBlock(input: TDeleteBlockInput) {
  const { id } = await parseInput('ZDeleteBlockInput', input);
  const { error } = await supabase.from('blocks').delete().eq('id', id);
  if (error) throw error;
}

/** Deletes, then reads the list and the profile's block count again. */
export const useDeleteBlock = () => useBlockCountWrite(deleteBlock);
