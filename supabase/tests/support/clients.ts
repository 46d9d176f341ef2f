// Clients for the integration tests: the official supabase-js, as users would use it.
import { createClient, type SupabaseClient } from '@supabase/supabase-js';
import { randomUUID } from 'node:crypto';
import pg from 'pg';
import { inject } from 'vitest';
import { inTransaction } from '../../local/transaction.ts';
import { eventually } from '../../../scripts/poll.ts';

export const stack = () => inject('stack');

/**
 * A supabase-js client of its own (no session kept, as a script's): `key` as its API key, `headers`
 * on every request, to `url` (the stack's API unless another server is named).
 */
export function apiClient(
  key = stack().anonKey,
  headers: Record<string, string> = {},
  url = stack().apiUrl,
): SupabaseClient {
  return createClient(url, key, {
    auth: { persistSession: false, autoRefreshToken: false, detectSessionInUrl: false },
    global: { headers },
    // a channel's join waits for its answer this long before TIMED_OUT (supabase-js: 10 s, which
    // a busy machine misses): a hang bound
    realtime: { timeout: 60_000 },
  });
}

export const anonClient = (): SupabaseClient => apiClient();

export const serviceClient = (): SupabaseClient => apiClient(stack().serviceRoleKey);

export interface TestUser {
  id: string;
  email: string;
  client: SupabaseClient;
  accessToken: string;
}

/**
 * A signed-in owner. Owners sign up with Google or Apple; email sign-up is off, so tests make
 * the user with the admin API, an owner by its app_metadata (only the service role writes it:
 * private.is_owner_account), and sign it in with a link from generate_link, as on GoTrue.
 */
export async function newUser(
  label = 'user',
  email = `${label}-${randomUUID().slice(0, 8)}@test.local`,
): Promise<TestUser> {
  const admin = serviceClient().auth.admin;
  const created = await admin.createUser({
    email,
    email_confirm: true,
    app_metadata: { owner: true },
    user_metadata: { full_name: `Test ${label}` },
  });
  if (created.error) throw new Error(`admin createUser failed: ${created.error.message}`);
  const link = await admin.generateLink({ type: 'magiclink', email });
  if (link.error) throw new Error(`generate_link failed: ${link.error.message}`);
  const client = anonClient();
  const { data, error } = await client.auth.verifyOtp({
    token_hash: link.data.properties.hashed_token,
    type: 'magiclink',
  });
  if (error || !data.session || !data.user) throw new Error(`sign-in failed: ${error?.message}`);
  return { id: data.user.id, email, client, accessToken: data.session.access_token };
}

/** A signed-in owner on a paid plan, with room for 20 blocks. */
export async function paidOwner(label: string): Promise<TestUser> {
  const owner = await newUser(label);
  await sql('update public.profiles set paid = true, block_limit = 20 where id = $1', [owner.id]);
  return owner;
}

/**
 * A visitor: an anonymous Supabase user, as the SDK creates on a first write; `headers` go with
 * every request of its client (a proxy's X-Forwarded-For, the browser's Accept-Language).
 */
export async function newGuest(headers: Record<string, string> = {}): Promise<TestUser> {
  const client = apiClient(stack().anonKey, headers);
  const { data, error } = await client.auth.signInAnonymously();
  if (error || !data.session || !data.user)
    throw new Error(`anonymous sign-in failed: ${error?.message}`);
  return { id: data.user.id, email: '', client, accessToken: data.session.access_token };
}

/** Direct SQL as the superuser, for assertions and set-up the API must not allow. */
export async function sql<T extends pg.QueryResultRow = Record<string, unknown>>(
  text: string,
  params: unknown[] = [],
): Promise<T[]> {
  const client = new pg.Client({ connectionString: stack().dbUrl });
  await client.connect();
  try {
    return (await client.query<T>(text, params)).rows;
  } finally {
    await client.end();
  }
}

/** The one value a query answers (the first column of its first row): a count, an id, a flag. */
export async function sqlValue<T>(text: string, params: unknown[] = []): Promise<T> {
  const [row] = await sql(text, params);
  if (!row) throw new Error(`no row from: ${text}`);
  return Object.values(row)[0] as T;
}

