// The local Realtime server driven by the unmodified @supabase/realtime-js, against a real
// PostgreSQL (throwaway data directory, free port): postgres_changes with RLS and filters,
// UPDATE/DELETE, broadcast (WebSocket and HTTP), presence, token refusal and refresh, heartbeats and bad frames;
// and the block topics: private channels authorised by the realtime.messages policies, broadcasts
// from the database (realtime.send in the messages trigger) through supabase-js.
import { createServer, type Server } from 'node:http';
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { randomUUID } from 'node:crypto';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import {
  RealtimeClient,
  type RealtimeChannel,
  type RealtimePostgresChangesPayload,
} from '@supabase/realtime-js';
import { createClient } from '@supabase/supabase-js';
import { SignJWT } from 'jose';
import pg from 'pg';
import WebSocket from 'ws';
import { eventually } from '../../scripts/poll.ts';
import { freePorts } from '../local/config.ts';
import { startPostgres, type RunningPostgres } from '../local/postgres.ts';
import { migrate } from '../local/migrate.ts';
import { createRealtimeServer, type RealtimeServer } from '../local/realtime/server.ts';

const JWT_SECRET = 'realtime-test-secret-with-at-least-32-chars';

let dataDir: string;
let postgres: RunningPostgres;
let db: pg.Pool;
let realtime: RealtimeServer;
let http: Server;
let baseUrl: string;
let anonKey: string;
let serviceKey: string;
const logs: string[] = [];
const clients: RealtimeClient[] = [];

type Note = { id: number; owner: string; body: string | null; room: string | null };

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

const userToken = (sub: string, opts: { secret?: string; exp?: number } = {}) =>
  sign({ sub, role: 'authenticated', aud: 'authenticated' }, opts);

/** How long a join or push waits for the server's reply (a hang bound; the client's own is 10 s). */
const REPLY_TIMEOUT = 60_000;

async function client(token?: string, options: { vsn?: string } = {}): Promise<RealtimeClient> {
  const c = new RealtimeClient(`${baseUrl}/realtime/v1`, {
    params: { apikey: anonKey },
    timeout: REPLY_TIMEOUT,
    ...(options.vsn ? { vsn: options.vsn } : {}),
  });
  if (token) await c.setAuth(token);
  clients.push(c);
  return c;
}

function subscribed(channel: RealtimeChannel): Promise<void> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') resolve();
      else reject(new Error(`${status}: ${err?.message ?? ''}`));
    });
  });
}

function refused(channel: RealtimeChannel): Promise<string> {
  return new Promise((resolve, reject) => {
    channel.subscribe((status, err) => {
      if (status === 'SUBSCRIBED') reject(new Error('joined although it should have been refused'));
      else resolve(`${status}: ${err?.message ?? ''}`);
    });
  });
}

/** Collects postgres_changes payloads on one channel; `next` waits for the next one that matches. */
function collect(
  c: RealtimeClient,
  topic: string,
  filter: { event: '*' | 'INSERT' | 'UPDATE' | 'DELETE'; filter?: string },
) {
  const got: RealtimePostgresChangesPayload<Note>[] = [];
  const waiters: Array<{
    test: (p: RealtimePostgresChangesPayload<Note>) => boolean;
    resolve: (p: RealtimePostgresChangesPayload<Note>) => void;
  }> = [];
  const channel = c.channel(topic).on(
    'postgres_changes' as never,
    {
      event: filter.event,
      schema: 'rt_test',
      table: 'notes',
      ...(filter.filter ? { filter: filter.filter } : {}),
    } as never,
    ((p: RealtimePostgresChangesPayload<Note>) => {
      got.push(p);
      for (const w of [...waiters]) {
        if (w.test(p)) {
          waiters.splice(waiters.indexOf(w), 1);
          w.resolve(p);
        }
      }
    }) as never,
  );
  const next = (test: (p: RealtimePostgresChangesPayload<Note>) => boolean, ms = 60_000) =>
    new Promise<RealtimePostgresChangesPayload<Note>>((resolve, reject) => {
      const seen = got.find(test);
      if (seen) return resolve(seen);
      const timer = setTimeout(
        () => reject(new Error(`no matching event on ${topic}; got ${JSON.stringify(got)}`)),
        ms,
      );
      waiters.push({
        test,
        resolve: (p) => {
          clearTimeout(timer);
          resolve(p);
        },
      });
    });
  return { channel, got, next };
}

const newRow = (p: RealtimePostgresChangesPayload<Note>) => p.new as Partial<Note>;
const oldRow = (p: RealtimePostgresChangesPayload<Note>) => p.old as Partial<Note>;

async function insert(owner: string, body: string, room = 'r'): Promise<Note> {
  const r = await db.query<Note>(
    'insert into rt_test.notes (owner, body, room) values ($1, $2, $3) returning *',
    [owner, body, room],
  );
  const row = r.rows[0]!;
  return { ...row, id: Number(row.id) }; // bigserial arrives as a string from pg, as a number over realtime
}

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

