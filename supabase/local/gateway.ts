// The API gateway: one port with Supabase's path layout, standing in for Kong on hosted Supabase.
//   /rest/v1/*       -> PostgREST        (apikey required)
//   /auth/v1/*       -> local auth server (apikey required, except browser navigations)
//   /functions/v1/*  -> Deno edge runtime (a valid JWT required unless verify_jwt = false)
//   /realtime/v1/*   -> local realtime server (websocket; apikey in the query). A websocket is
//                       handed to the stack's process itself (its file descriptor, over the IPC
//                       channel), so Realtime writes each message once per viewer, straight to the
//                       viewer's socket, with no relay through this process.
//   /storage/v1/*    -> local storage stand-in (public files open; uploads need the service role)
// It runs in a process of its own (gateway-main.ts, started by startGatewayProcess), so a busy
// Realtime fan-out or a provider fake in the stack's process never holds up an API request: the
// auth, realtime and storage stand-ins answer on the stack's internal services port
// (services.ts), reached over loopback like PostgREST and the functions. The pass-through of a
// request and its answer, and its bounds, are proxy.ts.
import http, {
  type IncomingHttpHeaders,
  type IncomingMessage,
  type ServerResponse,
} from 'node:http';
import type { ChildProcess } from 'node:child_process';
import type { Socket } from 'node:net';
import type { Duplex } from 'node:stream';
import { join } from 'node:path';
import { jwtVerify } from 'jose';
import { listen, normaliseAddress, requestUrl, serve } from './http.ts';
import {
  CORS_HEADERS,
  limitConnectionsPerAddress,
  MAX_PROXIED_BODY_BYTES,
  proxy,
  sendJson,
} from './proxy.ts';
import { paths } from './paths.ts';
import { httpOk, startProcess, waitUntil, type Log, type Managed } from './process.ts';

export interface GatewayOptions {
  port: number;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  postgrestPort: number;
  functionsPort: number;
  /** The stack's services server: /auth/*, /realtime/*, /storage/* (services.ts). */
  servicesPort: number;
  /** Whether the stack serves Realtime (not with DATABASE_URL) and Storage. */
  realtime: boolean;
  storage: boolean;
  /** Functions that accept calls without a user JWT (config.toml `verify_jwt = false`). */
  publicFunctions?: string[];
  /**
   * Hand Realtime websockets to the parent process over IPC (see RealtimeHandOff) instead of
   * relaying them to the services port. Set by startGatewayProcess when given a hand-off.
   */
  handOffRealtime?: boolean;
}

/** What the gateway sends its parent with a websocket's file descriptor. */
interface HandedUpgrade {
  type: 'realtime-upgrade';
  /** the request's path and query as the services server would see them (`/realtime/...`) */
  url: string;
  /** the part after /realtime/v1, as RealtimeServer.upgrade takes it */
  path: string;
  headers: IncomingHttpHeaders;
  /** bytes read after the request's headers, base64 */
  head: string;
}

/**
 * Where the stack's process takes the websockets the gateway hands it: the Realtime server's
 * upgrade, set once it runs (a socket that comes before is refused).
 */
export interface RealtimeHandOff {
  upgrade?: (req: IncomingMessage, socket: Duplex, head: Buffer, path: string) => void;
}

/** Auth paths a browser navigates to directly (no way to add an apikey header). */
const OPEN_AUTH_PATHS = new Set(['/authorize', '/callback', '/verify']);

/**
 * The headers passed upstream: the client's own, with the peer this gateway saw appended to
 * X-Forwarded-For as a proxy does. The auth server believes the chain only from the proxies it
 * trusts (this gateway, and those named in AUTH_TRUSTED_PROXIES) and takes the right-most
 * address that is not one of them, so a client that writes its own X-Forwarded-For only adds
 * entries to the left of its real address.
 */
export function forwardedHeaders(req: IncomingMessage): http.OutgoingHttpHeaders {
  const headers: http.OutgoingHttpHeaders = { ...req.headers };
  const peer = normaliseAddress(req.socket.remoteAddress) || 'unknown';
  const prior = req.headers['x-forwarded-for'];
  const chain = (Array.isArray(prior) ? prior.join(', ') : (prior ?? '')).trim();
  headers['x-forwarded-for'] = chain ? `${chain}, ${peer}` : peer;
  delete headers.connection;
  return headers;
}

