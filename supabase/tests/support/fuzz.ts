// Malformed input for every local server: raw HTTP requests no client library would send (bad
// Host, bad request targets, headers over the limit, broken bodies and chunking, bad websocket
// handshakes and frames, plain garbage), slow clients that hold a connection open, and garbage
// datagrams for the DNS server. What each one answers is collected; the test then checks that
// every server still answers a normal request.
import { createSocket } from 'node:dgram';
import { connect, type Socket } from 'node:net';

/**
 * A raw TCP connection to the local server on `port`, settled once: `finish(result)` clears its
 * timer, destroys the socket and resolves with `result`; an error or the server's close finishes
 * it with `closed()`. `use` writes and reads; `timeout(ms, result)` finishes it with `result()`
 * after `ms` unless it has finished before.
 */
export function rawConnection<T>(
  port: number,
  closed: () => T,
  use: (
    socket: Socket,
    finish: (result: T) => void,
    timeout: (ms: number, result: () => T) => void,
  ) => void,
): Promise<T> {
  return new Promise((resolve) => {
    const socket = connect(port, '127.0.0.1');
    let timer: NodeJS.Timeout | undefined;
    let settled = false;
    const finish = (result: T) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      socket.destroy();
      resolve(result);
    };
    socket.on('error', () => finish(closed()));
    socket.on('close', () => finish(closed()));
    use(socket, finish, (ms, result) => {
      timer = setTimeout(() => finish(result()), ms);
    });
  });
}

/** The status of the answer (0: the server closed without one; -1: no answer in time). */
export type Outcome = number;

/** Sends raw bytes and reads the status line of the answer. */
export function sendRaw(
  port: number,
  payload: Buffer | string,
  timeoutMs = 5_000,
): Promise<Outcome> {
  let data = '';
  return rawConnection<Outcome>(
    port,
    () => 0,
    (socket, finish, timeout) => {
      timeout(timeoutMs, () => -1);
      socket.on('connect', () => socket.write(payload));
      socket.on('data', (chunk) => {
        data += chunk.toString('latin1');
        const status = /^HTTP\/1\.[01] (\d{3})/.exec(data);
        if (status) finish(Number(status[1]));
      });
    },
  );
}

/** Sends raw bytes and reads the whole answer until the server closes (Connection: close). */
export async function sendRawText(
  port: number,
  payload: string,
  timeoutMs = 10_000,
): Promise<string> {
  return (await readUntilClosed(port, payload, timeoutMs)).text;
}

/**
 * Sends raw bytes and reads the answer until the server closes, or `timeoutMs` (then `closed` is
 * false: the server kept the connection open).
 */
export function readUntilClosed(
  port: number,
  payload: string | Buffer,
  timeoutMs: number,
): Promise<{ text: string; closed: boolean }> {
  let text = '';
  return rawConnection<{ text: string; closed: boolean }>(
    port,
    () => ({ text, closed: true }),
    (socket, _finish, timeout) => {
      timeout(timeoutMs, () => ({ text, closed: false }));
      socket.on('connect', () => socket.write(payload));
      socket.on('data', (chunk) => (text += chunk.toString('utf8')));
    },
  );
}

const HOST = 'Host: 127.0.0.1\r\n';

