// auth.users / auth.identities access and the JSON shapes GoTrue answers with.
import type pg from 'pg';

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
  banned_until, deleted_at, is_anonymous`;

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
  appMetaData: Record<string, unknown>;
  confirmed: boolean;
  isAnonymous: boolean;
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
      JSON.stringify(user.appMetaData),
      JSON.stringify(user.userMetaData),
      user.isAnonymous,
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
const ATOM = "[A-Za-z0-9!#$%&'*+/=?^_`{|}~\\-\\u00A0-\\uD7FF\\uF900-\\uFDCF\\uFDF0-\\uFFEF]+";
const LABEL =
  '[A-Za-z0-9\\u00A0-\\uD7FF](?:[A-Za-z0-9\\-\\u00A0-\\uD7FF]{0,61}[A-Za-z0-9\\u00A0-\\uD7FF])?';
const EMAIL_RE = new RegExp(`^${ATOM}(?:\\.${ATOM})*@${LABEL}(?:\\.${LABEL})+$`);

export function normaliseEmail(value: string): string | undefined {
  const email = value.trim().toLowerCase();
  if (email.length === 0 || email.length > 255 || !EMAIL_RE.test(email)) return undefined;
  return email;
}
