import { RealtimeClient } from '@supabase/realtime-js';
import type { Project } from './config.js';
import { log } from './log.js';
import type { Message } from './types.js';

export type Change =
  | { type: 'INSERT' | 'UPDATE'; row: Message }
  | { type: 'DELETE'; row: Partial<Message> & { id: string } };

/** Table whose rows are the block's messages (postgres_changes, RLS applies). */
export const MESSAGES_TABLE = 'messages';

/**
 * Live updates of a block's messages through @supabase/realtime-js. This module is imported
 * lazily, after the first data shows, so it never delays the first paint. Returns an unsubscribe.
 */
export function subscribeMessages(
  p: Project,
  token: string,
  blockId: string,
  onChange: (c: Change) => void,
): () => void {
  const client = new RealtimeClient(p.url.replace(/^http/, 'ws') + '/realtime/v1', {
    params: { apikey: p.key },
  });
  client.setAuth(token).catch((e) => log('realtime auth', e));
  const channel = client
    .channel('reaction-block:' + blockId)
    .on(
      'postgres_changes',
      { event: '*', schema: 'public', table: MESSAGES_TABLE, filter: 'block_id=eq.' + blockId },
      (e) => {
        const row = (e.eventType === 'DELETE' ? e.old : e.new) as Message;
        if (row && row.id) onChange({ type: e.eventType, row } as Change);
      },
    )
    .subscribe((status, err) => {
      if (err) log('realtime', status, err);
    });
  return () => {
    void channel.unsubscribe();
    void client.disconnect();
  };
}
