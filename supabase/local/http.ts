// HTTP helpers shared by every local server (the gateway, the services port with auth and
// storage, the web server, the providers server and its fakes): bounded body reading, JSON and
// HTML answers, and `serve()`, which makes a server that no malformed request can stop: a
// handler that throws answers 500 (an HttpError its own status), a request the parser refuses
// (bad request line, headers over the size limit, a client too slow to send them) gets its 4xx
// from Node and the socket is closed, and a stream error on a socket never becomes an uncaught
// exception of the process.
import http, {
  type IncomingMessage,
  type RequestListener,
  type Server,
  type ServerResponse,
} from 'node:http';
import { isIP } from 'node:net';
import type { Duplex } from 'node:stream';

/** An error answered with its status (and, for JSON APIs, a machine-readable code). */
export class HttpError extends Error {
  constructor(
    readonly status: number,
    message: string,
    readonly code?: string,
  ) {
    super(message);
  }
}

export type JsonObject = Record<string, unknown>;

export const isObject = (value: unknown): value is JsonObject =>
  value !== null && typeof value === 'object' && !Array.isArray(value);

/** GoTrue and the providers' APIs refuse bodies over 1 MiB. */
export const MAX_BODY_BYTES = 1024 * 1024;

/** Reads a request body up to `limit` bytes (a 413 beyond). */
export async function readBody(req: IncomingMessage, limit = MAX_BODY_BYTES): Promise<Buffer> {
  const declared = Number(req.headers['content-length']);
  if (Number.isFinite(declared) && declared > limit) {
    throw new HttpError(413, `Request body larger than ${limit} bytes`, 'request_too_large');
  }
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of req) {
    const buf = chunk as Buffer;
    size += buf.length;
    if (size > limit) {
      throw new HttpError(413, `Request body larger than ${limit} bytes`, 'request_too_large');
    }
    chunks.push(buf);
  }
  return Buffer.concat(chunks);
}

/** A JSON object; empty text is `{}`, anything else that is not an object a 400. */
export function parseJsonObject(text: string): JsonObject {
  if (text.trim() === '') return {};
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch (err) {
    throw new HttpError(
      400,
      `Could not parse request body as JSON: ${(err as Error).message}`,
      'bad_json',
    );
  }
  if (!isObject(value)) {
    throw new HttpError(
      400,
      'Could not parse request body as JSON: expected an object',
      'bad_json',
    );
  }
  return value;
}

/** A JSON object body; an empty body is `{}`. */
export async function readJson(req: IncomingMessage, limit?: number): Promise<JsonObject> {
  return parseJsonObject((await readBody(req, limit)).toString('utf8'));
}

export function sendJson(
  res: ServerResponse,
  status: number,
  body: unknown,
  headers: Record<string, string> = {},
): void {
  const text = JSON.stringify(body);
  res.writeHead(status, {
    'content-type': 'application/json; charset=utf-8',
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
    ...headers,
  });
  res.end(text);
}

export function sendText(
  res: ServerResponse,
  status: number,
  text: string,
  type = 'text/plain; charset=utf-8',
): void {
  res.writeHead(status, {
    'content-type': type,
    'content-length': Buffer.byteLength(text),
    'cache-control': 'no-store',
  });
  res.end(text);
}

/** Our own pages: no script at all, styles inline. */
export const PAGE_CSP =
  "default-src 'none'; style-src 'unsafe-inline'; img-src 'self' data:; frame-src 'self'; form-action 'self'; frame-ancestors 'none'; base-uri 'none'";

/** The headers of every HTML page a local server makes itself. */
export function pageHeaders(csp: string = PAGE_CSP): Record<string, string> {
  return {
    'content-type': 'text/html; charset=utf-8',
    'cache-control': 'no-store',
    'content-security-policy': csp,
    'x-content-type-options': 'nosniff',
    'referrer-policy': 'no-referrer',
  };
}

export function sendHtml(
  res: ServerResponse,
  status: number,
  html: string,
  csp: string = PAGE_CSP,
  extra: Record<string, string> = {},
): void {
  res.writeHead(status, {
    ...pageHeaders(csp),
    'content-length': Buffer.byteLength(html),
    ...extra,
  });
  res.end(html);
}

export { escapeHtml } from '@reaction-blocks/contracts/escape-html';

