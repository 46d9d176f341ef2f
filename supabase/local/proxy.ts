// The gateway's pass-through of one HTTP request to an upstream (PostgREST, the functions, the
// stack's services) and of its answer back: pooled upstream connections, the body limit, and the
// bounds that keep one slow client from holding what other visitors need (gateway.ts routes).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import type { Socket } from 'node:net';
import { pipeline } from 'node:stream';
import { normaliseAddress, sendJson as sendJsonWith } from './http.ts';

export const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD',
  'access-control-allow-headers':
    'authorization, x-client-info, apikey, content-type, prefer, range, accept, accept-profile, content-profile, x-supabase-api-version, x-region',
  'access-control-expose-headers':
    'content-range, content-location, x-supabase-api-version, location',
  'access-control-max-age': '86400',
};

export const sendJson = (
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
) => sendJsonWith(res, status, body, { ...CORS_HEADERS, ...headers });

/**
 * How long an upstream connection may wait unused in the pool before this side closes it: shorter
 * than any upstream's own idle timeout. A connection the upstream closed while this process was
 * busy (a loaded machine: the close is read only after the next request took the connection)
 * failed that request with ECONNRESET, answered 502, so a function's database call answered 500
 * (reproduced against PostgREST, 8 requests of 8; the likely cause of a check-mail-verified due
 * 404 that answered 500 once in CI). PostgREST (Warp's reaper) closes a connection idle for 30 to
 * 60 s, the services' server after 65 s, the Deno runtime never.
 */
export const UPSTREAM_IDLE_MS = 10_000;

// reuse upstream connections: a new TCP connection per request would dominate hot-path latency.
// No cap on how many: with one (64 until break8 F1) a client that held 64 requests open (bodies
// sent a byte at a time, answers left unread) made every other visitor's request wait for one.
const upstreamAgent = new http.Agent({
  keepAlive: true,
  timeout: UPSTREAM_IDLE_MS,
});

/**
 * The largest request body passed to PostgREST and the edge functions. Both read a body whole
 * before they look at it, and PostgREST keeps several times its size: one 300 MB POST took its
 * memory from 30 MB to 1.2 GB, which it kept (found in the seventh hostile review), so a few
 * such requests were an out-of-memory kill. The app's largest bodies are an audience import's
 * batch of 500 members and a saved letter, far below. (Auth and Storage answer 413 themselves.)
 */
export const MAX_PROXIED_BODY_BYTES = 10 * 1024 * 1024;

/**
 * A 413 for a body over `limit`. The rest of the body is read and dropped, not passed on (closing
 * the connection at once could reset it before the client read the answer).
 */
const tooLarge = (res: ServerResponse, limit: number) => {
  if (res.headersSent || res.destroyed) return void res.destroy();
  sendJson(res, 413, { message: `Request body larger than ${limit} bytes` });
};

/**
 * How much of a request body the gateway reads before it takes an upstream connection: the whole
 * of any body PostgREST or the functions take (MAX_PROXIED_BODY_BYTES; a saved letter's model is
 * up to 1,000,000 characters, 3 MB of Korean). A body was passed on as it came, so a slow client
 * held a pooled upstream connection from its head to its body's end (break8 F1), and then, past
 * 1 MB, the upstream's own memory: Deno kept about the declared length per connection (+1.6 GB
 * for 100 bodies declared 10 MB, break9 G2). Like nginx's (and so Kong's) request buffering, the
 * body is read first; only a larger one (auth, storage: they refuse it themselves) passes on as it
 * comes. What all held bodies may take together is bounded by BodyBudget.
 */
export const BUFFERED_BODY_BYTES = MAX_PROXIED_BODY_BYTES;

/**
 * How long a request body may pause between two of its pieces before the gateway answers 408 and
 * closes the connection (nginx's client_body_timeout, 60 s by default, is the same rule).
 */
export const BODY_IDLE_MS = 30_000;

