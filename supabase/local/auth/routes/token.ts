// POST /token: the password grant (only with the email provider on), the refresh-token grant
// (rotation, a short reuse interval for concurrent refreshes, the family revoked on a later
// reuse) and the PKCE code exchange; all limited per client address (RATE_LIMIT_TOKEN_REFRESH).
import { createHash } from 'node:crypto';
import type { Hono } from 'hono';
import { limitCaller, tx, type AuthDeps, type AuthEnv } from '../context.ts';
import { badRequest, forbidden, notFound, unprocessable } from '../errors.ts';
import { verifyPassword } from '../password.ts';
import { readJsonBody, str } from '../params.ts';
import {
  amrMethodFor,
  issueSession,
  newRefreshToken,
  tokenResponse,
  type SessionResponse,
} from '../sessions.ts';
import { findUserByEmail, findUserById, isBanned } from '../users.ts';
import type { JsonObject } from '../../http.ts';
import { on } from './route.ts';

const FLOW_STATE_TTL_MS = 5 * 60 * 1000;
const INVALID_CREDENTIALS = 'Invalid login credentials';

async function passwordGrant(deps: AuthDeps, body: JsonObject): Promise<SessionResponse> {
  const email = str(body.email)?.trim() ?? '';
  const password = str(body.password) ?? '';
  if (!email && str(body.phone))
    throw unprocessable('phone_provider_disabled', 'Phone logins are disabled');
  if (!deps.settings.emailEnabled)
    throw unprocessable('email_provider_disabled', 'Email logins are disabled');
  if (!email || !password) throw badRequest('invalid_credentials', INVALID_CREDENTIALS);
  const user = await findUserByEmail(deps.pool, email);
  if (!user || !(await verifyPassword(password, user.encrypted_password, deps.pool))) {
    throw badRequest('invalid_credentials', INVALID_CREDENTIALS);
  }
  if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
  return tx(deps.pool, (db) => issueSession(deps, db, user, 'password'));
}

interface RefreshRow {
  id: string;
  user_id: string;
  session_id: string;
  revoked: boolean;
  updated_at: Date;
  session_created_at: Date;
}

async function refreshGrant(deps: AuthDeps, body: JsonObject): Promise<SessionResponse> {
  const token = str(body.refresh_token) ?? '';
  if (!token) throw badRequest('validation_failed', 'refresh_token required');
  const notFoundToken = () =>
    badRequest('refresh_token_not_found', 'Invalid Refresh Token: Refresh Token Not Found');
  const outcome = await tx(deps.pool, async (db): Promise<SessionResponse | 'reused'> => {
    const { rows } = await db.query<RefreshRow>(
      `select rt.id, rt.user_id, rt.session_id, rt.revoked, rt.updated_at, s.created_at as session_created_at
       from auth.refresh_tokens rt join auth.sessions s on s.id = rt.session_id
       where rt.token = $1 for update of rt`,
      [token],
    );
    const row = rows[0];
    if (!row) throw notFoundToken();
    const user = await findUserById(db, row.user_id);
    if (!user) throw notFoundToken();
    if (isBanned(user)) throw badRequest('user_banned', 'User is banned');
    const amr = [
      {
        method: amrMethodFor(user),
        timestamp: Math.floor(row.session_created_at.getTime() / 1000),
      },
    ];
    if (row.revoked) {
      // A concurrent refresh (two tabs) may present the token just rotated: within the reuse
      // interval it gets the session's current token instead of an error, as GoTrue does.
      if (Date.now() - row.updated_at.getTime() < deps.settings.reuseIntervalMs) {
        const active = await db.query<{ token: string }>(
          `select token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1`,
          [row.session_id],
        );
        const current = active.rows[0];
        if (current) return tokenResponse(deps, db, user, row.session_id, current.token, amr);
      }
      // reuse of an old token: treat the family as stolen and revoke all of it (committed
      // before the error is answered)
      await db.query(
        'update auth.refresh_tokens set revoked = true, updated_at = now() where session_id = $1 and revoked = false',
        [row.session_id],
      );
      return 'reused';
    }
    await db.query(
      'update auth.refresh_tokens set revoked = true, updated_at = now() where id = $1',
      [row.id],
    );
    const child = newRefreshToken();
    await db.query(
      'insert into auth.refresh_tokens (token, user_id, session_id, parent) values ($1, $2, $3, $4)',
      [child, user.id, row.session_id, token],
    );
    await db.query('update auth.sessions set updated_at = now() where id = $1', [row.session_id]);
    return tokenResponse(deps, db, user, row.session_id, child, amr);
  });
  if (outcome === 'reused')
    throw badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used');
  return outcome;
}

interface FlowRow {
  id: string;
  user_id: string | null;
  code_challenge_method: string;
  code_challenge: string;
  authentication_method: string;
  auth_code_issued_at: Date | null;
}

async function pkceGrant(deps: AuthDeps, body: JsonObject): Promise<SessionResponse> {
  const authCode = str(body.auth_code) ?? '';
  const verifier = str(body.code_verifier) ?? '';
  if (!authCode || !verifier) {
    throw badRequest(
      'validation_failed',
      'invalid request: both auth code and code verifier should be non-empty',
    );
  }
  const outcome = await tx(deps.pool, async (db) => {
    const { rows } = await db.query<FlowRow>(
      `select id, user_id, code_challenge_method, code_challenge, authentication_method, auth_code_issued_at
       from auth.flow_state where auth_code = $1 for update`,
      [authCode],
    );
    const flow = rows[0];
    if (!flow || !flow.user_id || !flow.auth_code_issued_at) {
      throw notFound('flow_state_not_found', 'invalid flow state, no valid flow state found');
    }
    if (Date.now() - flow.auth_code_issued_at.getTime() > FLOW_STATE_TTL_MS) {
      // committed before the error is returned, so the stale code cannot be tried again
      await db.query('delete from auth.flow_state where id = $1', [flow.id]);
      return undefined;
    }
    const expected =
      flow.code_challenge_method.toLowerCase() === 's256'
        ? createHash('sha256').update(verifier).digest('base64url')
        : verifier;
    if (expected !== flow.code_challenge) {
      throw forbidden(
        'bad_code_verifier',
        'code challenge does not match previously saved code verifier',
      );
    }
    await db.query('delete from auth.flow_state where id = $1', [flow.id]);
    const user = await findUserById(db, flow.user_id);
    if (!user) throw notFound('user_not_found', 'User not found');
    return issueSession(deps, db, user, flow.authentication_method);
  });
  if (!outcome)
    throw badRequest('flow_state_expired', 'invalid flow state, flow state has expired');
  return outcome;
}

const GRANTS: Record<string, (deps: AuthDeps, body: JsonObject) => Promise<SessionResponse>> = {
  password: passwordGrant,
  refresh_token: refreshGrant,
  pkce: pkceGrant,
};

export function tokenRoutes(app: Hono<AuthEnv>, deps: AuthDeps): void {
  on(app, '/token', {
    POST: async (c) => {
      const grant = GRANTS[c.req.query('grant_type') ?? ''];
      if (!grant) throw badRequest('unsupported_grant_type', 'unsupported_grant_type');
      limitCaller(deps, c, 'token');
      return c.json(await grant(deps, await readJsonBody(c)));
    },
  });
}
