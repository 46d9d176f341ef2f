// Deletes one response (owners only, by RLS); the database then lowers the block's counters.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import i18next from 'i18next';
import { queryRoots } from '../../../../lib/query-keys';
import { supabase } from '../../../../lib/supabase';
import { resultKeys } from './keys';

export const ZDeleteResponseInput = z.strictObject({ id: z.guid() });
export type TDeleteResponseInput = z.infer<typeof ZDeleteResponseInput>;

export async function deleteResponse(input: TDeleteResponseInput): Promise<void> {
  const { id } = ZDeleteResponseInput.parse(input);
  // RLS turns a delete the caller may not make into "0 rows", not an error: ask for the deleted
  // id back so that case is reported instead of silently removing the row from the screen.
  const { data, error } = await supabase.from('responses').delete().eq('id', id).select('id');
  if (error) throw error;
  if (!data || data.length === 0)
    throw Object.assign(new Error(i18next.t('results.notFound')), { code: 'not_found' });
}

/**
 * Deletes through `remove` (the results area's injectable call); then the summary is read
 * again, and the block list's counts are stale.
 */
export function useDeleteResponse(blockId: string, remove: typeof deleteResponse) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: Parameters<typeof remove>[0]) => remove(input),
    // the summary (and the list's count with it) is read before the mutation settles
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryRoots.blocks });
      return client.invalidateQueries({ queryKey: [...resultKeys.all(blockId), 'summary'] });
    },
  });
}
