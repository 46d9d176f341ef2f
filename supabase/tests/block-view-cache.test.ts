// The block view a CDN can cache (issue 13): get_block_public answers a GET with the same JSON
// for every caller and a Cache-Control a shared cache may follow; nothing private is in it (held
// or hidden messages, commenter emails, owner-only settings, anyone's likes or votes); the
// visitor's own part comes from get_block_me, never cached. Through the gateway with raw fetch
// (the element's request) and supabase-js, as anonymous, guest, signed-in, owner and forged
// callers.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { anonClient, newGuest, newUser, sql, stack, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { forgedToken } from './support/jwt.ts';
import { expectSameForEveryCaller, publicRead, rpcUrl } from './support/public-reads.ts';

interface Msg {
  id: string;
  status?: string;
  liked?: boolean;
  replies?: Msg[];
  [k: string]: unknown;
}
interface View {
  block: Record<string, unknown>;
  messages: Msg[];
  questions: unknown[];
  endings: unknown[];
  me?: Record<string, unknown>;
}
interface Mine {
  me: { liked: boolean; liked_message_ids: string[]; reported_message_ids: string[] };
  messages: Msg[];
  replies: Msg[];
}

/** GET of the public view as the element sends it (anon key), or with another bearer. */
const getPublic = (blockId: string, bearer?: string, extra: Record<string, string> = {}) =>
  publicRead('get_block_public', { p_block_id: blockId }, bearer, extra);

const ids = (list: Msg[]) => list.flatMap((m) => [m.id, ...(m.replies ?? []).map((r) => r.id)]);

let owner: TestUser;
let writer: TestUser;
let other: TestUser;
let blockId: string;
/** Published top-level messages, newest first. */
const published: string[] = [];
let held: string;
let hidden: string;
let heldReply: string;
let ownPublishedReply: string;
let oldLiked: string;

beforeAll(async () => {
  [owner, writer, other] = await Promise.all([newUser('owner'), newGuest(), newGuest()]);
  blockId = await createBlock(owner, 'comment');
  await sql(`update public.blocks set allow_creator_email = true where id = $1`, [blockId]);
  // 8 published threads an hour apart (the oldest liked by the writer), a held one of the
  // writer's and a hidden one, both newer than the page's lower bound
  const base = Date.now() - 24 * 3600_000;
  for (let i = 0; i < 8; i++) {
    const [row] = await sql<{ id: string }>(
      `insert into public.messages (block_id, creator_id, creator_name, content, created_at)
       values ($1, $2, 'Someone', $3, $4) returning id`,
      [blockId, other.id, `published ${i}`, new Date(base + i * 3600_000)],
    );
    published.unshift(row!.id);
  }
  oldLiked = published.at(-1)!;
  const insert = async (text: string, params: unknown[]) =>
    (await sql<{ id: string }>(text, params))[0]!.id;
  held = await insert(
    `insert into public.messages (block_id, creator_id, creator_name, content, status, created_at)
     values ($1, $2, 'Writer', 'held for approval', 'held', $3) returning id`,
    [blockId, writer.id, new Date(base + 7.5 * 3600_000)],
  );
  hidden = await insert(
    `insert into public.messages (block_id, creator_id, creator_name, content, status, created_at)
     values ($1, $2, 'Other', 'hidden by the owner', 'hidden', $3) returning id`,
    [blockId, other.id, new Date(base + 6.5 * 3600_000)],
  );
  heldReply = await insert(
    `insert into public.messages (block_id, parent_id, creator_id, creator_name, content, status)
     values ($1, $2, $3, 'Writer', 'held reply', 'held') returning id`,
    [blockId, published[0], writer.id],
  );
  ownPublishedReply = await insert(
    `insert into public.messages (block_id, parent_id, creator_id, creator_name, content)
     values ($1, $2, $3, 'Writer', 'my published reply') returning id`,
    [blockId, published[1], writer.id],
  );
  await sql(
    `insert into public.message_private (message_id, block_id, creator_email) values ($1, $2, 'secret-writer@test.local')`,
    [published[0], blockId],
  );
  await sql(`insert into public.message_likes (message_id, user_id) values ($1, $3), ($2, $3)`, [
    published[0],
    oldLiked,
    writer.id,
  ]);
  await sql(
    `insert into public.message_reports (message_id, block_id, user_id) values ($1, $2, $3)`,
    [published[2], blockId, writer.id],
  );
});

