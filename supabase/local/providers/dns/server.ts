// A tiny authoritative DNS server for the local zone, over UDP and TCP on one port: TXT, A and
// CNAME answers (following CNAMEs inside the zone; rotating A records one per query), NODATA for other types at a name that
// exists, NXDOMAIN otherwise, with an SOA in the authority section of negative answers.
// Functions point Deno.resolveDns at it with `nameServer: { ipAddr, port }` (DNS_NAMESERVER).
import dgram from 'node:dgram';
import net from 'node:net';
import type { Log } from '../../process.ts';
import {
  CLASS_IN,
  decode,
  DnsFormatError,
  encode,
  optRecord,
  RCODE,
  TYPE,
  txtStrings,
  type Message,
  type ResourceRecord,
} from './wire.ts';
import type { Zone, ZoneRecord } from './zone.ts';

const MAX_CNAME_CHAIN = 8;
/**
 * What a TCP client may have unread before it is closed. Each query is answered whether the
 * client reads or not, and the answers wait in this process: one connection that wrote 30 MB
 * of queries and read nothing took the stack's process from 0.5 to 0.84 GB. A resolver reads
 * its answer (a few hundred bytes) before it asks again.
 */
export const MAX_UNREAD_TCP_BYTES = 1024 * 1024;
const SOA_TTL = 0;

const wireType = (r: ZoneRecord) =>
  r.type === 'TXT' ? TYPE.TXT : r.type === 'A' ? TYPE.A : TYPE.CNAME;

function toWire(owner: string, r: ZoneRecord): ResourceRecord {
  return {
    name: owner,
    type: wireType(r),
    class: CLASS_IN,
    ttl: r.ttl,
    data: r.type === 'TXT' ? txtStrings(r.value) : r.value,
  };
}

/** The SOA of a negative answer; the apex is taken as the name's last two labels. */
function soa(name: string): ResourceRecord {
  const apex = name.split('.').slice(-2).join('.');
  return {
    name: apex,
    type: TYPE.SOA,
    class: CLASS_IN,
    ttl: SOA_TTL,
    data: {
      mname: 'ns.providers.localhost',
      rname: 'hostmaster.providers.localhost',
      serial: 1,
      refresh: 3600,
      retry: 600,
      expire: 86_400,
      minimum: SOA_TTL,
    },
  };
}

/** Builds the answer to one query message (the zone is only read, but for rotating records' turn). */
export function answer(zone: Zone, query: Message): Message {
  const reply: Message = {
    id: query.id,
    response: true,
    opcode: query.opcode,
    authoritative: true,
    truncated: false,
    recursionDesired: query.recursionDesired,
    recursionAvailable: false,
    rcode: RCODE.NOERROR,
    questions: query.questions,
    answers: [],
    authorities: [],
    additionals: [],
  };
  if (query.additionals.some((r) => r.type === TYPE.OPT)) reply.additionals.push(optRecord(1232));
  if (query.opcode !== 0) return { ...reply, authoritative: false, rcode: RCODE.NOTIMP };
  const q = query.questions[0];
  if (query.questions.length !== 1 || !q) return { ...reply, rcode: RCODE.FORMERR };
  if (q.class !== CLASS_IN && q.class !== 255) return { ...reply, rcode: RCODE.REFUSED };

  let owner = q.name;
  for (let hop = 0; hop <= MAX_CNAME_CHAIN; hop++) {
    const records = zone.at(owner);
    if (records.length === 0) {
      if (hop === 0 && !zone.exists(owner)) {
        reply.rcode = RCODE.NXDOMAIN;
        reply.authorities.push(soa(owner));
      }
      // a CNAME pointing out of the zone: the resolver follows it elsewhere
      return reply;
    }
    const wanted = records.filter((r) => q.type === TYPE.ANY || wireType(r) === q.type);
    if (wanted.length) {
      reply.answers.push(...zone.inTurn(owner, wanted).map((r) => toWire(owner, r)));
      return reply;
    }
    const cname = records.find((r) => r.type === 'CNAME');
    if (!cname) {
      reply.authorities.push(soa(owner)); // NODATA
      return reply;
    }
    reply.answers.push(toWire(owner, cname));
    owner = cname.value;
  }
  return { ...reply, rcode: RCODE.SERVFAIL, answers: [] };
}