describe('postgres_changes', () => {
  it('delivers an INSERT to the subscriber RLS allows and not to the one it refuses', async () => {
    const alice = randomUUID();
    const bob = randomUUID();
    const a = collect(await client(await userToken(alice)), 'notes-a', { event: 'INSERT' });
    const b = collect(await client(await userToken(bob)), 'notes-b', { event: 'INSERT' });
    await Promise.all([subscribed(a.channel), subscribed(b.channel)]);

    const row = await insert(alice, 'hello from alice');
    const got = await a.next((p) => newRow(p).id === row.id);
    expect(got.eventType).toBe('INSERT');
    expect(got.schema).toBe('rt_test');
    expect(got.table).toBe('notes');
    expect(typeof got.commit_timestamp).toBe('string');
    expect(newRow(got)).toMatchObject({ id: row.id, owner: alice, body: 'hello from alice' });

    // events go out in commit order: once bob sees his own later row, alice's was already decided
    const bobs = await insert(bob, 'bob');
    await b.next((p) => newRow(p).id === bobs.id);
    expect(b.got.map((p) => newRow(p).id)).not.toContain(row.id);
    await a.next((p) => newRow(p).id === row.id);
    expect(a.got.map((p) => newRow(p).id)).not.toContain(bobs.id);
  });

  it('sends nothing to an anonymous subscriber the policy does not cover, everything to service_role', async () => {
    const anon = collect(await client(), 'notes-anon', { event: '*' });
    const service = collect(await client(serviceKey), 'notes-service', { event: '*' });
    await Promise.all([subscribed(anon.channel), subscribed(service.channel)]);
    const row = await insert(randomUUID(), 'secret');
    await service.next((p) => newRow(p).id === row.id);
    const marker = await insert(randomUUID(), 'marker');
    await service.next((p) => newRow(p).id === marker.id);
    expect(anon.got).toHaveLength(0);
  });

  it('applies an eq filter', async () => {
    const owner = randomUUID();
    const c = collect(await client(await userToken(owner)), 'notes-filter', {
      event: 'INSERT',
      filter: 'body=eq.wanted',
    });
    const all = collect(await client(await userToken(owner)), 'notes-unfiltered', {
      event: 'INSERT',
    });
    await Promise.all([subscribed(c.channel), subscribed(all.channel)]);
    await insert(owner, 'unwanted');
    const wanted = await insert(owner, 'wanted');
    await c.next((p) => newRow(p).id === wanted.id);
    await all.next((p) => newRow(p).id === wanted.id);
    expect(c.got.map((p) => newRow(p).body)).toEqual(['wanted']);
  });

  it('applies in, neq and combined filters', async () => {
    const owner = randomUUID();
    const token = await userToken(owner);
    const inF = collect(await client(token), 'notes-in', {
      event: 'INSERT',
      filter: 'room=in.(kitchen,"hall, big")',
    });
    const both = collect(await client(token), 'notes-and', {
      event: 'INSERT',
      filter: 'room=eq.kitchen,body=neq.skip',
    });
    await Promise.all([subscribed(inF.channel), subscribed(both.channel)]);
    await insert(owner, 'a', 'garden');
    await insert(owner, 'skip', 'kitchen');
    const hall = await insert(owner, 'b', 'hall, big');
    const kitchen = await insert(owner, 'c', 'kitchen');
    await inF.next((p) => newRow(p).id === kitchen.id);
    await both.next((p) => newRow(p).id === kitchen.id);
    expect(inF.got.map((p) => newRow(p).body)).toEqual(['skip', 'b', 'c']);
    expect(both.got.map((p) => newRow(p).id)).toEqual([kitchen.id]);
    expect(hall.room).toBe('hall, big');
  });

  it('delivers UPDATE with the new row and DELETE with the primary key only', async () => {
    const owner = randomUUID();
    const c = collect(await client(await userToken(owner)), 'notes-ud', { event: '*' });
    await subscribed(c.channel);
    const row = await insert(owner, 'before');
    await c.next((p) => p.eventType === 'INSERT' && newRow(p).id === row.id);

    await db.query('update rt_test.notes set body = $1 where id = $2', ['after', row.id]);
    const upd = await c.next((p) => p.eventType === 'UPDATE' && newRow(p).id === row.id);
    expect(newRow(upd)).toMatchObject({ id: row.id, body: 'after', owner });
    expect(oldRow(upd)).toEqual({ id: row.id });

    await db.query('delete from rt_test.notes where id = $1', [row.id]);
    const del = await c.next((p) => p.eventType === 'DELETE' && oldRow(p).id === row.id);
    expect(oldRow(del)).toEqual({ id: row.id });
    expect(del.new).toEqual({});
  });

  it('stops an UPDATE that moves the row out of the subscriber’s sight', async () => {
    const alice = randomUUID();
    const c = collect(await client(await userToken(alice)), 'notes-move', { event: 'UPDATE' });
    await subscribed(c.channel);
    const row = await insert(alice, 'mine');
    await db.query('update rt_test.notes set owner = $1 where id = $2', [randomUUID(), row.id]);
    const marker = await insert(alice, 'marker');
    await db.query('update rt_test.notes set body = $1 where id = $2', ['marker 2', marker.id]);
    await c.next((p) => newRow(p).id === marker.id);
    expect(c.got.map((p) => newRow(p).id)).toEqual([marker.id]);
  });

  it('re-reads rows too big for a notification', async () => {
    const owner = randomUUID();
    const c = collect(await client(await userToken(owner)), 'notes-big', { event: 'INSERT' });
    await subscribed(c.channel);
    const body = 'x'.repeat(20_000);
    const row = await insert(owner, body);
    const got = await c.next((p) => newRow(p).id === row.id);
    expect(newRow(got).body).toHaveLength(20_000);
  });

  it('follows access_token updates', async () => {
    const alice = randomUUID();
    const c = await client(await userToken(randomUUID()));
    const sub = collect(c, 'notes-token', { event: 'INSERT' });
    await subscribed(sub.channel);
    // a service-role subscriber sees every row: once it has the first row, the server has
    // judged that row for every subscriber, so switching identity afterwards cannot race it
    const all = collect(await client(serviceKey), 'notes-token-all', { event: 'INSERT' });
    await subscribed(all.channel);
    const before = await insert(alice, 'not yet');
    await all.next((p) => newRow(p).id === before.id);
    await c.setAuth(await userToken(alice));
    // the access_token push and the next insert race: insert until the new identity sees a row
    // (each try waits half a second for its row; until a deadline, not a number of tries)
    let tries = 0;
    const after = await eventually(
      async () => {
        const row = await insert(alice, `now ${tries++}`);
        return sub
          .next((p) => newRow(p).id === row.id, 500)
          .then(
            () => row,
            () => undefined, // not switched yet
          );
      },
      60_000,
      'a row seen under the new identity',
    );
    expect(after).toBeDefined();
    expect(sub.got.map((p) => newRow(p).id)).not.toContain(before.id);
  });

  it('reports a table that is not in the publication in a system message', async () => {
    const c = await client(serviceKey);
    const messages: Array<{ status: string; message: string; extension: string }> = [];
    const ch = c
      .channel('unpublished')
      .on(
        'postgres_changes' as never,
        { event: '*', schema: 'rt_test', table: 'unpublished' } as never,
        (() => {}) as never,
      )
      .on('system', {}, (m: { status: string; message: string; extension: string }) =>
        messages.push(m),
      );
    await subscribed(ch);
    await expect.poll(() => messages.length).toBeGreaterThan(0);
    expect(messages[0]).toMatchObject({ extension: 'postgres_changes', status: 'error' });
    expect(messages[0]!.message).toContain('table: unpublished');
  });

  it('works through supabase-js with protocol 1.0.0 too', async () => {
    const owner = randomUUID();
    const c = await client(await userToken(owner), { vsn: '1.0.0' });
    const sub = collect(c, 'notes-v1', { event: 'INSERT' });
    await subscribed(sub.channel);
    const row = await insert(owner, 'v1');
    await sub.next((p) => newRow(p).id === row.id);

    // supabase-js hands realtime its key as the token when nobody is signed in: service_role sees every row
    const supabase = createClient(baseUrl, serviceKey, {
      auth: { persistSession: false, autoRefreshToken: false },
      realtime: { timeout: REPLY_TIMEOUT },
    });
    const got: unknown[] = [];
    const ch = supabase
      .channel('sb-js')
      .on('postgres_changes', { event: 'INSERT', schema: 'rt_test', table: 'notes' }, (p) =>
        got.push(p.new),
      );
    await subscribed(ch);
    const second = await insert(owner, 'via supabase-js');
    await expect.poll(() => got.some((r) => (r as Note).id === second.id)).toBe(true);
    await supabase.removeAllChannels();
  });
});