/** How long the gateway keeps a client's idle connection (see startGateway). */
export const GATEWAY_KEEP_ALIVE_MS = 120_000;

/**
 * A websocket upgrade passed through to `port`: the upstream's 101 goes back to the client, then
 * bytes flow both ways untouched (the realtime server speaks the protocol). Anything but a 101
 * (a refused join, 401) is relayed and the socket closed.
 */
function proxyUpgrade(
  req: IncomingMessage,
  socket: Duplex,
  head: Buffer,
  port: number,
  path: string,
) {
  const headers = { ...req.headers };
  const upstream = http.request({ host: '127.0.0.1', port, method: 'GET', path, headers });
  socket.on('error', () => upstream.destroy());
  upstream.on('upgrade', (upRes, upSocket, upHead) => {
    const lines = [`HTTP/1.1 101 ${upRes.statusMessage || 'Switching Protocols'}`];
    for (let i = 0; i < upRes.rawHeaders.length; i += 2)
      lines.push(`${upRes.rawHeaders[i]}: ${upRes.rawHeaders[i + 1]}`);
    socket.write(lines.join('\r\n') + '\r\n\r\n');
    if (upHead.length) socket.write(upHead);
    if (head.length) upSocket.write(head);
    upSocket.setNoDelay(true);
    (socket as { setNoDelay?: (v: boolean) => void }).setNoDelay?.(true);
    upSocket.on('error', () => socket.destroy());
    socket.on('close', () => upSocket.destroy());
    upSocket.on('close', () => socket.destroy());
    upSocket.pipe(socket).pipe(upSocket);
  });
  upstream.on('response', (upRes) => {
    socket.end(
      `HTTP/1.1 ${upRes.statusCode ?? 502} ${upRes.statusMessage ?? ''}\r\nconnection: close\r\n\r\n`,
    );
    upRes.resume();
  });
  upstream.on('error', () => socket.end('HTTP/1.1 502 Bad Gateway\r\nconnection: close\r\n\r\n'));
  upstream.end();
}

/**
 * The gateway in a process of its own: `node --import tsx gateway-main.ts` (no npm or tsx CLI
 * in between), its options in the environment. Resolves when it answers /health. An IPC channel
 * joins it to this process: Realtime's websockets come over it (with a hand-off), the upstream
 * ports go over it when one of them moves (setGatewayUpstreams), and benchmarks ask its memory.
 */
export async function startGatewayProcess(
  opts: GatewayOptions & { log: Log; realtimeHandOff?: RealtimeHandOff },
): Promise<Managed> {
  const { log, realtimeHandOff, ...options } = opts;
  const handOff = !!realtimeHandOff && options.realtime;
  const proc = startProcess(
    'gateway',
    process.execPath,
    // --expose-gc: gatewayMemory's collection before it measures. Under the soak the gateway's
    // PSS stepped from 47 to 154 MB while its live heap stayed at 10-16 MB: memory V8 and the
    // allocator kept, not objects. With 4 MB semi-spaces (a proxy makes many short-lived objects)
    // and MALLOC_ARENA_MAX=2 (no malloc arena per V8 thread) it held at 45-49 MB; the two came
    // in together, so which one bounds it is not separated.
    [
      '--expose-gc',
      '--max-semi-space-size=4',
      '--import',
      'tsx',
      join(paths.local, 'gateway-main.ts'),
    ],
    {
      log,
      // gateway-main.ts says it once its server listens (a port taken meanwhile: EADDRINUSE)
      bound: /^gateway listening on \d+/,
      cwd: paths.root,
      env: {
        PATH: process.env.PATH,
        HOME: process.env.HOME,
        MALLOC_ARENA_MAX: '2',
        GATEWAY_OPTIONS: JSON.stringify({ ...options, handOffRealtime: handOff }),
      },
      stdio: ['ignore', 'pipe', 'pipe', 'ipc'],
    },
  );
  if (handOff) {
    proc.child.on('message', (m: HandedUpgrade, socket?: Socket) => {
      if (m?.type !== 'realtime-upgrade' || !socket) return;
      // a socket whose client has gone (reset) must not end this process with its error
      socket.on('error', () => socket.destroy());
      const take = realtimeHandOff.upgrade;
      if (!take) return void socket.end(refusal('503 Service Unavailable'));
      const req = { method: 'GET', url: m.url, headers: m.headers } as IncomingMessage;
      take(req, socket, Buffer.from(m.head, 'base64'), m.path);
    });
  }
  await waitUntil(proc, () => httpOk(`http://127.0.0.1:${opts.port}/health`));
  return proc;
}

