// Live changes of a block's messages for the owner: Realtime postgres_changes on
// public.messages, filtered by block; RLS lets the owner see every state (held, hidden).
// Returns the unsubscribe.
import { supabase } from '../../../../lib/supabase';

export type MessageChange = { type: 'INSERT' | 'UPDATE' | 'DELETE'; id: string };

export function subscribeMessages(
  blockId: string,
  onChange: (c: MessageChange) => void,
): () => void {
  const channel = supabase
    .channel(`moderation:${blockId}:${Math.random().toString(36).slice(2)}`)
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: 'messages', filter: `block_id=eq.${blockId}` },
      (payload) => {
        const row = (payload.eventType === 'DELETE' ? payload.old : payload.new) as { id?: string };
        if (row?.id) onChange({ type: payload.eventType, id: row.id });
      },
    )
    .subscribe();
  return () => {
    void supabase.removeChannel(channel);
  };
}
