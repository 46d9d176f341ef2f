// The local auth server with the email provider on (a project that enables it) and with a Send
// Email Hook (config.toml's [auth.hook.send_email]), driven by the unmodified
// @supabase/supabase-js against a real PostgreSQL (support/auth.ts).
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient } from '@supabase/supabase-js';
import { decodeJwt } from 'jose';
import { serveAuth, type ServedAuth } from './support/auth-server.ts';
import {
  authServer,
  anonKey,
  mails,
  uniqueEmail,
  linkTokenIn,
  db,
  signedIn,
} from './support/auth.ts';

describe('with the email provider on (a project that enables it)', () => {
  let emailAuth: ServedAuth;
  beforeAll(async () => {
    emailAuth = await serveAuth(authServer({ emailEnabled: true }));
  });
  afterAll(async () => {
    await emailAuth?.close();
  });
  const emailClient = () =>
    createClient(emailAuth.url, anonKey, {
      auth: { autoRefreshToken: false, persistSession: false, detectSessionInUrl: false },
    });

  it('signs up unconfirmed, mails the confirmation link, and signs in once it is opened', async () => {
    const email = uniqueEmail('confirm');
    const { data, error } = await emailClient().auth.signUp({
      email,
      password: 'correct horse',
      options: { data: { full_name: 'Sign Up' } },
    });
    expect(error).toBeNull();
    expect(data.session).toBeNull();
    expect(data.user).toMatchObject({ email, user_metadata: { full_name: 'Sign Up' } });
    expect(data.user?.email_confirmed_at).toBeUndefined();
    const early = await emailClient().auth.signInWithPassword({ email, password: 'correct horse' });
    expect(early.error?.code).toBe('email_not_confirmed');

    const { data: confirmed, error: confirmError } = await emailClient().auth.verifyOtp({
      token_hash: linkTokenIn(email),
      type: 'signup',
    });
    expect(confirmError).toBeNull();
    expect(confirmed.user?.email_confirmed_at).toBeTruthy();
    // an email account where a project enables them is no owner (private.is_owner_account)
    expect(
      (await db.query('select 1 from public.profiles where id = $1', [confirmed.user!.id]))
        .rowCount,
    ).toBe(0);
    const signIn = await emailClient().auth.signInWithPassword({
      email: email.toUpperCase(),
      password: 'correct horse',
    });
    expect(signIn.error).toBeNull();
    expect(
      (decodeJwt(signIn.data.session!.access_token).amr as { method: string }[])[0]?.method,
    ).toBe('password');
    const wrong = await emailClient().auth.signInWithPassword({
      email,
      password: 'wrong password',
    });
    expect(wrong.error?.code).toBe('invalid_credentials');

    const again = await emailClient().auth.signUp({ email, password: 'another one' });
    expect(again.error?.code).toBe('user_already_exists');
    const weak = await emailClient().auth.signUp({ email: uniqueEmail('weak'), password: '123' });
    expect(weak.error?.code).toBe('weak_password');
  });
});

describe("with a Send Email Hook (config.toml's [auth.hook.send_email], as GoTrue calls it)", () => {
  const servers: ServedAuth[] = [];
  /** An auth server with the email provider on whose every mail goes to `fn`. */
  async function hooked(fn: string) {
    const served = await serveAuth(
      authServer({ emailEnabled: true, sendEmailHook: `pg-functions://postgres/public/${fn}` }),
    );
    servers.push(served);
    return served;
  }
  const put = (served: ServedAuth, token: string, body: object) =>
    fetch(`${served.url}/auth/v1/user`, {
      method: 'PUT',
      headers: {
        apikey: anonKey,
        authorization: `Bearer ${token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify(body),
    });
  const pending = async (id: string) =>
    (
      await db.query<{ email_change: string | null; email_change_token_new: string | null }>(
        'select email_change, email_change_token_new from auth.users where id = $1',
        [id],
      )
    ).rows[0];

  beforeAll(async () => {
    // a hook that lets every mail through (it "sends" by keeping the event), to see what it is told
    await db.query(`
      create table public.test_hook_events (event jsonb not null);
      create function public.test_keeping_hook(event jsonb) returns jsonb language sql as $$
        insert into public.test_hook_events values (event || jsonb_build_object('role', current_user))
          returning '{}'::jsonb;
      $$;
      grant insert on public.test_hook_events to supabase_auth_admin;
      grant execute on function public.test_keeping_hook(jsonb) to supabase_auth_admin;`);
  });
  afterAll(async () => {
    for (const served of servers) await served.close();
    await db.query(
      'drop function public.test_keeping_hook(jsonb); drop table public.test_hook_events',
    );
  });

  it("this project's hook refuses every auth mail: the change rolled back, its status and message the answer", async () => {
    const served = await hooked('send_email_hook');
    const mailed = mails.length;
    const { session, user } = await signedIn(uniqueEmail('hooked'));
    const change = await put(served, session.access_token, { email: uniqueEmail('new') });
    expect(change.status).toBe(403);
    expect(await change.json()).toEqual({
      code: 403,
      msg: 'Email addresses cannot be changed: owners sign in with Google or Apple',
    });
    expect(await pending(user.id)).toEqual({ email_change: null, email_change_token_new: null });
    // as GoTrue: a taken address is answered before the hook is asked
    const taken = await put(served, session.access_token, { email: user.email!.toUpperCase() });
    expect(taken.status).toBe(200);
    const other = uniqueEmail('other');
    await signedIn(other);
    const exists = await put(served, session.access_token, { email: other });
    expect(await exists.json()).toMatchObject({ code: 422, error_code: 'email_exists' });
    // a sign-up's confirmation is refused too, and the user it would make is not kept
    const email = uniqueEmail('hooked-signup');
    const signUp = await createClient(served.url, anonKey, {
      auth: { persistSession: false, autoRefreshToken: false },
    }).auth.signUp({ email, password: 'correct horse' });
    expect(signUp.error).toMatchObject({
      status: 403,
      message: 'This project sends no sign-in mail: owners sign in with Google or Apple',
    });
    expect((await db.query('select 1 from auth.users where email = $1', [email])).rowCount).toBe(0);
    expect(mails.length).toBe(mailed);
  });

  it('a hook that lets the mail through is told the tokens the change keeps, and the server mails nothing', async () => {
    const served = await hooked('test_keeping_hook');
    const mailed = mails.length;
    const { session, user } = await signedIn(uniqueEmail('kept'));
    const to = uniqueEmail('kept-new');
    const change = await put(served, session.access_token, { email: to });
    expect(change.status).toBe(200);
    expect(await change.json()).toMatchObject({ new_email: to });
    const row = await pending(user.id);
    expect(row?.email_change).toBe(to);
    const {
      rows: [kept],
    } = await db.query<{
      event: {
        user: { id: string; new_email: string };
        email_data: Record<string, string>;
        role: string;
      };
    }>(`select event from public.test_hook_events where event #>> '{user,id}' = $1`, [user.id]);
    expect(kept?.event.user).toMatchObject({ id: user.id, email: user.email, new_email: to });
    expect(kept?.event.email_data).toMatchObject({
      email_action_type: 'email_change',
      token_hash: row?.email_change_token_new,
      token_new: expect.stringMatching(/^\d{6}$/),
      token: expect.stringMatching(/^\d{6}$/),
    });
    // as GoTrue runs it: as supabase_auth_admin
    expect(kept?.event).toMatchObject({ role: 'supabase_auth_admin' });
    expect(mails.length).toBe(mailed);
  });
});
