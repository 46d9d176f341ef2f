// auth.users / auth.identities access and the JSON shapes GoTrue answers with.
import type pg from 'pg';
import { pgCode } from './context.ts';
import { unprocessable } from './errors.ts';

/** Anything that can run a query: the pool or a client inside a transaction. */
export type Queryable = Pick<pg.PoolClient, 'query'>;

export interface UserRow {
  id: string;
  aud: string | null;
  role: string | null;
  email: string | null;
  encrypted_password: string | null;
  email_confirmed_at: Date | null;
  invited_at: Date | null;
  phone: string | null;
  phone_confirmed_at: Date | null;
  last_sign_in_at: Date | null;
  raw_app_meta_data: Record<string, unknown>;
  raw_user_meta_data: Record<string, unknown>;
  created_at: Date;
  updated_at: Date;
  banned_until: Date | null;
  deleted_at: Date | null;
  is_anonymous: boolean;
  confirmation_token: string | null;
  confirmation_sent_at: Date | null;
  recovery_token: string | null;
  recovery_sent_at: Date | null;
  email_change: string | null;
  email_change_token_new: string | null;
  email_change_token_current: string | null;
  email_change_confirm_status: number;
  email_change_sent_at: Date | null;
}

export interface IdentityRow {
  id: string;
  provider_id: string;
  user_id: string;
  identity_data: Record<string, unknown>;
  provider: string;
  last_sign_in_at: Date | null;
  created_at: Date;
  updated_at: Date;
  email: string | null;
}

const USER_COLUMNS = `id, aud, role, email, encrypted_password, email_confirmed_at, invited_at, phone,
  phone_confirmed_at, last_sign_in_at, raw_app_meta_data, raw_user_meta_data, created_at, updated_at,
  banned_until, deleted_at, is_anonymous, confirmation_token, confirmation_sent_at, recovery_token, recovery_sent_at, email_change,
  email_change_token_new, email_change_token_current, email_change_confirm_status, email_change_sent_at`;

export async function findUserById(
  db: Queryable,
  id: string,
  lock = false,
): Promise<UserRow | undefined> {
  if (!isUuid(id)) return undefined;
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where id = $1${lock ? ' for update' : ''}`,
    [id],
  );
  return rows[0];
}

/** The user holding a mailed link's token hash in one of `columns`, locked for the update. */
export async function findUserByLinkToken(
  db: Queryable,
  columns: string[],
  hash: string,
): Promise<UserRow | undefined> {
  const where = columns.map((column) => `${column} = $1`).join(' or ');
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where ${where} for update`,
    [hash],
  );
  return rows[0];
}

export async function findUserByEmail(db: Queryable, email: string): Promise<UserRow | undefined> {
  const { rows } = await db.query<UserRow>(
    `select ${USER_COLUMNS} from auth.users where lower(email) = lower($1) and is_sso_user = false`,
    [email],
  );
  return rows[0];
}

export async function identitiesOf(db: Queryable, userId: string): Promise<IdentityRow[]> {
  const { rows } = await db.query<IdentityRow>(
    `select id, provider_id, user_id, identity_data, provider, last_sign_in_at, created_at, updated_at, email
     from auth.identities where user_id = $1 order by created_at, id`,
    [userId],
  );
  return rows;
}

export interface NewUser {
  id: string;
  email: string | null;
  encryptedPassword: string | null;
  userMetaData: Record<string, unknown>;
  /**
   * How the user signs in ('email', 'anonymous', 'google', ...): GoTrue's app_metadata `provider`
   * and `providers`, and `is_anonymous` for 'anonymous'.
   */
  provider: string;
  /** More app_metadata (the admin API's), over the provider's. */
  appMetaData?: Record<string, unknown>;
  confirmed: boolean;
  role?: string;
}

