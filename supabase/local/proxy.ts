// The gateway's pass-through of one HTTP request to an upstream (PostgREST, the functions, the
// stack's services) and of its answer back: pooled upstream connections, the body limit, and the
// bounds that keep one slow client from holding what other visitors need (gateway.ts routes).
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { pipeline } from 'node:stream';
import { sendJson as sendJsonWith } from './http.ts';

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
 * How much of a request body the gateway reads before it takes an upstream connection: more than
 * any body of the app (an audience import's batch of 500 members, a saved letter). A body was
 * passed on as it came, so a request held its pooled upstream connection from its head to its
 * body's end: 64 clients trickling a byte every few seconds held all 64 of PostgREST's (or the
 * functions', or auth's) and every other visitor waited (break8 F1). Like nginx's (and so Kong's)
 * request buffering, the body is now read first; only a larger one is passed on as it comes.
 */
export const BUFFERED_BODY_BYTES = 1024 * 1024;

/**
 * How long a request body may pause between two of its pieces before the gateway answers 408 and
 * closes the connection (nginx's client_body_timeout, 60 s by default, is the same rule).
 */
export const BODY_IDLE_MS = 30_000;

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

/**
 * Passes a request through to `port` and its answer back. The body is read first, up to
 * BUFFERED_BODY_BYTES, so a slow client holds no upstream connection while it sends; a larger one
 * is passed on as it comes, from then on. A body that pauses for `bodyIdleMs` is answered 408; a
 * client that reads none of its answer for `answerIdleMs` is dropped. A client that goes away at
 * any point (before the upstream answers, too: a page navigating away aborts its fetches) only
 * aborts its own upstream request; it never throws in this process. A
 * body over `maxBody` bytes is refused with 413: at once when its Content-Length says so, else
 * when the bytes read reach it (the upstream request, if any, is aborted then).
 */
export function proxy(
  req: IncomingMessage,
  res: ServerResponse,
  port: number,
  path: string,
  headers: http.OutgoingHttpHeaders,
  maxBody = Infinity,
  { bodyIdleMs = BODY_IDLE_MS, answerIdleMs = ANSWER_IDLE_MS } = {},
) {
  if (Number(req.headers['content-length']) > maxBody) return tooLarge(res, maxBody);
  let upstream: http.ClientRequest | undefined;
  let refused = false;
  // the body's first bytes, until it ends or passes BUFFERED_BODY_BYTES (then undefined: passed on)
  let held: Buffer[] | undefined = [];
  let passed = 0;

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
    for (const chunk of held ?? []) if (!up.write(chunk)) req.pause();
    held = undefined;
    upstream = up;
    return up;
  };

  // a body that stops coming: 408, and the connection closed (the rest of it will not be read)
  const stalled = setTimeout(() => {
    if (req.complete || refused) return;
    refused = true;
    upstream?.destroy();
    if (res.headersSent || res.destroyed) return void req.destroy();
    sendJson(res, 408, { message: 'Request body not received in time' }, { connection: 'close' });
  }, bodyIdleMs);
  const settle = () => clearTimeout(stalled);

  // the body counted as it comes: past the limit the upstream request (if any) is aborted and the
  // client answered 413; a client that goes away mid-body aborts the upstream request
  req.on('data', (chunk: Buffer) => {
    stalled.refresh();
    if (refused || upstream?.destroyed) return;
    passed += chunk.length;
    if (passed > maxBody) {
      refused = true;
      settle();
      upstream?.destroy();
      return tooLarge(res, maxBody);
    }
    if (held) {
      held.push(chunk);
      // every byte so far is held
      if (passed > BUFFERED_BODY_BYTES) open();
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
  });
  // so does one that goes away while waiting for the answer
  res.once('close', () => {
    settle();
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
