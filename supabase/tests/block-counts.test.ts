// Counts for many pages in one request (issue 18): get_block_counts answers a GET for up to 100
// blocks with their public counts, in the order asked, the same bytes for every caller and a
// Cache-Control a shared cache may follow; missing, deactivated and letter blocks are left out
// alike, so the answer tells nothing about them. Through the gateway with raw fetch (the
// element's request) and supabase-js, as anonymous, guest, signed-in, owner and forged callers.
import { randomUUID } from 'node:crypto';
import { beforeAll, describe, expect, it } from 'vitest';
import { anonClient, newGuest, newUser, sql, type TestUser } from './support/clients.ts';
import { createBlock } from './support/drafts.ts';
import { expectSameForEveryCaller, publicRead } from './support/public-reads.ts';

interface Count {
  id: string;
  type: string;
  comments: number | null;
  likes: number | null;
  responses: number | null;
}

/** The element's request: GET with the ids as a Postgres array literal and the anon key. */
const getCounts = (ids: string[], bearer?: string) =>
  publicRead('get_block_counts', { p_block_ids: `{${ids.join(',')}}` }, bearer);

let owner: TestUser;
let visitor: TestUser;
const blocks: Record<string, string> = {};
let deactivated: string;
let letter: string;

beforeAll(async () => {
  [owner, visitor] = await Promise.all([newUser('counts'), newGuest()]);
  await sql('update public.profiles set block_limit = 20 where id = $1', [owner.id]);
  for (const type of ['comment', 'qna', 'like', 'button', 'ab', 'form', 'like']) {
    const id = await createBlock(owner, type);
    if (blocks[type]) deactivated = id;
    else blocks[type] = id;
  }
  await sql('update public.blocks set deactivated = true where id = $1', [deactivated]);
  // a letter block has no visitor counts: created as the dashboard would, without a plan check
  const [row] = await sql<{ id: string }>(
    `insert into public.blocks (owner_id, type) values ($1, 'notion_letter') returning id`,
    [owner.id],
  );
  letter = row!.id;
  // visitor activity: two comments and a reply, a Q&A question, a like, two button clicks
  const post = async (blockId: string, parentId: string | null = null) => {
    const { data, error } = await visitor.client.rpc('post_message', {
      p_block_id: blockId,
      p_parent_id: parentId,
      p_content: `hello ${randomUUID()}`,
      p_creator_name: 'Quiet Otter',
    });
    expect(error).toBeNull();
    return (data as { id: string }).id;
  };
  const first = await post(blocks.comment!);
  await post(blocks.comment!);
  await post(blocks.comment!, first);
  await post(blocks.qna!);
  expect(
    (await visitor.client.rpc('toggle_block_like', { p_block_id: blocks.like, p_liked: true }))
      .error,
  ).toBeNull();
  for (let i = 0; i < 2; i++)
    expect(
      (await visitor.client.rpc('record_button_click', { p_block_id: blocks.button })).error,
    ).toBeNull();
});

