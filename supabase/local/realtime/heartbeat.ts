// Heartbeats: a socket answers `phoenix` heartbeats; one that sent nothing (not even a heartbeat)
// for a minute is closed, as Phoenix does. The same sweep prunes old rows of realtime.messages
// once an hour (hosted Realtime drops daily partitions).
import type { Conn } from './channel.ts';
import { reply } from './channel.ts';
import type { Context } from './context.ts';
import type { Message } from './protocol.ts';

/** Phoenix closes a socket that sent nothing (not even a heartbeat) for this long. */
export const IDLE_TIMEOUT_MS = 60_000;
const SWEEP_MS = 15_000;
const PRUNE_MS = 3_600_000;

/** A message on the `phoenix` topic: heartbeats are answered, anything else ignored. */
export function phoenix(conn: Conn, msg: Message): void {
  if (msg.event === 'heartbeat') reply(conn, msg, 'ok');
}

/** Starts the sweep; returns its stop. */
export function startSweep(ctx: Context): () => void {
  let lastPrune = 0;
  const timer = setInterval(() => {
    const now = Date.now();
    if (now - lastPrune > PRUNE_MS) {
      lastPrune = now;
      void ctx.capture
        .prune()
        .catch((err: Error) => ctx.log(`pruning realtime.messages: ${err.message}`));
    }
    for (const conn of ctx.registry.conns) {
      if (now - conn.lastSeen > IDLE_TIMEOUT_MS) {
        ctx.log('closing a socket that sent no heartbeat for 60 s');
        conn.ws.terminate();
      }
    }
  }, SWEEP_MS);
  timer.unref();
  return () => clearInterval(timer);
}
