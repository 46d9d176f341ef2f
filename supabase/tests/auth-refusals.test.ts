// What the local auth server refuses, driven by the unmodified @supabase/supabase-js against a
// real PostgreSQL (support/auth.ts): malformed emails and pagination, users by anyone but the
// service role, forged, expired and unsigned JWTs, malformed requests, foreign redirects.
import { describe, expect, it } from 'vitest';
import { decodeJwt } from 'jose';
import { isEmail } from '@reaction-blocks/contracts/limits';
import {
  client,
  serviceKey,
  db,
  baseUrl,
  uniqueEmail,
  signInByLink,
  signedIn,
  sign,
  JWT_SECRET,
  anonKey,
} from './support/auth.ts';

/** Addresses GoTrue refuses as malformed: two dots, markup, a host that starts with a hyphen, no
 * top-level domain, a space, two dots in the host. */
const MALFORMED_EMAILS = [
  'a..b@example.com',
  '<x>@example.com',
  'a@-b.com',
  'a@b',
  'a b@c.de',
  'a@b..c',
];

describe('auth server through supabase-js', () => {
  it('refuses malformed emails and bad pagination as GoTrue does', async () => {
    for (const email of MALFORMED_EMAILS) {
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

  it('takes what GoTrue takes, looser than our own address rule (local/auth/users.ts says why)', async () => {
    const tag = Math.random().toString(36).slice(2, 10);
    for (const email of [
      `a!b.${tag}@example.com`,
      `a{b}.${tag}@example.com`,
      `x.${tag}@host.123`,
    ]) {
      expect(isEmail(email), email).toBe(false);
      const created = await client(serviceKey).auth.admin.createUser({ email });
      expect(created.error, email).toBeNull();
      await client(serviceKey).auth.admin.deleteUser(created.data.user!.id);
    }
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
});
