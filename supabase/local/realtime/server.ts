// A local stand-in for Supabase Realtime: the part of the Phoenix channel protocol that
// @supabase/realtime-js speaks on /realtime/v1/websocket. postgres_changes (with RLS checked per
// subscriber), broadcast (self/ack, JSON and binary frames), presence (track/untrack,
// presence_state/presence_diff), private channels authorised as hosted Realtime does (the
// SELECT/INSERT policies of realtime.messages, asked once per join and per new token, under the
// joining user's role and claims with realtime.topic() set), and broadcasts from the database
// (realtime.send, through the local stand-in's notification). Production uses hosted Supabase
// Realtime.
import { randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import type { Duplex } from 'node:stream';
import { errors as joseErrors, jwtVerify, type JWTPayload } from 'jose';
import { WebSocketServer, WebSocket, type RawData } from 'ws';
import {
  ALLOWED_ROLES,
  startCapture,
  type Capture,
  type ChangeEvent,
  type Row,
  type TableInfo,
  type DbBroadcast,
  type Viewer,
} from './changes.ts';
import { matches, parseFilter, type Condition } from './filters.ts';
import {
  broadcastAsJson,
  decodeBinary,
  decodeText,
  encodeText,
  encodeUserBroadcast,
  type BinaryBroadcast,
  type Message,
  type Vsn,
} from './protocol.ts';

export interface RealtimeServerOptions {
  /** superuser locally: installs the capture triggers and switches roles for the RLS checks */
  databaseUrl: string;
  jwtSecret: string;
  log?: (service: string, line: string) => void;
}

export interface RealtimeServer {
  upgrade(req: IncomingMessage, socket: Duplex, head: Buffer, path: string): void;
  /**
   * HTTP broadcast, as realtime-js uses for `httpSend()` and for `send()` before a channel is joined:
   * POST /api/broadcast {messages: [{topic, event, payload, private?}]} and
   * POST /api/broadcast/:topic/events/:event (body = payload; JSON or application/octet-stream).
   * `path` is the part after /realtime/v1. Answers 202 when accepted.
   */
  handle(req: IncomingMessage, res: ServerResponse, path: string): Promise<void>;
  close(): Promise<void>;
}

const EVENTS = new Set(['*', 'INSERT', 'UPDATE', 'DELETE']);
/** Phoenix closes a socket that sent nothing (not even a heartbeat) for this long. */
const IDLE_TIMEOUT_MS = 60_000;
const MAX_TIMER_MS = 60 * 60 * 1000;

interface Subscription {
  id: number;
  /** the client's params, echoed back with the id in the join reply */
  params: Record<string, unknown>;
  event: string;
  schema: string;
  table: string | undefined;
  conditions: Condition[];
}

interface Conn {
  ws: WebSocket;
  vsn: Vsn;
  apikey: string | undefined;
  channels: Map<string, Channel>;
  lastSeen: number;
  closed: boolean;
}

interface Channel {
  conn: Conn;
  topic: string;
  subTopic: string;
  joinRef: string | null;
  token: string;
  viewer: Viewer;
  exp: number;
  expiryTimer: NodeJS.Timeout | undefined;
  subs: Subscription[];
  self: boolean;
  ack: boolean;
  private: boolean;
  /** private channels: whether the INSERT policy lets this viewer send on the topic */
  canWrite: boolean;
  presenceEnabled: boolean;
  presenceKey: string;
  presenceRef: string | undefined;
}

type Verified =
  | { ok: true; claims: JWTPayload & Record<string, unknown>; role: string; exp: number }
  | { ok: false; reason: string };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Stable small integer for a subscription's params (the real server uses :erlang.phash2). */
function phash(text: string): number {
  let h = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    h ^= text.charCodeAt(i);
    h = Math.imul(h, 0x01000193) >>> 0;
  }
  return h % 134_217_728;
}

function pick(row: Row, keys: string[]): Row {
  const out: Row = {};
  for (const k of keys) if (k in row) out[k] = row[k];
  return out;
}

