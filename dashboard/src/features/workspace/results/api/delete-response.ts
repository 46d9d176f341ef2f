// Deletes one response (owners only, by RLS); the database then lowers the block's counters.
import { z } from 'zod';
import i18next from 'i18next';
import { supabase } from '../../../../lib/supabase';

export const ZDeleteResponseInput = z.strictObject({ id: z.guid() });
export type TDeleteResponseInput = z.infer<typeof ZDeleteResponseInput>;

export async function deleteResponse(input: TDeleteResponseInput): Promise<void> {
  const { id } = ZDeleteResponseInput.parse(input);
  // RLS turns a delete the caller may not make into "0 rows", not an error: ask for the deleted
  // id back so that case is reported instead of silently removing the row from the screen.
  const { data, error } = await supabase.from('responses').delete().eq('id', id).select('id');
  if (error) throw error;
  if (!data || data.length === 0) throw new Error(i18next.t('results.notFound'));
}