/** Request heads and whole requests that break HTTP in one way each, for `path`. */
export function malformedRequests(path: string): string[] {
  const big = 'a'.repeat(64 * 1024);
  const many = Array.from({ length: 300 }, (_, i) => `X-H${i}: ${i}\r\n`).join('');
  return [
    `GET ${path} HTTP/1.1\r\nHost: x<y\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\nHost: [::1\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\nHost: a b\r\nHost: c\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\n\r\n`,
    `GET ${path}%zz%ff%00 HTTP/1.1\r\n${HOST}\r\n`,
    `GET http://[ HTTP/1.1\r\n${HOST}\r\n`,
    `GET //x:@/ HTTP/1.1\r\n${HOST}\r\n`,
    `GET ${path}/../../../../etc/passwd HTTP/1.1\r\n${HOST}\r\n`,
    `GET ${path}/%2e%2e/%2e%2e/%2e%2e/etc/passwd HTTP/1.1\r\n${HOST}\r\n`,
    `GET * HTTP/1.1\r\n${HOST}\r\n`,
    `BREW ${path} HTTP/1.1\r\n${HOST}\r\n`,
    `GET ${path} HTTP/9.9\r\n${HOST}\r\n`,
    `GET ${path}\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\n${HOST}X-Big: ${big}\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\n${HOST}${many}\r\n`,
    `GET ${path} HTTP/1.1\r\n${HOST}Bad Header\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\n${HOST}X-A: \u0000\u0001\r\n\r\n`,
    `POST ${path} HTTP/1.1\r\n${HOST}Content-Length: -1\r\n\r\n`,
    `POST ${path} HTTP/1.1\r\n${HOST}Content-Length: 5\r\nContent-Length: 6\r\n\r\nabcdef`,
    `POST ${path} HTTP/1.1\r\n${HOST}Content-Length: 3\r\nTransfer-Encoding: chunked\r\n\r\n0\r\n\r\n`,
    `POST ${path} HTTP/1.1\r\n${HOST}Transfer-Encoding: chunked\r\n\r\nzz\r\nnot hex\r\n`,
    `POST ${path} HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 9\r\n\r\n{"a":[1,}`,
    `POST ${path} HTTP/1.1\r\n${HOST}Content-Type: application/json\r\nContent-Length: 4\r\n\r\nnull`,
    `POST ${path} HTTP/1.1\r\n${HOST}Content-Type: application/x-www-form-urlencoded\r\nContent-Length: 7\r\n\r\n%%%=&&=`,
    `POST ${path} HTTP/1.1\r\n${HOST}Content-Length: 99999999999\r\n\r\nabc`,
    // a body that never arrives in full: the client goes away mid-body
    `POST ${path} HTTP/1.1\r\n${HOST}Content-Length: 1000\r\n\r\nabc`,
    `GET ${path} HTTP/1.1\r\n${HOST}Connection: Upgrade\r\nUpgrade: websocket\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\n${HOST}Connection: Upgrade\r\nUpgrade: websocket\r\nSec-WebSocket-Key: x\r\nSec-WebSocket-Version: 99\r\n\r\n`,
    `GET ${path} HTTP/1.1\r\n${HOST}Authorization: Bearer ${'x'.repeat(4000)}\r\napikey: \u00ff\r\n\r\n`,
    '\u0016\u0003\u0001\u0002\u0000\u0001\u0000\u0001\u00fc\u0003\u0003', // a TLS ClientHello
    '\r\n\r\n\r\n',
  ];
}

/** Plain garbage of a few sizes (seeded, so a failure can be reproduced). */
export function garbage(count: number, seed = 17): Buffer[] {
  let state = seed;
  const next = () => (state = (state * 1103515245 + 12345) & 0x7fffffff);
  return Array.from({ length: count }, (_, i) => {
    const buf = Buffer.alloc(1 + (next() % (64 << (i % 6))));
    for (let j = 0; j < buf.length; j++) buf[j] = next() & 0xff;
    return buf;
  });
}

/** A websocket handshake that succeeds on `path`, then frames no peer may send. */
export async function badWebsocketFrames(port: number, path: string): Promise<Outcome> {
  const handshake =
    `GET ${path} HTTP/1.1\r\n${HOST}Connection: Upgrade\r\nUpgrade: websocket\r\n` +
    'Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n';
  const frames = [
    Buffer.from([0x81, 0x05, 0x68, 0x65, 0x6c, 0x6c, 0x6f]), // unmasked text frame from a client
    Buffer.from([0x83, 0x80, 1, 2, 3, 4]), // reserved opcode
    Buffer.from([0xf1, 0x80, 1, 2, 3, 4]), // reserved bits set
    Buffer.from([0x81, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 0xff, 1, 2, 3, 4]), // 2^64 bytes
    Buffer.from([0x81, 0x84, 1, 2, 3, 4, 0x7a, 0x7a, 0x7a, 0x7a]), // masked text, not JSON
  ];
  const outcomes: Outcome[] = [];
  for (const frame of frames) {
    outcomes.push(await sendRaw(port, Buffer.concat([Buffer.from(handshake), frame])));
  }
  return Math.max(...outcomes);
}

