// A GoTrue-compatible auth server for the local stack: the endpoints @supabase/auth-js calls,
// users in auth.users, HS256 JWTs with GoTrue's claims, rotating refresh tokens, PKCE, and a
// local stand-in page for the Google and Apple consent screens. Production uses Supabase Auth.
// The gateway mounts it at /auth/v1, checks the apikey and handles CORS.
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import type { IncomingMessage, ServerResponse } from 'node:http';
import pg from 'pg';
import { renderConsentPage, PROVIDER_LABELS } from './consent-page.ts';
import {
  AuthError,
  badRequest,
  bearerToken,
  forbidden,
  isPlainObject,
  notFound,
  readForm,
  readJson,
  redirect,
  sendEmpty,
  sendError,
  sendHtml,
  sendJson,
  str,
  unauthorized,
  unprocessable,
  type JsonObject,
} from './http.ts';
import { Jwt } from './jwt.ts';
import { hashPassword, verifyPassword } from './password.ts';
import { clientAddress, HourlyLimiter, normaliseAddress } from './rate-limit.ts';
import {
  findUserByEmail,
  findUserById,
  identitiesOf,
  insertIdentity,
  insertUser,
  isBanned,
  isUuid,
  loadUserJson,
  normaliseEmail,
  syncProviders,
  userJson,
  type IdentityRow,
  type Queryable,
  type UserRow,
} from './users.ts';

export interface AuthOptions {
  databaseUrl: string;
  jwtSecret: string;
  /** e.g. http://127.0.0.1:54321/auth/v1 — the JWT `iss` and the base of the consent form's action */
  externalUrl: string;
  /** default redirect, e.g. http://127.0.0.1:54321 */
  siteUrl: string;
  additionalRedirectUrls?: string[];
  /** access token lifetime in seconds, default 3600 */
  jwtExpiry?: number;
  anonKey: string;
  serviceRoleKey: string;
  /** seconds a used refresh token still returns the session's current token (concurrent refreshes), default 10 */
  refreshTokenReuseInterval?: number;
  /** minimum password length, default 6 (GoTrue's default) */
  passwordMinLength?: number;
  /**
   * Anonymous sign-ins per client address and hour (Supabase Auth's `rate_limit_anonymous_users`,
   * GoTrue's RATE_LIMIT_ANONYMOUS_USERS), default 30 as there; 0 turns the limit off.
   */
  rateLimitAnonymousUsers?: number;
  /**
   * Addresses of the proxies in front (a load balancer, a CDN) whose X-Forwarded-For is believed;
   * default none: the client address is the connection's peer.
   */
  trustedProxies?: string[];
}

export interface AuthServer {
  handle(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ): Promise<void>;
  close(): Promise<void>;
}

const PROVIDERS = ['google', 'apple'] as const;
const FLOW_STATE_TTL_MS = 5 * 60 * 1000;
const DEFAULT_CONSENT_EMAIL = 'demo@reaction-blocks.local';
const DEFAULT_CONSENT_NAME = 'Demo Owner';
const ADMIN_ROLES = new Set(['service_role', 'supabase_admin']);

const INVALID_CREDENTIALS = 'Invalid login credentials';

interface SessionResponse {
  access_token: string;
  token_type: 'bearer';
  expires_in: number;
  expires_at: number;
  refresh_token: string;
  user: ReturnType<typeof userJson>;
}

interface AuthContext {
  user: UserRow;
  sessionId: string | undefined;
  claims: Record<string, unknown>;
}

const newRefreshToken = () => randomBytes(16).toString('base64url');
const nowSeconds = () => Math.floor(Date.now() / 1000);

function amrMethodFor(user: UserRow): string {
  const provider = user.raw_app_meta_data?.provider;
  if (user.is_anonymous || provider === 'anonymous') return 'anonymous';
  if (provider === 'email' || provider === 'phone' || provider === undefined) return 'password';
  return 'oauth';
}

/** Go's time.ParseDuration for the units an admin would use ("24h", "1h30m", "90s"). */
function parseDuration(text: string): number | undefined {
  const units: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000 };
  const re = /(\d+(?:\.\d+)?)(ms|s|m|h)/gy;
  let total = 0;
  let consumed = 0;
  for (let match = re.exec(text); match; match = re.exec(text)) {
    total += Number(match[1]) * units[match[2]!]!;
    consumed = re.lastIndex;
  }
  return consumed === text.length && consumed > 0 ? total : undefined;
}

function globToRegExp(glob: string): RegExp {
  let out = '';
  for (let i = 0; i < glob.length; i++) {
    const ch = glob[i]!;
    if (ch === '*') {
      if (glob[i + 1] === '*') {
        out += '.*';
        i++;
      } else out += '[^./]*';
    } else if (ch === '?') out += '[^./]';
    else out += ch.replace(/[\\^$.|+()[\]{}]/g, '\\$&');
  }
  return new RegExp(`^${out}$`);
}

function pgCode(err: unknown): string | undefined {
  return typeof err === 'object' && err !== null && 'code' in err
    ? String((err as { code: unknown }).code)
    : undefined;
}