describe('get_block_counts: many blocks, one cacheable answer', () => {
  it('answers the public counts of each block in the order asked', async () => {
    const order = ['form', 'comment', 'like', 'qna', 'button', 'ab'];
    const { res, text } = await getCounts(order.map((t) => blocks[t]!));
    expect(res.status).toBe(200);
    const counts = JSON.parse(text) as Count[];
    expect(counts).toEqual([
      { id: blocks.form, type: 'form', comments: null, likes: null, responses: 0 },
      { id: blocks.comment, type: 'comment', comments: 3, likes: null, responses: null },
      { id: blocks.like, type: 'like', comments: null, likes: 1, responses: null },
      { id: blocks.qna, type: 'qna', comments: 1, likes: null, responses: null },
      { id: blocks.button, type: 'button', comments: null, likes: null, responses: 2 },
      { id: blocks.ab, type: 'ab', comments: null, likes: null, responses: 0 },
    ]);
  });

  it('gives the counts get_block_public gives, including changes not folded into the row yet', async () => {
    // a like counted while the row was busy waits in block_count_deltas until the fold
    await sql(
      `insert into private.block_count_deltas (block_id, shard, response_count, like_count)
       values ($1, 7, 1, 1)`,
      [blocks.like],
    );
    try {
      const [count] = JSON.parse((await getCounts([blocks.like!])).text) as Count[];
      const { data } = await anonClient().rpc(
        'get_block_public',
        { p_block_id: blocks.like },
        { get: true },
      );
      expect(count!.likes).toBe(2);
      expect(count!.likes).toBe((data as { block: { like_count: number } }).block.like_count);
    } finally {
      await sql('delete from private.block_count_deltas where block_id = $1 and shard = 7', [
        blocks.like,
      ]);
    }
  });

  it('is cacheable by anyone: Cache-Control public, no cookie, no Vary on who asked', async () => {
    const { res } = await getCounts([blocks.comment!, blocks.like!]);
    expect(res.headers.get('cache-control')).toBe('public, max-age=10, stale-while-revalidate=60');
    expect(res.headers.get('content-type')).toMatch(/^application\/json/);
    expect(res.headers.get('set-cookie')).toBeNull();
    expect(res.headers.get('vary') ?? '').not.toMatch(/authorization|apikey/i);
  });

  it('is the same bytes for anonymous, guest, signed-in and owner callers; forged tokens get nothing', async () => {
    const ids = Object.values(blocks);
    const stranger = await newUser('stranger');
    await expectSameForEveryCaller(
      (token) => getCounts(ids, token),
      [visitor.accessToken, stranger.accessToken, owner.accessToken],
      owner.id,
    );
  });

  it('leaves out missing, deactivated and letter blocks alike, saying nothing about them', async () => {
    const missing = randomUUID();
    const { res, text } = await getCounts([missing, deactivated, letter, blocks.comment!]);
    expect(res.status).toBe(200);
    expect((JSON.parse(text) as Count[]).map((c) => c.id)).toEqual([blocks.comment]);
    for (const hidden of [missing, deactivated, letter]) {
      const one = await getCounts([hidden]);
      expect(one.res.status).toBe(200);
      expect(one.text).toBe('[]');
    }
    // the answer is only ids, types and counts: no owner, name, settings or anything else
    for (const c of JSON.parse(text) as Count[])
      expect(Object.keys(c).sort()).toEqual(['comments', 'id', 'likes', 'responses', 'type']);
    expect(text).not.toContain(owner.id);
  });

  it('answers a repeated id once, at its first place, and an empty list with []', async () => {
    const { text } = await getCounts([blocks.like!, blocks.comment!, blocks.like!]);
    expect((JSON.parse(text) as Count[]).map((c) => c.id)).toEqual([blocks.like, blocks.comment]);
    expect((await getCounts([])).text).toBe('[]');
  });

  it('takes 100 ids and refuses 101; a malformed id is a 400 no cache keeps', async () => {
    const many = [blocks.comment!, ...Array.from({ length: 99 }, () => randomUUID())];
    const ok = await getCounts(many);
    expect(ok.res.status).toBe(200);
    expect((JSON.parse(ok.text) as Count[]).map((c) => c.id)).toEqual([blocks.comment]);
    const over = await getCounts([...many, randomUUID()]);
    expect(over.res.status).toBe(400);
    expect(JSON.parse(over.text).message).toBe('At most 100 blocks at once');
    expect(over.res.headers.get('cache-control') ?? '').not.toMatch(/public/);
    const bad = await getCounts([blocks.comment!, 'not-a-uuid']);
    expect(bad.res.status).toBe(400);
    expect(bad.res.headers.get('cache-control') ?? '').not.toMatch(/public/);
  });

  it('is read-only: a POST runs it too, and nothing a caller sends changes a count', async () => {
    const before = (await getCounts([blocks.comment!])).text;
    // supabase-js calls it as a GET with an array argument, as the docs show
    const { data, error } = await anonClient().rpc(
      'get_block_counts',
      { p_block_ids: [blocks.comment] },
      { get: true },
    );
    expect(error).toBeNull();
    expect(data).toEqual(JSON.parse(before));
    const post = await visitor.client.rpc('get_block_counts', { p_block_ids: [blocks.comment] });
    expect(post.error).toBeNull();
    expect((await getCounts([blocks.comment!])).text).toBe(before);
  });
});
