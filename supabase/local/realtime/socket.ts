// One WebSocket: its frames decoded and routed to the part that answers them (heartbeats, joins,
// leaves, token refreshes, broadcasts, presence); its channels left when it closes.
import type { RawData, WebSocket } from 'ws';
import type { Broadcasts } from './broadcast.ts';
import { isObject, push, reply, type Conn } from './channel.ts';
import type { Context } from './context.ts';
import { phoenix } from './heartbeat.ts';
import type { Joins } from './joins.ts';
import { decodeBinary, decodeText, type Message, type Vsn } from './protocol.ts';

export class Sockets {
  constructor(
    private readonly ctx: Context,
    private readonly joins: Joins,
    private readonly broadcasts: Broadcasts,
  ) {}

  private route(conn: Conn, msg: Message): void {
    const { log } = this.ctx;
    if (msg.topic === 'phoenix') return phoenix(conn, msg);
    if (msg.event === 'phx_join') {
      void this.joins.join(conn, msg).catch((err: Error) => {
        log(`join ${msg.topic} failed: ${err.message}`);
        reply(conn, msg, 'error', { reason: 'UnknownErrorOnChannel: Unknown Error on Channel' });
      });
      return;
    }
    const ch = conn.channels.get(msg.topic);
    if (!ch) {
      // leaving a channel the server no longer has still succeeds, so the client can close it
      if (msg.event === 'phx_leave') reply(conn, msg, 'ok');
      else reply(conn, msg, 'error', { reason: 'unmatched topic' });
      return;
    }
    switch (msg.event) {
      case 'phx_leave':
        this.ctx.leave(ch);
        reply(conn, msg, 'ok');
        push(ch, 'phx_close', {});
        return;
      case 'access_token':
        void this.joins
          .accessToken(ch, isObject(msg.payload) ? msg.payload : {})
          .catch((err: Error) => log(`access_token: ${err.message}`));
        return;
      case 'broadcast':
        return this.broadcasts.fromMember(ch, msg);
      case 'presence':
        return this.ctx.presence.handle(ch, msg);
      default:
        log(`ignored ${msg.event} on ${msg.topic}`);
    }
  }

  private frame(conn: Conn, data: RawData, isBinary: boolean): void {
    const buf = Array.isArray(data)
      ? Buffer.concat(data)
      : Buffer.isBuffer(data)
        ? data
        : Buffer.from(data);
    if (isBinary) {
      const b = decodeBinary(buf);
      if (b) this.broadcasts.binaryFromMember(conn, b);
      else this.ctx.log('ignored an unknown binary frame');
      return;
    }
    const msg = decodeText(buf.toString('utf8'));
    if (!msg) {
      this.ctx.log('ignored a frame that is not a Phoenix message');
      return;
    }
    this.route(conn, msg);
  }

  open(ws: WebSocket, vsn: Vsn, apikey: string | undefined): void {
    const { log, registry } = this.ctx;
    const conn: Conn = {
      ws,
      vsn,
      apikey,
      channels: new Map(),
      lastSeen: Date.now(),
      closed: false,
    };
    registry.conns.add(conn);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      conn.lastSeen = Date.now();
      try {
        this.frame(conn, data, isBinary);
      } catch (err) {
        log(`error handling a frame: ${(err as Error).message}`);
      }
    });
    ws.on('error', (err) => log(`socket error: ${err.message}`));
    ws.on('close', () => {
      conn.closed = true;
      registry.conns.delete(conn);
      for (const ch of [...conn.channels.values()]) this.ctx.leave(ch);
    });
  }
}