/** The one row of `table` that `match` picks, its `columns`, as `client` reads it (RLS applies). */
export async function readRow(
  client: SupabaseClient,
  table: string,
  match: Record<string, string>,
  columns = '*',
): Promise<unknown> {
  const { data } = await client.from(table).select(columns).match(match).single();
  return data;
}

/** The backend pid of a session, for waitsOnLock. */
export const backendPid = async (client: pg.Client) =>
  (await client.query<{ pid: number }>('select pg_backend_pid() as pid')).rows[0]!.pid;

/** Resolves once the session `pid` waits on a lock another session holds. */
export const waitsOnLock = (pid: number) =>
  eventually(async () => {
    const [w] = await sql<{ wait_event_type: string | null }>(
      'select wait_event_type from pg_stat_activity where pid = $1',
      [pid],
    );
    return w?.wait_event_type === 'Lock';
  });

/**
 * Resolves once a session running a call to `fn` (a database function, as the stack's services
 * call it) waits on a lock another session holds: the session `holder` when given (the test's
 * own transaction, so that another test file's waits do not count), any otherwise.
 */
export const callWaitsOnLock = (fn: string, ms: number, holder?: number) =>
  eventually(
    async () =>
      (
        await sql(
          `select pid from pg_stat_activity where wait_event_type = 'Lock' and query like '%' || $1 || '%'
             and ($2::int is null or $2 = any(pg_blocking_pids(pid)))`,
          [fn, holder ?? null],
        )
      ).length > 0,
    ms,
  );

/** Runs `fn` in one transaction of its own session as the superuser: committed, or rolled back if it throws. */
export async function transaction<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: stack().dbUrl });
  await client.connect();
  try {
    return await inTransaction(client, fn);
  } finally {
    await client.end();
  }
}

const ROLLBACK = new Error('rolled back');
/**
 * What `fn` sees in a transaction that is then rolled back: a stack-wide setting changed there is
 * seen by `fn` alone, never by the other files sharing the stack.
 */
export async function rolledBack<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  let out: T | undefined;
  await transaction(async (client) => {
    out = await fn(client);
    throw ROLLBACK;
  }).catch((e) => {
    if (e !== ROLLBACK) throw e;
  });
  return out as T;
}

/** Calls an edge function with raw fetch, so tests can send malformed bodies and tokens. */
export async function callFunction(
  name: string,
  body: unknown,
  token: string | undefined,
  opts: { raw?: boolean } = {},
): Promise<{
  status: number;
  json: { data?: unknown; error?: { code: string; message: string; retryAfter?: number } };
  /** the answer's Retry-After (a 429 says its wait) */
  retryAfter: string | null;
}> {
  const headers: Record<string, string> = {
    apikey: stack().anonKey,
    'content-type': 'application/json',
  };
  if (token) headers.authorization = `Bearer ${token}`;
  const res = await fetch(`${stack().apiUrl}/functions/v1/${name}`, {
    method: 'POST',
    headers,
    body: opts.raw ? (body as string) : JSON.stringify(body),
  });
  return {
    status: res.status,
    json: (await res.json()) as never,
    retryAfter: res.headers.get('retry-after'),
  };
}

/**
 * Every test's visitors come from the loopback, one client address. A test that counts more than
 * one address's share of an owner's monthly responses (10 %, at least one, a day), or more than
 * the visitors without a track record may count together (25 %; docs/data-model.md "When a shared
 * budget is under pressure"), gives that address and its fresh visitors the whole quota on its
 * blocks (an operator's per-block override), or the responses beyond the share would be held.
 */
export async function wholeQuotaForOneAddress(blockIds: string[]): Promise<void> {
  await sql(
    `update public.blocks
     set rate_limits = coalesce(rate_limits, '{}') || jsonb_build_object(
       'submit', coalesce(rate_limits -> 'submit', '{}') || '{"address_quota_share": 1, "fresh_quota_share": 1}',
       'vote', coalesce(rate_limits -> 'vote', '{}') || '{"address_quota_share": 1, "fresh_quota_share": 1}')
     where id = any($1)`,
    [blockIds],
  );
}