/**
 * Answers one wire-format query; undefined when it is not worth an answer (not even a header).
 * Over UDP an answer is at most 512 bytes, or the size the query's EDNS0 OPT record offers.
 */
export function respond(zone: Zone, packet: Buffer, transport: 'udp' | 'tcp'): Buffer | undefined {
  let query: Message;
  try {
    query = decode(packet);
  } catch (err) {
    if (!(err instanceof DnsFormatError) || packet.length < 12) return undefined;
    const header = { id: packet.readUInt16BE(0), flags: packet.readUInt16BE(2) };
    if (header.flags & 0x8000) return undefined;
    return encode({
      id: header.id,
      response: true,
      opcode: (header.flags >> 11) & 0xf,
      authoritative: false,
      truncated: false,
      recursionDesired: (header.flags & 0x0100) !== 0,
      recursionAvailable: false,
      rcode: RCODE.FORMERR,
      questions: [],
      answers: [],
      authorities: [],
      additionals: [],
    });
  }
  if (query.response) return undefined;
  const reply = answer(zone, query);
  const opt = query.additionals.find((r) => r.type === TYPE.OPT);
  const limit = transport === 'tcp' ? 65_535 : Math.min(4096, opt ? Math.max(512, opt.class) : 512);
  const wire = encode(reply);
  if (wire.length <= limit) return wire;
  // too big for UDP: say so, the resolver retries over TCP
  return encode({ ...reply, truncated: true, answers: [], authorities: [] });
}

export interface DnsServer {
  port: number;
  close(): Promise<void>;
}

interface DnsServerOptions {
  zone: Zone;
  port: number;
  host?: string;
  log?: Log;
}

/**
 * The DNS stand-in on UDP and TCP, one port number for both. With port 0 the UDP socket picks a
 * free port and TCP takes the same number, which another process may hold already (seen once in
 * a full test run: EADDRINUSE): then both are tried again on a new number, a few times.
 */
export async function startDnsServer(opts: DnsServerOptions): Promise<DnsServer> {
  for (let tries = 1; ; tries++) {
    try {
      return await listenBoth(opts);
    } catch (err) {
      if (opts.port !== 0 || tries >= 20 || !/EADDRINUSE/.test((err as Error).message)) throw err;
    }
  }
}

async function listenBoth(opts: DnsServerOptions): Promise<DnsServer> {
  const host = opts.host ?? '127.0.0.1';
  const log = opts.log ?? (() => {});
  const udp = dgram.createSocket('udp4');
  udp.on('message', (packet, peer) => {
    const out = respond(opts.zone, packet, 'udp');
    if (out) udp.send(out, peer.port, peer.address);
  });
  udp.on('error', (err) => log('dns', `udp error: ${err.message}`));
  await new Promise<void>((resolve, reject) => {
    udp.once('error', reject);
    udp.bind(opts.port, host, () => {
      udp.off('error', reject);
      resolve();
    });
  });
  const port = udp.address().port;

  // DNS over TCP: two-byte length before each message (RFC 1035 4.2.2)
  const sockets = new Set<net.Socket>();
  const tcp = net.createServer((socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
    socket.on('error', () => socket.destroy());
    socket.setTimeout(10_000, () => socket.destroy());
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      while (pending.length >= 2) {
        const length = pending.readUInt16BE(0);
        if (pending.length < 2 + length) break;
        const out = respond(opts.zone, pending.subarray(2, 2 + length), 'tcp');
        pending = pending.subarray(2 + length);
        if (!out) continue;
        if (socket.writableLength > MAX_UNREAD_TCP_BYTES) return void socket.destroy();
        const framed = Buffer.alloc(2 + out.length);
        framed.writeUInt16BE(out.length, 0);
        out.copy(framed, 2);
        socket.write(framed);
      }
    });
  });
  await new Promise<void>((resolve, reject) => {
    tcp.once('error', reject);
    tcp.listen(port, host, () => {
      tcp.off('error', reject);
      resolve();
    });
  }).catch((err: Error) => {
    udp.close();
    throw new Error(`DNS port ${port}: ${err.message}`);
  });

  return {
    port,
    close: async () => {
      for (const s of sockets) s.destroy();
      await Promise.all([
        new Promise<void>((resolve) => udp.close(() => resolve())),
        new Promise<void>((resolve) => tcp.close(() => resolve())),
      ]);
    },
  };
}