export async function insertUser(db: Queryable, user: NewUser): Promise<UserRow> {
  const { rows } = await db.query<UserRow>(
    `insert into auth.users (instance_id, id, aud, role, email, encrypted_password, email_confirmed_at,
       raw_app_meta_data, raw_user_meta_data, is_anonymous, created_at, updated_at)
     values ('00000000-0000-0000-0000-000000000000', $1, 'authenticated', $2, $3, $4,
       case when $5::boolean then now() end, $6, $7, $8, now(), now())
     returning ${USER_COLUMNS}`,
    [
      user.id,
      user.role ?? 'authenticated',
      user.email,
      user.encryptedPassword ?? '',
      user.confirmed,
      JSON.stringify({ provider: user.provider, providers: [user.provider], ...user.appMetaData }),
      JSON.stringify(user.userMetaData),
      user.provider === 'anonymous',
    ],
  );
  return rows[0]!;
}

export async function insertIdentity(
  db: Queryable,
  userId: string,
  provider: string,
  providerId: string,
  identityData: Record<string, unknown>,
): Promise<void> {
  await db.query(
    `insert into auth.identities (provider_id, user_id, identity_data, provider, last_sign_in_at)
     values ($1, $2, $3, $4, now())`,
    [providerId, userId, JSON.stringify(identityData), provider],
  );
}

/**
 * A user who signs in with email and its email identity, as GoTrue makes them (sign-up and the
 * admin API); an address taken meanwhile (the unique index) is `taken()`.
 */
export async function insertEmailUser(
  db: Queryable,
  user: Omit<NewUser, 'email' | 'provider'> & { email: string },
  taken: () => Error,
): Promise<UserRow> {
  const created = await insertUser(db, { ...user, provider: 'email' }).catch((err: unknown) => {
    throw pgCode(err) === '23505' ? taken() : err;
  });
  await insertIdentity(db, created.id, 'email', created.id, {
    sub: created.id,
    email: user.email,
    email_verified: user.confirmed,
    phone_verified: false,
  });
  return created;
}

/** Merges metadata like GoTrue: keys set to null are removed. */
export async function mergeMetadata(
  db: Queryable,
  userId: string,
  column: 'raw_user_meta_data' | 'raw_app_meta_data',
  data: Record<string, unknown>,
): Promise<void> {
  const removed = Object.keys(data).filter((k) => data[k] === null);
  const kept = Object.fromEntries(Object.entries(data).filter(([, v]) => v !== null));
  await db.query(
    `update auth.users set ${column} = (${column} || $2::jsonb) - $3::text[], updated_at = now()
     where id = $1`,
    [userId, JSON.stringify(kept), removed],
  );
}

/** The address belongs to another user. */
export const emailExists = () =>
  unprocessable('email_exists', 'A user with this email address has already been registered');

/** Refuses with email_exists when a user other than `ownerId` has `email`. */
export async function assertEmailFree(db: Queryable, email: string, ownerId?: string) {
  const taken = await findUserByEmail(db, email);
  if (taken && taken.id !== ownerId) throw emailExists();
}

/**
 * Makes `email` the user's confirmed address and keeps the email identity in step (creating it
 * when missing); an anonymous user becomes permanent. Only for an address already proven (a
 * mailed link opened, a provider's verified email) or set by the service role.
 */
