// The small router helper of the auth routes: each path with its methods, and GoTrue's 405 for
// any other method on a path that exists.
import type { Hono } from 'hono';
import type { AuthCtx, AuthEnv } from '../context.ts';
import { AuthError } from '../errors.ts';

type Method = 'GET' | 'POST' | 'PUT' | 'DELETE';
export type RouteHandler = (c: AuthCtx) => Response | Promise<Response>;

export function on(
  app: Hono<AuthEnv>,
  path: string,
  handlers: Partial<Record<Method, RouteHandler>>,
): void {
  for (const [method, handler] of Object.entries(handlers)) app.on(method, path, handler);
  app.all(path, (c) => {
    throw new AuthError(
      405,
      'method_not_allowed',
      `Method ${c.req.method} not allowed on ${c.req.path}`,
    );
  });
}
