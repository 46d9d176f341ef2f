// Approves responses held by escalation (issue 17; docs/data-model.md "When a shared budget is
// under pressure"): each counts from now, against the owner's monthly quota. All or nothing.
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { z } from 'zod';
import { queryRoots } from '../../../../lib/query-keys';
import { supabase } from '../../../../lib/supabase';
import { resultKeys } from './keys';

export const ZApproveResponsesInput = z.strictObject({ ids: z.array(z.guid()).min(1).max(200) });
export type TApproveResponsesInput = z.infer<typeof ZApproveResponsesInput>;

/** The month cannot take them all: how many are left and how many were to be approved. */
export class QuotaError extends Error {
  constructor(
    message: string,
    readonly left: number,
    readonly approving: number,
  ) {
    super(message);
  }
}

export async function approveResponses(input: TApproveResponsesInput): Promise<number> {
  const { ids } = ZApproveResponsesInput.parse(input);
  const { data, error } = await supabase.rpc('approve_responses', { p_response_ids: ids });
  if (error) {
    if (error.details === 'quota') {
      const hint = z
        .object({ left: z.int(), approving: z.int() })
        .safeParse(JSON.parse(error.hint || '{}'));
      if (hint.success) throw new QuotaError(error.message, hint.data.left, hint.data.approving);
    }
    throw error;
  }
  return z.object({ approved: z.int() }).parse(data).approved;
}

/** Approves through `approve` (injectable); then the summary and the block list's counts move. */
export function useApproveResponses(blockId: string, approve: typeof approveResponses) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: TApproveResponsesInput) => approve(input),
    // the summary (and the list's count with it) is read before the mutation settles
    onSuccess: () => {
      void client.invalidateQueries({ queryKey: queryRoots.blocks });
      return client.invalidateQueries({ queryKey: [...resultKeys.all(blockId), 'summary'] });
    },
  });
}
