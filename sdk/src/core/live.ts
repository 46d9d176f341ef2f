import type { Project } from './config.js';
import { log } from './log.js';
import type { Message } from './types.js';

export type Change =
  | { type: 'INSERT' | 'UPDATE'; row: Message }
  | { type: 'DELETE'; row: Partial<Message> & { id: string } };

/** Table whose rows are the block's messages (postgres_changes, RLS applies). */
export const MESSAGES_TABLE = 'messages';
const HEARTBEAT_MS = 25000;
const RETRY_MS = [1000, 2000, 5000, 10000];

/**
 * Live updates of a block's messages: the part of the Realtime protocol that
 * `@supabase/realtime-js` speaks for one postgres_changes subscription (Phoenix channels,
 * vsn 2.0.0 text frames `[join_ref, ref, topic, event, payload]`, phx_join with the same config,
 * heartbeat every 25 s, rejoin with back-off). realtime-js 2.119 with @supabase/phoenix is 17 KB
 * gzip, which alone breaks the comment budget; this is about 1 KB. Checked against the local
 * stack's Realtime server by `npm run e2e`. Loaded lazily, after the first data shows.
 * Returns an unsubscribe.
 */
export function subscribeMessages(
  p: Project,
  token: () => Promise<string>,
  blockId: string,
  onChange: (c: Change) => void,
): () => void {
  const url = `${p.url.replace(/^http/, 'ws')}/realtime/v1/websocket?apikey=${encodeURIComponent(p.key)}&vsn=2.0.0`;
  const topic = 'realtime:reaction-block:' + blockId;
  let ws: WebSocket | undefined;
  let beat: ReturnType<typeof setInterval> | undefined;
  let retry: ReturnType<typeof setTimeout> | undefined;
  let tries = 0;
  let ref = 0;
  let closed = false;

  const send = (joinRef: string | null, t: string, event: string, payload: object) =>
    ws?.readyState === 1 && ws.send(JSON.stringify([joinRef, String(++ref), t, event, payload]));

  const connect = async () => {
    if (closed) return;
    const access = await token().catch(() => p.key);
    const sock = (ws = new WebSocket(url));
    let joinRef = '';
    sock.onopen = () => {
      joinRef = String(ref + 1);
      send(joinRef, topic, 'phx_join', {
        config: {
          broadcast: { ack: false, self: false },
          presence: { key: '', enabled: false },
          postgres_changes: [
            {
              event: '*',
              schema: 'public',
              table: MESSAGES_TABLE,
              filter: 'block_id=eq.' + blockId,
            },
          ],
          private: false,
        },
        access_token: access,
      });
      beat = setInterval(() => send(null, 'phoenix', 'heartbeat', {}), HEARTBEAT_MS);
    };
    sock.onmessage = (e) => {
      try {
        const [, , t, event, payload] = JSON.parse(String(e.data));
        if (t !== topic) return;
        if (event === 'phx_reply' && payload?.status === 'ok') tries = 0;
        else if (event === 'phx_reply' || event === 'phx_error' || event === 'phx_close') {
          log('realtime', event, payload?.response || payload);
          sock.close();
        } else if (event === 'postgres_changes') {
          const d = payload?.data || {};
          const row = d.type === 'DELETE' ? d.old_record : d.record;
          if (row?.id) onChange({ type: d.type, row });
        }
      } catch (err) {
        log('realtime', err);
      }
    };
    sock.onclose = () => {
      clearInterval(beat);
      if (!closed && ws === sock)
        retry = setTimeout(connect, RETRY_MS[Math.min(tries++, RETRY_MS.length - 1)]);
    };
  };
  void connect();
  return () => {
    closed = true;
    clearTimeout(retry);
    clearInterval(beat);
    ws?.close();
  };
}