describe('tokens', () => {
  it('refuses an expired token', async () => {
    const c = await client(
      await userToken(randomUUID(), { exp: Math.floor(Date.now() / 1000) - 60 }),
    );
    const reason = await refused(c.channel('expired'));
    expect(reason).toMatch(/CHANNEL_ERROR.*expired/i);
  });

  it('refuses a token signed with another secret', async () => {
    const c = await client(
      await userToken(randomUUID(), { secret: 'a-different-secret-that-is-long-enough-too' }),
    );
    const reason = await refused(c.channel('forged'));
    expect(reason).toMatch(/CHANNEL_ERROR.*signature/i);
  });

  it('refuses garbage', async () => {
    const c = await client('not-a-jwt');
    const reason = await refused(c.channel('garbage'));
    expect(reason).toMatch(/CHANNEL_ERROR.*not a valid JWT/i);
  });

  it('closes the channel when a refreshed token is bad', async () => {
    const c = await client(await userToken(randomUUID()));
    const messages: Array<{ status: string; message: string }> = [];
    let closed = false;
    const ch = c
      .channel('refresh-bad')
      .on('system', {}, (m: { status: string; message: string }) => messages.push(m));
    await new Promise<void>((resolve) =>
      ch.subscribe((status) => {
        if (status === 'SUBSCRIBED') resolve();
        if (status === 'CLOSED') closed = true;
      }),
    );
    await c.setAuth(await userToken(randomUUID(), { exp: Math.floor(Date.now() / 1000) - 5 }));
    await expect.poll(() => closed).toBe(true);
    expect(messages.some((m) => m.status === 'error' && /expired/.test(m.message))).toBe(true);
  });
});

