// A GoTrue-compatible auth server for the local stack: the endpoints @supabase/auth-js calls,
// users in auth.users, HS256 JWTs with GoTrue's claims, rotating refresh tokens, PKCE, mailed
// links (an email change, sign-in links from the admin API) and a local stand-in page for the
// Google and Apple consent screens. Production uses Supabase Auth. One Hono app of route
// modules (routes/); the services port mounts it at /auth behind the gateway's /auth/v1, which
// checks the apikey and handles CORS.
import { Hono } from 'hono';
import { bodyLimit } from 'hono/body-limit';
import { clientLeft, HttpError, MAX_BODY_BYTES } from '../http.ts';
import { createDeps, type AuthEnv, type AuthOptions } from './context.ts';
import { AuthError, errorBody, UNEXPECTED } from './errors.ts';
import { adminRoutes } from './routes/admin.ts';
import { oauthRoutes } from './routes/oauth.ts';
import { settingsRoutes } from './routes/settings.ts';
import { signupRoutes } from './routes/signup.ts';
import { tokenRoutes } from './routes/token.ts';
import { unlinkRoutes, userRoutes } from './routes/user.ts';
import { verifyRoutes } from './routes/verify.ts';

export type { AuthOptions } from './context.ts';

export interface AuthServer {
  /** The routes, relative to the auth server's base (mount it with `app.route('/auth/v1', …)`). */
  app: Hono<AuthEnv>;
  close(): Promise<void>;
}

export function createAuthServer(opts: AuthOptions): AuthServer {
  const deps = createDeps(opts);
  const app = new Hono<AuthEnv>({ strict: false });

  const limit = bodyLimit({
    maxSize: MAX_BODY_BYTES,
    onError: () => {
      throw new AuthError(413, 'request_too_large', 'Request body too large');
    },
  });
  app.use((c, next) => {
    // A request with neither header has no body (RFC 9112 6.3). bodyLimit would still read it
    // and build a new Request from @hono/node-server's own request object, which undici's
    // Request refuses (a TypeError: every such POST or PUT was a 500).
    const headers = c.req.raw.headers;
    if (!headers.has('content-length') && !headers.has('transfer-encoding')) return next();
    return limit(c, next);
  });
  app.use(async (c, next) => {
    await next();
    c.header('Cache-Control', 'no-store');
  });

  settingsRoutes(app, deps);
  signupRoutes(app, deps);
  tokenRoutes(app, deps);
  verifyRoutes(app, deps);
  userRoutes(app, deps);
  oauthRoutes(app, deps);
  unlinkRoutes(app, deps);
  adminRoutes(app, deps);

  app.notFound((c) =>
    c.json(
      errorBody(
        new AuthError(
          404,
          'not_found',
          `${c.req.path} is not an endpoint of the local auth server`,
        ),
      ),
      404,
    ),
  );
  app.onError((err, c) => {
    const oauth = c.req.path.endsWith('/token');
    if (err instanceof HttpError) {
      const retryAfter = err instanceof AuthError ? err.retryAfter : undefined;
      return c.json(errorBody(err, oauth), err.status as 400, {
        'Cache-Control': 'no-store',
        ...(retryAfter === undefined ? {} : { 'Retry-After': String(retryAfter) }),
      });
    }
    // a client that left mid-body: nobody to answer (its connection is gone)
    if (clientLeft(c.env.incoming, err)) return c.body(null, 400);
    deps.log('auth', `unexpected failure on ${c.req.method} ${c.req.path}: ${err.stack ?? err}`);
    return c.json(errorBody(UNEXPECTED, oauth), 500, { 'Cache-Control': 'no-store' });
  });

  return {
    app,
    async close() {
      await deps.pool.end();
    },
  };
}