/** The ports the gateway passes requests on to (GatewayOptions' three). */
export type Upstreams = Pick<GatewayOptions, 'postgrestPort' | 'functionsPort' | 'servicesPort'>;

/**
 * Tells a running gateway where its upstreams answer now (a stack started one of them on another
 * port when its own was taken: stack.ts), resolving once the gateway has taken them: no request
 * it passes on after that goes to the old port.
 */
export function setGatewayUpstreams(child: ChildProcess, upstreams: Upstreams): Promise<void> {
  return askGateway(child, { type: 'upstreams', upstreams }, 'upstreams-set', 'its upstreams').then(
    () => undefined,
  );
}

/**
 * Sends the gateway `message` over its IPC channel and resolves with its first answer of type
 * `answer`. The bound only ends a hang (a gateway that died meanwhile): an idle process answers
 * at once, a busy machine's within seconds.
 */
function askGateway<T extends { type?: string }>(
  child: ChildProcess,
  message: object,
  answer: string,
  what: string,
  timeoutMs = 60_000,
): Promise<T> {
  return new Promise((resolve, reject) => {
    if (!child.connected) return reject(new Error('the gateway has no IPC channel'));
    const timer = setTimeout(() => {
      child.off('message', onMessage);
      reject(new Error(`the gateway did not answer for ${what} within ${timeoutMs / 1000} s`));
    }, timeoutMs);
    const onMessage = (m: T) => {
      if (m?.type !== answer) return;
      clearTimeout(timer);
      child.off('message', onMessage);
      resolve(m);
    };
    child.on('message', onMessage);
    child.send(message);
  });
}

/**
 * The gateway's memory after a full garbage collection (benchmarks), asked over its IPC channel;
 * rejects without an answer within 10 s.
 */
export function gatewayMemory(child: ChildProcess): Promise<NodeJS.MemoryUsage> {
  return askGateway<{ type?: string; usage?: NodeJS.MemoryUsage }>(
    child,
    { type: 'memory?' },
    'memory',
    'its memory',
    10_000,
  ).then((m) => m.usage!);
}

const refusal = (status: string) => `HTTP/1.1 ${status}\r\nconnection: close\r\n\r\n`;

/**
 * Hands an accepted Realtime websocket to the parent process (the stack's, which serves
 * Realtime): its file descriptor goes over the IPC channel, and this process closes its copy.
 * The client sends nothing before the handshake's answer, which the parent writes.
 */
function handOffUpgrade(req: IncomingMessage, socket: Duplex, head: Buffer, url: URL): void {
  const path = url.pathname.slice('/realtime/v1'.length);
  const message: HandedUpgrade = {
    type: 'realtime-upgrade',
    url: `/realtime${path}${url.search}`,
    path,
    headers: req.headers,
    head: head.toString('base64'),
  };
  // Node closes a sent socket here only once the parent has acknowledged it, and drops whatever
  // it reads meanwhile: the client's first frame, sent as soon as the parent's handshake answer
  // reaches it, would be lost. So this process stops reading it first (the client has sent
  // nothing since the request: it waits for that answer).
  (socket as unknown as { _handle?: { readStop?(): number } })._handle?.readStop?.();
  process.send!(message, socket as Socket, (err) => {
    if (err) socket.destroy();
  });
}

