// The signed-in user's own endpoints: GET and PUT /user (metadata and password; an email change
// goes to the Send Email Hook, email-change.ts), POST /logout, DELETE /user/identities/:id.
import type { Hono } from 'hono';
import { limitCaller, tx, type AuthCtx, type AuthDeps, type AuthEnv } from '../context.ts';
import { badRequest, forbidden, unprocessable } from '../errors.ts';
import { requestEmailChange } from '../email-change.ts';
import { hashPassword, verifyPassword } from '../password.ts';
import { checkPassword, metadataParam, readJsonBody, requireEmail, str } from '../params.ts';
import { validRedirect } from '../redirects.ts';
import { requireUser } from '../sessions.ts';
import {
  findUserById,
  identitiesOf,
  loadUserJson,
  mergeMetadata,
  syncProviders,
} from '../users.ts';
import { on } from './route.ts';

async function updateUser(deps: AuthDeps, c: AuthCtx) {
  const caller = await requireUser(deps, c);
  limitCaller(deps, c, 'userUpdates');
  const body = await readJsonBody(c);
  const email =
    body.email === undefined || body.email === '' ? undefined : requireEmail(body.email);
  const password = str(body.password);
  const data = metadataParam(body.data, 'data');
  if (str(body.phone)) throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  if (body.app_metadata !== undefined)
    throw forbidden('not_admin', 'Updating app_metadata requires admin privileges');
  if (password !== undefined) {
    checkPassword(deps.settings, password);
    if (caller.user.is_anonymous && !caller.user.email && !email) {
      throw unprocessable(
        'validation_failed',
        'Updating password of an anonymous user without an email or phone is not allowed',
      );
    }
    if (await verifyPassword(password, caller.user.encrypted_password, deps.pool)) {
      throw unprocessable(
        'same_password',
        'New password should be different from the old password.',
      );
    }
  }
  const hash = password !== undefined ? await hashPassword(password) : undefined;
  const updated = await tx(deps.pool, async (db) => {
    const user = (await findUserById(db, caller.user.id, true))!;
    if (data) await mergeMetadata(db, user.id, 'raw_user_meta_data', data);
    if (hash) {
      await db.query(
        'update auth.users set encrypted_password = $2, updated_at = now() where id = $1',
        [user.id, hash],
      );
    }
    if (email && email !== (user.email ?? '').toLowerCase()) {
      const redirectTo = validRedirect(deps.settings, c.req.query('redirect_to'));
      await requestEmailChange(deps, db, user, email, redirectTo);
    }
    return (await findUserById(db, user.id))!;
  });
  return c.json(await loadUserJson(deps.pool, updated));
}

async function logout(deps: AuthDeps, c: AuthCtx) {
  const scope = c.req.query('scope') ?? 'global';
  if (!['global', 'local', 'others'].includes(scope)) {
    throw badRequest('validation_failed', 'Unsupported logout scope');
  }
  const { user, sessionId } = await requireUser(deps, c);
  // Deleting the session deletes its refresh tokens (FK cascade): they can no longer be used.
  if (scope === 'global') {
    await deps.pool.query('delete from auth.sessions where user_id = $1', [user.id]);
  } else if (scope === 'local') {
    if (sessionId) await deps.pool.query('delete from auth.sessions where id = $1', [sessionId]);
  } else {
    await deps.pool.query(
      'delete from auth.sessions where user_id = $1 and id is distinct from $2::uuid',
      [user.id, sessionId ?? null],
    );
  }
  return c.body(null, 204);
}

async function unlinkIdentity(deps: AuthDeps, c: AuthCtx) {
  const { user } = await requireUser(deps, c);
  const identityId = c.req.param('id') ?? '';
  const identities = await identitiesOf(deps.pool, user.id);
  const identity = identities.find((i) => i.id === identityId);
  if (!identity) throw unprocessable('identity_not_found', "Identity doesn't exist");
  if (identities.length <= 1) {
    throw unprocessable(
      'single_identity_not_deletable',
      'User must have at least 1 identity after unlinking',
    );
  }
  await tx(deps.pool, async (db) => {
    await db.query('delete from auth.identities where id = $1', [identity.id]);
    await syncProviders(db, user.id);
    const { rows } = await db.query<{ providers: string[] }>(
      `select raw_app_meta_data -> 'providers' as providers from auth.users where id = $1`,
      [user.id],
    );
    const remaining = rows[0]?.providers ?? [];
    if (user.raw_app_meta_data?.provider === identity.provider && remaining[0]) {
      await mergeMetadata(db, user.id, 'raw_app_meta_data', { provider: remaining[0] });
    }
  });
  return c.json({});
}

export function userRoutes(app: Hono<AuthEnv>, deps: AuthDeps): void {
  on(app, '/user', {
    GET: async (c) => {
      const { user } = await requireUser(deps, c);
      return c.json(await loadUserJson(deps.pool, user));
    },
    PUT: (c) => updateUser(deps, c),
  });
  on(app, '/logout', { POST: (c) => logout(deps, c) });
}

/** After /user/identities/authorize (oauth.ts), so that path is not taken for an id. */
export function unlinkRoutes(app: Hono<AuthEnv>, deps: AuthDeps): void {
  on(app, '/user/identities/:id', { DELETE: (c) => unlinkIdentity(deps, c) });
}
