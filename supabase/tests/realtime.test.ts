// The local Realtime server driven by the unmodified @supabase/realtime-js, against a real
// PostgreSQL (throwaway data directory, free port): postgres_changes with RLS and filters,
// UPDATE/DELETE, token refusal and refresh. Broadcast, presence and the socket are in
// realtime-channels.test.ts, the block topics in realtime-blocks.test.ts; the stack they share in
// support/realtime.ts.
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import type { RealtimeClient, RealtimePostgresChangesPayload } from '@supabase/realtime-js';
import { createClient } from '@supabase/supabase-js';
import { eventually } from '../../scripts/poll.ts';
import {
  type Note,
  client,
  userToken,
  subscribed,
  insert,
  serviceKey,
  db,
  baseUrl,
  REPLY_TIMEOUT,
  refused,
} from './support/realtime.ts';

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
