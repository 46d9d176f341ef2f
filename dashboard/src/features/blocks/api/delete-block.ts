import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { useSession } from '../../../lib/session';
import { supabase } from '../../../lib/supabase';
import { blockKeys } from './keys';

export const ZDeleteBlockInput = z.object({ id: z.string().min(1) });
export type TDeleteBlockInput = z.infer<typeof ZDeleteBlockInput>;

export async function deleteBlock(input: TDeleteBlockInput) {
  const { id } = ZDeleteBlockInput.parse(input);
  const { error } = await supabase.from('blocks').delete().eq('id', id);
  if (error) throw error;
}

/** Deletes, then reads the list and the profile's block count again. */
export function useDeleteBlock() {
  const client = useQueryClient();
  const { refreshProfile } = useSession();
  return useMutation({
    mutationFn: (input: Parameters<typeof deleteBlock>[0]) => deleteBlock(input),
    onSuccess: () =>
      Promise.all([client.invalidateQueries({ queryKey: blockKeys.all }), refreshProfile()]),
  });
}