/** Holds `count` connections that sent half a request head, until `release` is called. */
export function slowClients(port: number, count: number): { release(): void } {
  const sockets: Socket[] = [];
  for (let i = 0; i < count; i++) {
    const socket = connect(port, '127.0.0.1');
    socket.on('error', () => {});
    socket.on('connect', () => socket.write(`GET / HTTP/1.1\r\n${HOST}X-Slow: `));
    sockets.push(socket);
  }
  return { release: () => sockets.forEach((s) => s.destroy()) };
}

/** Garbage datagrams and TCP messages for a DNS server. */
export async function dnsGarbage(port: number, count: number): Promise<void> {
  const udp = createSocket('udp4');
  for (const packet of garbage(count, 99)) {
    await new Promise<void>((resolve) => udp.send(packet, port, '127.0.0.1', () => resolve()));
  }
  udp.close();
  for (const packet of garbage(20, 7)) {
    const framed = Buffer.concat([Buffer.from([packet.length >> 8, packet.length & 0xff]), packet]);
    await sendRaw(port, framed, 1_000);
  }
}

/**
 * Clients that go away at each moment of an exchange, as a page navigating away does: right
 * after sending the request (before the server or its upstream has answered), a few
 * milliseconds later (while the upstream works), at the first bytes of the answer (mid-answer),
 * halfway through their own body (mid-body, fixed length and chunked), after half-closing
 * their side, and with a second request pipelined behind the first. `headers` are added to each
 * request (an apikey, so the gateway passes it upstream). Resolves with the number of exchanges.
 */
export async function leavingClients(port: number, path: string, headers = ''): Promise<number> {
  const head = (method: string, extra = '') =>
    `${method} ${path} HTTP/1.1\r\n${HOST}${headers}${extra}\r\n`;
  const body = 'x'.repeat(32 * 1024);
  const exchanges: Array<[payload: string, leave: Leave]> = [
    [head('GET'), { after: 'sent' }],
    ...[0, 1, 5, 20, 80].map((ms): [string, Leave] => [head('GET'), { after: ms }]),
    [head('GET'), { after: 'first-byte' }],
    [head('GET') + head('GET'), { after: 'first-byte' }],
    [head('POST', 'Content-Type: application/json\r\nContent-Length: 2\r\n') + '{}', { after: 0 }],
    [head('POST', `Content-Length: ${body.length * 2}\r\n`) + body, { after: 'sent' }],
    [head('POST', `Content-Length: ${body.length * 2}\r\n`) + body, { after: 20 }],
    [head('POST', 'Transfer-Encoding: chunked\r\n') + `8000\r\n${body}\r\n`, { after: 'sent' }],
    [head('GET'), { after: 'half-close' }],
  ];
  await Promise.all(exchanges.map(([payload, when]) => leave(port, payload, when)));
  return exchanges.length;
}

type Leave = { after: 'sent' | 'first-byte' | 'half-close' | number };

function leave(port: number, payload: string, { after }: Leave): Promise<void> {
  const gone = () => undefined;
  return rawConnection<void>(port, gone, (socket, done, timeout) => {
    // whatever happens, the client is gone after 5 s
    timeout(5_000, gone);
    socket.on('connect', () => {
      if (after === 'half-close') return void socket.end(payload);
      socket.write(payload);
      if (after === 'sent') done();
      else if (typeof after === 'number') setTimeout(done, after);
    });
    socket.on('data', () => {
      if (after === 'first-byte') done();
    });
  });
}
