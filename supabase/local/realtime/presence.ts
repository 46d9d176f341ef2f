// Presence: track/untrack of a channel's key, the whole state for a member that turns presence on,
// and diffs (joins, leaves) for the other members of the topic.
import { randomUUID } from 'node:crypto';
import { groupKey, isObject, push, reply, type Channel } from './channel.ts';
import type { Message } from './protocol.ts';
import type { Registry } from './registry.ts';

type Meta = Record<string, unknown>;
type State = Record<string, { metas: Meta[] }>;
interface Diff {
  joins: Record<string, unknown>;
  leaves: Record<string, unknown>;
}

export class Presence {
  /** group -> presence key -> phx_ref -> meta */
  private readonly groups = new Map<string, Map<string, Map<string, Meta>>>();

  constructor(private readonly registry: Registry) {}

  state(key: string): State {
    const state: State = {};
    for (const [pkey, refs] of this.groups.get(key) ?? []) {
      if (refs.size > 0) state[pkey] = { metas: [...refs.values()] };
    }
    return state;
  }

  private diff(ch: Channel, diff: Diff, except?: Channel): void {
    this.registry.fanOut(
      groupKey(ch),
      { join_ref: null, ref: null, topic: ch.topic, event: 'presence_diff', payload: diff },
      (other) => other !== except && other.presenceEnabled,
    );
  }

  /** Removes the channel's tracked meta, if any, and tells the others it left. */
  untrack(ch: Channel): void {
    if (!ch.presenceRef) return;
    const key = groupKey(ch);
    const byKey = this.groups.get(key);
    const refs = byKey?.get(ch.presenceKey);
    const meta = refs?.get(ch.presenceRef);
    refs?.delete(ch.presenceRef);
    if (refs && refs.size === 0) byKey!.delete(ch.presenceKey);
    if (byKey?.size === 0) this.groups.delete(key);
    ch.presenceRef = undefined;
    if (meta) this.diff(ch, { joins: {}, leaves: { [ch.presenceKey]: { metas: [meta] } } });
  }

  /** A `presence` message: `{event: 'track', payload}` or `{event: 'untrack'}`. */
  handle(ch: Channel, msg: Message): void {
    const payload = isObject(msg.payload) ? msg.payload : {};
    if (payload.event === 'untrack') {
      this.untrack(ch);
      return reply(ch.conn, msg, 'ok');
    }
    if (payload.event !== 'track')
      return reply(ch.conn, msg, 'error', { reason: 'unknown presence event' });
    const userMeta = payload.payload ?? {};
    if (!isObject(userMeta))
      return reply(ch.conn, msg, 'error', { reason: 'Presence track payload must be a map' });
    reply(ch.conn, msg, 'ok');
    this.track(ch, userMeta);
  }

  private track(ch: Channel, userMeta: Meta): void {
    const key = groupKey(ch);
    let byKey = this.groups.get(key);
    if (!byKey) this.groups.set(key, (byKey = new Map()));
    let refs = byKey.get(ch.presenceKey);
    if (!refs) byKey.set(ch.presenceKey, (refs = new Map()));

    const leaves: Record<string, unknown> = {};
    const previousRef = ch.presenceRef;
    const previousMeta = previousRef ? refs.get(previousRef) : undefined;
    if (previousRef) refs.delete(previousRef);
    if (previousMeta) leaves[ch.presenceKey] = { metas: [previousMeta] };
    const ref = randomUUID().replace(/-/g, '').slice(0, 16);
    const meta: Meta = { ...userMeta, phx_ref: ref };
    if (previousRef) meta.phx_ref_prev = previousRef;
    refs.set(ref, meta);
    ch.presenceRef = ref;

    const diff = { joins: { [ch.presenceKey]: { metas: [meta] } }, leaves };
    if (!ch.presenceEnabled) {
      // tracking turns presence on for this channel: it gets the whole state, the others a diff
      ch.presenceEnabled = true;
      push(ch, 'presence_state', this.state(key));
      this.diff(ch, diff, ch);
    } else {
      this.diff(ch, diff);
    }
  }
}
