// DNS messages (RFC 1035 section 4, EDNS0's OPT record from RFC 6891) read and written by
// dns-packet, in the shape the local DNS server works with: types and classes as numbers, the
// header's flags as booleans, TXT data as strings, names without a trailing dot.
import { createRequire } from 'node:module';
import packet, { type Answer, type Packet } from 'dns-packet';

// dns-packet's own tables between a type's number and its name (UNKNOWN_<n> for others)
const types = createRequire(import.meta.url)('dns-packet/types') as {
  toString(type: number): string;
  toType(name: string): number;
};

export const TYPE = { A: 1, NS: 2, CNAME: 5, SOA: 6, MX: 15, TXT: 16, AAAA: 28, OPT: 41, ANY: 255 };
export const CLASS_IN = 1;
export const RCODE = { NOERROR: 0, FORMERR: 1, SERVFAIL: 2, NXDOMAIN: 3, NOTIMP: 4, REFUSED: 5 };

export interface Question {
  name: string;
  type: number;
  class: number;
}

export interface ResourceRecord {
  name: string;
  type: number;
  /** The class; for an OPT record, the UDP payload size it offers. */
  class: number;
  ttl: number;
  /** TXT: its character-strings; CNAME/NS: the target name; A: the address; SOA: the fields. */
  data: string[] | string | Soa | Uint8Array;
}

export interface Soa {
  mname: string;
  rname: string;
  serial: number;
  refresh: number;
  retry: number;
  expire: number;
  minimum: number;
}

export interface Message {
  id: number;
  /** QR bit: true for a response. */
  response: boolean;
  opcode: number;
  authoritative: boolean;
  truncated: boolean;
  recursionDesired: boolean;
  recursionAvailable: boolean;
  rcode: number;
  questions: Question[];
  answers: ResourceRecord[];
  authorities: ResourceRecord[];
  additionals: ResourceRecord[];
}

/** A message that is not DNS (dns-packet's errors, whatever they say). */
export class DnsFormatError extends Error {}

const bareName = (name: string) => (name === '.' ? '' : name.replace(/\.$/, ''));
// dns-packet's class names are IN, CS, CH, HS and ANY
const CLASS_NAMES: Record<number, string> = { 1: 'IN', 2: 'CS', 3: 'CH', 4: 'HS', 255: 'ANY' };
const classNumber = (name: string | undefined) =>
  Number(Object.entries(CLASS_NAMES).find(([, n]) => n === name)?.[0] ?? CLASS_IN);

function fromAnswer(a: Answer): ResourceRecord {
  const raw = a as Answer & { udpPayloadSize?: number; data?: unknown };
  if (a.type === 'OPT')
    return {
      name: '',
      type: TYPE.OPT,
      class: raw.udpPayloadSize ?? 512,
      ttl: 0,
      data: new Uint8Array(0),
    };
  const type = types.toType(a.type);
  const record = { name: bareName(a.name), type, class: classNumber(a.class), ttl: a.ttl ?? 0 };
  const data = raw.data;
  if (type === TYPE.TXT)
    return { ...record, data: (data as Buffer[]).map((s) => Buffer.from(s).toString('utf8')) };
  if (type === TYPE.CNAME || type === TYPE.NS) return { ...record, data: bareName(data as string) };
  if (type === TYPE.SOA) {
    const soa = data as Soa;
    return { ...record, data: { ...soa, mname: bareName(soa.mname), rname: bareName(soa.rname) } };
  }
  return { ...record, data: typeof data === 'string' ? data : new Uint8Array(data as Buffer) };
}

function toAnswer(r: ResourceRecord): Answer {
  if (r.type === TYPE.OPT)
    return { type: 'OPT', name: '.', udpPayloadSize: r.class, options: [] } as never;
  return {
    name: r.name,
    type: types.toString(r.type),
    class: CLASS_NAMES[r.class] ?? 'IN',
    ttl: r.ttl,
    data: r.data,
  } as never;
}

export function decode(buf: Uint8Array): Message {
  let p: Packet & { opcode?: string; rcode?: string };
  try {
    p = packet.decode(Buffer.from(buf));
  } catch (err) {
    throw new DnsFormatError(String((err as Error).message));
  }
  const flags = p.flags ?? 0;
  return {
    id: p.id ?? 0,
    response: p.type === 'response',
    opcode: (flags >> 11) & 0xf,
    authoritative: (flags & packet.AUTHORITATIVE_ANSWER) !== 0,
    truncated: (flags & packet.TRUNCATED_RESPONSE) !== 0,
    recursionDesired: (flags & packet.RECURSION_DESIRED) !== 0,
    recursionAvailable: (flags & packet.RECURSION_AVAILABLE) !== 0,
    rcode: flags & 0xf,
    questions: (p.questions ?? []).map((q) => ({
      name: bareName(q.name),
      type: types.toType(q.type),
      class: classNumber(q.class),
    })),
    answers: (p.answers ?? []).map(fromAnswer),
    authorities: (p.authorities ?? []).map(fromAnswer),
    additionals: (p.additionals ?? []).map(fromAnswer),
  };
}

export function encode(m: Message): Buffer {
  const flags =
    ((m.opcode & 0xf) << 11) |
    (m.authoritative ? packet.AUTHORITATIVE_ANSWER : 0) |
    (m.truncated ? packet.TRUNCATED_RESPONSE : 0) |
    (m.recursionDesired ? packet.RECURSION_DESIRED : 0) |
    (m.recursionAvailable ? packet.RECURSION_AVAILABLE : 0) |
    (m.rcode & 0xf);
  return packet.encode({
    id: m.id,
    type: m.response ? 'response' : 'query',
    flags,
    questions: m.questions.map((q) => ({
      name: q.name,
      type: types.toString(q.type),
      class: CLASS_NAMES[q.class] ?? 'IN',
    })) as never,
    answers: m.answers.map(toAnswer),
    authorities: m.authorities.map(toAnswer),
    additionals: m.additionals.map(toAnswer),
  });
}

/** Splits text into DNS character-strings of at most 255 bytes (UTF-8 kept whole). */
export function txtStrings(value: string): string[] {
  const out: string[] = [];
  let current = '';
  let size = 0;
  for (const ch of value) {
    const n = Buffer.byteLength(ch);
    if (size + n > 255) {
      out.push(current);
      current = '';
      size = 0;
    }
    current += ch;
    size += n;
  }
  out.push(current);
  return out;
}

/** An EDNS0 OPT pseudo-record advertising `payloadSize` bytes over UDP. */
export const optRecord = (payloadSize: number): ResourceRecord => ({
  name: '',
  type: TYPE.OPT,
  class: payloadSize,
  ttl: 0,
  data: new Uint8Array(0),
});