/** The token of an `Authorization: Bearer <token>` header. */
export function bearerToken(header: string | string[] | undefined): string | undefined {
  const value = Array.isArray(header) ? header[0] : header;
  if (!value) return undefined;
  return /^Bearer\s+(\S+)\s*$/i.exec(value)?.[1];
}

/**
 * The request's URL. `req.url` is the request target as the client sent it; one that is not a
 * path (`GET http://[ HTTP/1.1`) is a 400, never a thrown TypeError. The base is a fixed
 * placeholder: a server that needs its public origin must not build it from the Host header
 * unchecked (see `requestHost`).
 */
export function requestUrl(req: IncomingMessage, base = 'http://localhost'): URL {
  const target = req.url ?? '/';
  if (!target.startsWith('/')) throw new HttpError(400, 'The request target must be a path');
  try {
    return new URL(target, base);
  } catch {
    throw new HttpError(400, 'The request target is not a valid path');
  }
}

/** The Host header when it is a plain `name[:port]` or `[v6]:port`, else undefined. */
export function requestHost(req: IncomingMessage): string | undefined {
  const host = req.headers.host ?? '';
  return /^(?:[a-z0-9.-]+|\[[0-9a-f:.]+\])(?::\d{1,5})?$/i.test(host) ? host : undefined;
}

/**
 * An address as a socket or an X-Forwarded-For entry gives it: [brackets] and an IPv6 zone id
 * (`fe80::1%eth0`) dropped, an IPv4-mapped IPv6 address (`::ffff:1.2.3.4`, IPv4 on an IPv6
 * socket) as its IPv4 address; anything that is not one address as ''. SQL reads X-Forwarded-For
 * the same way (private.parse_address in supabase/schemas/client-address.sql).
 */
export function normaliseAddress(raw: string | undefined): string {
  const text = (raw ?? '')
    .trim()
    .replace(/^\[|\]$/g, '')
    .replace(/%.*$/, '');
  const kind = isIP(text);
  if (kind !== 6) return kind === 4 ? text : '';
  const w = ipv6Words(text);
  if (w.slice(0, 5).every((x) => x === 0) && w[5] === 0xffff) {
    return [w[6]! >> 8, w[6]! & 255, w[7]! >> 8, w[7]! & 255].join('.');
  }
  return text.toLowerCase();
}

/** The eight 16-bit words of a valid IPv6 address (`::` filled, a dotted IPv4 tail as two words). */
export function ipv6Words(address: string): number[] {
  const dotted = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(address);
  const text = dotted
    ? `${address.slice(0, dotted.index)}${((+dotted[1]! << 8) | +dotted[2]!).toString(16)}:${((+dotted[3]! << 8) | +dotted[4]!).toString(16)}`
    : address;
  const words = (part: string) => (part === '' ? [] : part.split(':').map((h) => parseInt(h, 16)));
  const [head = '', tail] = text.split('::');
  if (tail === undefined) return words(head);
  const left = words(head);
  const right = words(tail);
  return [...left, ...Array<number>(8 - left.length - right.length).fill(0), ...right];
}

export type Handler = (req: IncomingMessage, res: ServerResponse) => void | Promise<void>;

export interface ServeOptions {
  /** For the log line of an unexpected failure, e.g. "gateway". */
  name: string;
  log?: (service: string, line: string) => void;
  /** Answers an error (default: `{ error: message }` as JSON). */
  onError?: (res: ServerResponse, err: HttpError) => void;
  /**
   * Seconds a client may take to send its request headers (Node answers 408 after that).
   * Bodies are bounded by `requestTimeoutSeconds`.
   */
  headersTimeoutSeconds?: number;
  requestTimeoutSeconds?: number;
}

/**
 * Whether `err` only says that the client went away before its request was read in full (a page
 * navigating away aborts its fetches): nobody to answer and nothing to log.
 */
export function clientLeft(req: IncomingMessage | undefined, err: unknown): boolean {
  if (!req?.socket?.destroyed) return false;
  const { message, code } = (err ?? {}) as { message?: string; code?: string };
  return (
    message === 'aborted' ||
    code === 'ECONNRESET' ||
    code === 'ECONNABORTED' ||
    code === 'ERR_STREAM_PREMATURE_CLOSE'
  );
}

const defaultOnError = (res: ServerResponse, err: HttpError) =>
  sendJson(res, err.status, { error: err.message, ...(err.code ? { code: err.code } : {}) });

