// The local auth server driven by the unmodified @supabase/supabase-js, against a real PostgreSQL
// (throwaway data directory, free ports; support/auth.ts): settings, sign-in by link, refresh
// tokens, the user, email changes refused, sign-out, anonymous users. What it refuses:
// auth-refusals.test.ts; Apple and Google (PKCE in headless Chromium): auth-oauth.test.ts; with
// the email provider on and with a Send Email Hook: auth-mail.test.ts.
import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { anonKey, baseUrl, db, REUSE_INTERVAL_S, serviceKey } from './support/auth.ts';
import { client, mailsTo, signedIn, signInByLink, sleep, uniqueEmail } from './support/auth.ts';
import { sendRaw } from './support/fuzz.ts';
import { MAX_BODY_BYTES } from '../local/http.ts';

describe('auth server through supabase-js', () => {
  it('answers a POST or PUT that has no body (neither Content-Length nor Transfer-Encoding) as an empty one, never a 500', async () => {
    // HTTP/1.1 gives such a request a body of length 0 (RFC 9112 6.3); a client may send it (a
    // fuzz of the services port found each of these answered 500 with an "unexpected failure")
    const port = Number(new URL(baseUrl).port);
    const head = (method: string, path: string, extra = '') =>
      `${method} /auth/v1${path} HTTP/1.1\r\nHost: 127.0.0.1\r\n${extra}Content-Type: application/json\r\nConnection: close\r\n\r\n`;
    const answers: Record<string, number> = {};
    for (const [method, path, extra] of [
      ['POST', '/signup', ''],
      ['POST', '/token?grant_type=refresh_token', ''],
      ['PUT', '/user', `Authorization: Bearer ${anonKey}\r\n`],
      ['POST', '/admin/users', `Authorization: Bearer ${serviceKey}\r\n`],
    ] as const) {
      answers[`${method} ${path}`] = await sendRaw(port, head(method, path, extra));
    }
    expect(answers).toEqual({
      'POST /signup': 200,
      'POST /token?grant_type=refresh_token': 400,
      'PUT /user': 403,
      'POST /admin/users': 400,
    });
    // a body over the limit is still refused, declared or chunked
    const big = 'x'.repeat(MAX_BODY_BYTES + 1);
    const over = head('POST', '/signup').replace('\r\n\r\n', '\r\n');
    expect(await sendRaw(port, `${over}Content-Length: ${big.length}\r\n\r\n${big}`)).toBe(413);
    const chunked = `${over}Transfer-Encoding: chunked\r\n\r\n${big.length.toString(16)}\r\n${big}\r\n0\r\n\r\n`;
    expect(await sendRaw(port, chunked)).toBe(413);
  });

  it('publishes settings with the enabled providers: Google, Apple, anonymous; no email', async () => {
    const res = await fetch(`${baseUrl}/auth/v1/settings`);
    expect(res.status).toBe(200);
    const body = await res.json();
    expect(body.external).toMatchObject({
      google: true,
      apple: true,
      email: false,
      anonymous_users: true,
    });
    expect(body).toMatchObject({ disable_signup: false, mailer_autoconfirm: false });
  });

  it('refuses email sign-up and password sign-in as GoTrue does with the email provider off', async () => {
    const email = uniqueEmail('signup');
    const signUp = await client().auth.signUp({ email, password: 'correct horse' });
    expect(signUp.error?.status).toBe(400);
    expect(signUp.error?.code).toBe('email_provider_disabled');
    expect(signUp.data.session).toBeNull();
    expect((await db.query('select 1 from auth.users where email = $1', [email])).rowCount).toBe(0);
    // a user who has a password (made by the admin API) cannot use it either
    await client(serviceKey).auth.admin.createUser({
      email,
      password: 'correct horse',
      email_confirm: true,
    });
    const signIn = await client().auth.signInWithPassword({ email, password: 'correct horse' });
    expect(signIn.error?.status).toBe(422);
    expect(signIn.error?.code).toBe('email_provider_disabled');
    expect(signIn.error?.message).toBe('Email logins are disabled');
  });

  it('signs a user made by the admin API in with a generated link, once, with GoTrue claims', async () => {
    const email = uniqueEmail('link');
    const { session, user } = await signedIn(email, { full_name: 'Link User' });
    expect(user).toMatchObject({
      email,
      aud: 'authenticated',
      role: 'authenticated',
      is_anonymous: false,
      app_metadata: { provider: 'email', providers: ['email'] },
      user_metadata: { full_name: 'Link User' },
    });
    expect(user.email_confirmed_at).toBeTruthy();
    const claims = decodeJwt(session.access_token);
    expect(claims).toMatchObject({
      sub: user.id,
      aud: 'authenticated',
      role: 'authenticated',
      email,
      phone: '',
      iss: `${baseUrl}/auth/v1`,
      aal: 'aal1',
      is_anonymous: false,
      user_metadata: { full_name: 'Link User' },
    });
    expect(claims.session_id).toMatch(/^[0-9a-f-]{36}$/);
    expect((claims.amr as { method: string }[])[0]?.method).toBe('otp');
    expect(session.expires_in).toBe(3600);
    expect(session.token_type).toBe('bearer');

    // a link is good once; a made-up one never
    const { data: link } = await client(serviceKey).auth.admin.generateLink({
      type: 'magiclink',
      email,
    });
    expect(link.properties?.action_link).toContain(`${baseUrl}/auth/v1/verify?token=`);
    expect(link.properties?.email_otp).toMatch(/^\d{6}$/);
    const hash = link.properties!.hashed_token;
    expect(
      (await client().auth.verifyOtp({ token_hash: hash, type: 'magiclink' })).error,
    ).toBeNull();
    const again = await client().auth.verifyOtp({ token_hash: hash, type: 'magiclink' });
    expect(again.error?.status).toBe(403);
    expect(again.error?.code).toBe('otp_expired');
    // the six-digit code with the address works like the link
    const { data: second } = await client(serviceKey).auth.admin.generateLink({
      type: 'magiclink',
      email,
    });
    const wrongCode = await client().auth.verifyOtp({ email, token: '000000', type: 'magiclink' });
    expect(wrongCode.error?.code).toBe('otp_expired');
    const byCode = await client().auth.verifyOtp({
      email,
      token: second.properties!.email_otp,
      type: 'magiclink',
    });
    expect(byCode.error).toBeNull();
    expect(byCode.data.user?.id).toBe(user.id);
    // only the service role makes links
    const notAdmin = await client().auth.admin.generateLink({ type: 'magiclink', email });
    expect(notAdmin.error?.status).toBe(403);
  });

  it('rotates refresh tokens, tolerates a concurrent reuse briefly, then revokes the family', async () => {
    const { session: first } = await signedIn(uniqueEmail('refresh'));

    const { data: r1, error: e1 } = await client().auth.refreshSession({
      refresh_token: first.refresh_token,
    });
    expect(e1).toBeNull();
    expect(r1.session!.refresh_token).not.toBe(first.refresh_token);
    expect(decodeJwt(r1.session!.access_token).session_id).toBe(
      decodeJwt(first.access_token).session_id,
    );

    // a second tab refreshing with the same token at the same moment gets the current token
    const { data: r1b, error: e1b } = await client().auth.refreshSession({
      refresh_token: first.refresh_token,
    });
    expect(e1b).toBeNull();
    expect(r1b.session!.refresh_token).toBe(r1.session!.refresh_token);

    await sleep(REUSE_INTERVAL_S * 1000 + 300);
    const reused = await client().auth.refreshSession({ refresh_token: first.refresh_token });
    expect(reused.error?.status).toBe(400);
    expect(reused.error?.code).toBe('refresh_token_already_used');
    // reuse after the interval looks like theft: the whole session's tokens are revoked
    const child = await client().auth.refreshSession({ refresh_token: r1.session!.refresh_token });
    expect(child.error?.status).toBe(400);

    const unknown = await client().auth.refreshSession({ refresh_token: 'no-such-token' });
    expect(unknown.error?.status).toBe(400);
    expect(unknown.error?.code).toBe('refresh_token_not_found');
  });

  it('gives two concurrent refreshes of one token the same new token', async () => {
    const { session } = await signedIn(uniqueEmail('race'));
    const token = session.refresh_token;
    const [a, b] = await Promise.all([
      client().auth.refreshSession({ refresh_token: token }),
      client().auth.refreshSession({ refresh_token: token }),
    ]);
    expect(a.error).toBeNull();
    expect(b.error).toBeNull();
    expect(a.data.session!.refresh_token).toBe(b.data.session!.refresh_token);
    expect(a.data.session!.refresh_token).not.toBe(token);
  });

  it('gets and updates the user: metadata merge and password', async () => {
    const email = uniqueEmail('update');
    const { client: supabase } = await signedIn(email, { full_name: 'Old', keep: 1 });

    const { data: got, error: getError } = await supabase.auth.getUser();
    expect(getError).toBeNull();
    expect(got.user?.email).toBe(email);

    const { data: updated, error } = await supabase.auth.updateUser({
      password: 'second password',
      data: { full_name: 'New Name', avatar_url: 'https://example.com/a.png' },
    });
    expect(error).toBeNull();
    expect(updated.user).toMatchObject({
      email,
      user_metadata: { full_name: 'New Name', keep: 1, avatar_url: 'https://example.com/a.png' },
    });
    const same = await supabase.auth.updateUser({ password: 'second password' });
    expect(same.error?.code).toBe('same_password');
    // app_metadata is the service role's
    const res = await fetch(`${baseUrl}/auth/v1/user`, {
      method: 'PUT',
      headers: {
        apikey: anonKey,
        authorization: `Bearer ${(await supabase.auth.getSession()).data.session!.access_token}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ app_metadata: { role: 'admin' } }),
    });
    expect(res.status).toBe(403);
  });

  it('refuses every email change, before the address is looked at, and a forged link (rev-fixes D6)', async () => {
    // the product never changes an address (docs/security.md "Who is an owner"): a permanent
    // user's change mailed "Confirm your email address" to any address, once a minute
    const taken = uniqueEmail('taken');
    await signedIn(taken);
    const email = uniqueEmail('old');
    const { client: supabase, user } = await signedIn(email);
    for (const to of [uniqueEmail('new'), taken]) {
      const { error } = await supabase.auth.updateUser(
        { email: to },
        { emailRedirectTo: `${baseUrl}/app/callback` },
      );
      expect(error?.status).toBe(403);
      expect(error?.code).toBe('email_change_not_allowed');
      expect(mailsTo(to)).toHaveLength(0);
    }
    expect(mailsTo(email)).toHaveLength(0);
    const row = await db.query<{ email: string; email_change: string | null }>(
      'select email, email_change from auth.users where id = $1',
      [user.id],
    );
    expect(row.rows[0]).toEqual({ email, email_change: null });
    // the same address as now changes nothing and is not refused
    expect((await supabase.auth.updateUser({ email })).error).toBeNull();
    const forged = await fetch(`${baseUrl}/auth/v1/verify`, {
      method: 'POST',
      headers: { apikey: anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({ type: 'email_change', token_hash: 'f'.repeat(56) }),
    });
    expect(forged.status).toBe(403);
    expect(await forged.json()).toMatchObject({ error_code: 'otp_expired' });
  });

  it('signs out: the refresh token is then refused and the access token no longer finds its session', async () => {
    const { client: supabase, session } = await signedIn(uniqueEmail('logout'));
    const { access_token, refresh_token } = session;

    const { error } = await supabase.auth.signOut();
    expect(error).toBeNull();

    const refreshed = await client().auth.refreshSession({ refresh_token });
    expect(refreshed.error?.status).toBe(400);
    expect(refreshed.error?.code).toBe('refresh_token_not_found');

    const res = await fetch(`${baseUrl}/auth/v1/user`, {
      headers: { apikey: anonKey, Authorization: `Bearer ${access_token}` },
    });
    expect(res.status).toBe(403);
    expect(await res.json()).toMatchObject({ code: 403, error_code: 'session_not_found' });
  });

  it('signs out locally without ending the other sessions', async () => {
    const email = uniqueEmail('local');
    const { client: phone, session: p } = await signedIn(email);
    const { session: l } = await signInByLink(email);
    expect((await phone.auth.signOut({ scope: 'local' })).error).toBeNull();
    expect(
      (await client().auth.refreshSession({ refresh_token: p.refresh_token })).error?.code,
    ).toBe('refresh_token_not_found');
    expect(
      (await client().auth.refreshSession({ refresh_token: l.refresh_token })).error,
    ).toBeNull();
  });

  it('signs in anonymously; an anonymous user cannot add an email (rev-mail3 D3)', async () => {
    const supabase = client();
    const { data, error } = await supabase.auth.signInAnonymously({
      options: { data: { theme: 'dark' } },
    });
    expect(error).toBeNull();
    expect(data.user).toMatchObject({
      is_anonymous: true,
      email: '',
      app_metadata: { provider: 'anonymous', providers: ['anonymous'] },
      user_metadata: { theme: 'dark' },
    });
    const claims = decodeJwt(data.session!.access_token);
    expect(claims).toMatchObject({ is_anonymous: true, role: 'authenticated', sub: data.user!.id });
    expect((claims.amr as { method: string }[])[0]?.method).toBe('anonymous');

    // adding an email is refused (GoTrue would mail a link to any address typed): still anonymous
    const email = uniqueEmail('converted');
    const { error: refused } = await supabase.auth.updateUser({ email });
    expect(refused?.status).toBe(403);
    expect(refused?.code).toBe('email_change_not_allowed');
    expect((await supabase.auth.getUser()).data.user).toMatchObject({
      email: '',
      is_anonymous: true,
    });
    expect(mailsTo(email)).toHaveLength(0);
  });
});
