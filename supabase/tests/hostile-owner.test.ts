// Issue 17, "Sign-up as GoTrue does it": owners only through the providers the spec names. An
// anonymous visitor's PUT /auth/v1/user { email }, once the mailed link is opened, makes the
// account permanent (is_anonymous false, a confirmed email), as on GoTrue (the local auth server
// now refuses that change: rev-mail3 D3; a permanent email-only user still exists, made by the
// admin API or by a project with email sign-up on). Before, such a user was an owner: the profiles trigger made a profile for every permanent user, and the edge functions'
// owner check was "not anonymous, has an email". Now an owner is a user with a Google or Apple
// identity, or one the admin API made an owner (private.is_owner_account): only owners get a
// profile, every owner's table hangs off it, and the functions' owner check reads it.
import { randomUUID } from 'node:crypto';
import type { SupabaseClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { describe, expect, it } from 'vitest';
import { anonClient, callFunction, serviceClient, sql, stack } from './support/clients.ts';
import { signInWithGoogle } from './support/google.ts';
import { clientWithToken } from './support/hostile.ts';
import { inbox, mailbox } from './support/providers.ts';

/** A client acting with `token`, as the dashboard would with that session. */
const as = (token: string): SupabaseClient => clientWithToken(token);

const profiles = async (id: string) => sql('select 1 from public.profiles where id = $1', [id]);

/** Everything an owner does first, tried with `token`: each must be refused or find nothing. */
async function ownsNothing(id: string, token: string): Promise<void> {
  const client = as(token);
  expect(await profiles(id)).toHaveLength(0);
  // the dashboard's first reads: no profile, no blocks
  const profile = await client.from('profiles').select('*');
  expect(profile.error).toBeNull();
  expect(profile.data).toEqual([]);
  const blocks = await client.from('blocks').select('id');
  expect(blocks.data).toEqual([]);
  // a block: through the RPC, a plain insert, and the function the dashboard calls
  const rpc = await client.rpc('create_block', { p_block_type: 'comment' });
  expect(rpc.error?.message).toBe('Please sign in to create a block');
  const insert = await client.from('blocks').insert({ type: 'comment', name: 'mine' });
  expect(insert.error).not.toBeNull();
  const created = await callFunction('create-block', { blockType: 'comment' }, token);
  expect(created.status).toBe(403);
  expect(created.json.error?.code).toBe('forbidden');
  // owner functions that do not need a block: a sender address (it mails the address), consent
  const target = inbox('not-owner-sender');
  const sender = await callFunction('request-mail-verify', { emailToVerify: target }, token);
  expect(sender.status).toBe(403);
  const agree = await callFunction('submit-agreement', {}, token);
  expect(agree.status).toBe(403);
  // owner tables written straight through PostgREST
  const tag = await client.from('user_tags').insert({ label: 'mine' });
  expect(tag.error).not.toBeNull();
  const senderRow = await client.from('sender_emails').insert({ email: target });
  expect(senderRow.error).not.toBeNull();
  expect(await sql('select 1 from public.blocks where owner_id = $1', [id])).toHaveLength(0);
  expect(await mailbox(target)).toHaveLength(0);
}

describe('owners only through Google and Apple', () => {
  it('a user with a confirmed email and no provider is a visitor still; Google then makes the owner', async () => {
    const { guest, email, session } = await visitorWithConfirmedEmail();
    await ownsNothing(guest.id, session.access_token);

    // a visitor still: it writes comments as any signed-in visitor does
    const { owner, block } = await googleOwnerWithComment();
    const comment = await as(session.access_token).rpc('post_message', {
      p_block_id: block,
      p_content: 'a visitor with an email',
      p_honeypot: '',
    });
    expect(comment.error).toBeNull();
    expect(owner.user.id).not.toBe(guest.id);

    // the same person signs in with Google at that address: GoTrue links the identity to the
    // account by its confirmed email, and with a Google identity the account is an owner
    const google = await signInWithGoogle(email, 'Now An Owner');
    expect(google.user.id).toBe(guest.id);
    expect(await profiles(guest.id)).toHaveLength(1);
    const made = await callFunction('create-block', { blockType: 'comment' }, google.access_token);
    expect(made.status, JSON.stringify(made.json)).toBe(200);
  });

  // GoTrue lets a user unlink any identity while another is left (DELETE
  // /auth/v1/user/identities/{id}). An owner with Google and an email who unlinked Google kept
  // their profile, so an owner with an email identity only. Now the database refuses the change
  // that would leave a user with a profile no owner (private.keep_owner_account): GoTrue's unlink
  // rolls back, and the account keeps Google and stays an owner.
  it("an owner cannot unlink their Google identity to become an email-only owner; the email's can go", async () => {
    const { guest, email } = await visitorWithConfirmedEmail();
    const google = await signInWithGoogle(email, 'Unlinking Owner');
    expect(google.user.id).toBe(guest.id);
    expect(await profiles(guest.id)).toHaveLength(1);
    const auth = (path: string, method = 'GET') =>
      fetch(`${stack().apiUrl}/auth/v1${path}`, {
        method,
        headers: { apikey: stack().anonKey, authorization: `Bearer ${google.access_token}` },
      });
    const identities = async () =>
      (
        (await (await auth('/user')).json()) as {
          identities: { identity_id: string; provider: string }[];
        }
      ).identities;
    const before = await identities();
    expect(before.map((i) => i.provider).sort()).toEqual(['email', 'google']);
    const unlinkGoogle = await auth(
      `/user/identities/${before.find((i) => i.provider === 'google')!.identity_id}`,
      'DELETE',
    );
    expect(unlinkGoogle.status).toBe(500);
    expect((await identities()).map((i) => i.provider).sort()).toEqual(['email', 'google']);
    const [user] = await sql<{ providers: string[] }>(
      `select raw_app_meta_data -> 'providers' as providers from auth.users where id = $1`,
      [guest.id],
    );
    expect([...user!.providers].sort()).toEqual(['email', 'google']);
    expect(await profiles(guest.id)).toHaveLength(1);
    // still an owner, and the email identity can go (Google is left)
    const made = await callFunction('create-block', { blockType: 'like' }, google.access_token);
    expect(made.status, JSON.stringify(made.json)).toBe(200);
    const unlinkEmail = await auth(
      `/user/identities/${before.find((i) => i.provider === 'email')!.identity_id}`,
      'DELETE',
    );
    expect(unlinkEmail.status).toBe(200);
    expect((await identities()).map((i) => i.provider)).toEqual(['google']);
    expect(await profiles(guest.id)).toHaveLength(1);
  });

  it('an admin-made email user is an owner only when the admin API says so, never by its own say', async () => {
    const admin = serviceClient().auth.admin;
    const email = `admin-made-${randomUUID().slice(0, 8)}@test.local`;
    const created = await admin.createUser({ email, email_confirm: true });
    expect(created.error).toBeNull();
    const id = created.data.user!.id;
    const link = await admin.generateLink({ type: 'magiclink', email });
    const signedIn = await anonClient().auth.verifyOtp({
      token_hash: link.data.properties!.hashed_token,
      type: 'magiclink',
    });
    expect(signedIn.error).toBeNull();
    const token = signedIn.data.session!.access_token;
    await ownsNothing(id, token);

    // the user cannot say it: PUT /user refuses app_metadata, and its data is user_metadata
    const put = (body: unknown) =>
      fetch(`${stack().apiUrl}/auth/v1/user`, {
        method: 'PUT',
        headers: {
          apikey: stack().anonKey,
          authorization: `Bearer ${token}`,
          'content-type': 'application/json',
        },
        body: JSON.stringify(body),
      });
    const refused = await put({ app_metadata: { owner: true } });
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error_code: 'not_admin' });
    const res = await put({ data: { owner: true } });
    expect(res.status).toBe(200);
    const user = (await res.json()) as {
      app_metadata: Record<string, unknown>;
      user_metadata: Record<string, unknown>;
    };
    expect(user.app_metadata.owner).toBeUndefined();
    expect(user.user_metadata.owner).toBe(true);
    expect(await profiles(id)).toHaveLength(0);

    // the service role can (tests and benchmarks make their owners so)
    const made = await admin.updateUserById(id, { app_metadata: { owner: true } });
    expect(made.error).toBeNull();
    expect(await profiles(id)).toHaveLength(1);
    const block = await callFunction('create-block', { blockType: 'like' }, token);
    expect(block.status, JSON.stringify(block.json)).toBe(200);
  });
});

