// The stack's services port: the auth, realtime and storage stand-ins of this process, each
// under its own prefix (/auth, /realtime, /storage), for the gateway (gateway.ts) to proxy to.
// One Hono router: the auth server's app is mounted as it is; realtime and storage answer with
// Node's request and response. Internal: only the gateway calls it; it checks no API keys
// (the gateway did).
import type { Server } from 'node:http';
import type { IncomingMessage, ServerResponse } from 'node:http';
import { Hono, type Context } from 'hono';
import { getRequestListener, type HttpBindings } from '@hono/node-server';
import { RESPONSE_ALREADY_SENT } from '@hono/node-server/utils/response';
import type { AuthServer } from './auth/server.ts';
import { clientLeft, listen, serve } from './http.ts';
import type { RealtimeServer } from './realtime/server.ts';
import type { LocalStorage } from './storage.ts';

export interface ServicesOptions {
  port: number;
  auth: Pick<AuthServer, 'app'>;
  realtime?: Pick<RealtimeServer, 'upgrade' | 'handle'>;
  storage?: Pick<LocalStorage, 'handle'>;
  log?: (service: string, line: string) => void;
}

type Env = { Bindings: HttpBindings };
type NodeHandler = (req: IncomingMessage, res: ServerResponse, subPath: string) => Promise<void>;

const NO_ROUTE = { message: 'no Route matched with those values' };

/** Hands a request under `prefix` to a handler that answers on Node's response itself. */
function nodeRoute(prefix: string, handler: NodeHandler) {
  return async (c: Context<Env>) => {
    await handler(c.env.incoming, c.env.outgoing, c.req.path.slice(prefix.length) || '/');
    return RESPONSE_ALREADY_SENT;
  };
}

export function servicesApp(opts: Omit<ServicesOptions, 'port'>): Hono<Env> {
  const app = new Hono<Env>();
  app.route('/auth', opts.auth.app);
  const { realtime, storage } = opts;
  if (realtime)
    app.all(
      '/realtime/*',
      nodeRoute('/realtime', (q, s, p) => realtime.handle(q, s, p)),
    );
  if (storage) {
    app.all(
      '/storage/*',
      nodeRoute('/storage', async (q, s, p) => storage.handle(q, s, p)),
    );
  }
  app.notFound((c) => c.json(NO_ROUTE, 404));
  app.onError((err, c) => {
    if (clientLeft(c.env.incoming, err)) {
      c.env.outgoing.destroy();
      return RESPONSE_ALREADY_SENT;
    }
    (opts.log ?? ((s, l) => console.error(`[${s}] ${l}`)))(
      'services',
      `unexpected failure on ${c.req.method} ${c.req.path}: ${err.stack ?? err}`,
    );
    if (c.env.outgoing.headersSent) {
      c.env.outgoing.destroy();
      return RESPONSE_ALREADY_SENT;
    }
    return c.json({ message: 'Internal server error' }, 500);
  });
  return app;
}

export function startServices(opts: ServicesOptions): Promise<Server> {
  const listener = getRequestListener(servicesApp(opts).fetch, { overrideGlobalObjects: false });
  const server = serve(listener, { name: 'services', log: opts.log });
  server.on('upgrade', (req, socket, head) => {
    // Node's server stops listening for an upgraded socket's errors: a client that resets it
    // must not end this process
    socket.on('error', () => socket.destroy());
    const path = (req.url ?? '/').split('?')[0]!;
    if (!path.startsWith('/realtime/') || !opts.realtime) {
      socket.end('HTTP/1.1 404 Not Found\r\nconnection: close\r\n\r\n');
      return;
    }
    try {
      opts.realtime.upgrade(req, socket, head, path.slice('/realtime'.length));
    } catch {
      socket.destroy();
    }
  });
  server.keepAliveTimeout = 65_000;
  return listen(server, opts.port);
}
