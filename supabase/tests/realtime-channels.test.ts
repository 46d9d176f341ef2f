// The local Realtime server's broadcast (WebSocket and HTTP) and presence, driven by the
// unmodified @supabase/realtime-js, and its socket: heartbeats, bad frames, the channel limit, the
// 1.0.0 protocol's objects (the stack in support/realtime.ts; postgres_changes and tokens are in
// realtime.test.ts).
import { randomUUID } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import WebSocket from 'ws';
import {
  client,
  subscribed,
  db,
  baseUrl,
  anonKey,
  userToken,
  serviceKey,
  insert,
  logs,
} from './support/realtime.ts';

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
