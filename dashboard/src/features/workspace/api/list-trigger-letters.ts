// The owner's letter blocks a form's mail question may send by itself (issue 18), with what keeps
// one from being picked: no letter loaded and saved yet, or no verified sender. RLS: the caller's.
import { useQuery } from '@tanstack/react-query';
import { supabase } from '../../../lib/supabase';

export interface TriggerLetter {
  id: string;
  name: string;
  hasHtml: boolean;
  senderVerified: boolean;
}

export async function listTriggerLetters(signal: AbortSignal): Promise<TriggerLetter[]> {
  const { data, error } = await supabase.rpc('trigger_letter_choices').abortSignal(signal);
  if (error) throw error;
  return (data ?? []).map((row) => ({
    id: row.id,
    name: row.name,
    hasHtml: row.has_html,
    senderVerified: row.sender_verified,
  }));
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
