// Live changes of a block's messages for the owner: Realtime Broadcast on the private topic
// `block:<id>:owner`, which the database sends to on every change of the block's messages, in any
// state (held, hidden); the realtime.messages policies let the block's owner only join it
// (supabase/schemas/realtime.sql). A change names the message;
// the view reads it again. Returns the unsubscribe. The status says whether changes arrive now
// ('live' once the join is accepted): a view reads its list again when it becomes live, so a
// change made while it was joining is not missed.
import type { RealtimeChannel } from '@supabase/realtime-js';
import { realtime } from '../../../../lib/realtime';

export type MessageChange = { type: 'INSERT' | 'UPDATE' | 'DELETE'; id: string };

export type LiveStatus = 'connecting' | 'live' | 'off';

type Listener = (c: MessageChange) => void;
type StatusListener = (s: LiveStatus) => void;

/**
 * Realtime keeps one channel per topic, so every view of one block shares one; it is removed
 * a moment after its last listener left (a view that unmounts and mounts again at once, as React
 * does in development, keeps it).
 */
interface Entry {
  channel: RealtimeChannel;
  listeners: Set<Listener>;
  statusListeners: Set<StatusListener>;
  status: LiveStatus;
  removal?: ReturnType<typeof setTimeout>;
}
const shared = new Map<string, Entry>();

export function subscribeMessages(
  blockId: string,
  onChange: Listener,
  onStatus?: StatusListener,
): () => void {
  let entry = shared.get(blockId);
  if (!entry) {
    const listeners = new Set<Listener>();
    const statusListeners = new Set<StatusListener>();
    const setStatus = (status: LiveStatus) => {
      const current = shared.get(blockId);
      if (!current || current.status === status) return;
      current.status = status;
      for (const l of current.statusListeners) l(status);
    };
    const channel = realtime()
      .channel(`block:${blockId}:owner`, { config: { private: true } })
      .on('broadcast', { event: 'change' }, ({ payload }) => {
        const p = payload as Partial<MessageChange> | undefined;
        if (!p?.id || !p.type) return;
        for (const l of listeners) l({ type: p.type, id: p.id });
      })
      // realtime-js rejoins by itself after an error or a lost socket: SUBSCRIBED again then
      .subscribe((state) => setStatus(state === 'SUBSCRIBED' ? 'live' : 'off'));
    entry = { channel, listeners, statusListeners, status: 'connecting' };
    shared.set(blockId, entry);
  }
  const e = entry;
  clearTimeout(e.removal);
  e.listeners.add(onChange);
  if (onStatus) {
    e.statusListeners.add(onStatus);
    onStatus(e.status);
  }
  return () => {
    e.listeners.delete(onChange);
    if (onStatus) e.statusListeners.delete(onStatus);
    if (e.listeners.size) return;
    e.removal = setTimeout(() => {
      if (e.listeners.size || shared.get(blockId) !== e) return;
      shared.delete(blockId);
      void realtime().removeChannel(e.channel);
    }, 1000);
  };
}
