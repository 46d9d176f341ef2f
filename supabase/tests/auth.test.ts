// The local auth server driven by the unmodified @supabase/supabase-js, against a real PostgreSQL
// (throwaway data directory, free ports), with the Google PKCE flow completed in headless Chromium.
import { createServer as createNetServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createClient, type Session, type SupabaseClient, type User } from '@supabase/supabase-js';
import { SignJWT, decodeJwt } from 'jose';
import { chromium, type Browser } from 'playwright-core';
import AxeBuilder from '@axe-core/playwright';
import pg from 'pg';
import { startPostgres, type RunningPostgres } from '../local/postgres.ts';
import { migrate } from '../local/migrate.ts';
import type { AuthOptions } from '../local/auth/context.ts';
import { createAuthServer, type AuthServer } from '../local/auth/server.ts';
import type { Mail } from '../local/auth/mailer.ts';
import { serveAuth, type ServedAuth } from './support/auth-server.ts';
import { sendRaw } from './support/fuzz.ts';
import { MAX_BODY_BYTES } from '../local/http.ts';
import { chromiumLaunchOptions } from '../../scripts/chromium.mjs';

const JWT_SECRET = 'test-secret-with-at-least-32-characters!!';
const REUSE_INTERVAL_S = 1;

let dataDir: string;
let postgres: RunningPostgres;
let db: pg.Pool;
let auth: AuthServer;
let served: ServedAuth;
let baseUrl: string;
let anonKey: string;
let serviceKey: string;

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const probe = createNetServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const address = probe.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      probe.close(() => resolve(port));
    });
  });
}

const sign = (
  claims: Record<string, unknown>,
  secret = JWT_SECRET,
  expiresIn: string | number = '1h',
) =>
  new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt()
    .setExpirationTime(expiresIn)
    .sign(new TextEncoder().encode(secret));

/** A client as an app would make it; `storage` keeps the PKCE code verifier between calls. */
function client(key = anonKey, opts: { pkce?: boolean } = {}): SupabaseClient {
  const store = new Map<string, string>();
  return createClient(baseUrl, key, {
    auth: {
      autoRefreshToken: false,
      persistSession: true,
      detectSessionInUrl: false,
      flowType: opts.pkce ? 'pkce' : 'implicit',
      storage: {
        getItem: (k) => store.get(k) ?? null,
        setItem: (k, v) => void store.set(k, v),
        removeItem: (k) => void store.delete(k),
      },
    },
  });
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function waitForNoOtherClients(url: string): Promise<void> {
  const probe = new pg.Client({ connectionString: url });
  await probe.connect();
  try {
    for (let i = 0; i < 50; i++) {
      const { rows } = await probe.query<{ n: number }>(
        `select count(*)::int as n from pg_stat_activity where backend_type = 'client backend' and pid <> pg_backend_pid()`,
      );
      if (rows[0]?.n === 0) return;
      await sleep(50);
    }
  } finally {
    await probe.end();
  }
}

let counter = 0;
const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${counter++}@example.com`;

/** Every mail the auth server sent (an email change's links), newest last. */
const mails: Mail[] = [];
const mailsTo = (address: string) => mails.filter((m) => m.to === address);
/** The token hash of the link in the last mail to `address`. */
function linkTokenIn(address: string): string {
  const mail = mailsTo(address).at(-1);
  expect(mail, `a mail to ${address}`).toBeTruthy();
  const link = /https?:\/\/\S+\/verify\?\S+/.exec(mail!.text)?.[0];
  return new URL(link!).searchParams.get('token')!;
}

/** An auth server on this file's database, with its keys and its mailbox; `options` over these. */
const authServer = (options: Partial<AuthOptions> = {}) =>
  createAuthServer({
    databaseUrl: postgres.url,
    jwtSecret: JWT_SECRET,
    externalUrl: `${baseUrl}/auth/v1`,
    siteUrl: baseUrl,
    anonKey,
    serviceRoleKey: serviceKey,
    mailer: { send: async (mail) => void mails.push(mail) },
    ...options,
  });

beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rb-auth-test-'));
  postgres = await startPostgres({
    dataDir,
    port: await freePort(),
    password: 'postgres',
    durable: false,
  });
  await migrate(postgres.url, { seed: false });
  db = new pg.Pool({ connectionString: postgres.url, max: 2 });

  const port = await freePort();
  baseUrl = `http://127.0.0.1:${port}`;
  anonKey = await sign({ role: 'anon', iss: 'supabase-demo' }, JWT_SECRET, '10y');
  serviceKey = await sign({ role: 'service_role', iss: 'supabase-demo' }, JWT_SECRET, '10y');
  // the local default: email sign-up and sign-in off, addresses confirmed by mail
  auth = authServer({ refreshTokenReuseInterval: REUSE_INTERVAL_S, mailMaxFrequency: 2 });
  // the gateway's job, reduced to the prefix, plus the app page OAuth returns to
  served = await serveAuth(
    auth,
    (app) =>
      app.get('/app/callback', (c) =>
        c.html(
          '<!doctype html><html lang="en"><title>Back in the app</title><p>Signed in</p></html>',
        ),
      ),
    port,
  );
});