export async function createRealtimeServer(opts: RealtimeServerOptions): Promise<RealtimeServer> {
  const log = (line: string) => opts.log?.('realtime', line);
  const secret = new TextEncoder().encode(opts.jwtSecret);
  const conns = new Set<Conn>();
  /** broadcast/presence groups; public and private channels of one name are apart, as on Supabase */
  const groups = new Map<string, Set<Channel>>();
  /** group -> presence key -> phx_ref -> meta */
  const presence = new Map<string, Map<string, Map<string, Record<string, unknown>>>>();
  const queue: ChangeEvent[] = [];
  let draining: Promise<void> | undefined;
  let closing = false;

  /** database broadcasts go out one after the other, in the order the database sent them */
  let broadcasts: Promise<void> = Promise.resolve();
  const capture: Capture = await startCapture({
    databaseUrl: opts.databaseUrl,
    log,
    onChange: (event) => {
      queue.push(event);
      if (!draining) draining = drain().finally(() => (draining = undefined));
    },
    onBroadcast: (m) => {
      broadcasts = broadcasts
        .then(async () => {
          const full: DbBroadcast | null = 'partial' in m ? await capture.readBroadcast(m.id) : m;
          if (full && !closing) serverBroadcast(full.topic, full.private, full.event, full.payload);
        })
        .catch((err: Error) => log(`database broadcast ${m.id} failed: ${err.message}`));
    },
  });

  const wss = new WebSocketServer({ noServer: true, maxPayload: 1024 * 1024 });

  let lastPrune = 0;
  const sweep = setInterval(() => {
    const now = Date.now();
    if (now - lastPrune > 3_600_000) {
      lastPrune = now;
      void capture.prune().catch((err: Error) => log(`pruning realtime.messages: ${err.message}`));
    }
    for (const conn of conns) {
      if (now - conn.lastSeen > IDLE_TIMEOUT_MS) {
        log('closing a socket that sent no heartbeat for 60 s');
        conn.ws.terminate();
      }
    }
  }, 15_000);
  sweep.unref();

  // ---- frames ---------------------------------------------------------------------------------

  function send(conn: Conn, msg: Message) {
    if (conn.ws.readyState === WebSocket.OPEN) conn.ws.send(encodeText(conn.vsn, msg));
  }

  function reply(
    conn: Conn,
    msg: { join_ref: string | null; ref: string | null; topic: string },
    status: 'ok' | 'error',
    response: unknown = {},
  ) {
    send(conn, {
      join_ref: msg.join_ref,
      ref: msg.ref,
      topic: msg.topic,
      event: 'phx_reply',
      payload: { status, response },
    });
  }

  function push(ch: Channel, event: string, payload: unknown, joinRef: string | null = ch.joinRef) {
    send(ch.conn, { join_ref: joinRef, ref: null, topic: ch.topic, event, payload });
  }

  function system(
    ch: Channel,
    extension: 'system' | 'postgres_changes',
    status: 'ok' | 'error',
    message: string,
  ) {
    push(ch, 'system', { extension, status, message, channel: ch.subTopic });
  }

  // ---- tokens ---------------------------------------------------------------------------------

  async function verify(token: string | undefined): Promise<Verified> {
    if (!token)
      return { ok: false, reason: 'InvalidJWTToken: The token provided is not a valid JWT' };
    let claims: JWTPayload;
    try {
      claims = (await jwtVerify(token, secret, { algorithms: ['HS256'] })).payload;
    } catch (err) {
      if (err instanceof joseErrors.JWTExpired) {
        const exp =
          typeof err.payload.exp === 'number' ? err.payload.exp : Math.floor(Date.now() / 1000);
        return {
          ok: false,
          reason: `InvalidJWTToken: Token has expired ${Math.floor(Date.now() / 1000) - exp} seconds ago`,
        };
      }
      if (err instanceof joseErrors.JWSSignatureVerificationFailed) {
        return { ok: false, reason: 'JwtSignatureError: Failed to validate JWT signature' };
      }
      return { ok: false, reason: 'MalformedJWT: The token provided is not a valid JWT' };
    }
    const role = claims.role;
    if (typeof role !== 'string' || typeof claims.exp !== 'number') {
      return { ok: false, reason: 'InvalidJWTToken: Fields `role` and `exp` are required in JWT' };
    }
    if (!ALLOWED_ROLES.has(role)) {
      return {
        ok: false,
        reason: `Unauthorized: the local Realtime accepts the roles anon, authenticated and service_role, not "${role}"`,
      };
    }
    return {
      ok: true,
      claims: claims as JWTPayload & Record<string, unknown>,
      role,
      exp: claims.exp,
    };
  }

  function scheduleExpiry(ch: Channel) {
    if (ch.expiryTimer) clearTimeout(ch.expiryTimer);
    const ms = ch.exp * 1000 - Date.now();
    if (ms <= 0) {
      shutdown(ch, `Token has expired ${Math.floor(-ms / 1000)} seconds ago`);
      return;
    }
    ch.expiryTimer = setTimeout(() => scheduleExpiry(ch), Math.min(ms, MAX_TIMER_MS));
    ch.expiryTimer.unref();
  }

  // ---- channels -------------------------------------------------------------------------------

  const groupKey = (ch: Pick<Channel, 'private' | 'topic'>) =>
    `${ch.private ? 'private' : 'public'}|${ch.topic}`;

  function removeChannel(ch: Channel) {
    if (ch.expiryTimer) clearTimeout(ch.expiryTimer);
    ch.expiryTimer = undefined;
    if (ch.conn.channels.get(ch.topic) === ch) ch.conn.channels.delete(ch.topic);
    const key = groupKey(ch);
    const members = groups.get(key);
    members?.delete(ch);
    if (members && members.size === 0) groups.delete(key);
    untrack(ch);
  }

  /** Server-side close: a system message saying why, then phx_close. */
  function shutdown(ch: Channel, message: string) {
    system(ch, 'system', 'error', message);
    push(ch, 'phx_close', {});
    removeChannel(ch);
  }

  function parseSubscriptions(config: Record<string, unknown>): Subscription[] {
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

  async function join(conn: Conn, msg: Message) {
    const { topic } = msg;
    if (!topic.startsWith('realtime:'))
      return reply(conn, msg, 'error', { reason: 'unmatched topic' });
    const subTopic = topic.slice('realtime:'.length);
    if (subTopic === '')
      return reply(conn, msg, 'error', {
        reason: 'TopicNameRequired: You must provide a topic name',
      });
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
    const verified = await verify(token);
    if (!verified.ok) {
      log(`join ${topic} refused: ${verified.reason}`);
      return reply(conn, msg, 'error', { reason: verified.reason });
    }
    const isPrivate = config.private === true;
    const viewer: Viewer = { role: verified.role, claims: verified.claims };
    let canWrite = true;
    if (isPrivate) {
      // as hosted Realtime: the realtime.messages policies, asked once for this join
      const rights = await capture.authorize(viewer, subTopic);
      if (!rights.read && !rights.write) {
        log(`join ${topic} refused: no realtime.messages policy lets ${verified.role} in`);
        return reply(conn, msg, 'error', {
          reason: `Unauthorized: You do not have permissions to read from this Channel topic: ${subTopic}`,
        });
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

    let tables = capture.tables();
    const missing = (s: Subscription) =>
      s.table === undefined
        ? s.schema === '*' || ![...tables.values()].some((t) => t.schema === s.schema)
        : !tables.has(`${s.schema}.${s.table}`);
    if (subs.some(missing)) {
      try {
        tables = await capture.refresh();
      } catch (err) {
        log(`publication refresh failed: ${(err as Error).message}`);
      }
    }
    if (conn.closed) return;

    const broadcast = isObject(config.broadcast) ? config.broadcast : {};
    const presenceConfig = isObject(config.presence) ? config.presence : {};
    const previous = conn.channels.get(topic);
    if (previous) {
      // a second join of one topic replaces the first, as Phoenix does
      push(previous, 'phx_close', {});
      removeChannel(previous);
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
      presenceEnabled: presenceConfig.enabled === true,
      presenceKey:
        typeof presenceConfig.key === 'string' && presenceConfig.key !== ''
          ? presenceConfig.key
          : randomUUID(),
      presenceRef: undefined,
    };
    conn.channels.set(topic, ch);
    const key = groupKey(ch);
    if (!groups.has(key)) groups.set(key, new Set());
    groups.get(key)!.add(ch);

    reply(conn, msg, 'ok', { postgres_changes: subs.map((s) => ({ ...s.params, id: s.id })) });
    if (ch.presenceEnabled) push(ch, 'presence_state', presenceState(key));
    if (subs.length > 0) {
      const unknown = subs.filter(
        (s) => s.table !== undefined && !tables.has(`${s.schema}.${s.table}`),
      );
      if (unknown.length > 0) {
        for (const s of unknown) {
          const message =
            'Unable to subscribe to changes with given parameters. Please check Realtime is enabled for the given connect parameters: ' +
            `[schema: ${s.schema}, table: ${s.table}, filters: [${s.conditions.map((c) => `{${c.column}, ${c.op}, ${c.value ?? c.values.join(',')}}`).join(', ')}]]`;
          log(`${topic}: ${s.schema}.${s.table} is not in publication supabase_realtime`);
          system(ch, 'postgres_changes', 'error', message);
        }
      } else {
        system(ch, 'postgres_changes', 'ok', 'Subscribed to PostgreSQL');
      }
    }
    scheduleExpiry(ch);
  }

  async function accessToken(ch: Channel, payload: Record<string, unknown>) {
    const token = payload.access_token;
    if (typeof token !== 'string' || token === ch.token || token.startsWith('sb_')) return;
    const verified = await verify(token);
    if (ch.conn.channels.get(ch.topic) !== ch) return;
    if (!verified.ok) {
      // the same messages the hosted server sends before it closes the channel
      shutdown(ch, verified.reason.replace(/^[A-Za-z]+: /, ''));
      return;
    }
    const viewer: Viewer = { role: verified.role, claims: verified.claims };
    if (ch.private) {
      // a new token is a new identity: the policies are asked again, as hosted Realtime does
      const rights = await capture.authorize(viewer, ch.subTopic);
      if (ch.conn.channels.get(ch.topic) !== ch) return;
      if (!rights.read && !rights.write) {
        shutdown(ch, `You do not have permissions to read from this Channel topic: ${ch.subTopic}`);
        return;
      }
      ch.canWrite = rights.write;
    }
    ch.token = token;
    ch.viewer = viewer;
    ch.exp = verified.exp;
    scheduleExpiry(ch);
  }

  // ---- broadcast ------------------------------------------------------------------------------

  function broadcastJson(ch: Channel, msg: Message) {
    if (!isObject(msg.payload)) return;
    if (!ch.canWrite) {
      log(`broadcast on ${ch.topic} dropped: no realtime.messages INSERT policy for this sender`);
      if (ch.ack)
        reply(ch.conn, msg, 'error', {
          reason: 'You do not have permissions to write to this Channel topic',
        });
      return;
    }
    const payload = msg.payload;
    for (const other of groups.get(groupKey(ch)) ?? []) {
      if (other === ch && !ch.self) continue;
      push(other, 'broadcast', payload, null);
    }
    if (ch.ack) reply(ch.conn, msg, 'ok');
  }

  function broadcastBinary(conn: Conn, b: BinaryBroadcast) {
    const ch = conn.channels.get(b.topic);
    if (!ch) {
      if (b.ref)
        reply(conn, { join_ref: b.joinRef, ref: b.ref, topic: b.topic }, 'error', {
          reason: 'unmatched topic',
        });
      return;
    }
    if (!ch.canWrite) {
      log(`broadcast on ${ch.topic} dropped: no realtime.messages INSERT policy for this sender`);
      return;
    }
    let json: Record<string, unknown> | undefined;
    for (const other of groups.get(groupKey(ch)) ?? []) {
      if (other === ch && !ch.self) continue;
      if (other.conn.vsn === '2.0.0') {
        const frame = encodeUserBroadcast(other.topic, b);
        if (frame && other.conn.ws.readyState === WebSocket.OPEN) other.conn.ws.send(frame);
      } else {
        json ??= broadcastAsJson(b);
        if (json) push(other, 'broadcast', json, null);
      }
    }
    if (ch.ack && b.ref) reply(conn, { join_ref: b.joinRef, ref: b.ref, topic: b.topic }, 'ok');
  }

  // ---- presence -------------------------------------------------------------------------------

  function presenceState(key: string): Record<string, { metas: Record<string, unknown>[] }> {
    const state: Record<string, { metas: Record<string, unknown>[] }> = {};
    for (const [pkey, refs] of presence.get(key) ?? []) {
      if (refs.size > 0) state[pkey] = { metas: [...refs.values()] };
    }
    return state;
  }

  function presenceDiff(
    ch: Channel,
    diff: { joins: Record<string, unknown>; leaves: Record<string, unknown> },
    except?: Channel,
  ) {
    for (const other of groups.get(groupKey(ch)) ?? []) {
      if (other === except || !other.presenceEnabled) continue;
      push(other, 'presence_diff', diff, null);
    }
  }

  function untrack(ch: Channel) {
    if (!ch.presenceRef) return;
    const key = groupKey(ch);
    const refs = presence.get(key)?.get(ch.presenceKey);
    const meta = refs?.get(ch.presenceRef);
    refs?.delete(ch.presenceRef);
    if (refs && refs.size === 0) presence.get(key)!.delete(ch.presenceKey);
    if (presence.get(key)?.size === 0) presence.delete(key);
    ch.presenceRef = undefined;
    if (meta) presenceDiff(ch, { joins: {}, leaves: { [ch.presenceKey]: { metas: [meta] } } });
  }

  function handlePresence(ch: Channel, msg: Message) {
    const payload = isObject(msg.payload) ? msg.payload : {};
    if (payload.event === 'untrack') {
      untrack(ch);
      return reply(ch.conn, msg, 'ok');
    }
    if (payload.event !== 'track')
      return reply(ch.conn, msg, 'error', { reason: 'unknown presence event' });
    const userMeta = payload.payload ?? {};
    if (!isObject(userMeta))
      return reply(ch.conn, msg, 'error', { reason: 'Presence track payload must be a map' });
    const key = groupKey(ch);
    const leaves: Record<string, unknown> = {};
    const previousRef = ch.presenceRef;
    const previousMeta = previousRef
      ? presence.get(key)?.get(ch.presenceKey)?.get(previousRef)
      : undefined;
    if (previousRef) presence.get(key)?.get(ch.presenceKey)?.delete(previousRef);
    if (previousMeta) leaves[ch.presenceKey] = { metas: [previousMeta] };
    const ref = randomUUID().replace(/-/g, '').slice(0, 16);
    const meta: Record<string, unknown> = { ...userMeta, phx_ref: ref };
    if (previousRef) meta.phx_ref_prev = previousRef;
    if (!presence.has(key)) presence.set(key, new Map());
    const byKey = presence.get(key)!;
    if (!byKey.has(ch.presenceKey)) byKey.set(ch.presenceKey, new Map());
    byKey.get(ch.presenceKey)!.set(ref, meta);
    ch.presenceRef = ref;
    reply(ch.conn, msg, 'ok');
    const diff = { joins: { [ch.presenceKey]: { metas: [meta] } }, leaves };
    if (!ch.presenceEnabled) {
      // tracking turns presence on for this channel: it gets the whole state, the others a diff
      ch.presenceEnabled = true;
      push(ch, 'presence_state', presenceState(key));
      presenceDiff(ch, diff, ch);
    } else {
      presenceDiff(ch, diff);
    }
  }

  // ---- postgres_changes -----------------------------------------------------------------------

  async function drain() {
    while (queue.length > 0) {
      const event = queue.shift()!;
      try {
        await deliver(event);
      } catch (err) {
        log(
          `delivering a ${event.type} on ${event.schema}.${event.table} failed: ${(err as Error).message}`,
        );
      }
    }
  }

  function subMatches(s: Subscription, ev: ChangeEvent, row: Row | null): boolean {
    if (s.event !== '*' && s.event !== ev.type) return false;
    if (s.schema !== '*' && s.schema !== ev.schema) return false;
    if (s.table !== undefined && s.table !== ev.table) return false;
    return matches(s.conditions, row);
  }

  async function deliver(ev: ChangeEvent) {
    if (closing) return;
    const info: TableInfo | undefined = capture.tables().get(`${ev.schema}.${ev.table}`);
    if (!info) return;
    let record = ev.record;
    if (ev.truncated && record) {
      record = await capture.readRow(info, record);
      if (!record) return;
    }
    const filterRow = ev.type === 'DELETE' ? ev.old_record : record;

    const targets = new Map<Channel, number[]>();
    for (const conn of conns) {
      for (const ch of conn.channels.values()) {
        for (const s of ch.subs) {
          if (!subMatches(s, ev, filterRow)) continue;
          const ids = targets.get(ch) ?? [];
          if (!ids.includes(s.id)) ids.push(s.id);
          targets.set(ch, ids);
        }
      }
    }
    if (targets.size === 0) return;

    // one check per distinct (role, claims): many viewers of one user cost one query
    const byViewer = new Map<string, { viewer: Viewer; channels: Channel[] }>();
    for (const ch of targets.keys()) {
      const k = ch.viewer.role + '|' + JSON.stringify(ch.viewer.claims);
      const entry = byViewer.get(k) ?? { viewer: ch.viewer, channels: [] };
      entry.channels.push(ch);
      byViewer.set(k, entry);
    }
    const entries = [...byViewer.values()];
    const row = (ev.type === 'DELETE' ? ev.old_record : record) ?? {};
    const allowed = await capture.visible(
      info,
      ev.type,
      row,
      entries.map((e) => e.viewer),
    );

    if (
      record &&
      info.columns.length > 0 &&
      Object.keys(record).some((k) => !info.columns.some((c) => c.name === k))
    ) {
      void capture.refresh().catch(() => {}); // columns changed: re-read the table's description
    }
    // old values: the whole row only with REPLICA IDENTITY FULL and no RLS, else the primary key
    const old = ev.old_record
      ? info.replicaFull && !info.rls && !ev.truncated
        ? ev.old_record
        : pick(ev.old_record, info.pk)
      : null;
    const data: Record<string, unknown> = {
      schema: ev.schema,
      table: ev.table,
      commit_timestamp: ev.commit_timestamp,
      type: ev.type,
      columns: info.columns,
      errors: null,
    };
    if (ev.type !== 'DELETE') data.record = record;
    if (ev.type !== 'INSERT') data.old_record = old;

    entries.forEach((entry, i) => {
      if (!allowed[i]) return;
      for (const ch of entry.channels) {
        if (ch.conn.channels.get(ch.topic) !== ch) continue; // left meanwhile
        push(ch, 'postgres_changes', { ids: targets.get(ch), data });
      }
    });
  }

  // ---- HTTP broadcast -------------------------------------------------------------------------

  function json(res: ServerResponse, status: number, body: unknown) {
    res.writeHead(status, { 'content-type': 'application/json' });
    res.end(JSON.stringify(body));
  }

  function readBody(req: IncomingMessage, limit = 1024 * 1024): Promise<Buffer> {
    return new Promise((resolve, reject) => {
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > limit) {
          reject(new Error('payload too large'));
          req.destroy();
        } else chunks.push(c);
      });
      req.on('end', () => resolve(Buffer.concat(chunks)));
      req.on('error', reject);
    });
  }

  /** A broadcast sent by the server side (HTTP): everyone on the topic gets it, no sender to skip. */
  function serverBroadcast(
    topic: string,
    isPrivate: boolean,
    event: string,
    payload: unknown,
    bytes?: Buffer,
  ) {
    const fullTopic = `realtime:${topic}`;
    const frames = new Map<Vsn, Buffer>();
    for (const ch of groups.get(groupKey({ private: isPrivate, topic: fullTopic })) ?? []) {
      if (bytes) {
        if (ch.conn.vsn !== '2.0.0') continue; // v1 cannot carry binary payloads
        const frame = encodeUserBroadcast(ch.topic, {
          joinRef: null,
          ref: null,
          topic: fullTopic,
          event,
          encoding: 0,
          metadata: '',
          payload: bytes,
        });
        if (frame && ch.conn.ws.readyState === WebSocket.OPEN) ch.conn.ws.send(frame);
      } else {
        // one encoding per protocol version for the whole topic (the frame is the same for every
        // member): fanning out to 2,000 viewers must not serialise the payload 2,000 times
        const vsn = ch.conn.vsn;
        let frame = frames.get(vsn);
        if (!frame) {
          frame = Buffer.from(
            encodeText(vsn, {
              join_ref: null,
              ref: null,
              topic: fullTopic,
              event: 'broadcast',
              payload: { type: 'broadcast', event, payload },
            }),
          );
          frames.set(vsn, frame);
        }
        if (ch.conn.ws.readyState === WebSocket.OPEN) ch.conn.ws.send(frame, { binary: false });
      }
    }
  }

  /** HTTP sends to private topics: the INSERT policies of realtime.messages, per topic. */
  async function mayWrite(
    verified: Extract<Verified, { ok: true }>,
    topics: string[],
  ): Promise<boolean> {
    const viewer: Viewer = { role: verified.role, claims: verified.claims };
    for (const topic of topics) if (!(await capture.authorize(viewer, topic)).write) return false;
    return true;
  }

  async function handleHttp(req: IncomingMessage, res: ServerResponse, path: string) {
    const clean = path.replace(/\/+$/, '');
    const single = /^\/api\/broadcast\/([^/]+)\/events\/([^/]+)$/.exec(clean);
    if (clean !== '/api/broadcast' && !single) return json(res, 404, { message: 'Not found' });
    if (req.method !== 'POST') return json(res, 405, { message: 'Method not allowed' });
    const url = new URL(req.url ?? '/', 'http://realtime');
    const bearer = /^Bearer\s+(.+)$/i.exec(req.headers.authorization ?? '')?.[1];
    const header = req.headers['apikey'];
    const apikey =
      (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey') ?? undefined;
    const verified = await verify(bearer && !bearer.startsWith('sb_') ? bearer : apikey);
    if (!verified.ok) return json(res, 401, { message: verified.reason });
    let body: Buffer;
    try {
      body = await readBody(req);
    } catch {
      return json(res, 413, { message: 'Payload too large' });
    }
    if (single) {
      const isPrivate = url.searchParams.get('private') === 'true';
      const topic = decodeURIComponent(single[1]!);
      const event = decodeURIComponent(single[2]!);
      if (isPrivate && !(await mayWrite(verified, [topic])))
        return json(res, 403, {
          message: 'You do not have permissions to write to this Channel topic',
        });
      if (/^application\/octet-stream/i.test(req.headers['content-type'] ?? '')) {
        serverBroadcast(topic, isPrivate, event, undefined, body);
      } else {
        let payload: unknown;
        try {
          payload = JSON.parse(body.toString('utf8'));
        } catch {
          return json(res, 400, { message: 'The body must be JSON' });
        }
        serverBroadcast(topic, isPrivate, event, payload);
      }
      res.writeHead(202).end();
      return;
    }
    let parsed: unknown;
    try {
      parsed = JSON.parse(body.toString('utf8'));
    } catch {
      return json(res, 400, { message: 'The body must be JSON' });
    }
    const messages =
      isObject(parsed) && Array.isArray(parsed.messages) ? parsed.messages : undefined;
    if (
      !messages ||
      !messages.every(
        (m) => isObject(m) && typeof m.topic === 'string' && typeof m.event === 'string',
      )
    ) {
      return json(res, 422, {
        message: 'Expected {messages: [{topic, event, payload, private?}]}',
      });
    }
    const list = messages as Array<{
      topic: string;
      event: string;
      payload?: unknown;
      private?: unknown;
    }>;
    const privateTopics = [...new Set(list.filter((m) => m.private === true).map((m) => m.topic))];
    if (privateTopics.length > 0 && !(await mayWrite(verified, privateTopics))) {
      return json(res, 403, {
        message: 'You do not have permissions to write to this Channel topic',
      });
    }
    for (const m of list) serverBroadcast(m.topic, m.private === true, m.event, m.payload ?? {});
    res.writeHead(202).end();
  }

  // ---- socket ---------------------------------------------------------------------------------

  function handle(conn: Conn, msg: Message) {
    if (msg.topic === 'phoenix') {
      if (msg.event === 'heartbeat') reply(conn, msg, 'ok');
      return;
    }
    if (msg.event === 'phx_join') {
      void join(conn, msg).catch((err: Error) => {
        log(`join ${msg.topic} failed: ${err.message}`);
        reply(conn, msg, 'error', { reason: 'UnknownErrorOnChannel: Unknown Error on Channel' });
      });
      return;
    }
    const ch = conn.channels.get(msg.topic);
    if (!ch) {
      // leaving a channel the server no longer has still succeeds, so the client can close it
      reply(
        conn,
        msg,
        msg.event === 'phx_leave' ? 'ok' : 'error',
        msg.event === 'phx_leave' ? {} : { reason: 'unmatched topic' },
      );
      return;
    }
    switch (msg.event) {
      case 'phx_leave':
        removeChannel(ch);
        reply(conn, msg, 'ok');
        push(ch, 'phx_close', {});
        return;
      case 'access_token':
        void accessToken(ch, isObject(msg.payload) ? msg.payload : {}).catch((err: Error) =>
          log(`access_token: ${err.message}`),
        );
        return;
      case 'broadcast':
        return broadcastJson(ch, msg);
      case 'presence':
        return handlePresence(ch, msg);
      default:
        log(`ignored ${msg.event} on ${msg.topic}`);
    }
  }

  function onConnection(ws: WebSocket, vsn: Vsn, apikey: string | undefined) {
    const conn: Conn = {
      ws,
      vsn,
      apikey,
      channels: new Map(),
      lastSeen: Date.now(),
      closed: false,
    };
    conns.add(conn);
    ws.on('message', (data: RawData, isBinary: boolean) => {
      conn.lastSeen = Date.now();
      try {
        const buf = Array.isArray(data)
          ? Buffer.concat(data)
          : Buffer.isBuffer(data)
            ? data
            : Buffer.from(data);
        if (isBinary) {
          const b = decodeBinary(buf);
          if (b) broadcastBinary(conn, b);
          else log('ignored an unknown binary frame');
          return;
        }
        const msg = decodeText(buf.toString('utf8'));
        if (!msg) {
          log('ignored a frame that is not a Phoenix message');
          return;
        }
        handle(conn, msg);
      } catch (err) {
        log(`error handling a frame: ${(err as Error).message}`);
      }
    });
    ws.on('error', (err) => log(`socket error: ${err.message}`));
    ws.on('close', () => {
      conn.closed = true;
      conns.delete(conn);
      for (const ch of [...conn.channels.values()]) removeChannel(ch);
    });
  }

  return {
    upgrade(req, socket, head, path) {
      if (closing || path.replace(/\/+$/, '') !== '/websocket') {
        socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      const url = new URL(req.url ?? '/', 'http://realtime');
      const requested = url.searchParams.get('vsn') ?? '1.0.0';
      const vsn: Vsn | undefined = requested.startsWith('2.')
        ? '2.0.0'
        : requested.startsWith('1.')
          ? '1.0.0'
          : undefined;
      if (!vsn) {
        socket.end('HTTP/1.1 403 Forbidden\r\nconnection: close\r\ncontent-length: 0\r\n\r\n');
        return;
      }
      const header = req.headers['apikey'];
      const apikey = url.searchParams.get('apikey') ?? (Array.isArray(header) ? header[0] : header);
      wss.handleUpgrade(req, socket, head, (ws) => onConnection(ws, vsn, apikey));
    },
    async handle(req, res, path) {
      try {
        await handleHttp(req, res, path);
      } catch (err) {
        log(`http ${path} failed: ${(err as Error).message}`);
        if (!res.headersSent) json(res, 500, { message: 'Internal error' });
        else res.destroy();
      }
    },
    async close() {
      closing = true;
      clearInterval(sweep);
      for (const conn of conns) {
        for (const ch of conn.channels.values()) if (ch.expiryTimer) clearTimeout(ch.expiryTimer);
        conn.ws.terminate();
      }
      conns.clear();
      await new Promise<void>((resolve) => wss.close(() => resolve()));
      queue.length = 0;
      await draining?.catch(() => {});
      await capture.close();
    },
  };
}
