// The API gateway: one port with Supabase's path layout, standing in for Kong on hosted Supabase.
//   /rest/v1/*       -> PostgREST        (apikey required)
//   /auth/v1/*       -> local auth server (apikey required, except browser navigations)
//   /functions/v1/*  -> Deno edge runtime (a valid JWT required unless verify_jwt = false)
//   /realtime/v1/*   -> local realtime server (websocket; apikey in the query)
//   /storage/v1/*    -> local storage stand-in (public files open; uploads need the service role)
import http, { type IncomingMessage, type ServerResponse } from 'node:http';
import { jwtVerify } from 'jose';
import type { AuthServer } from './auth/server.ts';
import type { RealtimeServer } from './realtime/server.ts';
import type { LocalStorage } from './storage.ts';

export interface GatewayOptions {
  port: number;
  anonKey: string;
  serviceRoleKey: string;
  jwtSecret: string;
  postgrestPort: number;
  functionsPort: number;
  auth: Pick<AuthServer, 'handle'>;
  realtime?: Pick<RealtimeServer, 'upgrade' | 'handle'>;
  storage?: LocalStorage;
  /** Functions that accept calls without a user JWT (config.toml `verify_jwt = false`). */
  publicFunctions?: Set<string>;
}

const CORS_HEADERS: Record<string, string> = {
  'access-control-allow-origin': '*',
  'access-control-allow-methods': 'GET, POST, PUT, PATCH, DELETE, OPTIONS, HEAD',
  'access-control-allow-headers':
    'authorization, x-client-info, apikey, content-type, prefer, range, accept, accept-profile, content-profile, x-supabase-api-version, x-region',
  'access-control-expose-headers':
    'content-range, content-location, x-supabase-api-version, location',
  'access-control-max-age': '86400',
};

/** Auth paths a browser navigates to directly (no way to add an apikey header). */
const OPEN_AUTH_PATHS = new Set(['/authorize', '/callback', '/verify']);

function sendJson(res: ServerResponse, status: number, body: unknown): void {
  res.writeHead(status, { ...CORS_HEADERS, 'content-type': 'application/json' });
  res.end(JSON.stringify(body));
}

// reuse upstream connections: a new TCP connection per request would dominate hot-path latency
const upstreamAgent = new http.Agent({ keepAlive: true, maxSockets: 64 });

function proxy(
  req: IncomingMessage,
  res: ServerResponse,
  port: number,
  path: string,
  headers: http.OutgoingHttpHeaders,
) {
  delete headers.connection;
  const upstream = http.request(
    { host: '127.0.0.1', port, method: req.method, path, headers, agent: upstreamAgent },
    (up) => {
      const outHeaders: http.OutgoingHttpHeaders = { ...up.headers, ...CORS_HEADERS };
      res.writeHead(up.statusCode ?? 502, outHeaders);
      up.pipe(res);
    },
  );
  upstream.on('error', (err) => {
    if (!res.headersSent) sendJson(res, 502, { message: `upstream unavailable: ${err.message}` });
    else res.destroy();
  });
  req.pipe(upstream);
}

export function startGateway(opts: GatewayOptions): Promise<http.Server> {
  const secret = new TextEncoder().encode(opts.jwtSecret);
  const validKeys = new Set([opts.anonKey, opts.serviceRoleKey]);

  const server = http.createServer((req, res) => {
    void handle(req, res).catch((err: unknown) => {
      if (!res.headersSent)
        sendJson(res, 500, { message: `gateway error: ${(err as Error).message}` });
      else res.destroy();
    });
  });

  function apikeyOf(req: IncomingMessage, url: URL): string | undefined {
    const header = req.headers['apikey'];
    return (
      (Array.isArray(header) ? header[0] : header) ?? url.searchParams.get('apikey') ?? undefined
    );
  }

  async function handle(req: IncomingMessage, res: ServerResponse) {
    const url = new URL(req.url ?? '/', 'http://gateway');
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
    const headers: http.OutgoingHttpHeaders = { ...req.headers, host: req.headers.host };

    switch (service) {
      case 'rest': {
        if (!keyOk)
          return sendJson(res, 401, {
            message: 'Invalid API key',
            hint: 'Double check your Supabase `anon` or `service_role` API key.',
          });
        if (!headers.authorization) headers.authorization = `Bearer ${apikey}`;
        return proxy(req, res, opts.postgrestPort, subPath + url.search, headers);
      }
      case 'auth': {
        if (!keyOk && !OPEN_AUTH_PATHS.has(subPath)) {
          return sendJson(res, 401, {
            message: 'Invalid API key',
            hint: 'Double check your Supabase `anon` or `service_role` API key.',
          });
        }
        for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
        return opts.auth.handle(req, res, subPath, url.searchParams);
      }
      case 'functions': {
        const name = rest[0] ?? '';
        if (!opts.publicFunctions?.has(name)) {
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
        return proxy(req, res, opts.functionsPort, subPath + url.search, headers);
      }
      case 'realtime': {
        if (!keyOk || !opts.realtime) return sendJson(res, 401, { message: 'Invalid API key' });
        for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
        return opts.realtime.handle(req, res, subPath);
      }
      case 'storage': {
        // public files are links in mails and pages: no apikey, as on Supabase
        if (!opts.storage)
          return sendJson(res, 404, { message: 'no Route matched with those values' });
        for (const [k, v] of Object.entries(CORS_HEADERS)) res.setHeader(k, v);
        return opts.storage.handle(req, res, subPath);
      }
      default:
        return sendJson(res, 404, { message: 'no Route matched with those values' });
    }
  }

  server.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://gateway');
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
    opts.realtime.upgrade(req, socket, head, url.pathname.slice('/realtime/v1'.length));
  });

  // many concurrent clients in benchmarks: keep sockets alive
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve(server));
  });
}
