// The user a Google or Apple identity belongs to: found by the identity, or linked by its
// verified email as GoTrue does, or created; and linkIdentity's second half, which adds the
// identity to the signed-in user (an anonymous user who links a provider becomes permanent).
import { createHash, randomUUID } from 'node:crypto';
import type { JsonObject } from '../http.ts';
import { notFound, unprocessable } from './errors.ts';
import {
  assertEmailFree,
  findUserByEmail,
  findUserById,
  insertIdentity,
  insertUser,
  mergeMetadata,
  syncProviders,
  type IdentityRow,
  type Queryable,
  type UserRow,
} from './users.ts';

export interface ProviderProfile {
  provider: string;
  email: string;
  name: string;
  picture: string;
}

/** A stable subject per provider and email, shaped like the provider's own ids. */
function providerSubject(provider: string, email: string): string {
  const digest = createHash('sha256').update(`${provider}:${email}`).digest();
  if (provider === 'apple') return `000000.${digest.subarray(0, 16).toString('hex')}.0000`;
  // Google subjects are 21-digit numbers
  return (
    (BigInt(`0x${digest.subarray(0, 9).toString('hex')}`) % 10n ** 20n) +
    10n ** 20n
  ).toString();
}

function identityDataOf(profile: ProviderProfile, sub: string): JsonObject {
  const data: JsonObject = {
    iss: profile.provider === 'apple' ? 'https://appleid.apple.com' : 'https://accounts.google.com',
    sub,
    provider_id: sub,
    email: profile.email,
    email_verified: true,
    phone_verified: false,
  };
  if (profile.name) Object.assign(data, { name: profile.name, full_name: profile.name });
  if (profile.picture)
    Object.assign(data, { picture: profile.picture, avatar_url: profile.picture });
  return data;
}

async function updateIdentity(db: Queryable, id: string, data: JsonObject): Promise<void> {
  await db.query(
    `update auth.identities set identity_data = $2, last_sign_in_at = now(), updated_at = now() where id = $1`,
    [id, JSON.stringify(data)],
  );
}

/** Finds or creates the user for a provider identity (or links it to `linkingTargetId`). */
export async function userFromProvider(
  db: Queryable,
  profile: ProviderProfile,
  linkingTargetId: string,
): Promise<UserRow> {
  const { provider, email } = profile;
  const sub = providerSubject(provider, email);
  const identityData = identityDataOf(profile, sub);
  const existing = await db.query<IdentityRow>(
    'select * from auth.identities where provider = $1 and provider_id = $2 for update',
    [provider, sub],
  );
  if (linkingTargetId)
    return linkToUser(db, linkingTargetId, profile, sub, identityData, existing.rows[0]);
  let user: UserRow | undefined;
  if (existing.rows[0]) {
    user = await findUserById(db, existing.rows[0].user_id, true);
    await updateIdentity(db, existing.rows[0].id, identityData);
  } else {
    user = await findUserByEmail(db, email);
    if (user) await insertIdentity(db, user.id, provider, sub, identityData);
  }
  if (user) {
    await mergeMetadata(db, user.id, 'raw_user_meta_data', identityData);
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
    provider,
    confirmed: true,
  });
  await insertIdentity(db, created.id, provider, sub, identityData);
  return created;
}

async function linkToUser(
  db: Queryable,
  targetId: string,
  profile: ProviderProfile,
  sub: string,
  identityData: JsonObject,
  existing: IdentityRow | undefined,
): Promise<UserRow> {
  const target = await findUserById(db, targetId, true);
  if (!target) throw notFound('user_not_found', 'User not found');
  if (existing && existing.user_id !== target.id) {
    throw unprocessable('identity_already_exists', 'Identity is already linked to another user');
  }
  if (existing) await updateIdentity(db, existing.id, identityData);
  else await insertIdentity(db, target.id, profile.provider, sub, identityData);
  await mergeMetadata(db, target.id, 'raw_user_meta_data', identityData);
  if (!target.email) {
    await assertEmailFree(db, profile.email, target.id);
    // the provider verified this address
    await db.query(
      `update auth.users set email = $2, email_confirmed_at = coalesce(email_confirmed_at, now()),
         updated_at = now() where id = $1`,
      [target.id, profile.email],
    );
  }
  if (target.is_anonymous) {
    // metadata and email are in place before the flip: the profiles trigger fires on it
    await db.query(
      `update auth.users set is_anonymous = false,
         raw_app_meta_data = raw_app_meta_data || jsonb_build_object('provider', $2::text)
       where id = $1`,
      [target.id, profile.provider],
    );
  }
  await syncProviders(db, target.id);
  return (await findUserById(db, target.id))!;
}