export async function setConfirmedEmail(
  db: Queryable,
  user: UserRow,
  email: string,
): Promise<void> {
  await assertEmailFree(db, email, user.id);
  await db.query(
    `update auth.users set email = $2, email_confirmed_at = coalesce(email_confirmed_at, now()),
       email_change = null, email_change_token_new = null, email_change_token_current = null,
       email_change_confirm_status = 0, email_change_sent_at = null, updated_at = now()
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
    await db.query(
      `update auth.users set is_anonymous = false,
         raw_app_meta_data = raw_app_meta_data || '{"provider":"email"}'::jsonb where id = $1`,
      [user.id],
    );
  }
  await syncProviders(db, user.id);
}

/** app_metadata.providers = the user's identity providers, as GoTrue's UpdateAppMetaDataProviders. */
export async function syncProviders(db: Queryable, userId: string): Promise<void> {
  await db.query(
    `update auth.users u set raw_app_meta_data = u.raw_app_meta_data || jsonb_build_object(
       'providers', coalesce((select jsonb_agg(p order by p) from (select distinct provider as p from auth.identities i where i.user_id = u.id) s), '[]'::jsonb)
     ), updated_at = now()
     where u.id = $1`,
    [userId],
  );
}

const iso = (d: Date | null) => (d ? d.toISOString() : undefined);

export function identityJson(row: IdentityRow) {
  return {
    identity_id: row.id,
    id: row.provider_id,
    user_id: row.user_id,
    identity_data: row.identity_data,
    provider: row.provider,
    last_sign_in_at: iso(row.last_sign_in_at),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    email: row.email ?? undefined,
  };
}

/** A user as GoTrue serialises it (null timestamps left out, email and phone never null). */
export function userJson(row: UserRow, identities: IdentityRow[]) {
  const confirmedAt = row.email_confirmed_at ?? row.phone_confirmed_at;
  return {
    id: row.id,
    aud: row.aud ?? '',
    role: row.role ?? '',
    email: row.email ?? '',
    email_confirmed_at: iso(row.email_confirmed_at),
    invited_at: iso(row.invited_at),
    phone: row.phone ?? '',
    phone_confirmed_at: iso(row.phone_confirmed_at),
    confirmed_at: iso(confirmedAt),
    last_sign_in_at: iso(row.last_sign_in_at),
    app_metadata: row.raw_app_meta_data ?? {},
    user_metadata: row.raw_user_meta_data ?? {},
    identities: identities.map(identityJson),
    created_at: iso(row.created_at),
    updated_at: iso(row.updated_at),
    banned_until: iso(row.banned_until),
    is_anonymous: row.is_anonymous,
    new_email: row.email_change || undefined,
    email_change_sent_at: iso(row.email_change_sent_at),
    confirmation_sent_at: iso(row.confirmation_sent_at),
    recovery_sent_at: iso(row.recovery_sent_at),
  };
}

export type UserJson = ReturnType<typeof userJson>;

export async function loadUserJson(db: Queryable, row: UserRow): Promise<UserJson> {
  return userJson(row, await identitiesOf(db, row.id));
}

export const isUuid = (value: string) =>
  /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i.test(value);

export const isBanned = (row: UserRow) =>
  row.banned_until !== null && row.banned_until.getTime() > Date.now();

// GoTrue validates addresses with checkmail's format rule: dot-separated atoms of letters,
// digits and !#$%&'*+/=?^_`{|}~- (and non-ASCII letters) before the @, host labels of letters,
// digits and inner hyphens after it. Anything else is "Unable to validate email address: invalid format".
// Not the one rule of our own writes (contracts/email-rule.ts, what SES takes): GoTrue is looser
// (`a!b@x.com`, `a{b}@x.com`, a non-ASCII local part or domain, a numeric last label all sign up
// there), and this server stands in for hosted Supabase Auth, so it takes what GoTrue takes. An
// address GoTrue takes and the rule refuses signs up; our own writes refuse it where they check
// (a notification address, a sender, the audience), as they would in production.
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\u00A0-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFEF]+";
const LABEL =
  '[A-Za-z0-9\\u00A0-\\uD7FF](?:[A-Za-z0-9\\-\\u00A0-\\uD7FF]{0,61}[A-Za-z0-9\\u00A0-\\uD7FF])?';
const EMAIL_RE = new RegExp(`^${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+$`);

export function normaliseEmail(value: string): string | undefined {
  const email = value.trim().toLowerCase();
  if (email.length === 0 || email.length > 255 || !EMAIL_RE.test(email)) return undefined;
  return email;
}
