// What the local Realtime server keeps per socket (Conn) and per joined topic (Channel), and the
// frames it sends to one socket: replies, pushes and system messages.
import { WebSocket } from 'ws';
import type { Viewer } from './changes.ts';
import type { Condition } from './filters.ts';
import { encodeText, type Message, type Vsn } from './protocol.ts';

export interface Subscription {
  id: number;
  /** the client's params, echoed back with the id in the join reply */
  params: Record<string, unknown>;
  event: string;
  schema: string;
  table: string | undefined;
  conditions: Condition[];
}

export interface Conn {
  ws: WebSocket;
  vsn: Vsn;
  apikey: string | undefined;
  channels: Map<string, Channel>;
  lastSeen: number;
  closed: boolean;
}

export interface Channel {
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

/** The reference of a message a reply answers. */
export type Ref = Pick<Message, 'join_ref' | 'ref' | 'topic'>;

export const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** Public and private channels of one name are apart, as on Supabase. */
export const groupKey = (ch: Pick<Channel, 'private' | 'topic'>): string =>
  `${ch.private ? 'private' : 'public'}|${ch.topic}`;

/** Whether the channel is still the one its socket has joined on its topic (not left or replaced). */
export const isCurrent = (ch: Channel): boolean => ch.conn.channels.get(ch.topic) === ch;

/**
 * What a socket may have waiting to be sent before it is closed. A client that reads nothing
 * makes every reply and push wait in this process (each frame it sends gets a reply that echoes
 * its topic and ref): one socket that wrote 300 MB of frames and read nothing took the stack's
 * process from 140 to 580 MB, and a few of them were an out-of-memory kill of the whole stack. A
 * viewer that reads is never near this (a change is a few hundred bytes); one this far behind
 * joins again and reads the block afresh, as after any lost connection.
 */
export const MAX_UNSENT_BYTES = 1024 * 1024;

/** Writes one already encoded frame; a closing socket is skipped, one too far behind closed. */
export function write(conn: Conn, frame: string | Buffer, binary = false): void {
  if (conn.ws.readyState !== WebSocket.OPEN) return;
  if (conn.ws.bufferedAmount > MAX_UNSENT_BYTES) return void conn.ws.terminate();
  conn.ws.send(frame, { binary });
}

export function send(conn: Conn, msg: Message): void {
  write(conn, encodeText(conn.vsn, msg));
}

export function reply(conn: Conn, msg: Ref, status: 'ok' | 'error', response: unknown = {}): void {
  send(conn, {
    join_ref: msg.join_ref,
    ref: msg.ref,
    topic: msg.topic,
    event: 'phx_reply',
    payload: { status, response },
  });
}

export function push(
  ch: Channel,
  event: string,
  payload: unknown,
  joinRef: string | null = ch.joinRef,
): void {
  send(ch.conn, { join_ref: joinRef, ref: null, topic: ch.topic, event, payload });
}

export function system(
  ch: Channel,
  extension: 'system' | 'postgres_changes',
  status: 'ok' | 'error',
  message: string,
): void {
  push(ch, 'system', { extension, status, message, channel: ch.subTopic });
}
