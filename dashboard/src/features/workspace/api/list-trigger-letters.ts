// The owner's letter blocks a form's mail question may send by itself (issue 18), with what keeps
// one from being picked: no letter loaded and saved yet, or no verified sender. RLS: the caller's.
import { useQuery } from '@tanstack/react-query';
import type { RpcRow } from '../../../lib/db-types';
import { readRows } from '../../../lib/read-rows';
import { supabase } from '../../../lib/supabase';

/** has_html: a letter loaded and saved; sender_verified: its sender address is verified. */
export type TriggerLetter = RpcRow<'trigger_letter_choices'>;

export function listTriggerLetters(signal: AbortSignal): Promise<TriggerLetter[]> {
  return readRows(supabase.rpc('trigger_letter_choices').abortSignal(signal));
}

export const triggerLetterKeys = {
  all: (ownerId: string) => ['workspace', ownerId, 'trigger-letters'] as const,
};

/** Read when a mail question's editor opens; a letter saved in another tab shows on the next open. */
export function useTriggerLetters(ownerId: string | undefined) {
  return useQuery({
    queryKey: triggerLetterKeys.all(ownerId ?? ''),
    queryFn: ({ signal }) => listTriggerLetters(signal),
    enabled: !!ownerId,
    staleTime: 0,
  });
}
