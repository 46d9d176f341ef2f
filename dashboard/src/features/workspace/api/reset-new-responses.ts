// Marks a block's new responses as seen: new_response_count back to 0 (spec: "Resetting new
// responses sets newResponseCount to 0"). The only change owners may make to the counter
// directly; a trigger refuses any other value.
import { z } from 'zod';
import { supabase } from '../../../lib/supabase';

export const ZResetNewResponsesInput = z.guid();

export async function resetNewResponses(blockId: string): Promise<void> {
  const id = ZResetNewResponsesInput.parse(blockId);
  const { error } = await supabase.from('blocks').update({ new_response_count: 0 }).eq('id', id);
  if (error) throw error;
}