/**
 * A permanent user with a confirmed email and an email identity only, no provider: what an
 * anonymous visitor who added an email and opened the mailed link was, as on GoTrue. The local
 * auth server now refuses an anonymous user's email change (hostile-auth-mail.test.ts), so the
 * admin API makes this one (not an owner: no `app_metadata.owner`), signed in by a link.
 */
async function visitorWithConfirmedEmail() {
  const email = inbox('claimed');
  const admin = serviceClient().auth.admin;
  const created = await admin.createUser({ email, email_confirm: true });
  expect(created.error).toBeNull();
  const link = await admin.generateLink({ type: 'magiclink', email });
  expect(link.error).toBeNull();
  const confirmed = await anonClient().auth.verifyOtp({
    token_hash: link.data.properties!.hashed_token,
    type: 'magiclink',
  });
  expect(confirmed.error).toBeNull();
  const session = confirmed.data.session!;
  expect(confirmed.data.user).toMatchObject({ email, is_anonymous: false });
  expect(decodeJwt(session.access_token)).toMatchObject({ is_anonymous: false, email });
  return { guest: { id: confirmed.data.user!.id }, email, session };
}

/** An owner signed in with Google, with a comment block. */
async function googleOwnerWithComment() {
  const owner = await signInWithGoogle(inbox('google-owner'), 'Google Owner');
  expect(owner.user.is_anonymous).toBe(false);
  const made = await callFunction('create-block', { blockType: 'comment' }, owner.access_token);
  expect(made.status, JSON.stringify(made.json)).toBe(200);
  return { owner, block: (made.json.data as { blockId: string }).blockId };
}