describe('get_block_public: one cacheable answer for everyone', () => {
  it('answers a GET with a Cache-Control a shared cache may follow, through the gateway unchanged', async () => {
    const { res, text } = await getPublic(blockId);
    expect(res.status).toBe(200);
    const cc = res.headers.get('cache-control') ?? '';
    expect(cc).toMatch(/\bpublic\b/);
    expect(cc).toMatch(/\bmax-age=\d+/);
    expect(cc).toMatch(/\bstale-while-revalidate=\d+/);
    expect(cc).not.toMatch(/private|no-store|no-cache/);
    // exactly what the function set: the gateway passes it through unchanged
    expect(cc).toBe('public, max-age=10, stale-while-revalidate=60');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    // nothing in it says who asked: no cookie, and the cache key needs no Vary on Authorization
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('vary') ?? '').not.toMatch(/authorization|apikey/i);
    const view = JSON.parse(text) as View;
    expect(view.block.id).toBe(blockId);
    expect(view.messages.map((m) => m.id)).toEqual(published.slice(0, 5));
  });

  it('is the same JSON for anonymous, guest, signed-in, owner and forged-identity callers', async () => {
    await expectSameForEveryCaller(
      (token) => getPublic(blockId, token),
      [writer.accessToken, other.accessToken, owner.accessToken],
      owner.id,
    );
  });

  it('holds nothing private: held or hidden messages, emails, owner settings, likes, reports, me', async () => {
    const { text } = await getPublic(blockId, writer.accessToken);
    const view = JSON.parse(text) as View;
    const all = ids(view.messages);
    expect(all).not.toContain(held);
    expect(all).not.toContain(hidden);
    expect(all).not.toContain(heldReply);
    expect(
      view.messages
        .flatMap((m) => [m, ...(m.replies ?? [])])
        .every((m) => m.status === 'published'),
    ).toBe(true);
    expect(text).not.toContain('secret-writer@test.local');
    expect(text).not.toMatch(/"creator_email"|"liked"|reported_message_ids|"vote"/);
    expect(Object.keys(view).sort()).toEqual(['block', 'endings', 'messages', 'questions']);
    for (const key of [
      'hold_messages',
      'rate_limits',
      'honeypot',
      'tags',
      'embeded_url',
      'new_response_count',
      'mode',
      'ending_mode',
    ])
      expect(view.block, key).not.toHaveProperty(key);
  });

  it('is called by supabase-js as a GET too, and a missing or deactivated block is a 404 nobody caches', async () => {
    const { data, error } = await anonClient().rpc(
      'get_block_public',
      { p_block_id: blockId },
      { get: true },
    );
    expect(error).toBeNull();
    expect((data as View).block.id).toBe(blockId);

    const missing = await getPublic(randomUUID());
    expect(missing.res.status).toBe(404);
    expect(missing.res.headers.get('cache-control') ?? '').not.toMatch(/public/);
    const { data: d2 } = await owner.client.rpc('create_block', { p_block_type: 'like' });
    const off = (d2 as { id: string }).id;
    await sql('update public.blocks set deactivated = true where id = $1', [off]);
    const gone = await getPublic(off);
    expect(gone.res.status).toBe(404);
    expect(JSON.parse(gone.text).message).toBe("block doesn't exists");
  });

  it('cannot be turned into a write or a per-caller answer by what a visitor sends', async () => {
    // extra parameters name no function: refused, not answered differently under another key
    const odd = await fetch(
      `${rpcUrl('get_block_public', { p_block_id: blockId })}&p_uid=${owner.id}`,
      {
        headers: { apikey: stack().anonKey },
      },
    );
    expect(odd.status).toBe(404);
    expect(odd.headers.get('cache-control') ?? '').not.toMatch(/public/);
    // a write through the GET's read-only transaction is impossible: the function only reads;
    // asking for a single object of a scalar answer changes nothing the cache would keep
    const { res } = await getPublic(blockId, undefined, { Prefer: 'tx=commit' });
    expect(res.status).toBe(200);
    // without the apikey the gateway refuses before PostgREST
    const nokey = await fetch(rpcUrl('get_block_public', { p_block_id: blockId }));
    expect(nokey.status).toBe(401);
  });
});

