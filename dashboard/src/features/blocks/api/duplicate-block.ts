import { supabase } from '../../../lib/supabase';
import { useBlockCountWrite } from './block-count-write';
import { parseInput } from './parse-input';
import type { TDuplicateBlockInput } from './schemas';

export type { TDuplicateBlockInput };

/** Copies a block (name + " Copy", counters reset) in one database call. */
export async function duplicateBlock(input: TDuplicateBlockInput): Promise<unknown> {
  const { blockId } = await parseInput('ZDuplicateBlockInput', input);
  const { data, error } = await supabase.rpc('duplicate_block', { p_block_id: blockId });
  if (error) throw error;
  return data;
}

/** Copies, then reads the list and the profile's block count again. */
export const useDuplicateBlock = () => useBlockCountWrite(duplicateBlock);
