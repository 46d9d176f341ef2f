// The DNS message format (RFC 1035 section 4, EDNS0's OPT record from RFC 6891): just what an
// authoritative server answering TXT and CNAME questions needs. Names are written uncompressed;
// names read may use compression pointers.

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
  class: number;
  ttl: number;
  /** TXT: its character-strings; CNAME/NS: the target name; SOA: the fields; others: raw bytes. */
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

export class DnsFormatError extends Error {}

// ---- decoding ----

function readName(buf: Uint8Array, start: number): { name: string; next: number } {
  const labels: string[] = [];
  let offset = start;
  let next = -1;
  let jumps = 0;
  for (;;) {
    if (offset >= buf.length) throw new DnsFormatError('name runs past the message');
    const len = buf[offset]!;
    if (len === 0) {
      offset += 1;
      break;
    }
    if ((len & 0xc0) === 0xc0) {
      if (offset + 1 >= buf.length) throw new DnsFormatError('truncated pointer');
      if (++jumps > 32) throw new DnsFormatError('compression loop');
      if (next < 0) next = offset + 2;
      offset = ((len & 0x3f) << 8) | buf[offset + 1]!;
      continue;
    }
    if (len > 63) throw new DnsFormatError('label longer than 63');
    if (offset + 1 + len > buf.length) throw new DnsFormatError('label runs past the message');
    labels.push(Buffer.from(buf.subarray(offset + 1, offset + 1 + len)).toString('latin1'));
    offset += 1 + len;
  }
  return { name: labels.join('.'), next: next < 0 ? offset : next };
}

function u16(buf: Uint8Array, at: number): number {
  if (at + 2 > buf.length) throw new DnsFormatError('message too short');
  return (buf[at]! << 8) | buf[at + 1]!;
}

function u32(buf: Uint8Array, at: number): number {
  return u16(buf, at) * 0x10000 + u16(buf, at + 2);
}

function readRecord(buf: Uint8Array, at: number): { record: ResourceRecord; next: number } {
  const { name, next } = readName(buf, at);
  const type = u16(buf, next);
  const klass = u16(buf, next + 2);
  const ttl = u32(buf, next + 4);
  const length = u16(buf, next + 8);
  const start = next + 10;
  if (start + length > buf.length) throw new DnsFormatError('record data runs past the message');
  const raw = buf.subarray(start, start + length);
  let data: ResourceRecord['data'] = new Uint8Array(raw);
  if (type === TYPE.TXT) {
    const strings: string[] = [];
    for (let i = 0; i < raw.length;) {
      const n = raw[i]!;
      if (i + 1 + n > raw.length) throw new DnsFormatError('TXT string runs past its record');
      strings.push(Buffer.from(raw.subarray(i + 1, i + 1 + n)).toString('utf8'));
      i += 1 + n;
    }
    data = strings;
  } else if (type === TYPE.CNAME || type === TYPE.NS) {
    data = readName(buf, start).name;
  } else if (type === TYPE.SOA) {
    const m = readName(buf, start);
    const r = readName(buf, m.next);
    data = {
      mname: m.name,
      rname: r.name,
      serial: u32(buf, r.next),
      refresh: u32(buf, r.next + 4),
      retry: u32(buf, r.next + 8),
      expire: u32(buf, r.next + 12),
      minimum: u32(buf, r.next + 16),
    };
  }
  return { record: { name, type, class: klass, ttl, data }, next: start + length };
}

export function decode(buf: Uint8Array): Message {
  if (buf.length < 12) throw new DnsFormatError('shorter than a header');
  const flags = u16(buf, 2);
  const counts = [u16(buf, 4), u16(buf, 6), u16(buf, 8), u16(buf, 10)] as const;
  let at = 12;
  const questions: Question[] = [];
  for (let i = 0; i < counts[0]; i++) {
    const { name, next } = readName(buf, at);
    questions.push({ name, type: u16(buf, next), class: u16(buf, next + 2) });
    at = next + 4;
  }
  const sections: ResourceRecord[][] = [[], [], []];
  for (let s = 0; s < 3; s++) {
    for (let i = 0; i < counts[s + 1]!; i++) {
      const { record, next } = readRecord(buf, at);
      sections[s]!.push(record);
      at = next;
    }
  }
  return {
    id: u16(buf, 0),
    response: (flags & 0x8000) !== 0,
    opcode: (flags >> 11) & 0xf,
    authoritative: (flags & 0x0400) !== 0,
    truncated: (flags & 0x0200) !== 0,
    recursionDesired: (flags & 0x0100) !== 0,
    recursionAvailable: (flags & 0x0080) !== 0,
    rcode: flags & 0xf,
    questions,
    answers: sections[0]!,
    authorities: sections[1]!,
    additionals: sections[2]!,
  };
}

