// Clients that write and never read (issue 17: no request can stop the stack; found from a clean
// clone in the eighth hostile review). Every answer a local server writes to such a client waits
// in the server's memory: pipelined HTTP requests (Node's server reads them ahead of the answers it
// has written) and websocket frames (each one answered, its topic and ref echoed). One connection
// of a few MB took a server's process up by a GB, so a handful of them killed the stack. A
// connection that far behind is closed; clients that read are not touched.
import { randomBytes, randomUUID } from 'node:crypto';
import { Resolver } from 'node:dns/promises';
import http from 'node:http';
import net, { type AddressInfo } from 'node:net';
import { describe, expect, it } from 'vitest';
import { MAX_PIPELINED_REQUESTS, closeServer, listen, serve } from '../local/http.ts';
import { anonClient, stack } from './support/clients.ts';
import { rawConnection } from './support/fuzz.ts';

/** How long a flooded connection may stay open before the test calls it kept (a state, not a time). */
const CLOSE_WAIT_MS = 60_000;

/**
 * Opens a connection to `port`, writes `head` once (a websocket handshake, or nothing), then
 * `chunk` `times` times, reading nothing meanwhile (but the handshake's answer). Then it reads
 * what comes. Resolves with whether the server closed the connection (waiting at most
 * CLOSE_WAIT_MS after the last write) and the bytes read after the flood: a server that kept
 * every answer hands them all over then (and may close later, idle), one that closed the
 * connection in time hands over what the kernel's buffers held.
 */
function floodWithoutReading(
  port: number,
  head: string,
  chunk: Buffer,
  times: number,
): Promise<{ closed: boolean; received: number }> {
  let sent = 0;
  let received = 0;
  const outcome = (closed: boolean) => () => ({ closed, received });
  return rawConnection(port, outcome(true), (socket, _finish, timeout) => {
    const pump = () => {
      while (sent < times) {
        sent++;
        if (!socket.write(chunk)) return void socket.once('drain', pump);
      }
      // now it reads (and drops) what came: a paused socket never sees the server's close, and
      // a server that kept the connection open keeps it open however much the client reads
      socket.on('data', (data: Buffer) => (received += data.length));
      socket.resume();
      timeout(CLOSE_WAIT_MS, outcome(false));
    };
    socket.on('connect', () => {
      if (!head) {
        socket.pause();
        return pump();
      }
      socket.write(head);
      let answer = '';
      const onData = (data: Buffer) => {
        answer += data.toString('latin1');
        if (!answer.includes('\r\n\r\n')) return;
        socket.off('data', onData);
        socket.pause();
        expect(answer.split('\r\n')[0]).toBe('HTTP/1.1 101 Switching Protocols');
        pump();
      };
      socket.on('data', onData);
    });
  });
}

/** A masked client text frame. */
function textFrame(text: string): Buffer {
  const payload = Buffer.from(text);
  const mask = randomBytes(4);
  const head =
    payload.length < 126
      ? Buffer.from([0x81, 0x80 | payload.length])
      : Buffer.from([0x81, 0x80 | 126, payload.length >> 8, payload.length & 0xff]);
  return Buffer.concat([head, mask, payload.map((b, i) => b ^ mask[i & 3]!)]);
}

const request = (path: string, headers = '') =>
  Buffer.from(`GET ${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${headers}\r\n`);