afterAll(async () => {
  await served?.close();
  await db?.end();
  if (postgres) {
    // pool.end() resolves before the sockets close; stopping Postgres under a still-open
    // connection would surface as an unhandled "terminating connection" error
    await waitForNoOtherClients(postgres.url);
    await postgres.stop();
  }
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});

/**
 * A user made with the admin API and signed in with a link from generate_link, as tests (and
 * operators) do on GoTrue when email sign-in is off. Returns the client holding the session.
 */
async function signedIn(
  email: string,
  userMetadata: Record<string, unknown> = {},
): Promise<{ client: SupabaseClient; session: Session; user: User }> {
  const admin = client(serviceKey).auth.admin;
  const existing = await admin.createUser({
    email,
    email_confirm: true,
    user_metadata: userMetadata,
  });
  expect(existing.error?.code ?? null, 'admin createUser').toBeNull();
  return signInByLink(email);
}

async function signInByLink(email: string) {
  const { data: link, error: linkError } = await client(serviceKey).auth.admin.generateLink({
    type: 'magiclink',
    email,
  });
  expect(linkError).toBeNull();
  const supabase = client();
  const { data, error } = await supabase.auth.verifyOtp({
    token_hash: link.properties!.hashed_token,
    type: 'magiclink',
  });
  expect(error).toBeNull();
  return { client: supabase, session: data.session!, user: data.user! };
}

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

  it('refuses malformed emails and bad pagination as GoTrue does', async () => {
    for (const email of [
      'a..b@example.com',
      '<x>@example.com',
      'a@-b.com',
      'a@b',
      'a b@c.de',
      'a@b..c',
    ]) {
      const created = await client(serviceKey).auth.admin.createUser({
        email,
        password: 'x'.repeat(12),
      });
      expect(created.error?.status, email).toBe(400);
      expect(created.error?.message, email).toBe(
        'Unable to validate email address: invalid format',
      );
      const link = await client(serviceKey).auth.admin.generateLink({ type: 'magiclink', email });
      expect(link.error?.status, email).toBe(400);
    }
    expect((await db.query(`select 1 from auth.users where email like '%..%'`)).rowCount).toBe(0);
    // supabase-js sends page and per_page as given; GoTrue parses them as unsigned integers
    for (const query of ['page=x', 'per_page=-1', 'page=1.5']) {
      const res = await fetch(`${baseUrl}/auth/v1/admin/users?${query}`, {
        headers: { apikey: serviceKey, authorization: `Bearer ${serviceKey}` },
      });
      expect(res.status, query).toBe(400);
      expect(((await res.json()) as { msg?: string; message?: string }).msg ?? '').toMatch(
        /^Bad Pagination Parameters/,
      );
    }
    const ok = await client(serviceKey).auth.admin.listUsers({ page: 2, perPage: 1 });
    expect(ok.error).toBeNull();
  });

  it('lets the service role create, read, list and delete users, and nobody else', async () => {
    const admin = client(serviceKey).auth.admin;
    const email = uniqueEmail('admin');
    const { data: created, error } = await admin.createUser({
      email,
      email_confirm: true,
      user_metadata: { full_name: 'Admin Made' },
    });
    expect(error).toBeNull();
    const id = created.user!.id;
    expect(created.user).toMatchObject({ email, user_metadata: { full_name: 'Admin Made' } });

    const { data: byId } = await admin.getUserById(id);
    expect(byId.user?.email).toBe(email);
    const { data: list, error: listError } = await admin.listUsers({ page: 1, perPage: 1000 });
    expect(listError).toBeNull();
    expect(list.users.some((u) => u.id === id)).toBe(true);

    const notAdmin = await client().auth.admin.deleteUser(id);
    expect(notAdmin.error?.status).toBe(403);

    const { session } = await signInByLink(email);

    const { error: deleteError } = await admin.deleteUser(id);
    expect(deleteError).toBeNull();
    const gone = await admin.getUserById(id);
    expect(gone.error?.status).toBe(404);
    const rows = await db.query('select 1 from auth.users where id = $1', [id]);
    expect(rows.rowCount).toBe(0);
    // sessions and refresh tokens went with the user
    const refreshed = await client().auth.refreshSession({ refresh_token: session.refresh_token });
    expect(refreshed.error?.status).toBe(400);
    const link = await admin.generateLink({ type: 'magiclink', email });
    expect(link.error?.status).toBe(404);
  });

  it('refuses forged, expired and unsigned JWTs with 401', async () => {
    const { session } = await signedIn(uniqueEmail('jwt'));
    const real = decodeJwt(session.access_token);

    const forged = await sign(
      { ...real, exp: undefined, iat: undefined },
      'some-other-secret-of-enough-length!!',
    );
    const expired = await sign(
      { ...real, exp: undefined, iat: undefined },
      JWT_SECRET,
      Math.floor(Date.now() / 1000) - 60,
    );
    const header = Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url');
    const unsigned = `${header}.${Buffer.from(JSON.stringify(real)).toString('base64url')}.`;

    for (const token of [forged, expired, unsigned, 'not-a-jwt']) {
      const { error } = await client().auth.getUser(token);
      expect(error?.status, token).toBe(401);
      expect(error?.code).toBe('bad_jwt');
    }
    const forgedAdmin = await sign(
      { role: 'service_role' },
      'some-other-secret-of-enough-length!!',
    );
    const { error } = await client(forgedAdmin).auth.admin.listUsers();
    expect(error?.status).toBe(401);
  });

  it('answers malformed requests with GoTrue-shaped 4xx errors', async () => {
    const post = (path: string, body: string) =>
      fetch(`${baseUrl}/auth/v1${path}`, {
        method: 'POST',
        headers: { apikey: anonKey, 'Content-Type': 'application/json' },
        body,
      });
    const badJson = await post('/signup', '{"email":');
    expect(badJson.status).toBe(400);
    expect(await badJson.json()).toMatchObject({ code: 400, error_code: 'bad_json' });

    const grant = await post('/token?grant_type=magic', '{}');
    expect(grant.status).toBe(400);
    expect(await grant.json()).toMatchObject({
      error_code: 'unsupported_grant_type',
      error: 'unsupported_grant_type',
    });

    const pkce = await post(
      '/token?grant_type=pkce',
      JSON.stringify({ auth_code: 'nope', code_verifier: 'x'.repeat(56) }),
    );
    expect(pkce.status).toBe(404);
    expect(await pkce.json()).toMatchObject({
      error_code: 'flow_state_not_found',
      error: 'invalid_grant',
    });

    const provider = await fetch(`${baseUrl}/auth/v1/authorize?provider=myspace`);
    expect(provider.status).toBe(400);
  });

  it('escapes what it echoes and never redirects to a foreign origin', async () => {
    const hint = '"><script>alert(1)</script>';
    const res = await fetch(
      `${baseUrl}/auth/v1/authorize?provider=google&redirect_to=${encodeURIComponent('https://evil.example/steal')}` +
        `&login_hint=${encodeURIComponent(hint)}`,
    );
    expect(res.status).toBe(200);
    const html = await res.text();
    expect(html).not.toContain('<script>');
    expect(html).toContain('&quot;&gt;&lt;script&gt;');
    expect(html).not.toContain('evil.example');
    expect(html).toContain('Local development sign-in');
  });

  it('completes the implicit Apple flow and finds the same user on the next sign-in', async () => {
    const email = uniqueEmail('apple');
    const signInOnce = async () => {
      const page = await fetch(
        `${baseUrl}/auth/v1/authorize?provider=apple&redirect_to=${encodeURIComponent(`${baseUrl}/app/callback`)}`,
      );
      const state = /name="state" value="([^"]+)"/.exec(await page.text())?.[1];
      expect(state).toBeTruthy();
      const res = await fetch(`${baseUrl}/auth/v1/callback`, {
        method: 'POST',
        redirect: 'manual',
        headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({
          state: state!,
          email,
          name: 'Apple Person',
          decision: 'allow',
        }),
      });
      expect(res.status).toBe(303);
      const location = new URL(res.headers.get('location')!);
      expect(location.origin + location.pathname).toBe(`${baseUrl}/app/callback`);
      const fragment = new URLSearchParams(location.hash.slice(1));
      const { data, error } = await client().auth.getUser(fragment.get('access_token')!);
      expect(error).toBeNull();
      expect(fragment.get('refresh_token')).toBeTruthy();
      return data.user!;
    };
    const first = await signInOnce();
    expect(first).toMatchObject({
      email,
      app_metadata: { provider: 'apple', providers: ['apple'] },
    });
    expect(first.user_metadata).toMatchObject({
      full_name: 'Apple Person',
      name: 'Apple Person',
      email,
    });
    const second = await signInOnce();
    expect(second.id).toBe(first.id);
  });

  it('links Google to an anonymous user (linkIdentity), who becomes permanent and gets a profile', async () => {
    const supabase = client(anonKey, { pkce: true });
    const { data: anon } = await supabase.auth.signInAnonymously();
    const anonId = anon.user!.id;
    const profileBefore = await db.query('select 1 from public.profiles where id = $1', [anonId]);
    expect(profileBefore.rowCount).toBe(0);

    const { data, error } = await supabase.auth.linkIdentity({
      provider: 'google',
      options: { skipBrowserRedirect: true, redirectTo: `${baseUrl}/app/callback` },
    });
    expect(error).toBeNull();
    // the stand-in consent page, filled in without a browser this time
    const page = await fetch(data.url!);
    expect(page.status).toBe(200);
    const state = /name="state" value="([^"]+)"/.exec(await page.text())?.[1];
    const email = uniqueEmail('linked');
    const res = await fetch(`${baseUrl}/auth/v1/callback`, {
      method: 'POST',
      redirect: 'manual',
      headers: { 'Content-Type': 'application/x-www-form-urlencoded' },
      body: new URLSearchParams({ state: state!, email, name: 'Linked Person', decision: 'allow' }),
    });
    expect(res.status).toBe(303);
    const code = new URL(res.headers.get('location')!).searchParams.get('code');
    const { data: linked, error: linkError } = await supabase.auth.exchangeCodeForSession(code!);
    expect(linkError).toBeNull();
    expect(linked.user).toMatchObject({
      id: anonId,
      email,
      is_anonymous: false,
      app_metadata: { provider: 'google', providers: ['google'] },
      user_metadata: { full_name: 'Linked Person' },
    });
    expect(decodeJwt(linked.session!.access_token).is_anonymous).toBe(false);
    // the schema's trigger made the profile when the user stopped being anonymous
    const profile = await db.query<{ name: string; email: string }>(
      'select name, email from public.profiles where id = $1',
      [anonId],
    );
    expect(profile.rows[0]).toMatchObject({ name: 'Linked Person', email });
  });

  describe('Google PKCE flow in headless Chromium', () => {
    let browser: Browser;
    beforeAll(async () => {
      browser = await chromium.launch(chromiumLaunchOptions);
    });
    afterAll(async () => {
      await browser?.close();
    });

    it('signs in through the local consent page and exchanges the code for a session', async () => {
      const supabase = client(anonKey, { pkce: true });
      const redirectTo = `${baseUrl}/app/callback`;
      const { data, error } = await supabase.auth.signInWithOAuth({
        provider: 'google',
        options: { skipBrowserRedirect: true, redirectTo },
      });
      expect(error).toBeNull();
      expect(data.url).toContain('code_challenge=');

      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await page.goto(data.url!);
        expect(await page.getByRole('note').textContent()).toMatch(
          /Local development sign-in\s+— stands in for Google\/Apple/,
        );
        expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(
          'Sign in with Google',
        );
        expect(await page.getByLabel('Email address').inputValue()).toBe(
          'demo@reaction-blocks.local',
        );
        const axe = await new AxeBuilder({ page }).analyze();
        expect(axe.violations.map((v) => v.id)).toEqual([]);

        const email = uniqueEmail('google');
        await page.getByLabel('Email address').fill(email);
        await page.getByLabel('Full name').fill('Grace Hopper');
        await page
          .getByLabel('Profile picture URL (optional)')
          .fill('https://example.com/grace.png');
        await Promise.all([
          page.waitForURL(/\/app\/callback\?code=/),
          page.getByRole('button', { name: 'Continue' }).click(),
        ]);
        const code = new URL(page.url()).searchParams.get('code');
        expect(code).toBeTruthy();

        const exchanged = await supabase.auth.exchangeCodeForSession(code!);
        expect(exchanged.error).toBeNull();
        const user = exchanged.data.user!;
        expect(user).toMatchObject({
          email,
          app_metadata: { provider: 'google', providers: ['google'] },
          user_metadata: {
            full_name: 'Grace Hopper',
            name: 'Grace Hopper',
            email,
            avatar_url: 'https://example.com/grace.png',
            picture: 'https://example.com/grace.png',
          },
        });
        expect(user.identities?.[0]?.provider).toBe('google');
        const claims = decodeJwt(exchanged.data.session!.access_token);
        expect(claims).toMatchObject({ sub: user.id, app_metadata: { provider: 'google' } });
        expect((claims.amr as { method: string }[])[0]?.method).toBe('oauth');

        // the session is stored and usable
        const { data: me } = await supabase.auth.getUser();
        expect(me.user?.id).toBe(user.id);

        // a code is good once
        const replay = await fetch(`${baseUrl}/auth/v1/token?grant_type=pkce`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ auth_code: code, code_verifier: 'x'.repeat(56) }),
        });
        expect(replay.status).toBe(404);
      } finally {
        await context.close();
      }
    });

    it('rejects a code exchanged with the wrong verifier', async () => {
      const supabase = client(anonKey, { pkce: true });
      const { data } = await supabase.auth.signInWithOAuth({
        provider: 'google',
        options: { skipBrowserRedirect: true, redirectTo: `${baseUrl}/app/callback` },
      });
      const context = await browser.newContext();
      const page = await context.newPage();
      try {
        await page.goto(data.url!);
        await Promise.all([
          page.waitForURL(/\/app\/callback\?code=/),
          page.getByRole('button', { name: 'Continue' }).click(),
        ]);
        const code = new URL(page.url()).searchParams.get('code');
        const res = await fetch(`${baseUrl}/auth/v1/token?grant_type=pkce`, {
          method: 'POST',
          headers: { 'Content-Type': 'application/json' },
          body: JSON.stringify({ auth_code: code, code_verifier: 'y'.repeat(56) }),
        });
        expect(res.status).toBe(403);
        expect(await res.json()).toMatchObject({ error_code: 'bad_code_verifier' });
      } finally {
        await context.close();
      }
    });
  });
});

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
