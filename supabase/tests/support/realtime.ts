// The Realtime tests' stack (realtime.test.ts, realtime-channels.test.ts, realtime-blocks.test.ts):
// a real PostgreSQL (throwaway data directory, free port) with the migrations, the local Realtime
// server behind a plain HTTP server at /realtime/v1, an rt_test.notes table in the publication, and
// the clients and tokens the tests join with. Each file that imports it has its own server and
// database, closed after the file.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, beforeAll } from 'vitest';
import { RealtimeClient, type RealtimeChannel } from '@supabase/realtime-js';
import { SignJWT } from 'jose';
import pg from 'pg';
import { freePorts } from '../../local/config.ts';
import { startPostgres, type RunningPostgres } from '../../local/postgres.ts';
import { migrate } from '../../local/migrate.ts';
import { createRealtimeServer, type RealtimeServer } from '../../local/realtime/server.ts';

const JWT_SECRET = 'realtime-test-secret-with-at-least-32-chars';

let dataDir: string;
let postgres: RunningPostgres;
export let db: pg.Pool;
let realtime: RealtimeServer;
let http: Server;
export let baseUrl: string;
export let anonKey: string;
export let serviceKey: string;
export const logs: string[] = [];
export const clients: RealtimeClient[] = [];

export type Note = { id: number; owner: string; body: string | null; room: string | null };

function sign(
  claims: Record<string, unknown>,
  opts: { secret?: string; exp?: number } = {},
): Promise<string> {
  const now = Math.floor(Date.now() / 1000);
  return new SignJWT(claims)
    .setProtectedHeader({ alg: 'HS256', typ: 'JWT' })
    .setIssuedAt(now - 60)
    .setExpirationTime(opts.exp ?? now + 3600)
    .sign(new TextEncoder().encode(opts.secret ?? JWT_SECRET));
}

export const userToken = (sub: string, opts: { secret?: string; exp?: number } = {}) =>
  sign({ sub, role: 'authenticated', aud: 'authenticated' }, opts);

/** How long a join or push waits for the server's reply (a hang bound; the client's own is 10 s). */
export const REPLY_TIMEOUT = 60_000;

export async function client(
  token?: string,
  options: { vsn?: string } = {},
): Promise<RealtimeClient> {
  const c = new RealtimeClient(`${baseUrl}/realtime/v1`, {
    params: { apikey: anonKey },
    timeout: REPLY_TIMEOUT,
    ...(options.vsn ? { vsn: options.vsn } : {}),
  });
  if (token) await c.setAuth(token);
  clients.push(c);
  return c;
}

export function subscribed(channel: RealtimeChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve();
      else reject(new Error(`${status}: ${err?.message ?? ''}`));
    });
  });
}

export function refused(channel: RealtimeChannel): Promise<string> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') reject(new Error('joined although it should have been refused'));
      else resolve(`${status}: ${err?.message ?? ''}`);
    });
  });
}

export async function insert(owner: string, body: string, room = 'r'): Promise<Note> {
  const r = await db.query<Note>(
    'insert into rt_test.notes (owner, body, room) values ($1, $2, $3) returning *',
    [owner, body, room],
  );
  const row = r.rows[0]!;
  return { ...row, id: Number(row.id) }; // bigserial arrives as a string from pg, as a number over realtime
}

// Importing this module is the set-up: it starts the importing test file's own database and
// Realtime server before its tests and stops them after (vitest runs each file in its own module
// graph).
beforeAll(async () => {
  dataDir = mkdtempSync(join(tmpdir(), 'rb-realtime-'));
  const ports = await freePorts();
  postgres = await startPostgres({
    dataDir: join(dataDir, 'pg'),
    port: ports.db,
    password: 'postgres',
  });
  await migrate(postgres.url, { seed: false });
  db = new pg.Pool({ connectionString: postgres.url, max: 4 });
  db.on('error', () => {}); // idle connections hear Postgres stop at the end
  anonKey = await sign({ role: 'anon', iss: 'supabase-demo' });
  serviceKey = await sign({ role: 'service_role', iss: 'supabase-demo' });

  realtime = await createRealtimeServer({
    databaseUrl: postgres.url,
    jwtSecret: JWT_SECRET,
    log: (service, line) => logs.push(`[${service}] ${line}`),
  });
  http = createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://test');
    if (!url.pathname.startsWith('/realtime/v1/')) return res.writeHead(404).end();
    void realtime.handle(req, res, url.pathname.slice('/realtime/v1'.length));
  });
  http.on('upgrade', (req, socket, head) => {
    const url = new URL(req.url ?? '/', 'http://test');
    if (!url.pathname.startsWith('/realtime/v1/'))
      return socket.end('HTTP/1.1 404 Not Found\r\n\r\n');
    realtime.upgrade(req, socket, head, url.pathname.slice('/realtime/v1'.length));
  });
  await new Promise<void>((resolve) => http.listen(ports.api, '127.0.0.1', () => resolve()));
  baseUrl = `http://127.0.0.1:${ports.api}`;

  // created after the server started: the first subscription naming it makes the server re-read the publication
  await db.query(`
    create schema rt_test;
    grant usage on schema rt_test to anon, authenticated, service_role;
    create table rt_test.notes (
      id bigserial primary key,
      owner uuid not null,
      body text,
      room text
    );
    alter table rt_test.notes enable row level security;
    create policy "owners read their notes" on rt_test.notes for select to authenticated using (owner = auth.uid());
    grant select, insert, update, delete on rt_test.notes to anon, authenticated, service_role;
    create table rt_test.unpublished (id int primary key);
    grant select on rt_test.unpublished to anon, authenticated;
    alter publication supabase_realtime add table rt_test.notes;
  `);
});

afterAll(async () => {
  for (const c of clients) {
    await c.removeAllChannels().catch(() => {});
    await c.disconnect().catch(() => {});
  }
  await realtime?.close();
  await new Promise<void>((resolve) => (http ? http.close(() => resolve()) : resolve()));
  await db?.end();
  await postgres?.stop();
  if (dataDir) rmSync(dataDir, { recursive: true, force: true });
});