// ---- encoding ----

class Writer {
  private buf = Buffer.alloc(512);
  length = 0;

  private ensure(n: number) {
    if (this.length + n <= this.buf.length) return;
    const bigger = Buffer.alloc(Math.max(this.buf.length * 2, this.length + n));
    this.buf.copy(bigger, 0, 0, this.length);
    this.buf = bigger;
  }
  u8(v: number) {
    this.ensure(1);
    this.buf[this.length++] = v & 0xff;
  }
  u16(v: number) {
    this.ensure(2);
    this.buf.writeUInt16BE(v & 0xffff, this.length);
    this.length += 2;
  }
  u32(v: number) {
    this.ensure(4);
    this.buf.writeUInt32BE(v >>> 0, this.length);
    this.length += 4;
  }
  bytes(b: Uint8Array) {
    this.ensure(b.length);
    this.buf.set(b, this.length);
    this.length += b.length;
  }
  setU16(at: number, v: number) {
    this.buf.writeUInt16BE(v & 0xffff, at);
  }
  name(name: string) {
    const trimmed = name.replace(/\.$/, '');
    if (trimmed !== '') {
      for (const label of trimmed.split('.')) {
        const bytes = Buffer.from(label, 'latin1');
        if (bytes.length === 0 || bytes.length > 63) {
          throw new DnsFormatError(`bad label in "${name}"`);
        }
        this.u8(bytes.length);
        this.bytes(bytes);
      }
    }
    this.u8(0);
  }
  result(): Buffer {
    return Buffer.from(this.buf.subarray(0, this.length));
  }
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

function writeRecord(w: Writer, r: ResourceRecord) {
  w.name(r.name);
  w.u16(r.type);
  w.u16(r.class);
  w.u32(r.ttl);
  const lengthAt = w.length;
  w.u16(0);
  const start = w.length;
  if (Array.isArray(r.data)) {
    for (const s of r.data) {
      const bytes = Buffer.from(s, 'utf8');
      if (bytes.length > 255) throw new DnsFormatError('TXT string longer than 255 bytes');
      w.u8(bytes.length);
      w.bytes(bytes);
    }
  } else if (typeof r.data === 'string') {
    w.name(r.data);
  } else if (r.data instanceof Uint8Array) {
    w.bytes(r.data);
  } else {
    w.name(r.data.mname);
    w.name(r.data.rname);
    w.u32(r.data.serial);
    w.u32(r.data.refresh);
    w.u32(r.data.retry);
    w.u32(r.data.expire);
    w.u32(r.data.minimum);
  }
  w.setU16(lengthAt, w.length - start);
}

export function encode(m: Message): Buffer {
  const w = new Writer();
  w.u16(m.id);
  w.u16(
    (m.response ? 0x8000 : 0) |
      ((m.opcode & 0xf) << 11) |
      (m.authoritative ? 0x0400 : 0) |
      (m.truncated ? 0x0200 : 0) |
      (m.recursionDesired ? 0x0100 : 0) |
      (m.recursionAvailable ? 0x0080 : 0) |
      (m.rcode & 0xf),
  );
  w.u16(m.questions.length);
  w.u16(m.answers.length);
  w.u16(m.authorities.length);
  w.u16(m.additionals.length);
  for (const q of m.questions) {
    w.name(q.name);
    w.u16(q.type);
    w.u16(q.class);
  }
  for (const r of [...m.answers, ...m.authorities, ...m.additionals]) writeRecord(w, r);
  return w.result();
}

/** An EDNS0 OPT pseudo-record advertising `payloadSize` bytes over UDP. */
export const optRecord = (payloadSize: number): ResourceRecord => ({
  name: '',
  type: TYPE.OPT,
  class: payloadSize,
  ttl: 0,
  data: new Uint8Array(0),
});
