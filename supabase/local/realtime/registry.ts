// Who is joined where: every open socket, and the channels of each topic (one group per topic and
// privacy). A message to a topic is encoded once per protocol version and the same frame is
// written to every member, so fanning out to thousands of viewers never serialises the payload
// once per viewer.
import { groupKey, write, type Channel, type Conn } from './channel.ts';
import { encodeText, type Message, type Vsn } from './protocol.ts';

export class Registry {
  readonly conns = new Set<Conn>();
  private readonly groups = new Map<string, Set<Channel>>();

  members(key: string): Iterable<Channel> {
    return this.groups.get(key) ?? [];
  }

  /** Every channel of every socket (postgres_changes matches subscriptions across all of them). */
  *channels(): Iterable<Channel> {
    for (const conn of this.conns) yield* conn.channels.values();
  }

  add(ch: Channel): void {
    ch.conn.channels.set(ch.topic, ch);
    const key = groupKey(ch);
    let members = this.groups.get(key);
    if (!members) this.groups.set(key, (members = new Set()));
    members.add(ch);
  }

  /** Forgets the channel (its presence is the caller's: see Presence.untrack). */
  remove(ch: Channel): void {
    if (ch.expiryTimer) clearTimeout(ch.expiryTimer);
    ch.expiryTimer = undefined;
    if (ch.conn.channels.get(ch.topic) === ch) ch.conn.channels.delete(ch.topic);
    const key = groupKey(ch);
    const members = this.groups.get(key);
    members?.delete(ch);
    if (members && members.size === 0) this.groups.delete(key);
  }

  /**
   * Sends `msg` to every member of group `key` that `include` accepts, encoded once per protocol
   * version. `msg.topic` is the members' topic (the same for the whole group).
   */
  fanOut(key: string, msg: Message, include: (ch: Channel) => boolean = () => true): void {
    const frames = new Map<Vsn, Buffer>();
    for (const ch of this.members(key)) {
      if (!include(ch)) continue;
      const vsn = ch.conn.vsn;
      let frame = frames.get(vsn);
      if (!frame) frames.set(vsn, (frame = Buffer.from(encodeText(vsn, msg))));
      write(ch.conn, frame);
    }
  }

  /** Sends one binary frame to every member `include` accepts. */
  fanOutBinary(key: string, frame: Buffer, include: (ch: Channel) => boolean): void {
    for (const ch of this.members(key)) if (include(ch)) write(ch.conn, frame, true);
  }
}
