// The admin API (service role only): users listed, created, read, updated and deleted, and
// POST /admin/generate_link, which makes a sign-in link for a user without mailing it (how
// tests and operators sign a user in when email sign-in is off, as on GoTrue).
import { randomUUID } from 'node:crypto';
import type { Hono } from 'hono';
import { tx, type AuthCtx, type AuthDeps, type AuthEnv } from '../context.ts';
import { badRequest, notFound } from '../errors.ts';
import { actionLink, newOtp, tokenHash } from '../mailer.ts';
import { hashPassword } from '../password.ts';
import {
  checkPassword,
  metadataParam,
  parseDuration,
  readJsonBody,
  requireEmail,
  str,
} from '../params.ts';
import { validRedirect } from '../redirects.ts';
import { requireAdmin } from '../sessions.ts';
import {
  assertEmailFree,
  emailExists,
  findUserByEmail,
  findUserById,
  identitiesOf,
  insertEmailUser,
  isUuid,
  loadUserJson,
  mergeMetadata,
  setConfirmedEmail,
  userJson,
  type UserRow,
} from '../users.ts';
import { on } from './route.ts';

async function listUsers(deps: AuthDeps, c: AuthCtx) {
  // GoTrue parses both as unsigned integers and refuses anything else with a 400
  const unsigned = (name: string, fallback: number): number => {
    const raw = c.req.query(name);
    if (raw === undefined || raw === '') return fallback;
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
    (await deps.pool.query<{ n: string }>('select count(*) as n from auth.users')).rows[0]!.n,
  );
  const { rows } = await deps.pool.query<{ id: string }>(
    'select id from auth.users order by created_at desc, id limit $1 offset $2',
    [perPage, (page - 1) * perPage],
  );
  const users = [];
  for (const { id } of rows) {
    const user = await findUserById(deps.pool, id);
    if (user) users.push(userJson(user, await identitiesOf(deps.pool, id)));
  }
  const lastPage = Math.max(1, Math.ceil(total / perPage));
  const links: string[] = [];
  if (page < lastPage)
    links.push(`</admin/users?page=${page + 1}&per_page=${perPage}>; rel="next"`);
  links.push(`</admin/users?page=${lastPage}&per_page=${perPage}>; rel="last"`);
  return c.json({ users, aud: 'authenticated' }, 200, {
    'X-Total-Count': String(total),
    Link: links.join(', '),
  });
}

async function createUser(deps: AuthDeps, c: AuthCtx) {
  const body = await readJsonBody(c);
  if (str(body.phone)) throw badRequest('phone_provider_disabled', 'Phone logins are disabled');
  const email = requireEmail(body.email);
  const password = str(body.password);
  if (password !== undefined) checkPassword(deps.settings, password);
  const userMeta = metadataParam(body.user_metadata, 'user_metadata') ?? {};
  const appMeta = metadataParam(body.app_metadata, 'app_metadata') ?? {};
  const id = str(body.id);
  if (id !== undefined && !isUuid(id)) throw badRequest('validation_failed', 'id must be a UUID');
  await assertEmailFree(deps.pool, email);
  const hash = password ? await hashPassword(password) : null;
  const confirmed = body.email_confirm === true;
  const user = await tx(deps.pool, async (db) => {
    return insertEmailUser(
      db,
      {
        id: id ?? randomUUID(),
        email,
        encryptedPassword: hash,
        userMetaData: userMeta,
        appMetaData: appMeta,
        confirmed,
        role: str(body.role),
      },
      emailExists,
    );
  });
  return c.json(await loadUserJson(deps.pool, user));
}

async function userById(deps: AuthDeps, id: string): Promise<UserRow> {
  const user = await findUserById(deps.pool, id);
  if (!user) throw notFound('user_not_found', 'User not found');
  return user;
}

function banUntil(ban: string | undefined): Date | null | undefined {
  if (ban === undefined) return undefined;
  if (ban === 'none') return null;
  const ms = parseDuration(ban);
  if (ms === undefined) throw badRequest('validation_failed', 'invalid format for ban duration');
  return new Date(Date.now() + ms);
}

async function updateUser(deps: AuthDeps, c: AuthCtx, id: string) {
  await userById(deps, id);
  const body = await readJsonBody(c);
  const email = body.email === undefined ? undefined : requireEmail(body.email);
  const password = str(body.password);
  if (password !== undefined) checkPassword(deps.settings, password);
  const userMeta = metadataParam(body.user_metadata, 'user_metadata');
  const appMeta = metadataParam(body.app_metadata, 'app_metadata');
  const bannedUntil = banUntil(str(body.ban_duration));
  const hash = password ? await hashPassword(password) : undefined;
  const updated = await tx(deps.pool, async (db) => {
    const user = (await findUserById(db, id, true))!;
    if (userMeta) await mergeMetadata(db, id, 'raw_user_meta_data', userMeta);
    if (appMeta) await mergeMetadata(db, id, 'raw_app_meta_data', appMeta);
    // the service role sets an address directly, as GoTrue's admin update does
    if (email && email !== (user.email ?? '').toLowerCase())
      await setConfirmedEmail(db, user, email);
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
  return c.json(await loadUserJson(deps.pool, updated));
}

/**
 * POST /admin/generate_link for `magiclink` and `recovery` of an existing user: the link and
 * code a mail would carry, answered instead of mailed (GoTrue's GenerateLinkResponse: the user's
 * fields with action_link, email_otp, hashed_token, verification_type and redirect_to).
 */
async function generateLink(deps: AuthDeps, c: AuthCtx) {
  const body = await readJsonBody(c);
  const type = str(body.type) ?? '';
  if (type !== 'magiclink' && type !== 'recovery') {
    throw badRequest(
      'validation_failed',
      `Invalid link type: ${type} (this server makes magiclink and recovery links)`,
    );
  }
  const email = requireEmail(body.email);
  const redirectTo = validRedirect(deps.settings, str(body.redirect_to));
  const user = await findUserByEmail(deps.pool, email);
  if (!user) throw notFound('user_not_found', 'User with this email not found');
  const otp = newOtp();
  const hash = tokenHash(email, otp);
  await deps.pool.query(
    'update auth.users set recovery_token = $2, recovery_sent_at = now() where id = $1',
    [user.id, hash],
  );
  const fresh = (await findUserById(deps.pool, user.id))!;
  return c.json({
    ...(await loadUserJson(deps.pool, fresh)),
    action_link: actionLink(deps.settings.externalUrl, hash, type, redirectTo),
    email_otp: otp,
    hashed_token: hash,
    verification_type: type,
    redirect_to: redirectTo,
  });
}

export function adminRoutes(app: Hono<AuthEnv>, deps: AuthDeps): void {
  app.use('/admin/*', async (c, next) => {
    await requireAdmin(deps, c);
    await next();
  });
  on(app, '/admin/users', {
    GET: (c) => listUsers(deps, c),
    POST: (c) => createUser(deps, c),
  });
  on(app, '/admin/users/:id', {
    GET: async (c) =>
      c.json(await loadUserJson(deps.pool, await userById(deps, c.req.param('id') ?? ''))),
    PUT: (c) => updateUser(deps, c, c.req.param('id') ?? ''),
    DELETE: async (c) => {
      const id = c.req.param('id') ?? '';
      await userById(deps, id);
      // identities, sessions, refresh tokens and flow states go with it (on delete cascade),
      // and so does every public table keyed to auth.users with a cascading foreign key
      await deps.pool.query('delete from auth.users where id = $1', [id]);
      return c.json({});
    },
  });
  on(app, '/admin/generate_link', { POST: (c) => generateLink(deps, c) });
}
