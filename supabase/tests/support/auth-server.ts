// A local auth server of a test's own, on a free port: its routes at /auth/v1 (the gateway's
// prefix), and whatever pages the test adds (the app a flow returns to).
import type { Server } from 'node:http';
import { Hono } from 'hono';
import { getRequestListener } from '@hono/node-server';
import type { AuthServer } from '../../local/auth/server.ts';
import { closeServer, listen, serve } from '../../local/http.ts';

export interface ServedAuth {
  url: string;
  server: Server;
  close(): Promise<void>;
}

export async function serveAuth(
  auth: AuthServer,
  extra?: (app: Hono) => void,
  port = 0,
): Promise<ServedAuth> {
  const app = new Hono();
  app.route('/auth/v1', auth.app);
  extra?.(app);
  const server = serve(getRequestListener(app.fetch, { overrideGlobalObjects: false }), {
    name: 'auth-test',
  });
  await listen(server, port);
  const address = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${address.port}`,
    server,
    close: async () => {
      await closeServer(server);
      await auth.close();
    },
  };
}