describe('broadcast and presence', () => {
  it('fans a broadcast out to the other members, not back to the sender', async () => {
    const [c1, c2] = [await client(), await client()];
    const got1: unknown[] = [];
    const got2: unknown[] = [];
    const ch1 = c1.channel('room-1').on('broadcast', { event: 'cursor' }, (m) => got1.push(m));
    const ch2 = c2.channel('room-1').on('broadcast', { event: 'cursor' }, (m) => got2.push(m));
    await Promise.all([subscribed(ch1), subscribed(ch2)]);
    expect(
      await ch1.send({ type: 'broadcast', event: 'cursor', payload: { x: 1, note: 'é 🎉' } }),
    ).toBe('ok');
    await expect.poll(() => got2.length).toBe(1);
    expect(got2[0]).toMatchObject({
      type: 'broadcast',
      event: 'cursor',
      payload: { x: 1, note: 'é 🎉' },
    });
    expect(got1).toHaveLength(0);
  });

  it('echoes to the sender with self and acknowledges with ack; v1 clients get it as JSON', async () => {
    const c1 = await client();
    const c2 = await client(undefined, { vsn: '1.0.0' });
    const got1: unknown[] = [];
    const got2: unknown[] = [];
    const ch1 = c1
      .channel('room-2', { config: { broadcast: { self: true, ack: true } } })
      .on('broadcast', { event: '*' }, (m) => got1.push(m));
    const ch2 = c2.channel('room-2').on('broadcast', { event: 'ping' }, (m) => got2.push(m));
    await Promise.all([subscribed(ch1), subscribed(ch2)]);
    expect(await ch1.send({ type: 'broadcast', event: 'ping', payload: { n: 1 } })).toBe('ok');
    expect(await ch2.send({ type: 'broadcast', event: 'ping', payload: { n: 2 } })).toBe('ok');
    await expect.poll(() => got1.length).toBe(2);
    await expect.poll(() => got2.length).toBe(1);
    expect(got2[0]).toMatchObject({ event: 'ping', payload: { n: 1 } });
  });

  it('realtime.send adds a top-level id to a payload without one, as hosted does', async () => {
    const c = await client();
    const got: Array<{ event: string; payload: Record<string, unknown> }> = [];
    const topic = `db-${randomUUID().slice(0, 8)}`;
    const ch = c
      .channel(topic)
      .on('broadcast', { event: '*' }, (m) =>
        got.push({ event: m.event, payload: m.payload as Record<string, unknown> }),
      );
    await subscribed(ch);
    await db.query(`select realtime.send('{"n": 1}', 'plain', $1, false)`, [topic]);
    await db.query(`select realtime.send('{"n": 2, "id": "mine"}', 'own', $1, false)`, [topic]);
    await expect.poll(() => got.length).toBe(2);
    const stored = await db.query<{ id: string; payload: Record<string, unknown> }>(
      `select id, payload from realtime.messages where topic = $1 and event = 'plain'`,
      [topic],
    );
    // the id is the message's own (the realtime.messages row), in the row and on the wire
    expect(got[0]).toEqual({ event: 'plain', payload: { n: 1, id: stored.rows[0]!.id } });
    expect(stored.rows[0]!.payload).toEqual({ n: 1, id: stored.rows[0]!.id });
    // a payload with an id of its own keeps it
    expect(got[1]).toEqual({ event: 'own', payload: { n: 2, id: 'mine' } });
  });

  it('accepts broadcasts over HTTP (httpSend and the batch endpoint)', async () => {
    const c = await client();
    const got: Array<{ event: string; payload: unknown }> = [];
    const ch = c.channel('room-http').on('broadcast', { event: '*' }, (m) => got.push(m as never));
    await subscribed(ch);
    const sender = (await client()).channel('room-http');
    await expect(sender.httpSend('hello', { via: 'httpSend' })).resolves.toEqual({ success: true });
    const res = await fetch(`${baseUrl}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: { apikey: anonKey, 'content-type': 'application/json' },
      body: JSON.stringify({
        messages: [{ topic: 'room-http', event: 'batch', payload: { n: 1 } }],
      }),
    });
    expect(res.status).toBe(202);
    await expect.poll(() => got.length).toBe(2);
    expect(got[0]).toMatchObject({ event: 'hello', payload: { via: 'httpSend' } });
    expect(got[1]).toMatchObject({ event: 'batch', payload: { n: 1 } });
    const bad = await fetch(`${baseUrl}/realtime/v1/api/broadcast`, {
      method: 'POST',
      headers: {
        apikey: await userToken(randomUUID(), {
          secret: 'a-different-secret-that-is-long-enough-too',
        }),
        'content-type': 'application/json',
      },
      body: '{"messages":[]}',
    });
    expect(bad.status).toBe(401);
  });

  it('keeps presence state in sync across members', async () => {
    const [c1, c2] = [await client(), await client()];
    const ch1 = c1
      .channel('lobby', { config: { presence: { key: 'one' } } })
      .on('presence', { event: 'sync' }, () => {});
    const ch2 = c2
      .channel('lobby', { config: { presence: { key: 'two' } } })
      .on('presence', { event: 'sync' }, () => {});
    await Promise.all([subscribed(ch1), subscribed(ch2)]);
    expect(await ch1.track({ name: 'Ann' })).toBe('ok');
    expect(await ch2.track({ name: 'Ben' })).toBe('ok');
    await expect.poll(() => Object.keys(ch1.presenceState()).sort()).toEqual(['one', 'two']);
    await expect.poll(() => Object.keys(ch2.presenceState()).sort()).toEqual(['one', 'two']);
    expect(ch1.presenceState().two?.[0]).toMatchObject({ name: 'Ben' });
    await ch2.untrack();
    await expect.poll(() => Object.keys(ch1.presenceState())).toEqual(['one']);
    await c1.removeChannel(ch1);
    await expect.poll(() => Object.keys(ch2.presenceState())).toEqual([]);
  });
});

describe('socket', () => {
  function raw(vsn = '2.0.0'): Promise<{ ws: WebSocket; next: () => Promise<unknown> }> {
    return new Promise((resolve, reject) => {
      const ws = new WebSocket(
        `${baseUrl.replace('http', 'ws')}/realtime/v1/websocket?apikey=${anonKey}&vsn=${vsn}`,
      );
      const inbox: unknown[] = [];
      const waiting: Array<(m: unknown) => void> = [];
      ws.on('message', (data) => {
        const m = JSON.parse(String(data)) as unknown;
        const w = waiting.shift();
        if (w) w(m);
        else inbox.push(m);
      });
      ws.once('error', reject);
      ws.once('open', () =>
        resolve({
          ws,
          next: () =>
            new Promise((res, rej) => {
              if (inbox.length) return res(inbox.shift());
              const t = setTimeout(() => rej(new Error('no message')), 60_000);
              waiting.push((m) => {
                clearTimeout(t);
                res(m);
              });
            }),
        }),
      );
    });
  }

  it('answers heartbeats and survives bad frames', async () => {
    const { ws, next } = await raw();
    ws.send('this is not json');
    ws.send(JSON.stringify({ nonsense: true }));
    ws.send(Buffer.from([3, 200, 1, 2]), { binary: true });
    ws.send(JSON.stringify([null, '7', 'realtime:nowhere', 'broadcast', 'x']));
    expect(await next()).toEqual([
      null,
      '7',
      'realtime:nowhere',
      'phx_reply',
      { status: 'error', response: { reason: 'unmatched topic' } },
    ]);
    ws.send(JSON.stringify([null, '8', 'phoenix', 'heartbeat', {}]));
    expect(await next()).toEqual([
      null,
      '8',
      'phoenix',
      'phx_reply',
      { status: 'ok', response: {} },
    ]);
    ws.close();
  });

  it('a socket holds at most 100 channels, as hosted Realtime: the 101st join is refused until one is left', async () => {
    const { ws, next } = await raw();
    const join = (i: number) =>
      ws.send(
        JSON.stringify([
          `j${i}`,
          `j${i}`,
          `realtime:many-${i}`,
          'phx_join',
          { config: { private: false } },
        ]),
      );
    // sent at once: the joins in flight count too
    for (let i = 0; i < 105; i++) join(i);
    const replies = new Map<string, string>();
    while (replies.size < 105) {
      const [, ref, , event, payload] = (await next()) as [
        unknown,
        string,
        string,
        string,
        { status: string; response: { reason?: string } },
      ];
      if (event === 'phx_reply') replies.set(ref, payload.response.reason ?? payload.status);
    }
    const counts = [...replies.values()].reduce<Record<string, number>>(
      (n, r) => ({ ...n, [r]: (n[r] ?? 0) + 1 }),
      {},
    );
    expect(counts).toEqual({ ok: 100, 'ChannelRateLimitReached: Too many channels': 5 });
    // a join of a topic the socket holds replaces it (no new channel); leaving one makes room
    const held = [...replies].find(([, r]) => r === 'ok')![0];
    ws.send(JSON.stringify([null, 'l1', `realtime:many-${held.slice(1)}`, 'phx_leave', {}]));
    const refusedOne = [...replies].find(([, r]) => r !== 'ok')![0];
    join(Number(refusedOne.slice(1)));
    const seen: unknown[] = [];
    for (;;) {
      const m = (await next()) as [unknown, string, string, string, { status: string }];
      seen.push(m);
      if (m[1] === refusedOne && m[3] === 'phx_reply') {
        expect(m[4].status).toBe('ok');
        break;
      }
    }
    ws.close();
  });

  it('joins, replies with postgres_changes ids, and closes on leave (1.0.0 objects)', async () => {
    const { ws, next } = await raw('1.0.0');
    ws.send(
      JSON.stringify({
        join_ref: '1',
        ref: '1',
        topic: 'realtime:raw',
        event: 'phx_join',
        payload: {
          config: { postgres_changes: [{ event: 'INSERT', schema: 'rt_test', table: 'notes' }] },
          access_token: serviceKey,
        },
      }),
    );
    const joined = (await next()) as {
      event: string;
      payload: { status: string; response: { postgres_changes: Array<{ id: number }> } };
    };
    expect(joined.event).toBe('phx_reply');
    expect(joined.payload.status).toBe('ok');
    expect(joined.payload.response.postgres_changes[0]).toMatchObject({
      event: 'INSERT',
      schema: 'rt_test',
      table: 'notes',
    });
    expect(typeof joined.payload.response.postgres_changes[0]!.id).toBe('number');
    expect(await next()).toMatchObject({
      event: 'system',
      payload: { status: 'ok', message: 'Subscribed to PostgreSQL' },
    });
    const row = await insert(randomUUID(), 'raw');
    const change = (await next()) as {
      event: string;
      payload: { ids: number[]; data: Record<string, unknown> };
    };
    expect(change.event).toBe('postgres_changes');
    expect(change.payload.ids).toEqual([joined.payload.response.postgres_changes[0]!.id]);
    expect(change.payload.data).toMatchObject({
      schema: 'rt_test',
      table: 'notes',
      type: 'INSERT',
      errors: null,
      record: { id: row.id },
    });
    expect(change.payload.data.columns).toContainEqual({ name: 'owner', type: 'uuid' });
    ws.send(
      JSON.stringify({
        join_ref: '1',
        ref: '2',
        topic: 'realtime:raw',
        event: 'phx_leave',
        payload: {},
      }),
    );
    expect(await next()).toMatchObject({ ref: '2', event: 'phx_reply', payload: { status: 'ok' } });
    expect(await next()).toMatchObject({ event: 'phx_close' });
    ws.close();
    expect(logs.join('\n')).not.toMatch(/failed/);
  });
});

// ---- block topics: hints on the public topic, the owner's private topic ------------------------

type Broadcast = { event: string; payload: Record<string, unknown> };

/**
 * A supabase-js client whose Realtime uses `token` (a user JWT) or the anon key. Through the
 * accessToken option (as a third-party-auth app would): supabase-js' own auth would otherwise
 * set Realtime back to the anon key when it reports its (empty) initial session.
 */
async function supabaseAs(token?: string) {
  const supabase = createClient(baseUrl, anonKey, {
    accessToken: async () => token ?? anonKey,
    realtime: { timeout: REPLY_TIMEOUT },
  });
  clients.push(supabase.realtime);
  await supabase.realtime.setAuth(); // asks accessToken now, before the first join
  return supabase;
}

/** Joins a topic (public unless asked) with supabase-js and collects its broadcasts. */
function watch(
  supabase: Awaited<ReturnType<typeof supabaseAs>>,
  topic: string,
  opts: { private?: boolean } = {},
) {
  const got: Broadcast[] = [];
  const channel = supabase
    .channel(topic, { config: { private: opts.private === true } })
    .on('broadcast', { event: '*' }, (m) =>
      got.push({ event: m.event, payload: m.payload as Record<string, unknown> }),
    );
  const until = (test: (b: Broadcast) => boolean) => expect.poll(() => got.some(test)).toBe(true);
  return { channel, got, until };
}

async function newAuthUser(label: string): Promise<string> {
  const id = randomUUID();
  await db.query(
    "insert into auth.users (id, aud, role, email, is_anonymous, raw_app_meta_data) values ($1, 'authenticated', 'authenticated', $2, false, '{\"owner\": true}')",
    [id, `${label}-${id.slice(0, 8)}@example.com`],
  );
  return id;
}

/** Runs a statement as PostgREST would for a signed-in user (or anonymously): role and claims for one transaction. */
async function asUser<T>(uid: string | null, text: string, params: unknown[] = []): Promise<T> {
  const c = await db.connect();
  try {
    await c.query('begin');
    await c.query("select set_config('request.jwt.claims', $1, true)", [
      JSON.stringify(uid ? { sub: uid, role: 'authenticated' } : { role: 'anon' }),
    ]);
    await c.query(uid ? 'set local role authenticated' : 'set local role anon');
    const r = await c.query<{ r: T }>(text, params);
    await c.query('commit');
    return r.rows[0]!.r;
  } catch (err) {
    await c.query('rollback').catch(() => {});
    throw err;
  } finally {
    c.release();
  }
}

async function commentBlock(
  owner: string,
  settings: { hold?: boolean; deactivated?: boolean } = {},
) {
  await db.query('update public.profiles set block_limit = 100 where id = $1', [owner]);
  const block = (
    await db.query<{ id: string }>(
      "insert into public.blocks (owner_id, type, name) values ($1, 'comment', 'live') returning id",
      [owner],
    )
  ).rows[0]!.id;
  await db.query(
    'update public.blocks set hold_messages = $2, allow_creator_email = true, deactivated = $3 where id = $1',
    [block, settings.hold ? 'all' : 'off', settings.deactivated === true],
  );
  return block;
}

const post = (
  uid: string,
  block: string,
  content: string,
  extra: { parent?: string; email?: string } = {},
) =>
  asUser<{ id: string; status: string }>(
    uid,
    `select public.post_message(p_block_id => $1, p_parent_id => $2, p_content => $3,
       p_creator_name => 'Visitor', p_creator_email => $4) as r`,
    [block, extra.parent ?? null, content, extra.email ?? null],
  );

/** What an anonymous viewer reads for a hint (get_block_change); null when it names nothing. */
const readChange = (block: string, id: unknown) =>
  asUser<{ event: string; payload: Record<string, unknown> } | null>(
    null,
    'select public.get_block_change($1, $2) as r',
    [block, id],
  );

/** Every change the hints of a watch named, read as an anonymous viewer would, in order. */
async function changesOf(block: string, w: { got: Broadcast[] }) {
  const out: Array<{ event: string; payload: Record<string, unknown> }> = [];
  for (const b of w.got) {
    if (b.event !== 'hint') continue;
    const c = await readChange(block, b.payload.id);
    if (c) out.push(c);
  }
  return out;
}

const rowId = (c: { payload: Record<string, unknown> }) =>
  (c.payload.row as { id?: string } | undefined)?.id;

describe('block topics (hints on the public topic, the owner topic private)', () => {
  it('lets anyone join a block topic; the private topics are the owner topic only', async () => {
    const owner = await newAuthUser('owner');
    const stranger = await newAuthUser('stranger');
    const block = await commentBlock(owner);
    const as = async (uid: string | null) => supabaseAs(uid ? await userToken(uid) : undefined);

    // the public topic: anonymous and signed-in viewers alike (no policy is asked for it)
    await subscribed(watch(await as(null), `block:${block}`).channel);
    await subscribed(watch(await as(stranger), `block:${block}`).channel);

    // no private block topic for anyone, the owner included; the owner topic is the owner's
    for (const uid of [stranger, owner, null])
      expect(
        await refused(watch(await as(uid), `block:${block}`, { private: true }).channel),
      ).toMatch(/CHANNEL_ERROR.*permissions to read from this Channel topic/);
    for (const uid of [stranger, null])
      expect(
        await refused(watch(await as(uid), `block:${block}:owner`, { private: true }).channel),
      ).toMatch(/CHANNEL_ERROR/);
    await subscribed(watch(await as(owner), `block:${block}:owner`, { private: true }).channel);
  });

  it('announces a new comment to each viewer once, by a hint that carries no content', async () => {
    const owner = await newAuthUser('owner');
    const writer = await newAuthUser('writer');
    const block = await commentBlock(owner);
    const viewers = await Promise.all(
      [0, 1, 2].map(async (i) =>
        i === 2 ? supabaseAs() : supabaseAs(await userToken(await newAuthUser(`viewer${i}`))),
      ),
    );
    const watches = viewers.map((v) => watch(v, `block:${block}`));
    await Promise.all(watches.map((w) => subscribed(w.channel)));

    const email = `secret-${randomUUID().slice(0, 8)}@example.com`;
    const m = await post(writer, block, 'hello viewers', { email });
    const later = await post(writer, block, 'second');
    for (const w of watches) {
      await expect.poll(() => w.got.length).toBe(2);
      // a hint is the change's id and nothing else
      for (const b of w.got)
        expect(b).toEqual({ event: 'hint', payload: { id: expect.any(String) } });
      expect(JSON.stringify(w.got)).not.toContain('hello viewers');
    }
    // the hints arrive in commit order, the same for every viewer
    expect(new Set(watches.map((w) => JSON.stringify(w.got))).size).toBe(1);
    const changes = await changesOf(block, watches[0]!);
    expect(changes.map(rowId)).toEqual([m.id, later.id]);
    expect(changes[0]).toMatchObject({
      event: 'change',
      payload: {
        type: 'INSERT',
        row: { id: m.id, block_id: block, content: 'hello viewers', status: 'published' },
      },
    });
    expect(JSON.stringify(changes)).not.toContain(email);
    expect(JSON.stringify(changes)).not.toMatch(/@example\.com/);
    const stored = await db.query('select 1 from public.message_private where creator_email = $1', [
      email,
    ]);
    expect(stored.rowCount).toBe(1); // the email was kept, just never sent
  });

  it("announces a page's messages on the page's topic only, replies included, and every page to the owner", async () => {
    const owner = await newAuthUser('owner');
    const writer = await newAuthUser('writer');
    const block = await commentBlock(owner);
    const visitor = await supabaseAs();
    const pageA = watch(visitor, `block:${block}:page:cafe24:product:1`);
    const pageB = watch(visitor, `block:${block}:page:cafe24:product:2`);
    const own = watch(visitor, `block:${block}`);
    const ownerTopic = watch(await supabaseAs(await userToken(owner)), `block:${block}:owner`, {
      private: true,
    });
    await Promise.all([pageA, pageB, own, ownerTopic].map((w) => subscribed(w.channel)));

    const onA = await asUser<{ id: string }>(
      writer,
      `select public.post_message(p_block_id => $1, p_content => 'on A', p_page_key => 'cafe24:product:1') as r`,
      [block],
    );
    // the caller's page of a reply does not matter: it is the parent's
    const reply = await asUser<{ id: string }>(
      writer,
      `select public.post_message(p_block_id => $1, p_parent_id => $2, p_content => 'reply on A',
         p_page_key => 'cafe24:product:2') as r`,
      [block, onA.id],
    );
    const later = await post(writer, block, 'own thread');
    await expect.poll(() => own.got.length).toBe(1);
    // the reply moved the parent's count: on page A's topic too (three hints: the message, the
    // parent's count and the reply)
    await expect.poll(() => pageA.got.length).toBe(3);
    const onPageA = await changesOf(block, pageA);
    expect(onPageA.filter((c) => c.event === 'change').map(rowId)).toEqual([onA.id, reply.id]);
    expect(onPageA.filter((c) => c.event === 'counts').map((c) => c.payload)).toEqual([
      { id: onA.id, replies: 1, reply_count: 1 },
    ]);
    expect((await changesOf(block, own)).map(rowId)).toEqual([later.id]);
    await ownerTopic.until((b) => b.payload.id === reply.id);
    expect(pageB.got).toEqual([]);
  });

  it('never announces a held comment; its approval reads as an UPDATE; hiding as a REMOVE', async () => {
    const owner = await newAuthUser('owner');
    const writer = await newAuthUser('writer');
    const block = await commentBlock(owner, { hold: true });
    const visitor = watch(await supabaseAs(), `block:${block}`);
    const mod = watch(await supabaseAs(await userToken(owner)), `block:${block}:owner`, {
      private: true,
    });
    await Promise.all([subscribed(visitor.channel), subscribed(mod.channel)]);

    const held = await post(writer, block, 'held text');
    expect(held.status).toBe('held');
    // the owner's moderation topic hears of it (the id only)
    await mod.until((b) => b.payload.id === held.id && b.payload.type === 'INSERT');
    expect(JSON.stringify(mod.got)).not.toContain('held text');
    // a published comment of the same block after it: the held one was never announced
    await db.query("update public.blocks set hold_messages = 'off' where id = $1", [block]);
    const open = await post(writer, block, 'open text');
    await expect.poll(async () => (await changesOf(block, visitor)).map(rowId)).toEqual([open.id]);

    // approved: visitors read it now, as an UPDATE of a published message
    await asUser(owner, "select public.moderate_messages($1, 'approve') as r", [[held.id]]);
    // hidden: it leaves the visitors' lists (REMOVE: the block's count does not move)
    await asUser(owner, "select public.moderate_messages($1, 'hide') as r", [[held.id]]);
    await expect.poll(() => visitor.got.length).toBe(3);
    const [, approved, removed] = await changesOf(block, visitor);
    expect(approved!.payload).toMatchObject({
      type: 'UPDATE',
      row: { id: held.id, status: 'published', content: 'held text' },
    });
    expect(removed!.payload).toEqual({ type: 'REMOVE', row: { id: held.id, parent_id: null } });
  });

  it('announces like and reply counts as deltas, not rows', async () => {
    const owner = await newAuthUser('owner');
    const writer = await newAuthUser('writer');
    const liker = await newAuthUser('liker');
    const block = await commentBlock(owner);
    const viewer = watch(await supabaseAs(), `block:${block}`);
    await subscribed(viewer.channel);
    const m = await post(writer, block, 'like me');
    await asUser(liker, 'select public.toggle_message_like($1) as r', [m.id]);
    await asUser(liker, 'select public.toggle_message_like($1) as r', [m.id]);
    const reply = await post(liker, block, 'a reply', { parent: m.id });
    // the insert, a like, an unlike, the reply's count and the reply itself
    await expect.poll(() => viewer.got.length).toBe(5);
    const changes = await changesOf(block, viewer);
    expect(changes.filter((c) => c.event === 'counts').map((c) => c.payload)).toEqual([
      { id: m.id, likes: 1, like_count: 1 },
      { id: m.id, likes: -1, like_count: 0 },
      { id: m.id, replies: 1, reply_count: 1 },
    ]);
    // no whole-row UPDATE of the parent for a count: its INSERT and the reply's only
    expect(changes.filter((c) => c.event === 'change').map(rowId)).toEqual([m.id, reply.id]);
  });

  it('reads nothing for a forged hint, another block’s change, an old one or a deactivated block', async () => {
    const owner = await newAuthUser('owner');
    const writer = await newAuthUser('writer');
    const [block, other] = [await commentBlock(owner), await commentBlock(owner)];
    const viewer = watch(await supabaseAs(), `block:${block}`);
    await subscribed(viewer.channel);
    // anyone may send on a public topic: the hint names no change, so nothing is read
    const forger = watch(await supabaseAs(), `block:${block}`);
    await subscribed(forger.channel);
    await forger.channel.send({ type: 'broadcast', event: 'hint', payload: { id: randomUUID() } });
    await forger.channel.send({
      type: 'broadcast',
      event: 'change',
      payload: { type: 'INSERT', row: { id: randomUUID(), content: 'forged' } },
    });
    await expect.poll(() => viewer.got.length).toBe(2);
    expect(await changesOf(block, viewer)).toEqual([]);
    expect(await readChange(block, 'not-a-uuid').catch((e: Error) => e.message)).toMatch(/uuid/);

    // a real change of another block, named on this block's topic, reads as nothing here
    await post(writer, other, 'elsewhere');
    const [{ id: otherChange }] = (
      await db.query<{ id: string }>('select id from private.block_changes where block_id = $1', [
        other,
      ])
    ).rows as [{ id: string }];
    expect(await readChange(block, otherChange)).toBeNull();
    expect(await readChange(other, otherChange)).not.toBeNull();

    // a minute later it reads as nothing (a replayed hint), and so for a deactivated block
    const m = await post(writer, block, 'mine');
    const [{ id: change }] = (
      await db.query<{ id: string }>(
        "select id from private.block_changes where block_id = $1 and payload #>> '{row,id}' = $2",
        [block, m.id],
      )
    ).rows as [{ id: string }];
    expect(await readChange(block, change)).not.toBeNull();
    await db.query('update public.blocks set deactivated = true where id = $1', [block]);
    expect(await readChange(block, change)).toBeNull();
    await db.query('update public.blocks set deactivated = false where id = $1', [block]);
    await db.query(
      "update private.block_changes set created_at = now() - interval '61 seconds' where id = $1",
      [change],
    );
    expect(await readChange(block, change)).toBeNull();
    // client roles cannot read the table itself
    expect(
      await asUser(writer, 'select count(*) as r from private.block_changes').catch(
        (e: Error) => e.message,
      ),
    ).toMatch(/permission denied/);
  });

  it('asks the policies again when a token changes', async () => {
    const owner = await newAuthUser('owner');
    const stranger = await newAuthUser('stranger');
    const block = await commentBlock(owner, { deactivated: true });
    const c = await client(await userToken(owner));
    const ch = c.channel(`block:${block}:owner`, { config: { private: true } });
    await subscribed(ch);
    await c.setAuth(await userToken(stranger));
    await expect.poll(() => ch.state).toBe('closed');
    expect(logs.join('\n')).not.toMatch(/check on .* failed/);
  });
});
