// The stack's services port: the auth, realtime and storage stand-ins of this process, each
// under its own prefix (/auth, /realtime, /storage), for the gateway (gateway.ts) to proxy to.
// Internal: only the gateway calls it; it checks no API keys (the gateway did).
import http, { type Server } from 'node:http';
import type { AuthServer } from './auth/server.ts';
import type { RealtimeServer } from './realtime/server.ts';
import type { LocalStorage } from './storage.ts';

export interface ServicesOptions {
  port: number;
  auth: Pick<AuthServer, 'handle'>;
  realtime?: Pick<RealtimeServer, 'upgrade' | 'handle'>;
  storage?: Pick<LocalStorage, 'handle'>;
}

function notFound(res: http.ServerResponse) {
  res.writeHead(404, { 'content-type': 'application/json' });
  res.end(JSON.stringify({ message: 'no Route matched with those values' }));
}

/** Splits `/auth/token` into ['auth', '/token']. */
function route(rawUrl: string | undefined): { service: string; subPath: string; url: URL } {
  const url = new URL(rawUrl ?? '/', 'http://services');
  const [, service = '', ...rest] = url.pathname.split('/');
  return { service, subPath: '/' + rest.join('/'), url };
}

export function startServices(opts: ServicesOptions): Promise<Server> {
  const server = http.createServer((req, res) => {
    const { service, subPath, url } = route(req.url);
    const fail = (err: unknown) => {
      if (!res.headersSent) {
        res.writeHead(500, { 'content-type': 'application/json' });
        res.end(JSON.stringify({ message: `${service} error: ${(err as Error).message}` }));
      } else res.destroy();
    };
    try {
      if (service === 'auth')
        return void Promise.resolve(opts.auth.handle(req, res, subPath, url.searchParams)).catch(
          fail,
        );
      if (service === 'realtime' && opts.realtime)
        return void opts.realtime.handle(req, res, subPath).catch(fail);
      if (service === 'storage' && opts.storage)
        return void Promise.resolve(opts.storage.handle(req, res, subPath)).catch(fail);
      notFound(res);
    } catch (err) {
      fail(err);
    }
  });
  server.on('upgrade', (req, socket, head) => {
    const { service, subPath } = route(req.url);
    if (service !== 'realtime' || !opts.realtime) {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
      return;
    }
    opts.realtime.upgrade(req, socket, head, subPath);
  });
  server.keepAliveTimeout = 65_000;
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port, '127.0.0.1', () => resolve(server));
  });
}