/**
 * Wraps a handler so nothing it throws (synchronously or later) escapes: an HttpError is
 * answered with its status, anything else is logged and answered 500; an answer already under
 * way is cut off instead.
 */
export function safeHandler(handler: Handler, opts: ServeOptions): RequestListener {
  const onError = opts.onError ?? defaultOnError;
  const fail = (req: IncomingMessage, res: ServerResponse, err: unknown) => {
    if (clientLeft(req, err)) return void res.destroy();
    if (!(err instanceof HttpError)) {
      const line = `unexpected failure on ${req.method} ${String(req.url).slice(0, 200)}: ${
        (err as Error)?.stack ?? String(err)
      }`;
      if (opts.log) opts.log(opts.name, line);
      else console.error(`[${opts.name}] ${line}`);
    }
    if (res.headersSent || res.writableEnded) {
      res.destroy();
      return;
    }
    const httpError = err instanceof HttpError ? err : new HttpError(500, 'Internal server error');
    try {
      onError(res, httpError);
    } catch {
      res.destroy();
    }
  };
  return (req, res) => {
    // a client that goes away mid-body makes the request stream error: that is not ours to crash on
    req.on('error', () => {});
    res.on('error', () => {});
    try {
      const result = handler(req, res);
      if (result instanceof Promise) result.catch((err: unknown) => fail(req, res, err));
    } catch (err) {
      fail(req, res, err);
    }
  };
}

/** The answer Node's HTTP parser gets for a request it cannot read, then the socket closes. */
function answerClientError(err: NodeJS.ErrnoException, socket: Duplex): void {
  if (!socket.writable || (socket as { _httpMessage?: unknown })._httpMessage) {
    socket.destroy();
    return;
  }
  const status =
    err.code === 'HPE_HEADER_OVERFLOW'
      ? '431 Request Header Fields Too Large'
      : err.code === 'ERR_HTTP_REQUEST_TIMEOUT'
        ? '408 Request Timeout'
        : '400 Bad Request';
  socket.end(`HTTP/1.1 ${status}\r\nconnection: close\r\ncontent-length: 0\r\n\r\n`);
}

/**
 * The requests one connection may have unanswered at once. A browser sends the next request on
 * a connection only after the answer to the last (no browser pipelines), fetch in Node one at a
 * time too. Node's server reads pipelined requests ahead of the answers it has written and keeps
 * every answer behind the first in memory until the client reads: one connection that wrote a
 * few MB of requests and read nothing took the web server's process from 0.6 to 1.5 GB (8 MB of
 * `GET /sdk/cdn/reaction.js`) and the gateway's from 95 to 390 MB (4 MB of `/auth/v1/health`),
 * so a handful of them was an out-of-memory kill of the stack. A connection past this many is
 * closed, its answers dropped.
 */
export const MAX_PIPELINED_REQUESTS = 8;

/**
 * An HTTP server for `handler` that stays up whatever a client sends (see the header). Listens
 * when `listen` is called on the result, as with `http.createServer`.
 */
export function serve(handler: Handler, opts: ServeOptions): Server {
  const listener = safeHandler(handler, opts);
  const unanswered = new WeakMap<Duplex, number>();
  const server = http.createServer(
    {
      // the default 16 KiB of headers; a client that has not sent them in time gets a 408
      headersTimeout: (opts.headersTimeoutSeconds ?? 20) * 1000,
      requestTimeout: (opts.requestTimeoutSeconds ?? 120) * 1000,
    },
    (req, res) => {
      const socket = req.socket;
      const open = (unanswered.get(socket) ?? 0) + 1;
      if (open > MAX_PIPELINED_REQUESTS) {
        socket.destroy();
        return;
      }
      unanswered.set(socket, open);
      // 'close' comes once the answer is written, or the connection gone
      res.once('close', () => unanswered.set(socket, (unanswered.get(socket) ?? 1) - 1));
      listener(req, res);
    },
  );
  server.on('clientError', answerClientError);
  return server;
}

/** Listens on 127.0.0.1:`port`; rejects when the port is taken. */
export function listen(server: Server, port: number, host = '127.0.0.1'): Promise<Server> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => {
      server.off('error', reject);
      resolve(server);
    });
  });
}

/** Stops listening and ends every open connection. */
export function closeServer(server: Server): Promise<void> {
  return new Promise((resolve) => {
    server.close(() => resolve());
    server.closeAllConnections();
  });
}
