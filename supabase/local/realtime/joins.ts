// Joining a topic (phx_join) and keeping the right to stay: the token is checked, a private
// channel is authorised as hosted Realtime does it (the SELECT/INSERT policies of
// realtime.messages, asked once per join and per new token, under the joining user's role and
// claims with realtime.topic() set), postgres_changes subscriptions are parsed and checked against
// the publication, and the channel is closed when its token expires.
import { randomUUID } from 'node:crypto';
import {
  groupKey,
  isCurrent,
  isObject,
  push,
  reply,
  system,
  type Channel,
  type Conn,
  type Subscription,
} from './channel.ts';
import type { TableInfo } from './changes.ts';
import type { Context } from './context.ts';
import { parseFilter } from './filters.ts';
import type { Message } from './protocol.ts';
import { verifyToken, viewerOf } from './tokens.ts';

const EVENTS = new Set(['*', 'INSERT', 'UPDATE', 'DELETE']);
const MAX_TIMER_MS = 60 * 60 * 1000;

/** Stable small integer for a subscription's params (the real server uses :erlang.phash2). */
function phash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 134_217_728;
}

export function parseSubscriptions(config: Record<string, unknown>): Subscription[] {
  const list = Array.isArray(config.postgres_changes) ? config.postgres_changes : [];
  const subs: Subscription[] = [];
  for (const p of list) {
    if (!isObject(p)) continue;
    const event = typeof p.event === 'string' ? p.event.toUpperCase() : '*';
    if (!EVENTS.has(event)) throw new Error(`unsupported event "${String(p.event)}"`);
    const schema = typeof p.schema === 'string' && p.schema !== '' ? p.schema : 'public';
    const table =
      typeof p.table === 'string' && p.table !== '' && p.table !== '*' ? p.table : undefined;
    const filter = typeof p.filter === 'string' ? p.filter : undefined;
    if (filter && !table) throw new Error('a filter needs a table');
    subs.push({
      id: phash(JSON.stringify(p)),
      params: p,
      event,
      schema,
      table,
      conditions: parseFilter(filter),
    });
  }
  return subs;
}

/**
 * Channels one socket may hold, as hosted Realtime's "channels per connection" (100 on every
 * plan): one anonymous socket joined 300 public topics (and tracked presence on each) before.
 */
export const MAX_CHANNELS = 100;
const TOO_MANY = 'ChannelRateLimitReached: Too many channels';

const unreadable = (topic: string) =>
  `You do not have permissions to read from this Channel topic: ${topic}`;

export class Joins {
  constructor(private readonly ctx: Context) {}

  /** Server-side close: a system message saying why, then phx_close. */
  shutdown(ch: Channel, message: string): void {
    system(ch, 'system', 'error', message);
    push(ch, 'phx_close', {});
    this.ctx.leave(ch);
  }

  private scheduleExpiry(ch: Channel): void {
    if (ch.expiryTimer) clearTimeout(ch.expiryTimer);
    const ms = ch.exp * 1000 - Date.now();
    if (ms <= 0) {
      this.shutdown(ch, `Token has expired ${Math.floor(-ms / 1000)} seconds ago`);
      return;
    }
    ch.expiryTimer = setTimeout(() => this.scheduleExpiry(ch), Math.min(ms, MAX_TIMER_MS));
    ch.expiryTimer.unref();
  }

