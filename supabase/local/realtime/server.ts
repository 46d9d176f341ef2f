// A local stand-in for Supabase Realtime: the part of the Phoenix channel protocol that
// @supabase/realtime-js speaks on /realtime/v1/websocket. postgres_changes (with RLS checked per
// subscriber), broadcast (self/ack, JSON and binary frames), presence (track/untrack,
// presence_state/presence_diff), private channels authorised as hosted Realtime does (the
// SELECT/INSERT policies of realtime.messages, asked once per join and per new token, under the
// joining user's role and claims with realtime.topic() set), and broadcasts from the database
// (realtime.send, through the local stand-in's notification). Production uses hosted Supabase
// Realtime.
//
// The parts, one module each: protocol.ts (frames), channel.ts and registry.ts (who is joined
// where, fan-out), joins.ts (tokens, authorisation, subscriptions), broadcast.ts and
// http-broadcast.ts, postgres-changes.ts, presence.ts, heartbeat.ts, socket.ts (routing a
// socket's frames); changes.ts is the database side. This file wires them together.
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { WebSocketServer } from 'ws';
import { Broadcasts } from './broadcast.ts';
import type { Channel } from './channel.ts';
import { startCapture, type Capture, type DbBroadcast } from './changes.ts';
import type { Context } from './context.ts';
import { startSweep } from './heartbeat.ts';
import { HttpBroadcast } from './http-broadcast.ts';
import { Joins } from './joins.ts';
import { PostgresChanges } from './postgres-changes.ts';
import { Presence } from './presence.ts';
import type { Vsn } from './protocol.ts';
import { Registry } from './registry.ts';
import { Sockets } from './socket.ts';

export interface RealtimeServerOptions {
  /** superuser locally: installs the capture triggers and switches roles for the RLS checks */
  databaseUrl: string;
  jwtSecret: string;
  log?: (service: string, line: string) => void;
}

export interface RealtimeServer {
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string): void;
  /**
   * HTTP broadcast (http-broadcast.ts): POST /api/broadcast and
   * POST /api/broadcast/:topic/events/:event. `path` is the part after /realtime/v1.
   */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  close(): Promise<void>;
}

const refuse = (socket: Duplex, status: string) =>
  socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);

/** The protocol version a socket asks for (`vsn`, 1.0.0 by default); undefined when unknown. */
function protocolOf(url: URL): Vsn | undefined {
  const requested = url.searchParams.get('vsn') ?? '1.0.0';
  if (requested.startsWith('2.')) return '2.0.0';
  if (requested.startsWith('1.')) return '1.0.0';
  return undefined;
}

export async function createRealtimeServer(opts: RealtimeServerOptions): Promise<RealtimeServer> {
  const log = (line: string) => opts.log?.('realtime', line);
  let closing = false;
  // built once the capture (which the context holds) has started; it calls them from then on
  const parts: { changes?: PostgresChanges; broadcasts?: Broadcasts } = {};
  /** database broadcasts go out one after the other, in the order the database sent them */
  let fromDatabase: Promise<void> = Promise.resolve();

  const capture: Capture = await startCapture({
    databaseUrl: opts.databaseUrl,
    log,
    onChange: (event) => parts.changes?.enqueue(event),
    onBroadcast: (m) => {
      fromDatabase = fromDatabase
        .then(async () => {
          const full: DbBroadcast | null = 'partial' in m ? await capture.readBroadcast(m.id) : m;
          if (full && !closing)
            parts.broadcasts?.fromServer(full.topic, full.private, full.event, full.payload);
        })
        .catch((err: Error) => log(`database broadcast ${m.id} failed: ${err.message}`));
    },
  });

  const registry = new Registry();
  const presence = new Presence(registry);
  const ctx: Context = {
    log,
    capture,
    registry,
    presence,
    secret: new TextEncoder().encode(opts.jwtSecret),
    get closing() {
      return closing;
    },
    leave(ch: Channel) {
      registry.remove(ch);
      presence.untrack(ch);
    },
  };
  const changes = (parts.changes = new PostgresChanges(ctx));
  const broadcasts = (parts.broadcasts = new Broadcasts(ctx));
  const joins = new Joins(ctx);
  const http = new HttpBroadcast(ctx, broadcasts);
  const sockets = new Sockets(ctx, joins, broadcasts);
  const stopSweep = startSweep(ctx);
  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });

  return {
    upgrade(req, socket, head, path) {
      // the client may be gone already (a reset socket): the refusal's write or a read fails, and
      // an 'error' nobody listens to would end this process, which serves the whole stack
      socket.on('error', () => socket.destroy());
      if (closing || path.replace(/\/+$/, '') !== '/websocket')
        return refuse(socket, '404 Not Found');
      const url = new URL(req.url ?? '/', 'http://realtime');
      const vsn = protocolOf(url);
      if (!vsn) return refuse(socket, '403 Forbidden');
      const header = req.headers['apikey'];
      const apikey = url.searchParams.get('apikey') ?? (Array.isArray(header) ? header[0] : header);
      wss.handleUpgrade(req, socket, head, (ws) => sockets.open(ws, vsn, apikey));
    },
    handle: (req, res, path) => http.serve(req, res, path),
    async close() {
      closing = true;
      stopSweep();
      for (const conn of registry.conns) {
        for (const ch of conn.channels.values()) if (ch.expiryTimer) clearTimeout(ch.expiryTimer);
        conn.ws.terminate();
      }
      registry.conns.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      await changes.stop();
      await capture.close();
    },
  };
}
