// Sessions and who is calling: access tokens with GoTrue's claims, a new session with its first
// refresh token, and the checks of a caller's bearer token (a user's or the service role's).
import { randomBytes, randomUUID } from 'node:crypto';
import { bearerToken } from '../http.ts';
import { nowSeconds, type AuthCtx, type AuthDeps } from './context.ts';
import { badRequest, forbidden, unauthorized } from './errors.ts';
import {
  findUserById,
  isBanned,
  isUuid,
  loadUserJson,
  type Queryable,
  type UserJson,
  type UserRow,
} from './users.ts';

export interface SessionResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: UserJson;
}

export interface Amr {
  method: string;
  timestamp: number;
}

export interface Caller {
  user: UserRow;
  sessionId: string | undefined;
  claims: Record<string, unknown>;
}

const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);

export const newRefreshToken = () => randomBytes(16).toString('base64url');

/** How the session's user signed in, for the `amr` claim of a refreshed token. */
export function amrMethodFor(user: UserRow): string {
  const provider = user.raw_app_meta_data?.provider;
  if (user.is_anonymous || provider === 'anonymous') return 'anonymous';
  if (provider === 'email' || provider === 'phone' || provider === undefined) return 'password';
  return 'oauth';
}

export async function tokenResponse(
  deps: AuthDeps,
  db: Queryable,
  user: UserRow,
  sessionId: string,
  refreshToken: string,
  amr: Amr[],
): Promise<SessionResponse> {
  const iat = nowSeconds();
  const exp = iat + deps.settings.jwtExpiry;
  const accessToken = await deps.jwt.signAccessToken(
    {
      sub: user.id,
      aud: user.aud || 'authenticated',
      role: user.role || 'authenticated',
      email: user.email ?? '',
      phone: user.phone ?? '',
      app_metadata: user.raw_app_meta_data ?? {},
      user_metadata: user.raw_user_meta_data ?? {},
      aal: 'aal1',
      amr,
      session_id: sessionId,
      is_anonymous: user.is_anonymous,
    },
    exp,
    iat,
  );
  return {
    access_token: accessToken,
    token_type: 'bearer',
    expires_in: deps.settings.jwtExpiry,
    expires_at: exp,
    refresh_token: refreshToken,
    user: await loadUserJson(db, user),
  };
}

/** A new session with its first refresh token, as a sign-in does. */
export async function issueSession(
  deps: AuthDeps,
  db: Queryable,
  user: UserRow,
  method: string,
): Promise<SessionResponse> {
  if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
  const sessionId = randomUUID();
  await db.query('insert into auth.sessions (id, user_id) values ($1, $2)', [sessionId, user.id]);
  const refreshToken = newRefreshToken();
  await db.query(
    'insert into auth.refresh_tokens (token, user_id, session_id) values ($1, $2, $3)',
    [refreshToken, user.id, sessionId],
  );
  await db.query(
    'update auth.users set last_sign_in_at = now(), updated_at = now() where id = $1',
    [user.id],
  );
  const fresh = (await findUserById(db, user.id))!;
  return tokenResponse(deps, db, fresh, sessionId, refreshToken, [
    { method, timestamp: nowSeconds() },
  ]);
}

function tokenOf(c: AuthCtx): string {
  const token = bearerToken(c.req.header('authorization'));
  if (!token) throw unauthorized('no_authorization', 'This endpoint requires a valid Bearer token');
  return token;
}

/** The signed-in user behind the bearer token, whose session must still exist. */
export async function requireUser(deps: AuthDeps, c: AuthCtx): Promise<Caller> {
  const claims = (await deps.jwt.verify(tokenOf(c))) as Record<string, unknown>;
  const sub = typeof claims.sub === 'string' ? claims.sub : undefined;
  if (!sub) throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
  const user = await findUserById(deps.pool, sub);
  if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
  const sessionId = typeof claims.session_id === 'string' ? claims.session_id : undefined;
  if (sessionId) {
    const { rowCount } = await deps.pool.query(
      'select 1 from auth.sessions where id = $1 and user_id = $2',
      [isUuid(sessionId) ? sessionId : '00000000-0000-0000-0000-000000000000', user.id],
    );
    if (!rowCount)
      throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
  }
  return { user, sessionId, claims };
}

/** The service role (or Supabase's admin role): the admin endpoints' callers. */
export async function requireAdmin(deps: AuthDeps, c: AuthCtx): Promise<void> {
  const claims = await deps.jwt.verify(tokenOf(c));
  if (!ADMIN_ROLES.has(String(claims.role))) throw forbidden('not_admin', 'User not allowed');
}