/**
 * How long a whole request body may take from its request's head: a byte every 25 s kept a body
 * under BODY_IDLE_MS until Node's requestTimeout (120 s), and the client reconnected (break9 G1).
 * 60 s is 10 MB at 1.4 Mbit/s, a slow mobile uplink; the app's bodies are a few KB to 3 MB.
 */
export const BODY_DEADLINE_MS = 60_000;

/**
 * What the bodies being read may hold together, and one client address of it. 3,000 bodies of
 * 1 MB held at once took the gateway to 3.1 GB, which it kept, and no visitor was answered for
 * 80 s (break9 G1). 64 MB is six bodies at the 10 MB limit, thousands of the app's own; one
 * address may take a quarter (16 MB: one body at the limit and more), so it takes four addresses
 * to fill it. A body's share is its Content-Length when it says one (up to BUFFERED_BODY_BYTES),
 * else its bytes as they come. Beyond an address's share a new body is answered 429, beyond the
 * whole 503, both with Retry-After, rather than held or passed on (nginx and Envoy bound buffers
 * the same way: a disk spill, a per-connection buffer limit and an overload manager).
 */
export const BODY_BUDGET_BYTES = 64 * 1024 * 1024;
export const BODY_BUDGET_PER_ADDRESS_BYTES = 16 * 1024 * 1024;

/** Seconds a refused client is told to wait (Retry-After): longer than a normal body's read. */
export const BODY_RETRY_AFTER_S = 10;

/** The body bytes the gateway holds, all together and per client address (see BODY_BUDGET_BYTES). */
export class BodyBudget {
  held = 0;
  readonly byAddress = new Map<string, number>();
  constructor(
    readonly total = BODY_BUDGET_BYTES,
    readonly perAddress = BODY_BUDGET_PER_ADDRESS_BYTES,
  ) {}
  /** Takes `bytes` for `address`, or says which bound it would pass (nothing taken). */
  take(address: string, bytes: number): 'ok' | 'address' | 'total' {
    const mine = this.byAddress.get(address) ?? 0;
    if (mine + bytes > this.perAddress) return 'address';
    if (this.held + bytes > this.total) return 'total';
    this.byAddress.set(address, mine + bytes);
    this.held += bytes;
    return 'ok';
  }
  give(address: string, bytes: number) {
    const left = (this.byAddress.get(address) ?? 0) - bytes;
    if (left > 0) this.byAddress.set(address, left);
    else this.byAddress.delete(address);
    this.held -= bytes;
  }
}

/** The gateway's one budget (a test's front may bring its own). */
const bodyBudget = new BodyBudget();

/**
 * How many connections one client address may hold open at once: a browser keeps up to 6 to a
 * host (HTTP/1.1) and a Realtime websocket, so 4,096 is an office of about 500 people behind one
 * NAT address; the stack's own benchmarks open 2,000 viewers' websockets at once from loopback.
 * Without it, one client's connections (3,000 and more, up to its file limit) were bounded only by
 * the memory they made the gateway hold (break9 G1).
 */
export const MAX_CONNECTIONS_PER_ADDRESS = 4096;

/**
 * Caps `server`'s open connections per client address at `perAddress`: one more is answered 429
 * (written raw: no request has been read) and closed.
 */
export function limitConnectionsPerAddress(
  server: http.Server,
  perAddress = MAX_CONNECTIONS_PER_ADDRESS,
) {
  const open = new Map<string, number>();
  server.on('connection', (socket: Socket) => {
    const address = normaliseAddress(socket.remoteAddress);
    const count = (open.get(address) ?? 0) + 1;
    open.set(address, count);
    socket.once('close', () => {
      const left = (open.get(address) ?? 1) - 1;
      if (left > 0) open.set(address, left);
      else open.delete(address);
    });
    if (count <= perAddress) return;
    socket.on('error', () => socket.destroy());
    socket.end(
      `HTTP/1.1 429 Too Many Requests\r\nretry-after: ${BODY_RETRY_AFTER_S}\r\n` +
        'content-length: 0\r\nconnection: close\r\n\r\n',
      () => socket.destroy(),
    );
  });
}

