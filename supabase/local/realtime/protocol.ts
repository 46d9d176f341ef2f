// Phoenix channel frames as @supabase/realtime-js speaks them.
//   vsn 1.0.0: text frames, JSON objects {join_ref, ref, topic, event, payload}
//   vsn 2.0.0 (the client's default): text frames, JSON arrays [join_ref, ref, topic, event, payload],
//     plus binary frames for user broadcasts: client -> server kind 3 "user broadcast push",
//     server -> client kind 4 "user broadcast".

export type Vsn = '1.0.0' | '2.0.0';

export interface Message {
  join_ref: string | null;
  ref: string | null;
  topic: string;
  event: string;
  payload: unknown;
}

/** A broadcast whose user payload arrived as bytes (binary frame): kept as bytes for v2 receivers. */
export interface BinaryBroadcast {
  joinRef: string | null;
  ref: string | null;
  topic: string;
  event: string;
  /** 0 = binary, 1 = JSON */
  encoding: number;
  metadata: string;
  payload: Buffer;
}

const KIND_USER_BROADCAST_PUSH = 3;
const KIND_USER_BROADCAST = 4;
export const JSON_ENCODING = 1;

const str = (v: unknown): string | null =>
  typeof v === 'string' ? v : typeof v === 'number' ? String(v) : null;

/** Parses a text frame (array or object form); undefined when it is not a Phoenix message. */
export function decodeText(text: string): Message | undefined {
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch {
    return undefined;
  }
  if (Array.isArray(raw)) {
    if (raw.length !== 5) return undefined;
    const [join_ref, ref, topic, event, payload] = raw as unknown[];
    if (typeof topic !== 'string' || typeof event !== 'string') return undefined;
    return { join_ref: str(join_ref), ref: str(ref), topic, event, payload };
  }
  if (raw && typeof raw === 'object') {
    const o = raw as Record<string, unknown>;
    if (typeof o.topic !== 'string' || typeof o.event !== 'string') return undefined;
    return {
      join_ref: str(o.join_ref),
      ref: str(o.ref),
      topic: o.topic,
      event: o.event,
      payload: o.payload,
    };
  }
  return undefined;
}

/** Parses a binary frame; only the user broadcast push is defined for client -> server. */
export function decodeBinary(buf: Buffer): BinaryBroadcast | undefined {
  if (buf.length < 7 || buf[0] !== KIND_USER_BROADCAST_PUSH) return undefined;
  const [joinRefLen, refLen, topicLen, eventLen, metaLen, encoding] = [
    buf[1]!,
    buf[2]!,
    buf[3]!,
    buf[4]!,
    buf[5]!,
    buf[6]!,
  ];
  let offset = 7;
  const take = (n: number) => {
    if (offset + n > buf.length) throw new RangeError('truncated frame');
    const s = buf.subarray(offset, offset + n).toString('utf8');
    offset += n;
    return s;
  };
  try {
    const joinRef = take(joinRefLen);
    const ref = take(refLen);
    const topic = take(topicLen);
    const event = take(eventLen);
    const metadata = take(metaLen);
    return {
      joinRef: joinRef || null,
      ref: ref || null,
      topic,
      event,
      encoding,
      metadata,
      payload: Buffer.from(buf.subarray(offset)),
    };
  } catch {
    return undefined;
  }
}

export function encodeText(vsn: Vsn, msg: Message): string {
  if (vsn === '1.0.0') return JSON.stringify(msg);
  return JSON.stringify([msg.join_ref, msg.ref, msg.topic, msg.event, msg.payload]);
}

/** Server -> client user broadcast (kind 4): topic, event, metadata, then the payload bytes. */
export function encodeUserBroadcast(topic: string, b: BinaryBroadcast): Buffer | undefined {
  const t = Buffer.from(topic, 'utf8');
  const e = Buffer.from(b.event, 'utf8');
  const m = Buffer.from(b.metadata, 'utf8');
  if (t.length > 255 || e.length > 255 || m.length > 255) return undefined;
  const header = Buffer.from([KIND_USER_BROADCAST, t.length, e.length, m.length, b.encoding]);
  return Buffer.concat([header, t, e, m, b.payload]);
}

/** The JSON form of a binary broadcast, for v1 receivers (JSON-encoded payloads only). */
export function broadcastAsJson(b: BinaryBroadcast): Record<string, unknown> | undefined {
  if (b.encoding !== JSON_ENCODING) return undefined;
  try {
    const out: Record<string, unknown> = {
      type: 'broadcast',
      event: b.event,
      payload: JSON.parse(b.payload.toString('utf8')) as unknown,
    };
    if (b.metadata) out.meta = JSON.parse(b.metadata) as unknown;
    return out;
  } catch {
    return undefined;
  }
}
