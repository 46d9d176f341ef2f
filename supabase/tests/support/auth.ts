// The auth tests' server (auth.test.ts, auth-refusals.test.ts, auth-oauth.test.ts,
// auth-mail.test.ts): the local auth server on a real PostgreSQL of the file's own (throwaway data
// directory, free ports), its keys, the mail it sends, and clients as an app makes them.
// Importing this module is the set-up: it registers the importing file's beforeAll and afterAll
// (vitest runs each file in its own module graph), so each file has its own database and server.
import { createServer as createNetServer } from 'node:net';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll, expect } from 'vitest';
import { createClient, type Session, type SupabaseClient, type User } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import pg from 'pg';
import { startPostgres, type RunningPostgres } from '../../local/postgres.ts';
import { migrate } from '../../local/migrate.ts';
import type { AuthOptions } from '../../local/auth/context.ts';
import { createAuthServer, type AuthServer } from '../../local/auth/server.ts';
import type { Mail } from '../../local/auth/mailer.ts';
import { serveAuth, type ServedAuth } from './auth-server.ts';

export const JWT_SECRET = 'test-secret-with-at-least-32-characters!!';
export const REUSE_INTERVAL_S = 1;

let dataDir: string;
export let postgres: RunningPostgres;
export let db: pg.Pool;
let auth: AuthServer;
let served: ServedAuth;
export let baseUrl: string;
export let anonKey: string;
export let serviceKey: string;

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

export const sign = (
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
export function client(key = anonKey, opts: { pkce?: boolean } = {}): SupabaseClient {
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

export const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

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
export const uniqueEmail = (tag: string) => `${tag}-${Date.now()}-${counter++}@example.com`;

/** Every mail the auth server sent (an email change's links), newest last. */
export const mails: Mail[] = [];
export const mailsTo = (address: string) => mails.filter((m) => m.to === address);
/** The token hash of the link in the last mail to `address`. */
export function linkTokenIn(address: string): string {
  const mail = mailsTo(address).at(-1);
  expect(mail, `a mail to ${address}`).toBeTruthy();
  const link = /https?:\/\/\S+\/verify\?\S+/.exec(mail!.text)?.[0];
  return new URL(link!).searchParams.get('token')!;
}

/** An auth server on this file's database, with its keys and its mailbox; `options` over these. */
export const authServer = (options: Partial<AuthOptions> = {}) =>
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
export async function signedIn(
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

export async function signInByLink(email: string) {
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