/**
 * How long a client may read none of an answer still being sent before the gateway drops it, and
 * with it the upstream's connection (nginx's send_timeout, 60 s by default, is the same rule): a
 * client that asked for a large answer (a letter's image) and read none of it held the upstream
 * connection for as long as it kept its own open (break8 F1).
 */
export const ANSWER_IDLE_MS = 60_000;

/**
 * Sends `answer` (the upstream's) on `res` at the client's pace, and drops both when the client
 * has taken no byte of it for `idleMs`.
 */
function relay(answer: IncomingMessage, res: ServerResponse, idleMs: number) {
  let taken = -1;
  const watch = setInterval(() => {
    const now = res.socket?.bytesWritten ?? 0;
    if (res.writableLength > 0 && now === taken) {
      answer.destroy();
      res.destroy();
    }
    taken = now;
  }, idleMs);
  const done = () => clearInterval(watch);
  res.once('close', done);
  // an upstream that breaks off mid-answer cuts the client's answer off too
  pipeline(answer, res, done);
}

/** A proxy's bounds, when not the defaults (tests). */
export interface ProxyBounds {
  bodyIdleMs?: number;
  bodyDeadlineMs?: number;
  answerIdleMs?: number;
  budget?: BodyBudget;
}

/**
 * Passes a request through to `port` and its answer back. The body is read first, up to
 * BUFFERED_BODY_BYTES, so a slow client holds no upstream connection (nor the upstream's memory)
 * while it sends; a larger one is passed on as it comes, from then on. The bytes held are taken
 * from `budget`: past its client address's share the request is answered 429, past the whole 503.
 * A body that pauses for `bodyIdleMs`, or is not whole `bodyDeadlineMs` after the request's head,
 * is answered 408; a client that reads none of its answer for `answerIdleMs` is dropped. A client
 * that goes away at any point (before the upstream answers, too: a page navigating away aborts its
 * fetches) only aborts its own upstream request; it never throws in this process. A body over
 * `maxBody` bytes is refused with 413: at once when its Content-Length says so, else when the
 * bytes read reach it (the upstream request, if any, is aborted then).
 */
