// Deletes one response (owners only, by RLS); the database then lowers the block's counters.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import i18next from 'i18next';
import { queryRoots } from '../../../../lib/query-keys';
import { supabase } from '../../../../lib/supabase';
import type { ResponseRow } from '../types';
import type { TResultsSummary } from './results-summary';
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
 * Deletes `row` through `remove` (the results area's injectable call). The delete shows at once:
 * the cached summary counts one fewer (a held response among the held, as the database counts
 * it), so the list's "N responses" heading agrees with the rows as the row goes; the summary is
 * then read again without being waited for, and the block list's counts are stale.
 */
export function useDeleteResponse(blockId: string, remove: typeof deleteResponse) {
  const client = useQueryClient();
  const summaries = [...resultKeys.all(blockId), 'summary'];
  return useMutation({
    mutationFn: (row: Pick<ResponseRow, 'id' | 'held'>) => remove({ id: row.id }),
    onSuccess: (_done, row) => {
      client.setQueriesData<TResultsSummary>({ queryKey: summaries }, (summary) => {
        if (!summary) return summary;
        const { responses, held } = summary.totals;
        const totals = row.held
          ? { ...summary.totals, held: Math.max(0, held - 1) }
          : { ...summary.totals, responses: Math.max(0, responses - 1) };
        return { ...summary, totals };
      });
      void client.invalidateQueries({ queryKey: queryRoots.blocks });
      void client.invalidateQueries({ queryKey: summaries });
    },
  });
}