export function startGateway(opts: GatewayOptions): Promise<http.Server> {
  const secret = new TextEncoder().encode(opts.jwtSecret);
  const validKeys = new Set([opts.anonKey, opts.serviceRoleKey]);
  const publicFunctions = new Set(opts.publicFunctions ?? []);

  const server = serve(handle, {
    name: 'gateway',
    onError: (res, err) =>
      sendJson(res, err.status, {
        message: err.status >= 500 ? 'gateway error' : err.message,
      }),
  });

  function apikeyOf(req: IncomingMessage, url: URL): string | undefined {
    const header = req.headers['apikey'];
    return (
      (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey') ?? undefined
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = requestUrl(req);
    if (req.method === 'OPTIONS') {
      res.writeHead(204, CORS_HEADERS);
      res.end();
      return;
    }
    const [, service, version, ...rest] = url.pathname.split('/');
    const subPath = '/' + rest.join('/');
    if (version !== 'v1' || !service) {
      if (url.pathname === '/' || url.pathname === '/health')
        return sendJson(res, 200, { status: 'ok' });
      return sendJson(res, 404, { message: 'no Route matched with those values' });
    }
    const apikey = apikeyOf(req, url);
    const keyOk = apikey !== undefined && validKeys.has(apikey);
    const headers = forwardedHeaders(req);

    switch (service) {
      case 'rest': {
        if (!keyOk)
          return sendJson(res, 401, {
            message: 'Invalid API key',
            hint: 'Double check your Supabase `anon` or `service_role` API key.',
          });
        if (!headers.authorization) headers.authorization = `Bearer ${apikey}`;
        return proxy(
          req,
          res,
          opts.postgrestPort,
          subPath + url.search,
          headers,
          MAX_PROXIED_BODY_BYTES,
        );
      }
      case 'auth': {
        if (!keyOk && !OPEN_AUTH_PATHS.has(subPath)) {
          return sendJson(res, 401, {
            message: 'Invalid API key',
            hint: 'Double check your Supabase `anon` or `service_role` API key.',
          });
        }
        return proxy(req, res, opts.servicesPort, `/auth${subPath}${url.search}`, headers);
      }
      case 'functions': {
        const name = rest[0] ?? '';
        if (!publicFunctions.has(name)) {
          const auth = req.headers.authorization ?? '';
          const token = /^Bearer\s+(.+)$/i.exec(auth)?.[1];
          if (!token)
            return sendJson(res, 401, { code: 401, message: 'Missing authorization header' });
          try {
            await jwtVerify(token, secret, { algorithms: ['HS256'] });
          } catch {
            return sendJson(res, 401, { code: 401, message: 'Invalid JWT' });
          }
        }
        return proxy(
          req,
          res,
          opts.functionsPort,
          subPath + url.search,
          headers,
          MAX_PROXIED_BODY_BYTES,
        );
      }
      case 'realtime': {
        if (!keyOk || !opts.realtime) return sendJson(res, 401, { message: 'Invalid API key' });
        return proxy(req, res, opts.servicesPort, `/realtime${subPath}${url.search}`, headers);
      }
      case 'storage': {
        // public files are links in mails and pages: no apikey, as on Supabase
        if (!opts.storage)
          return sendJson(res, 404, { message: 'no Route matched with those values' });
        return proxy(req, res, opts.servicesPort, `/storage${subPath}${url.search}`, headers);
      }
      default:
        return sendJson(res, 404, { message: 'no Route matched with those values' });
    }
  }

  server.on('upgrade', (req, socket, head) => {
    socket.on('error', () => socket.destroy());
    let url: URL;
    try {
      url = requestUrl(req);
    } catch {
      socket.end('HTTP/1.1 400 Bad Request\r\nconnection: close\r\n\r\n');
      return;
    }
    const apikey = url.searchParams.get('apikey') ?? req.headers['apikey'];
    if (
      !url.pathname.startsWith('/realtime/v1/') ||
      !opts.realtime ||
      typeof apikey !== 'string' ||
      !validKeys.has(apikey)
    ) {
      socket.end('HTTP/1.1 401 Unauthorized\r\nconnection: close\r\n\r\n');
      return;
    }
    if (opts.handOffRealtime && process.send) return handOffUpgrade(req, socket, head, url);
    proxyUpgrade(
      req,
      socket,
      head,
      opts.servicesPort,
      `/realtime${url.pathname.slice('/realtime/v1'.length)}${url.search}`,
    );
  });

  // many concurrent clients in benchmarks: keep sockets alive. Longer than any client of ours
  // keeps an idle connection, so the client closes it first: Deno's fetch (the functions' calls
  // to /rest/v1 and /auth/v1) keeps one 90 s, and a request on a connection this server closed
  // at the same moment failed (a function's database call answered 500)
  server.keepAliveTimeout = GATEWAY_KEEP_ALIVE_MS;
  // one client address may not hold more connections than an office behind one NAT would
  limitConnectionsPerAddress(server);
  return listen(server, opts.port);
}