export function proxy(
  req: IncomingMessage,
  res: ServerResponse,
  port: number,
  path: string,
  headers: http.OutgoingHttpHeaders,
  maxBody = Infinity,
  {
    bodyIdleMs = BODY_IDLE_MS,
    bodyDeadlineMs = BODY_DEADLINE_MS,
    answerIdleMs = ANSWER_IDLE_MS,
    budget = bodyBudget,
  }: ProxyBounds = {},
) {
  const declared = Number(req.headers['content-length']);
  if (declared > maxBody) return tooLarge(res, maxBody);
  const holdAtMost = Math.min(maxBody, BUFFERED_BODY_BYTES);
  const address = normaliseAddress(req.socket.remoteAddress);
  let upstream: http.ClientRequest | undefined;
  let refused = false;
  // the body's first bytes, until it ends or passes holdAtMost (then undefined: passed on)
  let held: Buffer[] | undefined = [];
  let passed = 0;
  // what this body has taken from the budget, given back once its held bytes are let go
  let taken = 0;
  const giveBack = () => {
    if (taken) budget.give(address, taken);
    taken = 0;
  };
  /** Takes `bytes` more of the budget; false (and the client answered) when it has not them. */
  const reserve = (bytes: number) => {
    const verdict = budget.take(address, bytes);
    if (verdict === 'ok') {
      taken += bytes;
      return true;
    }
    refuse(
      verdict === 'address' ? 429 : 503,
      verdict === 'address'
        ? 'Too many request bodies from this address at once'
        : 'The gateway is holding too many request bodies',
      { 'retry-after': String(BODY_RETRY_AFTER_S) },
    );
    return false;
  };

  /**
   * Answers `status` instead of passing the request on. The rest of the body is read and dropped
   * (closing the connection at once could reset it before the client read the answer), until
   * the body's own time is up.
   */
  function refuse(status: number, message: string, extra: Record<string, string> = {}) {
    refused = true;
    held = undefined;
    giveBack();
    upstream?.destroy();
    if (res.headersSent || res.destroyed) return void req.destroy();
    sendJson(res, status, { message }, extra);
  }

  const open = () => {
    const up = http.request(
      { host: '127.0.0.1', port, method: req.method, path, headers, agent: upstreamAgent },
      (answer) => {
        // the client left while the upstream was working: nothing to answer
        if (res.destroyed || res.writableEnded) {
          answer.destroy();
          return;
        }
        const outHeaders: http.OutgoingHttpHeaders = { ...answer.headers, ...CORS_HEADERS };
        // hop-by-hop: the upstream's keep-alive is this gateway's pooled connection, not the
        // client's (forwarded, it kept open a client that asked to close)
        delete outHeaders.connection;
        delete outHeaders['keep-alive'];
        res.writeHead(answer.statusCode ?? 502, outHeaders);
        relay(answer, res, answerIdleMs);
      },
    );
    up.on('error', (err) => {
      // answered already (an upstream that answered before reading the body is dropped below)
      if (res.destroyed || res.writableFinished || refused) return;
      if (!res.headersSent) sendJson(res, 502, { message: `upstream unavailable: ${err.message}` });
      else res.destroy();
    });
    up.on('drain', () => req.resume());
    // the held bytes are the upstream socket's to send now: given back once they are sent
    up.once('finish', giveBack);
    up.once('close', giveBack);
    for (const chunk of held ?? []) if (!up.write(chunk)) req.pause();
    held = undefined;
    upstream = up;
    return up;
  };

  // a body that stops coming, or comes too slowly: 408, and the connection closed (the rest of it
  // will not be read); a refused one still coming is cut off
  const late = () => {
    if (req.complete) return;
    if (refused) return void req.destroy();
    refuse(408, 'Request body not received in time', { connection: 'close' });
  };
  const stalled = setTimeout(late, bodyIdleMs);
  const deadline = setTimeout(late, bodyDeadlineMs);
  const settle = () => {
    clearTimeout(stalled);
    clearTimeout(deadline);
  };

  // its Content-Length's share of the budget at once: a body the gateway will not hold is not read
  if (declared > 0 && !reserve(Math.min(declared, holdAtMost))) return;

  // the body counted as it comes: past the limit the upstream request (if any) is aborted and the
  // client answered 413; a client that goes away mid-body aborts the upstream request
  req.on('data', (chunk: Buffer) => {
    stalled.refresh();
    if (refused || upstream?.destroyed) return;
    passed += chunk.length;
    if (passed > maxBody) {
      refuse(413, `Request body larger than ${maxBody} bytes`);
      return;
    }
    if (held) {
      // a body without a Content-Length takes its share as it comes
      if (passed > taken && !reserve(Math.min(passed, holdAtMost) - taken)) return;
      held.push(chunk);
      // every byte so far is held
      if (passed > holdAtMost) open();
      return;
    }
    if (!upstream!.write(chunk)) req.pause();
  });
  req.on('end', () => {
    settle();
    if (refused) return;
    (upstream ?? open()).end();
  });
  req.on('close', () => {
    settle();
    if (!req.complete) upstream?.destroy();
    if (!upstream) giveBack();
  });
  // so does one that goes away while waiting for the answer
  res.once('close', () => {
    settle();
    giveBack();
    if (!res.writableFinished) upstream?.destroy();
  });
  // An upstream may answer without reading the whole body (Deno's functions refuse a call without
  // a session before reading it) and then read no more: the body's writes stop draining and the
  // client's request stayed paused, so the next request on its kept-alive connection was never
  // read (break7 F2: a 5 MB body to a function as anon, then any call on that connection hung
  // for the 120 s keep-alive). Once the answer is out, the rest of the body is read and dropped,
  // as a 413's is.
  res.once('finish', () => {
    if (req.complete) return;
    upstream?.destroy();
    req.resume();
  });
}