  async join(conn: Conn, msg: Message): Promise<void> {
    const { log, capture } = this.ctx;
    const { topic } = msg;
    if (!topic.startsWith('realtime:'))
      return reply(conn, msg, 'error', { reason: 'unmatched topic' });
    const subTopic = topic.slice('realtime:'.length);
    if (subTopic === '')
      return reply(conn, msg, 'error', {
        reason: 'TopicNameRequired: You must provide a topic name',
      });
    // a new topic beyond the socket's channels is refused before any work for it (and again
    // below, once the joins in flight meanwhile have landed)
    const full = () => !conn.channels.has(topic) && conn.channels.size >= MAX_CHANNELS;
    if (full()) return reply(conn, msg, 'error', { reason: TOO_MANY });
    const payload = isObject(msg.payload) ? msg.payload : {};
    const config = isObject(payload.config) ? payload.config : {};

    let token =
      typeof payload.access_token === 'string'
        ? payload.access_token
        : typeof payload.user_token === 'string'
          ? payload.user_token
          : conn.apikey;
    // new-style publishable keys carry no claims: the connection's apikey decides
    if (token?.startsWith('sb_')) token = conn.apikey;
    const verified = await verifyToken(this.ctx.secret, token);
    if (!verified.ok) {
      log(`join ${topic} refused: ${verified.reason}`);
      return reply(conn, msg, 'error', { reason: verified.reason });
    }
    const isPrivate = config.private === true;
    const viewer = viewerOf(verified);
    let canWrite = true;
    if (isPrivate) {
      // as hosted Realtime: the realtime.messages policies, asked once for this join
      const rights = await capture.authorize(viewer, subTopic);
      if (!rights.read && !rights.write) {
        log(`join ${topic} refused: no realtime.messages policy lets ${verified.role} in`);
        return reply(conn, msg, 'error', { reason: `Unauthorized: ${unreadable(subTopic)}` });
      }
      canWrite = rights.write;
    }

    let subs: Subscription[];
    try {
      subs = parseSubscriptions(config);
    } catch (err) {
      const reason = `RealtimeDisabledForConfiguration: Unable to subscribe to changes with given parameters: ${(err as Error).message}`;
      log(`join ${topic} refused: ${reason}`);
      return reply(conn, msg, 'error', { reason });
    }
    const tables = await this.tablesFor(subs);
    if (conn.closed) return;
    if (full()) return reply(conn, msg, 'error', { reason: TOO_MANY });

    const broadcast = isObject(config.broadcast) ? config.broadcast : {};
    const presence = isObject(config.presence) ? config.presence : {};
    const previous = conn.channels.get(topic);
    if (previous) {
      // a second join of one topic replaces the first, as Phoenix does
      push(previous, 'phx_close', {});
      this.ctx.leave(previous);
    }
    const ch: Channel = {
      conn,
      topic,
      subTopic,
      joinRef: msg.join_ref ?? msg.ref,
      token: token!,
      viewer,
      exp: verified.exp,
      expiryTimer: undefined,
      subs,
      self: broadcast.self === true,
      ack: broadcast.ack === true,
      private: isPrivate,
      canWrite,
      presenceEnabled: presence.enabled === true,
      presenceKey:
        typeof presence.key === 'string' && presence.key !== '' ? presence.key : randomUUID(),
      presenceRef: undefined,
    };
    this.ctx.registry.add(ch);

    reply(conn, msg, 'ok', { postgres_changes: subs.map((s) => ({ ...s.params, id: s.id })) });
    if (ch.presenceEnabled) push(ch, 'presence_state', this.ctx.presence.state(groupKey(ch)));
    if (subs.length > 0) this.reportSubscriptions(ch, tables);
    this.scheduleExpiry(ch);
  }

  /** The publication's tables, read again when a subscription names one not known yet. */
  private async tablesFor(subs: Subscription[]): Promise<Map<string, TableInfo>> {
    const { capture, log } = this.ctx;
    const tables = capture.tables();
    const missing = (s: Subscription) =>
      s.table === undefined
        ? s.schema === '*' || ![...tables.values()].some((t) => t.schema === s.schema)
        : !tables.has(`${s.schema}.${s.table}`);
    if (!subs.some(missing)) return tables;
    try {
      return await capture.refresh();
    } catch (err) {
      log(`publication refresh failed: ${(err as Error).message}`);
      return tables;
    }
  }

  /** The system message after a join with postgres_changes: subscribed, or which table is not published. */
  private reportSubscriptions(ch: Channel, tables: Map<string, TableInfo>): void {
    const unknown = ch.subs.filter(
      (s) => s.table !== undefined && !tables.has(`${s.schema}.${s.table}`),
    );
    if (unknown.length === 0) {
      system(ch, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL');
      return;
    }
    for (const s of unknown) {
      const filters = s.conditions
        .map((c) => `{${c.column}, ${c.op}, ${c.value ?? c.values.join(',')}}`)
        .join(', ');
      const message =
        'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ' +
        `[schema: ${s.schema}, table: ${s.table}, filters: [${filters}]]`;
      this.ctx.log(`${ch.topic}: ${s.schema}.${s.table} is not in publication supabase_realtime`);
      system(ch, 'postgres_changes', 'error', message);
    }
  }

  /** An `access_token` message: a new identity for the channel, checked again like a join. */
  async accessToken(ch: Channel, payload: Record<string, unknown>): Promise<void> {
    const token = payload.access_token;
    if (typeof token !== 'string' || token === ch.token || token.startsWith('sb_')) return;
    const verified = await verifyToken(this.ctx.secret, token);
    if (!isCurrent(ch)) return;
    if (!verified.ok) {
      // the same messages the hosted server sends before it closes the channel
      this.shutdown(ch, verified.reason.replace(/^[A-Za-z]+: /, ''));
      return;
    }
    const viewer = viewerOf(verified);
    if (ch.private) {
      // a new token is a new identity: the policies are asked again, as hosted Realtime does
      const rights = await this.ctx.capture.authorize(viewer, ch.subTopic);
      if (!isCurrent(ch)) return;
      if (!rights.read && !rights.write) {
        this.shutdown(ch, unreadable(ch.subTopic));
        return;
      }
      ch.canWrite = rights.write;
    }
    ch.token = token;
    ch.viewer = viewer;
    ch.exp = verified.exp;
    this.scheduleExpiry(ch);
  }
}
