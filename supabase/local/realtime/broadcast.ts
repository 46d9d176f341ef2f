// Broadcast: a member's message to the others on its topic (JSON, or a binary frame kept as bytes
// for protocol 2.0.0 receivers), and the server's own (HTTP and realtime.send in the database),
// which reaches every member. Each is encoded once and the same frame goes to every member.
import { groupKey, isObject, reply, type Channel, type Conn } from './channel.ts';
import type { Context } from './context.ts';
import {
  broadcastAsJson,
  encodeUserBroadcast,
  type BinaryBroadcast,
  type Message,
} from './protocol.ts';

const V2 = (ch: Channel) => ch.conn.vsn === '2.0.0';

export class Broadcasts {
  constructor(private readonly ctx: Context) {}

  /** Without an INSERT policy, a member of a private channel may not send on it. */
  private refused(ch: Channel): boolean {
    if (ch.canWrite) return false;
    this.ctx.log(
      `broadcast on ${ch.topic} dropped: no realtime.messages INSERT policy for this sender`,
    );
    return true;
  }

  /** A `broadcast` message from a member. */
  fromMember(ch: Channel, msg: Message): void {
    if (!isObject(msg.payload)) return;
    if (this.refused(ch)) {
      if (ch.ack)
        reply(ch.conn, msg, 'error', {
          reason: 'You do not have permissions to write to this Channel topic',
        });
      return;
    }
    this.ctx.registry.fanOut(
      groupKey(ch),
      { join_ref: null, ref: null, topic: ch.topic, event: 'broadcast', payload: msg.payload },
      (other) => other !== ch || ch.self,
    );
    if (ch.ack) reply(ch.conn, msg, 'ok');
  }

  /** A binary user broadcast push (protocol 2.0.0) from a member. */
  binaryFromMember(conn: Conn, b: BinaryBroadcast): void {
    const ref = { join_ref: b.joinRef, ref: b.ref, topic: b.topic };
    const ch = conn.channels.get(b.topic);
    if (!ch) {
      if (b.ref) reply(conn, ref, 'error', { reason: 'unmatched topic' });
      return;
    }
    if (this.refused(ch)) return;
    const others = (other: Channel) => other !== ch || ch.self;
    this.deliverBinary(ch.topic, groupKey(ch), b, others);
    if (ch.ack && b.ref) reply(conn, ref, 'ok');
  }

  /** Bytes to v2 members; their JSON form (JSON-encoded payloads only) to v1 members. */
  private deliverBinary(
    topic: string,
    key: string,
    b: BinaryBroadcast,
    include: (ch: Channel) => boolean,
  ): void {
    const { registry } = this.ctx;
    const frame = encodeUserBroadcast(topic, b);
    if (frame) registry.fanOutBinary(key, frame, (ch) => V2(ch) && include(ch));
    const json = broadcastAsJson(b);
    if (json)
      registry.fanOut(
        key,
        { join_ref: null, ref: null, topic, event: 'broadcast', payload: json },
        (ch) => !V2(ch) && include(ch),
      );
  }

  /**
   * A broadcast sent by the server side (HTTP, or realtime.send in the database): everyone on
   * the topic gets it, there is no sender to skip. `bytes`: a binary payload, for v2 members only.
   */
  fromServer(
    topic: string,
    isPrivate: boolean,
    event: string,
    payload: unknown,
    bytes?: Buffer,
  ): void {
    const fullTopic = `realtime:${topic}`;
    const key = groupKey({ private: isPrivate, topic: fullTopic });
    if (bytes) {
      const b: BinaryBroadcast = {
        joinRef: null,
        ref: null,
        topic: fullTopic,
        event,
        encoding: 0,
        metadata: '',
        payload: bytes,
      };
      // v1 cannot carry binary payloads
      const frame = encodeUserBroadcast(fullTopic, b);
      if (frame) this.ctx.registry.fanOutBinary(key, frame, V2);
      return;
    }
    this.ctx.registry.fanOut(key, {
      join_ref: null,
      ref: null,
      topic: fullTopic,
      event: 'broadcast',
      payload: { type: 'broadcast', event, payload },
    });
  }
}
