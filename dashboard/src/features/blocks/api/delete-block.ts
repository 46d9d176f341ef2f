import { supabase } from '../../../lib/supabase';
import { useBlockCountWrite } from './block-count-write';
import type { TDeleteBlockInput } from './schemas';

export type { TDeleteBlockInput };

export async function deleteBlock(input: TDeleteBlockInput) {
  const { ZDeleteBlockInput } = await import('./schemas');
  const { id } = ZDeleteBlockInput.parse(input);
  const { error } = await supabase.from('blocks').delete().eq('id', id);
  if (error) throw error;
}

/** Deletes, then reads the list and the profile's block count again. */
export const useDeleteBlock = () => useBlockCountWrite(deleteBlock);