describe('a local server and a client that pipelines requests and reads nothing', () => {
  it('closes the connection past its few unanswered requests; clients that read get every answer', async () => {
    let calls = 0;
    const body = 'x'.repeat(64 * 1024);
    const server = serve(
      (_req, res) => {
        calls++;
        // answered a moment later, as a file is (the web server's read streams)
        setTimeout(() => res.end(body), 10);
      },
      { name: 'slow-readers' },
    );
    await listen(server, 0);
    const { port } = server.address() as AddressInfo;
    try {
      // 2,000 requests in one write (74 KB): Node's server read them all before answering one
      const requests = Buffer.concat(Array.from({ length: 2_000 }, () => request('/')));
      const flood = await floodWithoutReading(port, '', requests, 1);
      expect(flood.closed).toBe(true);
      expect(flood.received).toBeLessThan(1_000 * body.length);
      // the answers it held are bounded: before, all 2,000 were asked for and waited in memory
      expect(calls).toBeLessThanOrEqual(MAX_PIPELINED_REQUESTS);

      // a client that pipelines as many as allowed and reads gets them all
      const pipelined = await new Promise<number>((resolve) => {
        const socket = net.connect(port, '127.0.0.1');
        let text = '';
        socket.on('data', (d) => {
          text += d.toString('latin1');
          const answers = text.split('HTTP/1.1 200 OK').length - 1;
          if (answers === MAX_PIPELINED_REQUESTS && text.endsWith(body)) {
            socket.destroy();
            resolve(answers);
          }
        });
        socket.on('close', () => resolve(text.split('HTTP/1.1 200 OK').length - 1));
        socket.write(
          Buffer.concat(Array.from({ length: MAX_PIPELINED_REQUESTS }, () => request('/'))),
        );
      });
      expect(pipelined).toBe(MAX_PIPELINED_REQUESTS);

      // a browser's kept-alive connection asks one after the other, as often as it likes
      const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
      const sockets = new Set<net.Socket>();
      for (let i = 0; i < 100; i++) {
        const status = await new Promise<number>((resolve, reject) => {
          http
            .get({ port, host: '127.0.0.1', path: '/', agent }, (res) => {
              sockets.add(res.socket);
              res.resume();
              res.on('end', () => resolve(res.statusCode ?? 0));
            })
            .on('error', reject);
        });
        expect(status).toBe(200);
      }
      expect(sockets.size).toBe(1);
      agent.destroy();
    } finally {
      await closeServer(server);
    }
  }, 180_000);

  it("the stack's gateway and providers server close such a connection and keep serving", async () => {
    const api = Number(new URL(stack().apiUrl).port);
    const providers = Number(new URL(stack().providersUrl).port);
    // every answer is over 100 bytes (its status line and headers): 5,000 of them over 500 KB
    const health = request('/auth/v1/health', `apikey: ${stack().anonKey}\r\n`);
    for (const [port, req] of [
      [api, health],
      [providers, request('/_health')],
    ] as const) {
      const flood = await floodWithoutReading(port, '', req, 5_000);
      expect(flood.closed).toBe(true);
      expect(flood.received).toBeLessThan(2_500 * 100);
    }
    const res = await fetch(`${stack().apiUrl}/auth/v1/health`, {
      headers: { apikey: stack().anonKey },
    });
    expect(res.status).toBe(200);
    expect((await fetch(`${stack().providersUrl}/_health`)).status).toBe(200);
  }, 180_000);
});

describe('a DNS client over TCP that sends queries and reads nothing', () => {
  it('is closed by the DNS stand-in once far behind; it answers on', async () => {
    const [host, port] = stack().dnsNameserver.split(':') as [string, string];
    expect(host).toBe('127.0.0.1');
    // a query (TXT, id 1) for a name of the zone, 2 bytes of length before it (RFC 1035 4.2.2)
    const name = '_dmarc.example.reaction-blocks.local'
      .split('.')
      .map((label) => Buffer.concat([Buffer.from([label.length]), Buffer.from(label)]));
    const query = Buffer.concat([
      Buffer.from([0, 1, 1, 0, 0, 1, 0, 0, 0, 0, 0, 0]),
      ...name,
      Buffer.from([0, 0, 16, 0, 1]),
    ]);
    const framed = Buffer.concat([Buffer.from([0, query.length]), query]);
    // 600,000 queries in bursts of 1,000: 35 MB, and each answer longer than its query
    const burst = Buffer.concat(Array.from({ length: 1_000 }, () => framed));
    const flood = await floodWithoutReading(Number(port), '', burst, 600);
    expect(flood.closed).toBe(true);
    expect(flood.received).toBeLessThan((600 * burst.length) / 2);
    // it answers on: a name it does not have is NXDOMAIN, not a timeout
    const resolver = new Resolver({ timeout: 10_000, tries: 2 });
    resolver.setServers([stack().dnsNameserver]);
    const answer = await resolver.resolveTxt(`${randomUUID()}.example`).catch((e: Error) => e);
    expect((answer as { code?: string }).code).toBe('ENOTFOUND');
  }, 180_000);
});

describe('a websocket client that sends frames and reads nothing', () => {
  it('is closed by the Realtime server once far behind; other viewers go on', async () => {
    const api = Number(new URL(stack().apiUrl).port);
    const handshake =
      `GET /realtime/v1/websocket?apikey=${stack().anonKey}&vsn=1.0.0 HTTP/1.1\r\n` +
      'Host: 127.0.0.1\r\nConnection: Upgrade\r\nUpgrade: websocket\r\n' +
      `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`;
    // each frame's reply ("unmatched topic") echoes its 32 KB topic: 64 MB of replies in all
    const frame = textFrame(
      JSON.stringify({ topic: 'x'.repeat(32 * 1024), event: 'e', payload: {}, ref: '1' }),
    );
    const flood = await floodWithoutReading(api, handshake, frame, 2_000);
    expect(flood.closed).toBe(true);
    expect(flood.received).toBeLessThan(1_000 * frame.length);

    const viewer = anonClient();
    const status = await new Promise<string>((resolve) =>
      viewer.channel(`after-a-slow-reader-${randomUUID()}`).subscribe((s) => {
        if (s !== 'CLOSED') resolve(s);
      }),
    );
    expect(status).toBe('SUBSCRIBED');
    await viewer.removeAllChannels();
  }, 180_000);
});