describe("get_block_me: the visitor's own part", () => {
  const mine = async (user: TestUser, args: Record<string, unknown>) => {
    const { data, error } = await user.client.rpc('get_block_me', { p_block_id: blockId, ...args });
    expect(error).toBeNull();
    return data as Mine;
  };

  it('gives the writer their held messages and likes among the ones on screen, never cached', async () => {
    const pub = JSON.parse((await getPublic(blockId)).text) as View;
    const shown = ids(pub.messages);
    const since = pub.messages.at(-1)!.created_at as string;
    const res = await fetch(`${stack().apiUrl}/rest/v1/rpc/get_block_me`, {
      method: 'POST',
      headers: {
        apikey: stack().anonKey,
        Authorization: `Bearer ${writer.accessToken}`,
        'content-type': 'application/json',
      },
      body: JSON.stringify({ p_block_id: blockId, p_message_ids: shown, p_since: since }),
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('private, no-store');
    const m = (await res.json()) as Mine;
    expect(m.messages.map((x) => x.id)).toEqual([held]);
    expect(m.messages[0]!.status).toBe('held');
    // the held reply to a thread on screen; the published own reply is on screen already
    expect(m.replies.map((x) => x.id)).toEqual([heldReply]);
    expect(shown).toContain(ownPublishedReply);
    // liked: only among the messages on screen (the old liked one is not)
    expect(m.me.liked_message_ids).toEqual([published[0]]);
    expect(m.me.reported_message_ids).toEqual([published[2]]);
    // the block with its counts as they are now, the same public fields as the public part
    const exact = await writer.client.rpc('get_block_view', { p_block_id: blockId });
    // (read_xmin, the oldest transaction running when each was read, is the one field that differs)
    expect((m as unknown as { block: View['block'] }).block).toEqual({
      ...(exact.data as View).block,
      read_xmin: expect.any(Number),
    });
    expect(Object.keys((m as unknown as { block: View['block'] }).block).sort()).toEqual(
      Object.keys(pub.block).sort(),
    );
  });

  it("shows another visitor none of the writer's held messages, and nobody's hidden ones", async () => {
    const pub = JSON.parse((await getPublic(blockId)).text) as View;
    const m = await mine(other, { p_message_ids: ids(pub.messages), p_since: null });
    expect(ids(m.messages)).not.toContain(held);
    expect(ids(m.messages)).not.toContain(hidden);
    expect(ids(m.replies)).not.toContain(heldReply);
    expect(JSON.stringify(m)).not.toContain('secret-writer@test.local');
    // asking about another visitor's likes tells only one's own
    expect(m.me.liked_message_ids).toEqual([]);
    // naming the held and hidden messages (ids learnt elsewhere) brings none of them either
    const named = await mine(other, { p_message_ids: [held, hidden, heldReply, published[0]] });
    const text = JSON.stringify(named);
    expect(text).not.toContain('held for approval');
    expect(text).not.toContain('hidden by the owner');
    expect(text).not.toContain('held reply');
    expect(named.me.liked_message_ids).toEqual([]);
  });

  it('gives the owner the held and hidden messages in the page range, and answers nothing for no session', async () => {
    const pub = JSON.parse((await getPublic(blockId)).text) as View;
    const m = await mine(owner, {
      p_message_ids: ids(pub.messages),
      p_since: pub.messages.at(-1)!.created_at,
    });
    expect(m.messages.map((x) => x.id).sort()).toEqual([held, hidden].sort());
    expect(m.replies.map((x) => x.id)).toEqual([heldReply]);

    const { data, error } = await anonClient().rpc('get_block_me', {
      p_block_id: blockId,
      p_message_ids: [held],
    });
    expect(error).toBeNull();
    const { block, ...rest } = data as Mine & { block: { id: string } };
    expect(block.id).toBe(blockId);
    expect(rest).toEqual({
      me: { liked: false, liked_message_ids: [], reported_message_ids: [], vote: null },
      messages: [],
      replies: [],
    });
  });

  it('looks at no more than 500 ids', async () => {
    const many = [...Array.from({ length: 600 }, () => randomUUID()), published[0]];
    const m = await mine(writer, { p_message_ids: many });
    // the 601st id (a liked message) is beyond what is looked at
    expect(m.me.liked_message_ids).toEqual([]);
  });
});

describe('get_block_view (older embeds): as before, likes among what it returns', () => {
  it('tells the writer their held message and likes among the returned messages only', async () => {
    const { data, error } = await writer.client.rpc('get_block_view', { p_block_id: blockId });
    expect(error).toBeNull();
    const v = data as View;
    const all = ids(v.messages);
    expect(all).toContain(held);
    expect(all).not.toContain(hidden);
    expect(v.me!.liked_message_ids).toEqual([published[0]]);
    expect(all).not.toContain(oldLiked);
    expect(v.messages.find((m) => m.id === published[0])!.liked).toBe(true);
    expect(v.me!.reported_message_ids).toEqual([published[2]]);
  });

  it('answers an anonymous caller exactly the public view plus an empty me', async () => {
    const { data } = await anonClient().rpc('get_block_view', { p_block_id: blockId });
    const v = data as View;
    const pub = JSON.parse((await getPublic(blockId)).text) as View;
    const strip = (m: Msg): Msg => {
      const { liked: _, ...rest } = m;
      return m.replies ? { ...rest, replies: m.replies.map(strip) } : rest;
    };
    const { me, ...rest } = v;
    expect({ ...rest, messages: rest.messages.map(strip) }).toEqual({
      ...pub,
      block: { ...pub.block, read_xmin: expect.any(Number) },
    });
    expect(me).toEqual({
      liked: false,
      liked_message_ids: [],
      reported_message_ids: [],
      vote: null,
    });
  });
});

describe('get_block_change: what a live hint names, one cacheable answer for everyone', () => {
  let liveBlock: string;
  beforeAll(async () => {
    liveBlock = await createBlock(owner, 'comment');
    await sql(`update public.blocks set allow_creator_email = true where id = $1`, [liveBlock]);
  });

  /** The change a new message of the block wrote (the hint names its id). */
  async function changeOf(messageId: string): Promise<string> {
    const [row] = await sql<{ id: string }>(
      "select id from private.block_changes where payload #>> '{row,id}' = $1",
      [messageId],
    );
    return row!.id;
  }
  const getChange = (block: string, id: string, bearer?: string) =>
    fetch(rpcUrl('get_block_change', { p_block_id: block, p_id: id }), {
      headers: { apikey: stack().anonKey, Authorization: `Bearer ${bearer ?? stack().anonKey}` },
    });

  it('answers the change as a GET every caller may share, with no email, the same for anyone', async () => {
    const email = `live-${randomUUID().slice(0, 8)}@test.local`;
    const { data, error } = await writer.client.rpc('post_message', {
      p_block_id: liveBlock,
      p_content: 'live one',
      p_creator_name: 'Writer',
      p_creator_email: email,
    });
    expect(error).toBeNull();
    const message = (data as { id: string }).id;
    const change = await changeOf(message);
    const res = await getChange(liveBlock, change);
    expect(res.status).toBe(200);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    const text = await res.text();
    expect(JSON.parse(text)).toMatchObject({
      event: 'change',
      payload: { type: 'INSERT', row: { id: message, content: 'live one', status: 'published' } },
    });
    expect(text).not.toContain(email);
    for (const token of [writer.accessToken, other.accessToken, owner.accessToken])
      expect(await (await getChange(liveBlock, change, token)).text()).toBe(text);
    expect((await getChange(liveBlock, change, await forgedToken(owner.id))).status).toBe(401);
    // supabase-js reads it the same way
    const { data: viaJs } = await anonClient().rpc(
      'get_block_change',
      { p_block_id: liveBlock, p_id: change },
      { get: true },
    );
    expect(viaJs).toEqual(JSON.parse(text));
    // the same id on another block's URL names nothing
    expect(await (await getChange(blockId, change)).text()).toBe('null');
  });

  it('answers null, cacheable too, for an id that names nothing: a forged hint costs one read per URL', async () => {
    const res = await getChange(liveBlock, randomUUID());
    expect([res.status, await res.text()]).toEqual([200, 'null']);
    expect(res.headers.get('cache-control')).toBe('public, max-age=60');
    // a malformed id is PostgREST's 400, which the elements never send (they check the form)
    expect((await getChange(liveBlock, 'nope')).status).toBe(400);
  });
});
