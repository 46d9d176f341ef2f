import { z } from 'zod';
import { supabase } from '../../../lib/supabase';

export const ZDeleteBlockInput = z.object({ id: z.string().min(1) });
export type TDeleteBlockInput = z.infer<typeof ZDeleteBlockInput>;

export async function deleteBlock(input: TDeleteBlockInput) {
  const { id } = ZDeleteBlockInput.parse(input);
  const { error } = await supabase.from('blocks').delete().eq('id', id);
  if (error) throw error;
}