export function createAuthServer(opts: AuthOptions): AuthServer {
  const pool = new pg.Pool({ connectionString: opts.databaseUrl, max: 10 });
  // a dropped idle connection must not crash the stack
  pool.on('error', (err) => console.error('[auth] idle database connection failed:', err.message));
  const externalUrl = opts.externalUrl.replace(/\/+$/, '');
  const jwt = new Jwt(opts.jwtSecret, externalUrl);
  const jwtExpiry = opts.jwtExpiry ?? 3600;
  const reuseIntervalMs = (opts.refreshTokenReuseInterval ?? 10) * 1000;
  const passwordMinLength = opts.passwordMinLength ?? 6;
  const siteUrl = opts.siteUrl;
  const allowList = (opts.additionalRedirectUrls ?? []).filter((u) => u.trim() !== '');
  const anonymousSignIns = new HourlyLimiter(opts.rateLimitAnonymousUsers ?? 30);
  const trustedProxies = new Set(
    (opts.trustedProxies ?? []).map(normaliseAddress).filter((a) => a !== ''),
  );

  async function tx<T>(fn: (client: pg.PoolClient) => Promise<T>): Promise<T> {
    const client = await pool.connect();
    try {
      await client.query('begin');
      const result = await fn(client);
      await client.query('commit');
      return result;
    } catch (err) {
      await client.query('rollback').catch(() => {});
      throw err;
    } finally {
      client.release();
    }
  }

  // ---- redirects -------------------------------------------------------------------------

  /** GoTrue's rule: same hostname as the site URL, or a match in the allow list; else the site URL. */
  function validRedirect(raw: string | null | undefined): string {
    if (!raw) return siteUrl;
    let url: URL;
    try {
      url = new URL(raw);
    } catch {
      return siteUrl;
    }
    const webScheme = url.protocol === 'http:' || url.protocol === 'https:';
    try {
      if (webScheme && url.hostname === new URL(siteUrl).hostname) return raw;
    } catch {
      // an unparsable site URL matches nothing
    }
    for (const entry of allowList) {
      if (entry.includes('*') || entry.includes('?')) {
        // a pattern without a path ("http://localhost:*") allows any path on the origins it matches
        const originOnly = !entry.replace(/^[a-z][a-z0-9+.-]*:\/\//i, '').includes('/');
        if (globToRegExp(entry).test(originOnly && webScheme ? url.origin : raw)) return raw;
        continue;
      }
      if (raw === entry) return raw;
      try {
        if (webScheme && new URL(entry).origin === url.origin) return raw;
      } catch {
        // ignore a malformed allow-list entry
      }
    }
    return siteUrl;
  }

  function withQuery(base: string, params: Record<string, string>): string {
    const url = new URL(base);
    for (const [k, v] of Object.entries(params)) url.searchParams.set(k, v);
    return url.toString();
  }

  function withFragment(base: string, params: Record<string, string>): string {
    const url = new URL(base);
    url.hash = new URLSearchParams(params).toString();
    return url.toString();
  }

  // ---- sessions --------------------------------------------------------------------------

  async function tokenResponse(
    db: Queryable,
    user: UserRow,
    sessionId: string,
    refreshToken: string,
    amr: { method: string; timestamp: number }[],
  ): Promise<SessionResponse> {
    const iat = nowSeconds();
    const exp = iat + jwtExpiry;
    const accessToken = await jwt.signAccessToken(
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
      expires_in: jwtExpiry,
      expires_at: exp,
      refresh_token: refreshToken,
      user: await loadUserJson(db, user),
    };
  }

  /** A new session with its first refresh token, as a sign-in does. */
  async function issueSession(
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
    return tokenResponse(db, fresh, sessionId, refreshToken, [{ method, timestamp: nowSeconds() }]);
  }

  // ---- authentication of callers -----------------------------------------------------------

  async function requireUser(req: IncomingMessage): Promise<AuthContext> {
    const token = bearerToken(req);
    if (!token)
      throw unauthorized('no_authorization', 'This endpoint requires a valid Bearer token');
    const claims = (await jwt.verify(token)) as Record<string, unknown>;
    const sub = str(claims.sub);
    if (!sub) throw forbidden('bad_jwt', 'invalid claim: missing sub claim');
    const user = await findUserById(pool, sub);
    if (!user) throw forbidden('user_not_found', 'User from sub claim in JWT does not exist');
    const sessionId = str(claims.session_id);
    if (sessionId) {
      const { rowCount } = await pool.query(
        'select 1 from auth.sessions where id = $1 and user_id = $2',
        [isUuid(sessionId) ? sessionId : '00000000-0000-0000-0000-000000000000', user.id],
      );
      if (!rowCount)
        throw forbidden('session_not_found', 'Session from session_id claim in JWT does not exist');
    }
    return { user, sessionId, claims };
  }

  async function requireAdmin(req: IncomingMessage): Promise<void> {
    const token = bearerToken(req);
    if (!token)
      throw unauthorized('no_authorization', 'This endpoint requires a valid Bearer token');
    const claims = await jwt.verify(token);
    if (!ADMIN_ROLES.has(String(claims.role))) throw forbidden('not_admin', 'User not allowed');
  }

  // ---- validation helpers ----------------------------------------------------------------

  function checkPassword(password: string): void {
    if (password.length < passwordMinLength) {
      throw new AuthError(
        422,
        'weak_password',
        `Password should be at least ${passwordMinLength} characters.`,
        {
          weak_password: { reasons: ['length'] },
        },
      );
    }
  }

  function requireEmail(value: unknown): string {
    const email = typeof value === 'string' ? normaliseEmail(value) : undefined;
    if (!email)
      throw badRequest('validation_failed', 'Unable to validate email address: invalid format');
    return email;
  }

  function metadataParam(value: unknown, field: string): JsonObject | undefined {
    if (value === undefined || value === null) return undefined;
    if (!isPlainObject(value)) throw badRequest('validation_failed', `${field} must be an object`);
    return value;
  }

  /** Merges metadata like GoTrue: keys set to null are removed. */
  async function mergeUserMetadata(db: Queryable, userId: string, data: JsonObject): Promise<void> {
    const removed = Object.keys(data).filter((k) => data[k] === null);
    const kept = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== null));
    await db.query(
      `update auth.users set raw_user_meta_data = (raw_user_meta_data || $2::jsonb) - $3::text[], updated_at = now()
       where id = $1`,
      [userId, JSON.stringify(kept), removed],
    );
  }

  async function mergeAppMetadata(db: Queryable, userId: string, data: JsonObject): Promise<void> {
    const removed = Object.keys(data).filter((k) => data[k] === null);
    const kept = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== null));
    await db.query(
      `update auth.users set raw_app_meta_data = (raw_app_meta_data || $2::jsonb) - $3::text[], updated_at = now()
       where id = $1`,
      [userId, JSON.stringify(kept), removed],
    );
  }

  /** Sets a confirmed email and keeps the email identity in step (creating it when missing). */
  async function setEmail(db: Queryable, user: UserRow, email: string): Promise<void> {
    const taken = await findUserByEmail(db, email);
    if (taken && taken.id !== user.id) {
      throw unprocessable(
        'email_exists',
        'A user with this email address has already been registered',
      );
    }
    await db.query(
      `update auth.users set email = $2, email_confirmed_at = coalesce(email_confirmed_at, now()), updated_at = now()
       where id = $1`,
      [user.id, email],
    );
    const identityData = { sub: user.id, email, email_verified: true, phone_verified: false };
    const { rowCount } = await db.query(
      `update auth.identities set identity_data = identity_data || $2::jsonb, updated_at = now()
       where user_id = $1 and provider = 'email'`,
      [user.id, JSON.stringify(identityData)],
    );
    if (!rowCount) await insertIdentity(db, user.id, 'email', user.id, identityData);
    if (user.is_anonymous) {
      // an anonymous user who adds a (here auto-confirmed) email becomes a permanent user
      await db.query(
        `update auth.users set is_anonymous = false,
           raw_app_meta_data = raw_app_meta_data || '{"provider":"email"}'::jsonb where id = $1`,
        [user.id],
      );
    }
    await syncProviders(db, user.id);
  }

  // ---- endpoints ---------------------------------------------------------------------------

  function settings(res: ServerResponse): void {
    const external: Record<string, boolean> = {
      anonymous_users: true,
      apple: true,
      azure: false,
      bitbucket: false,
      discord: false,
      facebook: false,
      figma: false,
      fly: false,
      github: false,
      gitlab: false,
      google: true,
      keycloak: false,
      kakao: false,
      linkedin: false,
      linkedin_oidc: false,
      notion: false,
      spotify: false,
      slack: false,
      slack_oidc: false,
      workos: false,
      twitch: false,
      twitter: false,
      email: true,
      phone: false,
      zoom: false,
    };
    sendJson(res, 200, {
      external,
      disable_signup: false,
      mailer_autoconfirm: true,
      phone_autoconfirm: false,
      sms_provider: '',
      saml_enabled: false,
    });
  }

  async function signup(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    const email = str(body.email)?.trim() ?? '';
    const phone = str(body.phone)?.trim() ?? '';
    const password = str(body.password) ?? '';
    const data = metadataParam(body.data, 'data') ?? {};

    if (!email && !phone && !password) {
      const address = clientAddress(req, trustedProxies);
      if (!anonymousSignIns.take(address)) {
        throw new AuthError(429, 'over_request_rate_limit', 'Request rate limit reached');
      }
      const session = await tx(async (db) => {
        const user = await insertUser(db, {
          id: randomUUID(),
          email: null,
          encryptedPassword: null,
          userMetaData: data,
          appMetaData: { provider: 'anonymous', providers: ['anonymous'] },
          confirmed: false,
          isAnonymous: true,
        });
        return issueSession(db, user, 'anonymous');
      });
      sendJson(res, 200, session);
      return;
    }
    if (phone) throw badRequest('phone_provider_disabled', 'Phone signups are disabled');
    if (!email) throw badRequest('validation_failed', 'To signup, please provide your email');
    const normalised = requireEmail(email);
    if (!password) throw badRequest('validation_failed', 'Signup requires a valid password');
    checkPassword(password);
    if (await findUserByEmail(pool, normalised))
      throw unprocessable('user_already_exists', 'User already registered');
    const hash = await hashPassword(password);
    const session = await tx(async (db) => {
      let user: UserRow;
      try {
        user = await insertUser(db, {
          id: randomUUID(),
          email: normalised,
          encryptedPassword: hash,
          userMetaData: data,
          appMetaData: { provider: 'email', providers: ['email'] },
          confirmed: true,
          isAnonymous: false,
        });
      } catch (err) {
        if (pgCode(err) === '23505')
          throw unprocessable('user_already_exists', 'User already registered');
        throw err;
      }
      await insertIdentity(db, user.id, 'email', user.id, {
        sub: user.id,
        email: normalised,
        email_verified: true,
        phone_verified: false,
      });
      return issueSession(db, user, 'password');
    });
    sendJson(res, 200, session);
  }

  async function passwordGrant(body: JsonObject): Promise<SessionResponse> {
    const email = str(body.email)?.trim() ?? '';
    const password = str(body.password) ?? '';
    if (!email && str(body.phone))
      throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
    if (!email || !password) throw badRequest('invalid_credentials', INVALID_CREDENTIALS);
    const user = await findUserByEmail(pool, email);
    if (!user || !(await verifyPassword(password, user.encrypted_password, pool))) {
      throw badRequest('invalid_credentials', INVALID_CREDENTIALS);
    }
    if (!user.email_confirmed_at) throw badRequest('email_not_confirmed', 'Email not confirmed');
    return tx((db) => issueSession(db, user, 'password'));
  }

  async function refreshGrant(body: JsonObject): Promise<SessionResponse> {
    const token = str(body.refresh_token) ?? '';
    if (!token) throw badRequest('validation_failed', 'refresh_token required');
    const outcome = await tx(async (db): Promise<SessionResponse | 'reused'> => {
      const { rows } = await db.query<{
        id: string;
        user_id: string;
        session_id: string;
        revoked: boolean;
        updated_at: Date;
        session_created_at: Date;
      }>(
        `select rt.id, rt.user_id, rt.session_id, rt.revoked, rt.updated_at, s.created_at as session_created_at
         from auth.refresh_tokens rt join auth.sessions s on s.id = rt.session_id
         where rt.token = $1 for update of rt`,
        [token],
      );
      const row = rows[0];
      if (!row)
        throw badRequest(
          'refresh_token_not_found',
          'Invalid Refresh Token: Refresh Token Not Found',
        );
      const user = await findUserById(db, row.user_id);
      if (!user)
        throw badRequest(
          'refresh_token_not_found',
          'Invalid Refresh Token: Refresh Token Not Found',
        );
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
        if (Date.now() - row.updated_at.getTime() < reuseIntervalMs) {
          const active = await db.query<{ token: string }>(
            `select token from auth.refresh_tokens where session_id = $1 and revoked = false order by id desc limit 1`,
            [row.session_id],
          );
          const current = active.rows[0];
          if (current) return tokenResponse(db, user, row.session_id, current.token, amr);
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
      return tokenResponse(db, user, row.session_id, child, amr);
    });
    if (outcome === 'reused')
      throw badRequest('refresh_token_already_used', 'Invalid Refresh Token: Already Used');
    return outcome;
  }

  async function pkceGrant(body: JsonObject): Promise<SessionResponse> {
    const authCode = str(body.auth_code) ?? '';
    const verifier = str(body.code_verifier) ?? '';
    if (!authCode || !verifier) {
      throw badRequest(
        'validation_failed',
        'invalid request: both auth code and code verifier should be non-empty',
      );
    }
    const outcome = await tx(async (db) => {
      const { rows } = await db.query<{
        id: string;
        user_id: string | null;
        code_challenge_method: string;
        code_challenge: string;
        authentication_method: string;
        auth_code_issued_at: Date | null;
      }>(
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
      return issueSession(db, user, flow.authentication_method);
    });
    if (!outcome)
      throw badRequest('flow_state_expired', 'invalid flow state, flow state has expired');
    return outcome;
  }

  async function token(
    req: IncomingMessage,
    res: ServerResponse,
    query: URLSearchParams,
  ): Promise<void> {
    const grantType = query.get('grant_type') ?? '';
    const body = await readJson(req);
    let session: SessionResponse;
    switch (grantType) {
      case 'password':
        session = await passwordGrant(body);
        break;
      case 'refresh_token':
        session = await refreshGrant(body);
        break;
      case 'pkce':
        session = await pkceGrant(body);
        break;
      default:
        throw badRequest('unsupported_grant_type', 'unsupported_grant_type');
    }
    sendJson(res, 200, session);
  }

  async function getUser(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const { user } = await requireUser(req);
    sendJson(res, 200, await loadUserJson(pool, user));
  }

  async function updateUser(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const ctx = await requireUser(req);
    const body = await readJson(req);
    const email =
      body.email === undefined || body.email === '' ? undefined : requireEmail(body.email);
    const password = str(body.password);
    const data = metadataParam(body.data, 'data');
    if (str(body.phone)) throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
    if (password !== undefined) {
      checkPassword(password);
      if (ctx.user.is_anonymous && !ctx.user.email && !email) {
        throw unprocessable(
          'validation_failed',
          'Updating password of an anonymous user without an email or phone is not allowed',
        );
      }
      if (await verifyPassword(password, ctx.user.encrypted_password, pool)) {
        throw unprocessable(
          'same_password',
          'New password should be different from the old password.',
        );
      }
    }
    const hash = password !== undefined ? await hashPassword(password) : undefined;
    const updated = await tx(async (db) => {
      const user = (await findUserById(db, ctx.user.id, true))!;
      if (data) await mergeUserMetadata(db, user.id, data);
      if (email && email !== (user.email ?? '').toLowerCase()) {
        try {
          await setEmail(db, user, email);
        } catch (err) {
          if (pgCode(err) === '23505') {
            throw unprocessable(
              'email_exists',
              'A user with this email address has already been registered',
            );
          }
          throw err;
        }
      }
      if (hash) {
        await db.query(
          'update auth.users set encrypted_password = $2, updated_at = now() where id = $1',
          [user.id, hash],
        );
      }
      return (await findUserById(db, user.id))!;
    });
    sendJson(res, 200, await loadUserJson(pool, updated));
  }

  async function logout(
    req: IncomingMessage,
    res: ServerResponse,
    query: URLSearchParams,
  ): Promise<void> {
    const scope = query.get('scope') ?? 'global';
    if (!['global', 'local', 'others'].includes(scope)) {
      throw badRequest('validation_failed', 'Unsupported logout scope');
    }
    const { user, sessionId } = await requireUser(req);
    // Deleting the session deletes its refresh tokens (FK cascade): they can no longer be used.
    if (scope === 'global') {
      await pool.query('delete from auth.sessions where user_id = $1', [user.id]);
    } else if (scope === 'local') {
      if (sessionId) await pool.query('delete from auth.sessions where id = $1', [sessionId]);
    } else {
      await pool.query(
        'delete from auth.sessions where user_id = $1 and id is distinct from $2::uuid',
        [user.id, sessionId ?? null],
      );
    }
    sendEmpty(res, 204);
  }

  // ---- OAuth: /authorize (with the stand-in consent page) and /callback ---------------------

  /**
   * The first half of an OAuth flow (sign-in or linkIdentity): validates the provider and the
   * PKCE parameters, stores the flow state, signs the `state`, and returns the provider's URL,
   * which here is the stand-in consent page at GET /callback?state=...
   */
  async function providerFlowUrl(query: URLSearchParams, linkingTargetId = ''): Promise<string> {
    const provider = query.get('provider') ?? '';
    if (!(PROVIDERS as readonly string[]).includes(provider)) {
      throw badRequest(
        'validation_failed',
        `Unsupported provider: Provider ${provider} could not be found`,
      );
    }
    const codeChallenge = query.get('code_challenge') ?? '';
    const method = (query.get('code_challenge_method') ?? '').toLowerCase();
    if ((codeChallenge === '') !== (method === '')) {
      throw badRequest(
        'validation_failed',
        'PKCE flow requires code_challenge_method and code_challenge',
      );
    }
    const referrer = validRedirect(query.get('redirect_to'));
    let flowStateId = '';
    if (codeChallenge) {
      if (method !== 's256' && method !== 'plain') {
        throw badRequest('validation_failed', `code challenge method ${method} is not supported`);
      }
      if (codeChallenge.length < 43 || codeChallenge.length > 128) {
        throw badRequest(
          'validation_failed',
          'code challenge has to be between 43 and 128 characters',
        );
      }
      flowStateId = randomUUID();
      await pool.query(
        `insert into auth.flow_state (id, auth_code, code_challenge_method, code_challenge, provider_type,
           authentication_method, redirect_to)
         values ($1, $2, $3, $4, $5, 'oauth', $6)`,
        [flowStateId, randomUUID(), method, codeChallenge, provider, referrer],
      );
    }
    const state = await jwt.signState({
      provider,
      referrer,
      flow_state_id: flowStateId,
      linking_target_id: linkingTargetId,
    });
    const url = new URL(`${externalUrl}/callback`);
    url.searchParams.set('state', state);
    // Google's login_hint prefills the account, here the email field
    const hint = query.get('login_hint');
    if (hint) url.searchParams.set('login_hint', hint);
    return url.toString();
  }

  /** GET /authorize: where GoTrue redirects to Google or Apple, we redirect to the stand-in. */
  async function authorize(res: ServerResponse, query: URLSearchParams): Promise<void> {
    redirect(res, 302, await providerFlowUrl(query));
  }

  /** GET /user/identities/authorize (linkIdentity): the provider URL as JSON, as GoTrue answers. */
  async function linkIdentityStart(
    req: IncomingMessage,
    res: ServerResponse,
    query: URLSearchParams,
  ): Promise<void> {
    const { user } = await requireUser(req);
    sendJson(res, 200, { url: await providerFlowUrl(query, user.id) });
  }

  const expiredStatePage = () =>
    `<!doctype html><html lang="en"><head><meta charset="utf-8"><title>Sign-in expired</title></head>` +
    `<body><main><h1>Sign-in link expired or invalid</h1><p>Start the sign-in again from the app.</p></main></body></html>`;

  /** GET /callback?state=...: the local stand-in for the provider's consent screen. */
  async function consentPage(res: ServerResponse, query: URLSearchParams): Promise<void> {
    const stateToken = query.get('state') ?? '';
    const state = await jwt.verifyState(stateToken);
    if (!state) {
      sendHtml(res, 400, expiredStatePage());
      return;
    }
    sendHtml(
      res,
      200,
      renderConsentPage({
        provider: state.provider,
        state: stateToken,
        callbackUrl: `${externalUrl}/callback`,
        email: query.get('login_hint') ?? DEFAULT_CONSENT_EMAIL,
        name: DEFAULT_CONSENT_NAME,
        redirectTo: state.referrer,
      }),
    );
  }

  async function unlinkIdentity(
    req: IncomingMessage,
    res: ServerResponse,
    identityId: string,
  ): Promise<void> {
    const { user } = await requireUser(req);
    const identities = await identitiesOf(pool, user.id);
    const identity = identities.find((i) => i.id === identityId);
    if (!identity) throw unprocessable('identity_not_found', "Identity doesn't exist");
    if (identities.length <= 1) {
      throw unprocessable(
        'single_identity_not_deletable',
        'User must have at least 1 identity after unlinking',
      );
    }
    await tx(async (db) => {
      await db.query('delete from auth.identities where id = $1', [identity.id]);
      await syncProviders(db, user.id);
      const { rows } = await db.query<{ providers: string[] }>(
        `select raw_app_meta_data -> 'providers' as providers from auth.users where id = $1`,
        [user.id],
      );
      const remaining = rows[0]?.providers ?? [];
      if (user.raw_app_meta_data?.provider === identity.provider && remaining[0]) {
        await mergeAppMetadata(db, user.id, { provider: remaining[0] });
      }
    });
    sendJson(res, 200, {});
  }

  function providerSubject(provider: string, email: string): string {
    const digest = createHash('sha256').update(`${provider}:${email}`).digest();
    if (provider === 'apple') return `000000.${digest.subarray(0, 16).toString('hex')}.0000`;
    // Google subjects are 21-digit numbers
    return (
      (BigInt(`0x${digest.subarray(0, 9).toString('hex')}`) % 10n ** 20n) +
      10n ** 20n
    ).toString();
  }

  /** Finds or creates the user for a provider identity, linking by email as GoTrue does. */
  async function userFromProvider(
    db: Queryable,
    provider: string,
    email: string,
    name: string,
    picture: string,
    linkingTargetId: string,
  ): Promise<UserRow> {
    const sub = providerSubject(provider, email);
    const identityData: JsonObject = {
      iss: provider === 'apple' ? 'https://appleid.apple.com' : 'https://accounts.google.com',
      sub,
      provider_id: sub,
      email,
      email_verified: true,
      phone_verified: false,
    };
    if (name) Object.assign(identityData, { name, full_name: name });
    if (picture) Object.assign(identityData, { picture, avatar_url: picture });

    const existing = await db.query<IdentityRow>(
      'select * from auth.identities where provider = $1 and provider_id = $2 for update',
      [provider, sub],
    );
    if (linkingTargetId)
      return linkToUser(db, linkingTargetId, provider, sub, email, identityData, existing.rows[0]);
    let user: UserRow | undefined;
    if (existing.rows[0]) {
      user = await findUserById(db, existing.rows[0].user_id, true);
      await db.query(
        `update auth.identities set identity_data = $2, last_sign_in_at = now(), updated_at = now() where id = $1`,
        [existing.rows[0].id, JSON.stringify(identityData)],
      );
    } else {
      user = await findUserByEmail(db, email);
      if (user) await insertIdentity(db, user.id, provider, sub, identityData);
    }
    if (user) {
      await mergeUserMetadata(db, user.id, identityData);
      if (!user.email_confirmed_at) {
        await db.query('update auth.users set email_confirmed_at = now() where id = $1', [user.id]);
      }
      await syncProviders(db, user.id);
      return (await findUserById(db, user.id))!;
    }
    const created = await insertUser(db, {
      id: randomUUID(),
      email,
      encryptedPassword: null,
      userMetaData: identityData,
      appMetaData: { provider, providers: [provider] },
      confirmed: true,
      isAnonymous: false,
    });
    await insertIdentity(db, created.id, provider, sub, identityData);
    return created;
  }

  /** linkIdentity's second half; an anonymous user who links a provider becomes permanent. */
  async function linkToUser(
    db: Queryable,
    targetId: string,
    provider: string,
    sub: string,
    email: string,
    identityData: JsonObject,
    existing: IdentityRow | undefined,
  ): Promise<UserRow> {
    const target = await findUserById(db, targetId, true);
    if (!target) throw notFound('user_not_found', 'User not found');
    if (existing && existing.user_id !== target.id) {
      throw unprocessable('identity_already_exists', 'Identity is already linked to another user');
    }
    if (existing) {
      await db.query(
        `update auth.identities set identity_data = $2, last_sign_in_at = now(), updated_at = now() where id = $1`,
        [existing.id, JSON.stringify(identityData)],
      );
    } else {
      await insertIdentity(db, target.id, provider, sub, identityData);
    }
    await mergeUserMetadata(db, target.id, identityData);
    if (!target.email) {
      const other = await findUserByEmail(db, email);
      if (other && other.id !== target.id) {
        throw unprocessable(
          'email_exists',
          'A user with this email address has already been registered',
        );
      }
      await db.query(
        `update auth.users set email = $2, email_confirmed_at = coalesce(email_confirmed_at, now()),
           updated_at = now() where id = $1`,
        [target.id, email],
      );
    }
    if (target.is_anonymous) {
      // metadata and email are in place before the flip: the profiles trigger fires on it
      await db.query(
        `update auth.users set is_anonymous = false,
           raw_app_meta_data = raw_app_meta_data || jsonb_build_object('provider', $2::text)
         where id = $1`,
        [target.id, provider],
      );
    }
    await syncProviders(db, target.id);
    return (await findUserById(db, target.id))!;
  }

  async function callback(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const form = await readForm(req);
    const state = await jwt.verifyState(form.get('state') ?? '');
    if (!state) {
      sendHtml(res, 400, expiredStatePage());
      return;
    }
    const pkce = state.flow_state_id !== '';
    const fail = (code: string, description: string) => {
      const params = { error: 'access_denied', error_code: code, error_description: description };
      redirect(
        res,
        303,
        pkce ? withQuery(state.referrer, params) : withFragment(state.referrer, params),
      );
    };
    if (form.get('decision') === 'deny') {
      if (pkce)
        await pool.query('delete from auth.flow_state where id = $1', [state.flow_state_id]);
      fail(
        'access_denied',
        `${PROVIDER_LABELS[state.provider] ?? state.provider} sign-in was cancelled`,
      );
      return;
    }

    const rawEmail = (form.get('email') ?? '').trim();
    const name = (form.get('name') ?? '').trim().slice(0, 100);
    const picture = (form.get('picture') ?? '').trim();
    const email = normaliseEmail(rawEmail);
    let problem = '';
    if (!email) problem = 'Enter a valid email address.';
    else if (picture && !/^https?:\/\/\S+$/i.test(picture))
      problem = 'The picture must be an http(s) URL.';
    if (problem) {
      sendHtml(
        res,
        422,
        renderConsentPage({
          provider: state.provider,
          state: form.get('state') ?? '',
          callbackUrl: `${externalUrl}/callback`,
          email: rawEmail,
          name,
          redirectTo: state.referrer,
          error: problem,
        }),
      );
      return;
    }

    let result: { code: string } | { session: SessionResponse } | { error: AuthError };
    try {
      result = await tx(async (db) => {
        const user = await userFromProvider(
          db,
          state.provider,
          email!,
          name,
          picture,
          state.linking_target_id,
        );
        if (isBanned(user)) throw forbidden('user_banned', 'User is banned');
        if (pkce) {
          const { rows } = await db.query<{ auth_code: string }>(
            `update auth.flow_state set user_id = $2, auth_code_issued_at = now()
             where id = $1 and user_id is null returning auth_code`,
            [state.flow_state_id, user.id],
          );
          if (!rows[0]) throw unprocessable('flow_state_not_found', 'Flow state not found');
          return { code: rows[0].auth_code };
        }
        return { session: await issueSession(db, user, 'oauth') };
      });
    } catch (err) {
      if (!(err instanceof AuthError)) throw err;
      result = { error: err };
    }
    if ('error' in result) {
      fail(result.error.errorCode, result.error.message);
    } else if ('code' in result) {
      redirect(res, 303, withQuery(state.referrer, { code: result.code }));
    } else {
      const s = result.session;
      redirect(
        res,
        303,
        withFragment(state.referrer, {
          access_token: s.access_token,
          expires_at: String(s.expires_at),
          expires_in: String(s.expires_in),
          refresh_token: s.refresh_token,
          token_type: s.token_type,
        }),
      );
    }
  }

  // ---- admin -----------------------------------------------------------------------------

  async function adminListUsers(res: ServerResponse, query: URLSearchParams): Promise<void> {
    // GoTrue parses both as unsigned integers and refuses anything else with a 400
    const unsigned = (name: string, fallback: number): number => {
      const raw = query.get(name);
      if (raw === null || raw === '') return fallback;
      if (!/^\d{1,15}$/.test(raw)) {
        throw badRequest(
          'validation_failed',
          `Bad Pagination Parameters: strconv.ParseUint: parsing ${JSON.stringify(raw)}: invalid syntax`,
        );
      }
      return Number(raw);
    };
    const page = Math.max(1, unsigned('page', 1));
    const perPage = Math.min(1000, Math.max(1, unsigned('per_page', 50)));
    const total = Number(
      (await pool.query<{ n: string }>('select count(*) as n from auth.users')).rows[0]!.n,
    );
    const { rows } = await pool.query<{ id: string }>(
      'select id from auth.users order by created_at desc, id limit $1 offset $2',
      [perPage, (page - 1) * perPage],
    );
    const users = [];
    for (const { id } of rows) {
      const user = await findUserById(pool, id);
      if (user) users.push(userJson(user, await identitiesOf(pool, id)));
    }
    const lastPage = Math.max(1, Math.ceil(total / perPage));
    const links: string[] = [];
    if (page < lastPage)
      links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
    links.push(`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`);
    sendJson(
      res,
      200,
      { users, aud: 'authenticated' },
      { 'X-Total-Count': String(total), Link: links.join(', ') },
    );
  }

  async function adminCreateUser(req: IncomingMessage, res: ServerResponse): Promise<void> {
    const body = await readJson(req);
    if (str(body.phone)) throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
    const email = requireEmail(body.email);
    const password = str(body.password);
    if (password !== undefined) checkPassword(password);
    const userMeta = metadataParam(body.user_metadata, 'user_metadata') ?? {};
    const appMeta = metadataParam(body.app_metadata, 'app_metadata') ?? {};
    const id = str(body.id);
    if (id !== undefined && !isUuid(id)) throw badRequest('validation_failed', 'id must be a UUID');
    const role = str(body.role);
    if (await findUserByEmail(pool, email)) {
      throw unprocessable(
        'email_exists',
        'A user with this email address has already been registered',
      );
    }
    const hash = password ? await hashPassword(password) : null;
    const confirmed = body.email_confirm === true;
    const user = await tx(async (db) => {
      let created: UserRow;
      try {
        created = await insertUser(db, {
          id: id ?? randomUUID(),
          email,
          encryptedPassword: hash,
          userMetaData: userMeta,
          appMetaData: { provider: 'email', providers: ['email'], ...appMeta },
          confirmed,
          isAnonymous: false,
          role,
        });
      } catch (err) {
        if (pgCode(err) === '23505') {
          throw unprocessable(
            'email_exists',
            'A user with this email address has already been registered',
          );
        }
        throw err;
      }
      await insertIdentity(db, created.id, 'email', created.id, {
        sub: created.id,
        email,
        email_verified: confirmed,
        phone_verified: false,
      });
      return created;
    });
    sendJson(res, 200, await loadUserJson(pool, user));
  }

  async function adminUserById(id: string): Promise<UserRow> {
    const user = await findUserById(pool, id);
    if (!user) throw notFound('user_not_found', 'User not found');
    return user;
  }

  async function adminUpdateUser(
    req: IncomingMessage,
    res: ServerResponse,
    id: string,
  ): Promise<void> {
    await adminUserById(id);
    const body = await readJson(req);
    const email = body.email === undefined ? undefined : requireEmail(body.email);
    const password = str(body.password);
    if (password !== undefined) checkPassword(password);
    const userMeta = metadataParam(body.user_metadata, 'user_metadata');
    const appMeta = metadataParam(body.app_metadata, 'app_metadata');
    const ban = str(body.ban_duration);
    let bannedUntil: Date | null | undefined;
    if (ban !== undefined) {
      if (ban === 'none') bannedUntil = null;
      else {
        const ms = parseDuration(ban);
        if (ms === undefined)
          throw badRequest('validation_failed', 'invalid format for ban duration');
        bannedUntil = new Date(Date.now() + ms);
      }
    }
    const hash = password ? await hashPassword(password) : undefined;
    const updated = await tx(async (db) => {
      const user = (await findUserById(db, id, true))!;
      if (userMeta) await mergeUserMetadata(db, id, userMeta);
      if (appMeta) await mergeAppMetadata(db, id, appMeta);
      if (email && email !== (user.email ?? '').toLowerCase()) await setEmail(db, user, email);
      if (hash)
        await db.query('update auth.users set encrypted_password = $2 where id = $1', [id, hash]);
      if (body.email_confirm === true) {
        await db.query(
          'update auth.users set email_confirmed_at = coalesce(email_confirmed_at, now()) where id = $1',
          [id],
        );
      }
      if (str(body.role))
        await db.query('update auth.users set role = $2 where id = $1', [id, str(body.role)]);
      if (bannedUntil !== undefined) {
        await db.query('update auth.users set banned_until = $2 where id = $1', [id, bannedUntil]);
        // a ban ends every session, as in GoTrue
        if (bannedUntil) await db.query('delete from auth.sessions where user_id = $1', [id]);
      }
      await db.query('update auth.users set updated_at = now() where id = $1', [id]);
      return (await findUserById(db, id))!;
    });
    sendJson(res, 200, await loadUserJson(pool, updated));
  }

  async function adminDeleteUser(res: ServerResponse, id: string): Promise<void> {
    await adminUserById(id);
    // identities, sessions, refresh tokens and flow states go with it (on delete cascade),
    // and so does every public table keyed to auth.users with a cascading foreign key
    await pool.query('delete from auth.users where id = $1', [id]);
    sendJson(res, 200, {});
  }

  // ---- routing -----------------------------------------------------------------------------

  async function route(
    req: IncomingMessage,
    res: ServerResponse,
    path: string,
    query: URLSearchParams,
  ) {
    const method = req.method ?? 'GET';
    const p = path.length > 1 ? path.replace(/\/+$/, '') : path;
    const methodNotAllowed = () => {
      throw new AuthError(405, 'method_not_allowed', `Method ${method} not allowed on ${p}`);
    };

    switch (p) {
      case '/health':
        return sendJson(res, 200, {
          version: 'local',
          name: 'GoTrue',
          description: 'Reaction Blocks local auth',
        });
      case '/settings':
        return method === 'GET' ? settings(res) : methodNotAllowed();
      case '/.well-known/jwks.json':
        // HS256 only: no public keys to publish (auth-js then verifies through GET /user)
        return sendJson(res, 200, { keys: [] });
      case '/signup':
        return method === 'POST' ? signup(req, res) : methodNotAllowed();
      case '/token':
        return method === 'POST' ? token(req, res, query) : methodNotAllowed();
      case '/user':
        if (method === 'GET') return getUser(req, res);
        if (method === 'PUT') return updateUser(req, res);
        return methodNotAllowed();
      case '/logout':
        return method === 'POST' ? logout(req, res, query) : methodNotAllowed();
      case '/authorize':
        return method === 'GET' ? authorize(res, query) : methodNotAllowed();
      case '/callback':
        if (method === 'GET') return consentPage(res, query);
        if (method === 'POST') return callback(req, res);
        return methodNotAllowed();
      case '/user/identities/authorize':
        return method === 'GET' ? linkIdentityStart(req, res, query) : methodNotAllowed();
      case '/admin/users':
        await requireAdmin(req);
        if (method === 'GET') return adminListUsers(res, query);
        if (method === 'POST') return adminCreateUser(req, res);
        return methodNotAllowed();
    }
    const identity = /^\/user\/identities\/([^/]+)$/.exec(p);
    if (identity) {
      return method === 'DELETE'
        ? unlinkIdentity(req, res, decodeURIComponent(identity[1]!))
        : methodNotAllowed();
    }
    const adminUser = /^\/admin\/users\/([^/]+)$/.exec(p);
    if (adminUser) {
      await requireAdmin(req);
      const id = decodeURIComponent(adminUser[1]!);
      if (method === 'GET')
        return sendJson(res, 200, await loadUserJson(pool, await adminUserById(id)));
      if (method === 'PUT') return adminUpdateUser(req, res, id);
      if (method === 'DELETE') return adminDeleteUser(res, id);
      return methodNotAllowed();
    }
    throw notFound('not_found', `${p} is not an endpoint of the local auth server`);
  }

  return {
    async handle(req, res, path, query) {
      try {
        await route(req, res, path, query);
      } catch (err) {
        if (res.headersSent) {
          res.destroy();
          return;
        }
        if (err instanceof AuthError) {
          sendError(res, err, path === '/token');
          return;
        }
        console.error('[auth] unexpected failure:', err);
        sendError(
          res,
          new AuthError(
            500,
            'unexpected_failure',
            'Unexpected failure, please check server logs for more information',
          ),
          path === '/token',
        );
      }
    },
    async close() {
      await pool.end();
    },
  };
}
