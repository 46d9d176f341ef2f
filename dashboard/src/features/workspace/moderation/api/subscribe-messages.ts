// Live changes of a block's messages for the owner: Realtime Broadcast on the private topic
// `block:<id>:owner`, which the database sends to on every change of the block's messages, in any
// state (held, hidden); the realtime.messages policies let the block's owner only join it
// (supabase/migrations/20261124110000_realtime_block_topics.sql). A change names the message;
// the view reads it again. Returns the unsubscribe.
import type { RealtimeChannel } from '@supabase/supabase-js';
import { supabase } from '../../../../lib/supabase';

export type MessageChange = { type: 'INSERT' | 'UPDATE' | 'DELETE'; id: string };

type Listener = (c: MessageChange) => void;

/**
 * supabase-js keeps one channel per topic, so every view of one block shares one; it is removed
 * a moment after its last listener left (a view that unmounts and mounts again at once, as React
 * does in development, keeps it).
 */
const shared = new Map<
  string,
  { channel: RealtimeChannel; listeners: Set<Listener>; removal?: ReturnType<typeof setTimeout> }
>();

export function subscribeMessages(blockId: string, onChange: Listener): () => void {
  let entry = shared.get(blockId);
  if (!entry) {
    const listeners = new Set<Listener>();
    const channel = supabase
      .channel(`block:${blockId}:owner`, { config: { private: true } })
      .on('broadcast', { event: 'change' }, ({ payload }) => {
        const p = payload as Partial<MessageChange> | undefined;
        if (!p?.id || !p.type) return;
        for (const l of listeners) l({ type: p.type, id: p.id });
      })
      .subscribe();
    entry = { channel, listeners };
    shared.set(blockId, entry);
  }
  const e = entry;
  clearTimeout(e.removal);
  e.listeners.add(onChange);
  return () => {
    e.listeners.delete(onChange);
    if (e.listeners.size) return;
    e.removal = setTimeout(() => {
      if (e.listeners.size || shared.get(blockId) !== e) return;
      shared.delete(blockId);
      void supabase.removeChannel(e.channel);
    }, 1000);
  };
}
